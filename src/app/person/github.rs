//! The person's GitHub token: sealed at rest (`ports::person::Sealer`), opened once and kept
//! in memory, and refreshed at GitHub's token endpoint (`ports::github`) when it is about to
//! expire, by one request at a time.
//!
//! Why the refresh-in-flight window: while one request awaits GitHub's refresh, the others go
//! on with the current token instead of refreshing it again (GitHub spends a refresh token on
//! first use, so a second refresh would fail). A timestamp, not a flag: a refresh that never
//! finishes blocks the next one for at most [`REFRESH_IN_FLIGHT_SECONDS`].
//! What not: the GitHub OAuth messages are `oauth::github_flow`'s; the cipher is the adapter's.

use super::{Person, PersonError, Result};
use crate::config::Config;
use crate::oauth::github_flow::{self, GitHubTokens};
use crate::oauth::tokens::PersonId;
use crate::ports::clock::Clock;
use crate::ports::github::{Exchange, GitHubTransport, Method};
use crate::ports::person::{SealFailure, Sealer};
use crate::ports::sql::Sql;

/// How long a GitHub refresh counts as in flight.
pub const REFRESH_IN_FLIGHT_SECONDS: u64 = 30;

/// Why a GitHub refresh brought no new token (logged; the current token is used meanwhile).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefreshFailure {
    /// No client id, secret or refresh token.
    Unconfigured,
    /// GitHub did not answer.
    NoAnswer(String),
    /// GitHub answered with something other than new tokens.
    Refused(String),
}

impl std::fmt::Display for RefreshFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefreshFailure::Unconfigured => f.write_str("GitHub client is not configured"),
            RefreshFailure::NoAnswer(why) => write!(f, "GitHub did not answer: {why}"),
            RefreshFailure::Refused(why) => write!(f, "GitHub refused the refresh: {why}"),
        }
    }
}

impl<S: Sql, C: Clock, K: Sealer, G: GitHubTransport> Person<'_, S, C, K, G> {
    /// Seals and stores the person's GitHub login and token(s).
    pub(super) async fn store_github(
        &self,
        person: &PersonId,
        login: &str,
        github: &GitHubTokens,
        now: u64,
    ) -> Result<()> {
        let plain = serde_json::to_string(github)?;
        let sealed = self
            .sealer
            .seal(&person.object_name(), &plain)
            .await
            .map_err(PersonError::Seal)?;
        self.records()?.store_github(login, &sealed, now)?;
        *self.memory.github_row.borrow_mut() = Some((login.to_string(), sealed.clone()));
        *self.memory.opened.borrow_mut() = Some((sealed, github.clone()));
        Ok(())
    }

    /// The person's login and GitHub token, refreshed first when it is about to expire; `None`
    /// when there is none (or it no longer opens, which ends every grant).
    pub(super) async fn github_token(
        &self,
        person: &PersonId,
        now: u64,
    ) -> Result<Option<(String, GitHubTokens)>> {
        let remembered = self.memory.github_row.borrow().clone();
        let (login, sealed) = match remembered {
            Some(row) => row,
            None => {
                let Some(row) = self.records()?.github()? else {
                    return Ok(None);
                };
                let row = (row.login, row.sealed);
                *self.memory.github_row.borrow_mut() = Some(row.clone());
                row
            }
        };
        let cached = self
            .memory
            .opened
            .borrow()
            .as_ref()
            .filter(|(cached, _)| *cached == sealed)
            .map(|(_, tokens)| tokens.clone());
        let github = match cached {
            Some(github) => github,
            None => match self.sealer.open(&person.object_name(), &sealed).await {
                Ok(plain) => {
                    let github: GitHubTokens = crate::json::decode(&plain)?;
                    *self.memory.opened.borrow_mut() = Some((sealed.clone(), github.clone()));
                    github
                }
                Err(SealFailure::Unreadable(why)) => {
                    // A rotated key or a damaged row: every grant ends, so each app's refresh
                    // fails too and it starts a new sign-in, which stores a readable token.
                    self.memory
                        .warn(format!("opening the GitHub token failed: {why}"));
                    self.records()?.revoke_all_grants()?;
                    self.memory.forget_checks();
                    return Ok(None);
                }
                Err(unavailable) => return Err(PersonError::Seal(unavailable)),
            },
        };
        let in_flight = now < self.memory.refreshing_since.get() + REFRESH_IN_FLIGHT_SECONDS;
        if !github.needs_refresh(now) || in_flight {
            return Ok(Some((login, github)));
        }
        self.memory.refreshing_since.set(now);
        let deletions = self.memory.deletions.get();
        let refreshed = self.refresh_github(&github, now).await;
        self.memory.refreshing_since.set(0);
        if self.memory.deletions.get() != deletions {
            // The person deleted their data while GitHub answered: store nothing back.
            return Ok(None);
        }
        match refreshed {
            Ok(fresh) => {
                self.store_github(person, &login, &fresh, now).await?;
                Ok(Some((login, fresh)))
            }
            Err(error) => {
                // Keep using the current token; a tool call will say if GitHub refuses it.
                self.memory
                    .warn(format!("refreshing the GitHub token failed: {error}"));
                Ok(Some((login, github)))
            }
        }
    }

    /// One refresh at GitHub's token endpoint.
    async fn refresh_github(
        &self,
        github: &GitHubTokens,
        now: u64,
    ) -> std::result::Result<GitHubTokens, RefreshFailure> {
        let config = self.config;
        let (Some(client_id), Some(secret), Some(refresh_token)) = (
            config.github_client_id.as_deref(),
            config.github_client_secret.as_deref(),
            github.refresh_token.as_deref(),
        ) else {
            return Err(RefreshFailure::Unconfigured);
        };
        let exchange = token_endpoint_exchange(
            config,
            github_flow::refresh_body(client_id, secret, refresh_token),
        );
        let answer = self
            .github
            .exchange(exchange, config.github_timeout_ms)
            .await
            .map_err(|e| RefreshFailure::NoAnswer(format!("{e:?}")))?;
        github_flow::parse_token_response(&answer.body, now)
            .map_err(|e| RefreshFailure::Refused(e.to_string()))
    }
}

/// One form posted to GitHub's OAuth token endpoint (a code exchange or a refresh), as GitHub
/// documents it: JSON asked for, our user agent. Shared by the Worker's sign-in (`app::oauth`).
pub fn token_endpoint_exchange(config: &Config, form: String) -> Exchange {
    Exchange {
        method: Method::Post,
        url: format!("{}/login/oauth/access_token", config.github_oauth_url),
        headers: vec![
            ("accept", "application/json".to_string()),
            (
                "content-type",
                "application/x-www-form-urlencoded".to_string(),
            ),
            ("user-agent", "logikflow".to_string()),
        ],
        body: Some(form),
    }
}
