//! The person's object, as an application: OAuth grants, single-use codes, token rotation and
//! revocation, remembered consent, API tokens, the rate window, the sealed GitHub token, and the
//! index of pull requests the person ticked on (`store::PersonStore` is its shell).
//!
//! Why one object per person (DESIGN §3): refresh rotation, replay detection and revocation must
//! be atomic and take effect on the very next request, and the per-person rate limit is counted
//! in the same hop as the token check. Every decision comes from `oauth::grants` and
//! `oauth::rate_limit`; the functions here read the records, ask, and write the answer back with
//! no `await` in between: the records are synchronous ([`records::Records`] over `ports::sql`),
//! so only the sealing and GitHub's refresh can await, and neither sits between a read and the
//! write it decides.
//!
//! State kept in memory between requests ([`memory::Memory`]): the rate windows, MCP's and the
//! review pages' (an object is
//! evicted only after idling longer than a window, so eviction loses nothing that matters), the
//! tokens already checked ([`check::CHECKED_CAPACITY`] of them), the opened GitHub token, and
//! when a GitHub refresh started ([`github::REFRESH_IN_FLIGHT_SECONDS`]).
//!
//! What not: no platform code. The shell owns the SQL storage, the WebCrypto key (behind
//! `ports::person::Sealer`) and the Worker's fetch (behind `ports::github::GitHubTransport`).

pub mod check;
pub mod data;
pub mod github;
pub mod grants;
pub mod memory;
pub mod records;
pub mod request;
pub mod settings;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use crate::config::Config;
use crate::oauth::tokens::{self, PersonId, TagKey, TokenKind, RANDOM_BYTES};
use crate::ports::clock::Clock;
use crate::ports::github::GitHubTransport;
use crate::ports::person::{SealFailure, Sealer};
use crate::ports::sql::{Sql, SqlError};

pub use memory::Memory;
pub use request::Request;

/// Why an operation failed: a fault of ours or the platform's. The shell logs it and answers
/// 500; no user sees these words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PersonError {
    /// A statement failed or its rows did not decode.
    Records(SqlError),
    /// A request body, or a value stored as JSON, did not decode.
    Decode(String),
    /// A secret the operation needs is not configured.
    Unconfigured(&'static str),
    /// The platform gave no randomness.
    Random(String),
    /// Sealing the GitHub token failed.
    Seal(SealFailure),
}

impl std::fmt::Display for PersonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PersonError::Records(error) => write!(f, "records: {error}"),
            PersonError::Decode(problem) => write!(f, "decoding: {problem}"),
            PersonError::Unconfigured(name) => write!(f, "{name} is not set"),
            PersonError::Random(why) => write!(f, "randomness: {why}"),
            PersonError::Seal(failure) => write!(f, "sealing: {failure}"),
        }
    }
}

impl From<SqlError> for PersonError {
    fn from(error: SqlError) -> Self {
        PersonError::Records(error)
    }
}

impl From<crate::json::DecodeError> for PersonError {
    fn from(error: crate::json::DecodeError) -> Self {
        PersonError::Decode(error.to_string())
    }
}

impl From<serde_json::Error> for PersonError {
    fn from(error: serde_json::Error) -> Self {
        PersonError::Decode(error.to_string())
    }
}

pub type Result<T> = std::result::Result<T, PersonError>;

/// One person's object for the length of a request: its ports, its configuration, and what it
/// remembers between requests.
pub struct Person<'a, S, C, K, G> {
    pub sql: &'a S,
    pub clock: &'a C,
    pub sealer: &'a K,
    pub github: &'a G,
    pub config: &'a Config,
    pub memory: &'a Memory,
}

impl<S: Sql, C: Clock, K: Sealer, G: GitHubTransport> Person<'_, S, C, K, G> {
    /// Runs one operation and returns its reply as JSON.
    ///
    /// Every operation but `/check` and `/address` may write grants, tokens or the GitHub
    /// token: what `/check` remembered is forgotten before (so nothing read earlier is trusted)
    /// and after (so nothing a check read while this operation awaited outlives it).
    pub async fn answer(&self, request: Request) -> Result<String> {
        let writes = request.may_write();
        if writes {
            self.memory.forget_checks();
        }
        let reply = self.operate(request).await;
        if writes {
            self.memory.forget_checks();
        }
        reply
    }

    async fn operate(&self, request: Request) -> Result<String> {
        match request {
            Request::Check(check) => json(&self.check(&check).await?),
            Request::Address(address) => json(&self.address(&address)),
            Request::Begin(begin) => json(&self.begin(&begin).await?),
            Request::Consent(consent) => json(&self.consent(&consent)?),
            Request::Token(exchange) => json(&self.exchange(&exchange)?),
            Request::Refresh(refresh) => json(&self.refresh(&refresh)?),
            Request::Revoke(revoke) => {
                self.revoke(&revoke)?;
                json(&request::Done {})
            }
            Request::Settings(settings) => json(&self.settings(&settings)?),
            Request::Disconnect(disconnect) => json(&self.disconnect(&disconnect)?),
            Request::CreateApiToken(create) => json(&self.create_api_token(&create)?),
            Request::RevokeApiToken(revoke) => json(&self.revoke_api_token(&revoke)?),
            Request::NoteTicked(pull) => {
                self.note_ticked(&pull)?;
                json(&request::Done {})
            }
            Request::ListTicked { limit } => json(&self.list_ticked(limit)?),
            Request::DropTicked(list) => {
                self.drop_ticked(&list)?;
                json(&request::Done {})
            }
            Request::HasTicked(pull) => json(&request::Listed {
                listed: self.has_ticked(&pull)?,
                logins: self.ticked_logins(&pull)?,
            }),
            Request::Forget => json(&self.forget_everything()?),
        }
    }

    /// The records, their tables created on first use.
    fn records(&self) -> Result<records::Records<'_, S>> {
        let records = records::Records::new(self.sql);
        if !self.memory.schema_ready.get() {
            records.create()?;
            self.memory.schema_ready.set(true);
        }
        Ok(records)
    }

    /// Whole seconds now (the unit of every lifetime here).
    fn now(&self) -> u64 {
        self.clock.now_seconds()
    }

    /// The key our tokens are tagged with (see `oauth::tokens`).
    fn tag_key(&self) -> Result<TagKey> {
        self.config
            .token_tag_key()
            .ok_or(PersonError::Unconfigured("TOKEN_ENCRYPTION_KEY"))
    }

    /// A new token of `kind` for `person`.
    fn mint(&self, kind: TokenKind, person: &PersonId) -> Result<String> {
        Ok(tokens::mint(kind, person, &random()?, &self.tag_key()?))
    }
}

/// Fresh random bytes for a token or an id.
fn random() -> Result<[u8; RANDOM_BYTES]> {
    crate::security::random::bytes::<RANDOM_BYTES>().map_err(|e| PersonError::Random(e.0))
}

/// A new random id (grants, API tokens).
fn new_id() -> Result<String> {
    Ok(crate::security::random::text_of(&random()?[..16]))
}

fn json<T: serde::Serialize>(value: &T) -> Result<String> {
    Ok(serde_json::to_string(value)?)
}
