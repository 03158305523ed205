//! `view_reading_order` (app-only): a saved reading order for the MCP Apps view, with the facts
//! the view shows beside it: each changed file's status, line counts and changes (diff hunks),
//! from the pull request as it is now.
//!
//! Why a tool of its own: the view must not depend on what the model was sent, and the order's
//! notes and checks would only crowd the model's context.
//!
//! Why the order goes out as saved, with the file facts beside it rather than merged into each
//! entry: the view works out which changes each part of a split file shows (the review page's
//! rule: a part naming `hunks` shows those, the part without `hunks` every change no other part
//! names) and which files the order does not place, in a few lines of script, tested in
//! Chromium (`tests/e2e/mcp-apps-view.test.mjs`), beside the code that draws them.
//!
//! Beside each section, its open review threads (issue #38, [`threads`]): read with the caller's
//! token in the one GraphQL request `get_review_feedback` makes, placed by the same rules; when
//! GitHub's read fails the order still goes out, with `reviewThreads.read` false.
//!
//! What not: no HTML (the view builds its DOM from this data), no ticks (the review page's), no
//! diffs (one change at a time comes from `view_change`).

use serde::Serialize;
use serde_json::Value;

use super::get_pull_request::review_url;
use super::show_reading_order::{pull_state, ViewTarget};
use crate::github::api::PullRequest;
use crate::github::review_threads::Review;
use crate::review::model::saved::{updated_by, SavedRecord};
use crate::review::model::snapshot::{Snapshot, SnapshotChange, SnapshotFile};

/// Change headers are cut to this many characters: the view shows one line per change.
const HEADER_CHARS: usize = 120;

/// Everything the result is built from.
pub struct ViewInputs<'a> {
    pub target: &'a ViewTarget,
    pub base_url: &'a str,
    pub pull: &'a PullRequest,
    pub snapshot: &'a Snapshot,
    /// The version shown.
    pub record: &'a SavedRecord,
    pub latest_version: u64,
    /// The current diagram's version, 0 when there is none.
    pub diagram_version: u64,
    /// The pull request's review threads, `None` when GitHub's read failed.
    pub review: Option<&'a Review>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer<'a> {
    repository: String,
    number: u64,
    title: &'a str,
    state: &'a str,
    author: &'a str,
    url: &'a str,
    review_url: String,
    version: u64,
    latest_version: u64,
    updated_by: Value,
    updated_at: &'a str,
    source: &'a str,
    saved_before_latest_commits: bool,
    diagram_version: u64,
    /// The order as saved: `overview` and `sections` in `save_reading_order`'s shape.
    order: Value,
    files: Vec<FileFacts<'a>>,
    /// Each section's open review threads.
    review_threads: threads::ReviewThreads,
}

/// A changed file as the pull request has it now.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FileFacts<'a> {
    path: &'a str,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_path: Option<&'a str>,
    additions: u64,
    deletions: u64,
    /// GitHub gave a diff (not binary or too large).
    diff: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    likely_generated: bool,
    changes: Vec<ChangeFacts<'a>>,
}

#[derive(Serialize)]
struct ChangeFacts<'a> {
    id: &'a str,
    header: String,
    additions: usize,
    deletions: usize,
}

/// Shapes the result. The stored order's own `checklist` ids are left out: they serve ticks.
pub fn shape_result(inputs: ViewInputs<'_>) -> String {
    let ViewInputs {
        target,
        base_url,
        pull,
        snapshot,
        record,
        latest_version,
        diagram_version,
        review,
    } = inputs;
    let mut order = record.body.clone();
    if let Some(order) = order.as_object_mut() {
        order.remove("checklist");
    }
    let answer = Answer {
        repository: format!("{}/{}", target.owner, target.repo),
        number: target.number,
        title: &pull.title,
        state: pull_state(pull),
        author: pull.user.as_ref().map_or("ghost", |u| u.login.as_str()),
        url: &pull.html_url,
        review_url: review_url(base_url, &target.owner, &target.repo, target.number),
        version: record.version,
        latest_version,
        updated_by: updated_by(record),
        updated_at: &record.saved_at,
        source: &record.source,
        saved_before_latest_commits: record.head_sha != pull.head.sha,
        diagram_version,
        order,
        files: snapshot.files.iter().map(file_facts).collect(),
        review_threads: threads::review_threads(review, &record.body, snapshot, &pull.head.sha),
    };
    super::answer::to_json(&answer)
}

fn file_facts(file: &SnapshotFile) -> FileFacts<'_> {
    FileFacts {
        path: &file.path,
        status: &file.status,
        previous_path: file.previous_path.as_deref(),
        additions: file.additions,
        deletions: file.deletions,
        diff: file.has_diff(),
        likely_generated: file.likely_generated,
        changes: file.changes.iter().map(change_facts).collect(),
    }
}

fn change_facts(change: &SnapshotChange) -> ChangeFacts<'_> {
    ChangeFacts {
        id: &change.id,
        header: crate::review::layout::fit(&change.header, HEADER_CHARS),
        additions: change.additions,
        deletions: change.deletions,
    }
}

mod threads;

#[cfg(test)]
mod tests;
