//! What a person's object remembers between requests, in memory: the rate windows, the tokens
//! it has checked, the GitHub row and the token it opens to, and the GitHub refresh in flight.
//!
//! Why: the token check is on every `/mcp` request's path, so its SQLite reads, its last-use
//! write and the GitHub token's opening are done once per token rather than per request. Safe
//! because the object is the only writer of its tables and every operation that writes forgets
//! the checks before and after it runs (`Person::answer`).
//! What not: nothing here is a record; losing it all (an evicted object) only costs a reread.

use std::cell::{Cell, RefCell};

use crate::oauth::github_flow::GitHubTokens;
use crate::oauth::rate_limit::Window;

/// One object's memory (interior mutability: objects are single-threaded).
#[derive(Debug, Default)]
pub struct Memory {
    /// The tables exist (created on the first OAuth operation, so objects used only as
    /// per-address windows, named `ip:<address>`, store nothing).
    pub(super) schema_ready: Cell<bool>,
    /// The rate-limit window (per person, or per address for `ip:` objects).
    pub(super) window: RefCell<Window>,
    /// The person's review pages' window, apart from MCP's (issue 36, `rate_limit::web_limit`).
    pub(super) web_window: RefCell<Window>,
    /// Bearer tokens this object has checked, with what they allow, oldest first.
    pub(super) checked: RefCell<Vec<Checked>>,
    /// The `github` row (login, sealed token) as last read or written.
    pub(super) github_row: RefCell<Option<(String, String)>>,
    /// The last opened GitHub token, keyed by its sealed text, so checks open it once.
    pub(super) opened: RefCell<Option<(String, GitHubTokens)>>,
    /// When a GitHub token refresh started (epoch seconds, 0 when none is in flight). A
    /// timestamp, not a flag, so a refresh that never finishes blocks the next one for at most
    /// `github::REFRESH_IN_FLIGHT_SECONDS`.
    pub(super) refreshing_since: Cell<u64>,
    /// How many times "Delete my data" ran, so a GitHub refresh that was awaiting GitHub when
    /// the person deleted their data does not write the token back.
    pub(super) deletions: Cell<u32>,
    /// What went wrong but was carried on from (a GitHub token that no longer opens, a failed
    /// GitHub refresh), for the shell to log: the core has no console.
    pub(super) warnings: RefCell<Vec<String>>,
}

/// One remembered token check.
#[derive(Debug, Clone)]
pub(super) struct Checked {
    pub token_hash: String,
    pub access: Access,
    /// Epoch seconds the token stops working at (`None`: an API token, which does not expire).
    pub valid_until: Option<u64>,
    /// When its last use was last written, so it is written at most once a minute.
    pub use_written_at: u64,
}

/// Where a bearer token's access comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AccessSource {
    Grant,
    ApiToken,
}

/// What a valid bearer token allows, and what to call its client.
#[derive(Debug, Clone)]
pub(super) struct Access {
    pub source: AccessSource,
    /// The grant's or the API token's id.
    pub id: String,
    pub may_write: bool,
    pub client_name: String,
    /// The resource an OAuth grant's tokens were issued for; API tokens are not bound to one.
    pub resource: Option<String>,
}

impl Memory {
    /// Forgets every remembered token check and the GitHub row.
    pub fn forget_checks(&self) {
        self.checked.borrow_mut().clear();
        *self.github_row.borrow_mut() = None;
    }

    /// Notes something for the shell to log.
    pub(super) fn warn(&self, warning: String) {
        self.warnings.borrow_mut().push(warning);
    }

    /// The warnings noted since last asked, for the log.
    pub fn take_warnings(&self) -> Vec<String> {
        std::mem::take(&mut self.warnings.borrow_mut())
    }

    /// Forgets everything about the person (after "Delete my data"), and counts the deletion.
    pub(super) fn forget_person(&self) {
        self.forget_checks();
        *self.opened.borrow_mut() = None;
        self.deletions.set(self.deletions.get().wrapping_add(1));
    }
}
