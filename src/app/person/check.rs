//! The bearer check on every `/mcp` request, and the per-address window of the OAuth endpoints.
//!
//! Why here and in one hop: the token check and the person's rate limit are counted together,
//! synchronously, so a request is admitted or refused atomically (DESIGN §3). The checks are
//! remembered ([`CHECKED_CAPACITY`] tokens), so a busy token costs no SQLite read per request;
//! its last use is written at most once a minute.
//! What not: the window's arithmetic is `oauth::rate_limit`'s; issuing and revoking are
//! `grants`'.

use super::memory::{Access, AccessSource, Checked};
use super::records::TokenKind as Row;
use super::{Person, Result};
use crate::oauth::grants;
use crate::oauth::person_api as api;
use crate::oauth::rate_limit::Admission;
use crate::oauth::tokens::{self, TokenKind};
use crate::ports::clock::Clock;
use crate::ports::github::GitHubTransport;
use crate::ports::person::Sealer;
use crate::ports::sql::Sql;

/// How many tokens a person's object remembers: one per connected app is typical.
pub const CHECKED_CAPACITY: usize = 16;

/// How often a token's last use is written, at most (seconds).
pub const USE_WRITTEN_EVERY_SECONDS: u64 = 60;

impl<S: Sql, C: Clock, K: Sealer, G: GitHubTransport> Person<'_, S, C, K, G> {
    /// Checks a bearer token and counts it against the person's limit; on success, with the
    /// person's GitHub token (refreshed first when it is about to expire).
    pub async fn check(&self, request: &api::CheckRequest) -> Result<api::CheckReply> {
        self.records()?;
        let Some((kind, person)) = tokens::parse(&request.token) else {
            return Ok(api::CheckReply::Invalid);
        };
        let now_ms = self.clock.now_ms();
        let now = now_ms / 1000;
        // Token check and rate limit: synchronous, so atomic.
        let Some(access) = self.checked_access(kind, &request.token, now)? else {
            return Ok(api::CheckReply::Invalid);
        };
        // RFC 8707: a token is good only at the resource it was issued for (the same Worker
        // under another host name is another resource).
        if access
            .resource
            .as_deref()
            .is_some_and(|bound| !grants::resource_matches(bound, &request.resource))
        {
            return Ok(api::CheckReply::Invalid);
        }
        // A review page's request (issue 36) spends the web window, apart from MCP's, and a
        // read (limit 0) spends nothing.
        let admission = match (request.web, request.limit_per_minute) {
            (true, 0) => Admission::Allowed,
            (true, limit) => self.memory.web_window.borrow_mut().admit(now_ms, limit),
            (false, limit) => self.memory.window.borrow_mut().admit(now_ms, limit),
        };
        if let Admission::Limited {
            retry_after_seconds,
        } = admission
        {
            return Ok(api::CheckReply::Limited {
                retry_after_seconds,
            });
        }
        let Some((login, github)) = self.github_token(&person, now).await? else {
            return Ok(api::CheckReply::Invalid);
        };
        Ok(api::CheckReply::Allowed {
            person: person.object_name(),
            login,
            github_token: github.access_token,
            may_write: access.may_write,
            client_name: access.client_name,
        })
    }

    /// One request to a rate-limited OAuth endpoint from the address this object is named after.
    pub fn address(&self, request: &api::AddressRequest) -> api::AddressReply {
        let admission = self
            .memory
            .window
            .borrow_mut()
            .admit(self.clock.now_ms(), request.limit_per_minute);
        match admission {
            Admission::Allowed => api::AddressReply::Allowed,
            Admission::Limited {
                retry_after_seconds,
            } => api::AddressReply::Limited {
                retry_after_seconds,
            },
        }
    }

    /// What a bearer token allows, from memory when this object checked it before, else from
    /// its rows (then remembered, the oldest forgotten past [`CHECKED_CAPACITY`]). Records the
    /// token's last use at most once a minute.
    fn checked_access(&self, kind: TokenKind, token: &str, now: u64) -> Result<Option<Access>> {
        let hash = tokens::hash(token);
        let mut checked = self.memory.checked.borrow_mut();
        let position = checked.iter().position(|entry| entry.token_hash == hash);
        let position = match position {
            Some(position)
                if checked[position]
                    .valid_until
                    .is_none_or(|until| now < until) =>
            {
                position
            }
            Some(expired) => {
                checked.swap_remove(expired);
                return Ok(None);
            }
            None => {
                let found = match kind {
                    TokenKind::Access => self.access_grant(&hash, now)?,
                    TokenKind::Api => self.api_token(&hash)?.map(|access| (access, None)),
                    _ => None,
                };
                let Some((access, valid_until)) = found else {
                    return Ok(None);
                };
                if checked.len() >= CHECKED_CAPACITY {
                    checked.remove(0);
                }
                checked.push(Checked {
                    token_hash: hash,
                    access,
                    valid_until,
                    use_written_at: 0,
                });
                checked.len() - 1
            }
        };
        let entry = &mut checked[position];
        if now >= entry.use_written_at + USE_WRITTEN_EVERY_SECONDS {
            let api_token = entry.access.source == AccessSource::ApiToken;
            self.records()?.touch(api_token, &entry.access.id, now)?;
            entry.use_written_at = now;
        }
        Ok(Some(entry.access.clone()))
    }

    /// The grant behind a valid OAuth access token, and when the token expires.
    fn access_grant(&self, hash: &str, now: u64) -> Result<Option<(Access, Option<u64>)>> {
        let records = self.records()?;
        let row = records.token(hash, Row::Access)?;
        let grant = match &row {
            Some(row) => records.grant(&row.grant_id)?,
            None => None,
        };
        if !grants::access_is_valid(row.as_ref().map(|r| r.expires_at), grant.as_ref(), now) {
            return Ok(None);
        }
        let valid_until = row.map(|row| row.expires_at);
        Ok(grant.map(|grant| {
            let access = Access {
                source: AccessSource::Grant,
                id: grant.id,
                may_write: grant.may_write,
                client_name: grant.client_name,
                resource: Some(grant.resource),
            };
            (access, valid_until)
        }))
    }

    /// A live API token (they do not expire; a revoked one has no row).
    fn api_token(&self, hash: &str) -> Result<Option<Access>> {
        Ok(self.records()?.api_token(hash)?.map(|row| Access {
            source: AccessSource::ApiToken,
            id: row.id,
            client_name: row.name,
            may_write: row.may_write,
            resource: None,
        }))
    }
}
