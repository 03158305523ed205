//! Setting the `LogiKFlow` commit status on the pull request's head (issue #47, part 4), run in
//! the pull request's object after an order was saved (`save_reading_order`, the arrange
//! editor's save) and after a reviewer sent a review from the page.
//!
//! The rules, in this order: the repository's conventions (`status: off`, read with the
//! snapshot the save already read, so no GitHub request more), the read-only rule (a read-only
//! sign-in or grant sends nothing to GitHub), then exactly one write with the acting person's
//! own client (`GitHub::write`, never retried). At most one status write per save and per
//! review sent; none on ticks, page views or drafts. A refusal never fails what it follows:
//! the save is saved, the review sent, and the answer says why no status was set
//! ([`Outcome::json`]).
//!
//! What not: no description or sentence of its own (`github::statuses`), no reading of GitHub
//! (the caller's read gives the head and the conventions).

use serde_json::{json, Value};

use super::coverage;
use super::object::{Object, Storage};
use super::read::PullRead;
use crate::github::api::RepoPath;
use crate::github::client::GitHub;
use crate::github::statuses::{self, NewStatus, NotSet, ReadCounts};
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::review::order::Order;

/// The order the status describes, and where it links.
pub struct Described<'a> {
    pub version: u64,
    pub sections: usize,
    /// The order itself, for what the reviewers have read of it (`None`: not counted).
    pub order: Option<&'a Order>,
    /// The review page (`tools::get_pull_request::review_url`).
    pub review_url: &'a str,
}

/// Whether the status was set, and why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Set,
    NotSet(NotSet),
}

impl Outcome {
    /// `{"set": true}` or `{"set": false, "reason": "…"}`: the save's `commitStatus`.
    pub fn json(&self) -> Value {
        match self {
            Outcome::Set => json!({ "set": true }),
            Outcome::NotSet(why) => json!({ "set": false, "reason": why.reason() }),
        }
    }
}

/// Sets the status on the head `read` saw, as `github` (the acting person), unless the
/// conventions turn it off or the connection may not write; one write at most.
pub async fn set<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    github: &GitHub<'_, T>,
    may_write: bool,
    read: &PullRead,
    (owner, repo): (&str, &str),
    order: &Described<'_>,
) -> Outcome {
    if read.snapshot.commit_status_off {
        return Outcome::NotSet(NotSet::Off);
    }
    if !may_write {
        return Outcome::NotSet(NotSet::ReadOnly);
    }
    let Some(repo_path) = RepoPath::new(owner, repo) else {
        return Outcome::NotSet(NotSet::Refused(crate::github::reviews::Refusal {
            status: 404,
            message: "Not Found".into(),
            errors: Vec::new(),
        }));
    };
    let description = statuses::description(
        order.version,
        order.sections,
        read_counts(object, order.order, read),
    );
    let body = NewStatus::new(order.review_url, &description);
    let text = serde_json::to_string(&body).unwrap_or_default();
    let path = statuses::path(&repo_path, &read.pull.head.sha);
    match github.write(&path, &text).await {
        Ok(_) => Outcome::Set,
        Err(refusal) => {
            object.platform.warn(&format!(
                "setting the commit status failed: HTTP {} {}",
                refusal.status, refusal.message
            ));
            Outcome::NotSet(NotSet::Refused(refusal))
        }
    }
}

/// What the reviewers have read of `order` at the head, from the team coverage of this object's
/// ticks (`coverage`: a file counts as read when every change of it at the head was ticked by
/// someone); `None` without an order or when the ticks can't be read, and the description then
/// leaves it out. One pass over the ticks, at a save or a review sent, never on a tick.
pub fn read_counts<St: Storage, P: Surroundings>(
    object: &Object<'_, St, P>,
    order: Option<&Order>,
    read: &PullRead,
) -> Option<ReadCounts> {
    let order = order?;
    let records = object.records();
    let files = &read.snapshot.files;
    match coverage::coverage(&records, Some(order), files, &read.pull.head.sha) {
        Ok(coverage) => Some(ReadCounts {
            reviewers: coverage.reviewers.len(),
            files_read: coverage.totals.files_read,
            files_total: coverage.totals.files,
        }),
        Err(error) => {
            let line = format!("reading the ticks for the commit status failed: {error}");
            object.platform.warn(&line);
            None
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
