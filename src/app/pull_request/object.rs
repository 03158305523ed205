//! One pull request's object as the application sees it ([`Object`]: its SQL, its surroundings,
//! what it remembers between requests, its clock), and who a reviewer route acts for
//! ([`Viewer`]).
//!
//! What not: no routes; each is a module beside this one.

use std::cell::Cell;

use super::calls::ViewerCall;
use super::read::{read_as_viewer_in_object, PullRead, ReadMemo};
use super::records::{Records, TickSweep};
use crate::github::client::GitHub;
use crate::person_data::{self as data, Ticked};
use crate::ports::clock::Clock;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::{Sql, SqlError};
use crate::router::PullPath;

/// Where the object's SQL comes from: the shell opens it on first use, so a request refused
/// before then (a viewer GitHub shows nothing) leaves no storage behind.
pub trait Storage {
    type Sql: Sql;
    fn sql(&self) -> &Self::Sql;
}

/// The object: the shell hands in its storage and platform, and keeps the state that lives as
/// long as the instance (`memo`, `sweep`, `schema_ready`).
pub struct Object<'a, St: Storage, P: Surroundings> {
    pub storage: &'a St,
    pub platform: P,
    pub memo: &'a ReadMemo,
    pub sweep: &'a TickSweep,
    pub clock: &'a dyn Clock,
    /// Whether the schema was created in this instance. Created on first use rather than when
    /// the object starts: a reviewer route creates it only once the viewer's GitHub read
    /// succeeded, so a request for a pull request that doesn't exist or that the viewer can't
    /// see leaves no storage behind.
    pub schema_ready: &'a Cell<bool>,
}

/// Who a reviewer route acts for (`calls::ViewerCall`), with their GitHub client, and about
/// which pull request.
pub struct Viewer<'a, T: GitHubTransport> {
    pub call: &'a ViewerCall,
    pub github: &'a GitHub<'a, T>,
    pub pull: &'a PullPath,
}

impl<'a, St: Storage, P: Surroundings> Object<'a, St, P> {
    pub fn records(&self) -> Records<'a, St::Sql> {
        Records::new(self.storage.sql())
    }

    /// Creates the tables and runs the migrations, once per instance.
    pub fn schema(&self) -> Result<(), SqlError> {
        if self.schema_ready.get() {
            return Ok(());
        }
        self.records().schema()?;
        self.schema_ready.set(true);
        Ok(())
    }

    /// The viewer's GitHub read of the pull request with its snapshot, built here once per head
    /// (`read::read_as_viewer_in_object`); or why GitHub would not show it. Only once it
    /// succeeded is the storage touched (its schema created), so a refused request leaves
    /// nothing behind.
    pub async fn viewer_read<T: GitHubTransport>(
        &self,
        viewer: &Viewer<'_, T>,
    ) -> Result<Result<PullRead, String>, SqlError> {
        let read =
            read_as_viewer_in_object(&self.platform, self.memo, viewer.github, viewer.pull).await;
        if read.is_ok() {
            self.schema()?;
            self.adopt_login_rows(viewer).await;
        }
        Ok(read)
    }

    /// Moves the viewer's ticks and drafts from before issue 36, stored under a login, to their
    /// person id, when they are theirs (`person_data::adopts_login_rows` says how that is known):
    /// the rows under every login the viewer's own index lists this pull request under, so an
    /// account renamed since keeps them and a new holder of a released login gets none. The
    /// index is asked only while this object holds rows under logins, and once per person per
    /// instance; the new key is noted in the index before any row moves. A failure leaves the
    /// rows where they were (not shown, tried again on a later request) and is logged.
    pub async fn adopt_login_rows<T: GitHubTransport>(&self, viewer: &Viewer<'_, T>) {
        if let Err(error) = self.try_adopt_login_rows(viewer).await {
            self.platform
                .error(&format!("moving rows to the person id failed: {error}"));
        }
    }

    async fn try_adopt_login_rows<T: GitHubTransport>(
        &self,
        viewer: &Viewer<'_, T>,
    ) -> Result<(), String> {
        let call = viewer.call;
        let records = self.records();
        let failed = |error: SqlError| error.to_string();
        let held = records.login_keys().map_err(failed)?;
        if held.is_empty() {
            return Ok(());
        }
        let logins: Vec<String> = if call.person.starts_with("local:") {
            // The one local user has no index: the rows under its login are its own.
            held.into_iter()
                .filter(|login| data::adopts_login_rows(&call.person, login, false))
                .collect()
        } else {
            if !call.person.starts_with("gh:") || !self.memo.first_index_ask(&call.person) {
                return Ok(());
            }
            let listing = self
                .platform
                .listed(&call.person, &ticked(viewer.pull, &call.login))
                .await;
            let listing = match listing {
                Ok(listing) => listing,
                Err(error) => {
                    self.memo.forget_index_ask(&call.person);
                    return Err(error);
                }
            };
            held.into_iter()
                .filter(|login| listing.logins.contains(login))
                .filter(|login| data::adopts_login_rows(&call.person, login, true))
                .collect()
        };
        if logins.is_empty() {
            return Ok(());
        }
        self.note_ticked(viewer).await?;
        for login in &logins {
            records.move_rows(login, &call.person).map_err(failed)?;
        }
        Ok(())
    }

    /// Notes in the viewer's index (`person`, a `gh:<id>`) that they keep ticks or drafts on this
    /// pull request, under their person id (issue 36; see `person_data`). Local users
    /// (`local:<login>`) have no object and nothing to note.
    pub async fn note_ticked<T: GitHubTransport>(
        &self,
        viewer: &Viewer<'_, T>,
    ) -> Result<(), String> {
        let call = viewer.call;
        if !call.person.starts_with("gh:") {
            return Ok(());
        }
        self.platform
            .note(&call.person, &ticked(viewer.pull, &call.person))
            .await
    }
}

/// The index's entry for this pull request under `key` (a person id, or a login from before
/// issue 36).
fn ticked(pull: &PullPath, key: &str) -> Ticked {
    Ticked {
        owner: pull.owner.clone(),
        repo: pull.repo.clone(),
        number: pull.number,
        login: key.to_string(),
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
