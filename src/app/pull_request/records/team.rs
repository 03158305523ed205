//! What team review keeps beside the ticks (issue #47): each reviewer's login, so coverage can
//! name them, and the record of what each review sent from the page had read.
//!
//! Why a table of logins: ticks are keyed by person id (`gh:<id>`, issue 36) so a renamed account
//! keeps them; coverage names people by login, which the object learns from the reviewer's own
//! calls. Why a receipts table: `get_review_feedback` reports on a verdict what its reviewer had
//! read when they sent it, from this record and never from the review's text on GitHub, which
//! anyone can write.
//! What not: the coverage rules (`review::coverage`), who may tick or review (the callers').

use serde::Deserialize;

use super::{Records, Returned};
use crate::ports::sql::{Sql, SqlError};

/// Receipts one person keeps on one pull request: far above the reviews anyone sends on one pull
/// request, low enough that nobody can fill an object with them.
pub const MAX_RECEIPTS_PER_PERSON: usize = 200;

/// One stored tick of any reviewer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TeamTick {
    pub person: String,
    pub item: String,
    pub head_sha: Option<String>,
    pub at: String,
}

/// A reviewer's login as last seen.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ReviewerLogin {
    pub person: String,
    pub login: String,
}

/// A stored receipt: the review's GitHub id and what its reviewer had read (JSON,
/// `review::receipt::Receipt`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ReceiptRow {
    pub review_id: String,
    pub person: String,
    pub receipt: String,
    pub sent_at: String,
}

impl<S: Sql> Records<'_, S> {
    /// Every reviewer's ticks, by person then item: coverage's one read (one statement, however
    /// many reviewers).
    pub fn team_ticks(&self) -> Result<Vec<TeamTick>, SqlError> {
        self.sql.rows(
            "SELECT person, item, head_sha, updated_at AS at FROM ticks WHERE done = 1 \
             ORDER BY person, item",
            &[],
        )
    }

    /// Every reviewer's login as last seen.
    pub fn reviewer_logins(&self) -> Result<Vec<ReviewerLogin>, SqlError> {
        self.sql
            .rows("SELECT person, login FROM reviewers ORDER BY person", &[])
    }

    /// Records the login a person goes by now; written only when it is new or changed, so a
    /// page view by someone already known writes nothing.
    pub fn note_reviewer(&self, person: &str, login: &str, at: &str) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT INTO reviewers (person, login, seen_at) VALUES (?, ?, ?) \
             ON CONFLICT (person) DO UPDATE SET login = excluded.login, seen_at = excluded.seen_at \
             WHERE reviewers.login != excluded.login",
            &[person.into(), login.into(), at.into()],
        )
    }

    /// Stores what a review sent from the page had read, under GitHub's id of that review. A
    /// person keeps their newest [`MAX_RECEIPTS_PER_PERSON`].
    pub fn put_receipt(&self, row: &ReceiptRow) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT OR REPLACE INTO receipts (review_id, person, receipt, sent_at) VALUES (?, ?, ?, ?)",
            &[
                row.review_id.as_str().into(),
                row.person.as_str().into(),
                row.receipt.as_str().into(),
                row.sent_at.as_str().into(),
            ],
        )?;
        self.sql.run(
            &format!(
                "DELETE FROM receipts WHERE person = ? AND review_id NOT IN \
                 (SELECT review_id FROM receipts WHERE person = ? \
                 ORDER BY sent_at DESC, review_id DESC LIMIT {MAX_RECEIPTS_PER_PERSON})"
            ),
            &[row.person.as_str().into(), row.person.as_str().into()],
        )
    }

    /// Every stored receipt.
    pub fn receipts(&self) -> Result<Vec<ReceiptRow>, SqlError> {
        self.sql.rows(
            "SELECT review_id, person, receipt, sent_at FROM receipts ORDER BY sent_at",
            &[],
        )
    }

    /// Deletes a person's login and receipts ("Delete my data"); answers how many rows went.
    pub fn forget_team_rows(&self, person: &str) -> Result<usize, SqlError> {
        let logins: Vec<Returned> = self.sql.rows(
            "DELETE FROM reviewers WHERE person = ? RETURNING person",
            &[person.into()],
        )?;
        let receipts: Vec<Returned> = self.sql.rows(
            "DELETE FROM receipts WHERE person = ? RETURNING review_id",
            &[person.into()],
        )?;
        Ok(logins.len() + receipts.len())
    }
}
