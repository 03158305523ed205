//! A person's data on request: the index of pull requests they ticked on, and "Delete my data"
//! (`person_data` has the messages and limits; `app::oauth::settings` runs the steps).
//!
//! Why an index: ticks and drafts live in each pull request's object and nothing can list every
//! object a person touched, so each tick also notes its pull request here, with the key the rows
//! are under there (the person's `gh:<id>` since issue 36, their login before); `has_ticked`
//! tells a pull request's object whether rows under a login are this person's
//! (`person_data::adopts_login_rows`). Entries unchanged for a year
//! (`person_data::TICK_RETENTION_SECONDS`) go, as the ticks themselves do.
//! What not: the ticks are the pull request's object's; this deletes only this object's rows.

use super::records::TickedRow;
use super::{Person, Result};
use crate::person_data as data;
use crate::ports::clock::Clock;
use crate::ports::github::GitHubTransport;
use crate::ports::person::Sealer;
use crate::ports::sql::Sql;

impl<S: Sql, C: Clock, K: Sealer, G: GitHubTransport> Person<'_, S, C, K, G> {
    /// Notes a pull request the person ticked on, and drops entries older than the ticks'
    /// retention (their ticks are gone by then too).
    pub fn note_ticked(&self, pull: &data::Ticked) -> Result<()> {
        let records = self.records()?;
        let now = self.now();
        let row = TickedRow {
            owner: pull.owner.clone(),
            repo: pull.repo.clone(),
            number: pull.number,
            login: pull.login.clone(),
        };
        records.note_ticked(&pull.key(), &row, now)?;
        records.sweep_ticked(now.saturating_sub(data::TICK_RETENTION_SECONDS))?;
        Ok(())
    }

    /// The pull requests the person ticked on, least recently ticked first, one batch.
    pub fn list_ticked(&self, limit: usize) -> Result<data::TickedList> {
        let pulls = self
            .records()?
            .ticked(limit)?
            .into_iter()
            .map(|row| data::Ticked {
                owner: row.owner,
                repo: row.repo,
                number: row.number,
                login: row.login,
            })
            .collect();
        Ok(data::TickedList { pulls })
    }

    /// Whether the index lists a pull request under a key (`person_data::adopts_login_rows`).
    pub fn has_ticked(&self, pull: &data::Ticked) -> Result<bool> {
        Ok(self.records()?.has_ticked(&pull.key())?)
    }

    /// The logins the index lists a pull request under (`person_data::adopts_login_rows`).
    pub fn ticked_logins(&self, pull: &data::Ticked) -> Result<Vec<String>> {
        Ok(self.records()?.ticked_logins(pull)?)
    }

    /// Removes index entries whose ticks were deleted.
    pub fn drop_ticked(&self, list: &data::TickedList) -> Result<()> {
        let records = self.records()?;
        for pull in &list.pulls {
            records.drop_ticked(&pull.key())?;
        }
        Ok(())
    }

    /// Deletes everything this object holds about the person (grants, tokens, codes, consents,
    /// API tokens, pending consents, the sealed GitHub token, the index) and everything it
    /// remembers, so the person's tokens fail on their very next request.
    pub fn forget_everything(&self) -> Result<data::Forgotten> {
        let records = self.records()?;
        let forgotten = data::Forgotten {
            grants: records.count("grants")?,
            api_tokens: records.count("api_tokens")?,
            github_token: records.count("github")? > 0,
        };
        records.delete_everything()?;
        self.memory.forget_person();
        Ok(forgotten)
    }
}
