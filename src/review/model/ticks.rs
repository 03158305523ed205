//! A reviewer's ticks on a pull request: one tick as sent, what the object did with it, and the
//! ticks and heads it keeps per person.
//!
//! Why here, not in `tools`: ticks are the review's own records; the review page (`web`) reads
//! and sends them, the object (`store`, `app`) stores them, and the reviewer routes' calls
//! (`app::pull_request::calls`) only carry them (issue #37).
//! What not: the calls' wire (`app::pull_request::calls`: `results_json`, `read_results`), the SQL.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The most ticks one person keeps on one pull request: far above any real page (a 3,000-file
/// pull request with its checklist), low enough that nobody can fill an object with them.
pub const MAX_TICKS_PER_PERSON: usize = 5_000;

/// What the pull request's object did with a tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TickOutcome {
    /// Stored (or, for an untick, removed).
    Stored,
    /// Refused: the person would hold more than [`MAX_TICKS_PER_PERSON`] ticks here.
    Full,
}

/// The object's answer to a tick: the outcome, and whether it already holds the change ids of
/// the head the tick was made at (when not, the Worker records them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickReply {
    pub outcome: TickOutcome,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub known_head: bool,
}

/// One stored tick: the item, the head it was ticked at (`None` for ticks from before content
/// keys), and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickRow {
    pub item: String,
    pub head_sha: Option<String>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub at: String,
}

/// A reviewer's stored state on one pull request: their ticks, and the change ids of every file
/// at the heads those ticks were made at (`{head sha: {path: [change ids]}}`), as far as kept.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ReviewerState {
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub ticks: Vec<TickRow>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub heads: std::collections::BTreeMap<String, Value>,
}

/// One tick as the Worker checked its shape: the item id and whether it is marked done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickItem {
    pub item: String,
    pub done: bool,
}

/// What the object did with one tick of a batch: stored (200), or refused with a status and a
/// message for the person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TickResult {
    pub status: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl TickResult {
    pub fn stored() -> TickResult {
        TickResult {
            status: 200,
            error: None,
        }
    }

    pub fn refused(status: u16, message: &str) -> TickResult {
        TickResult {
            status,
            error: Some(message.to_string()),
        }
    }
}
