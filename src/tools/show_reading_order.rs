//! `show_reading_order`: shows a saved reading order to the user. Hosts that render MCP Apps open
//! the view (`mcp::apps`) on its result; every other client gets a small summary with the review
//! link, which is what the agent shares.
//!
//! Also home of what the view's tools share: the target (`owner`, `repo`, `number` and an
//! optional `version`), picking the saved version to show, and the messages when there is none.
//!
//! What not: no GitHub or storage access (the object, `app::pull_request::tools`, reads both
//! and hands the records in); no order content in the result: the view asks `view_reading_order` for that, so
//! the model's context gets counts, not the notes.

use serde::Serialize;
use serde_json::{Map, Value};

use super::arguments::{optional_positive, unknown_keys, Problems};
use super::get_pull_request::review_url;
use super::pull_target::{self, PullTarget};
use crate::github::api::PullRequest;
use crate::review::model::saved::{updated_by, SavedRecord};
use crate::review::order::{order_counts, Order};

/// A pull request and, optionally, the saved version to show (the latest when `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewTarget {
    pub owner: String,
    pub repo: String,
    pub number: u64,
    pub version: Option<u64>,
}

impl ViewTarget {
    /// `owner/repo#number`, as messages name the pull request.
    pub fn label(&self) -> String {
        pull_target::label(&self.owner, &self.repo, self.number)
    }
}

/// Reads `owner`, `repo`, `number` and, when `with_version`, the optional `version`; `extra` are
/// the tool's other keys, read by the caller from the same `problems`.
pub fn parse_target(
    args: &Map<String, Value>,
    with_version: bool,
    extra: &[&str],
    problems: &mut Problems,
) -> ViewTarget {
    let PullTarget {
        owner,
        repo,
        number,
    } = PullTarget::read(args, problems);
    let target = ViewTarget {
        owner,
        repo,
        number,
        version: if with_version {
            optional_positive(args, "version", problems)
        } else {
            None
        },
    };
    let mut known = vec!["owner", "repo", "number"];
    if with_version {
        known.push("version");
    }
    known.extend_from_slice(extra);
    unknown_keys(args, &known, problems);
    target
}

/// The arguments of `show_reading_order` and `view_reading_order` (`with_version`), or of
/// `view_diagram` (without).
pub fn parse_args(args: &Map<String, Value>, with_version: bool) -> Result<ViewTarget, String> {
    let mut problems = Problems::default();
    let target = parse_target(args, with_version, &[], &mut problems);
    if problems.is_empty() {
        Ok(target)
    } else {
        Err(problems.message("The request is invalid"))
    }
}

/// Which stored version to read, given the latest one: `Ok(None)` means the latest record at
/// hand is the one; `Ok(Some(v))` means version `v` must be read from history.
pub fn version_to_read(target: &ViewTarget, latest: Option<u64>) -> Result<Option<u64>, String> {
    let Some(latest) = latest else {
        return Err(no_order(&target.label()));
    };
    match target.version {
        None => Ok(None),
        Some(wanted) if wanted == latest => Ok(None),
        Some(wanted) if wanted > latest => Err(no_such_version(&target.label(), wanted, latest)),
        Some(wanted) => Ok(Some(wanted)),
    }
}

/// The message when nothing is saved yet.
pub fn no_order(label: &str) -> String {
    format!(
        "No reading order is saved for {label} yet. Arrange it first: call get_pull_request, then save_reading_order."
    )
}

/// The message when the asked-for version does not exist.
pub fn no_such_version(label: &str, wanted: u64, latest: u64) -> String {
    format!(
        "{label} has no reading order version {wanted}: versions run from 1 to {latest}. Leave version out to show the latest."
    )
}

/// `merged`, else GitHub's `open` or `closed`.
pub fn pull_state(pull: &PullRequest) -> &str {
    if pull.merged {
        "merged"
    } else {
        pull.state.as_str()
    }
}

/// Everything the result is built from.
pub struct ShowInputs<'a> {
    pub target: &'a ViewTarget,
    pub base_url: &'a str,
    pub pull: &'a PullRequest,
    /// The version shown.
    pub record: &'a SavedRecord,
    pub latest_version: u64,
    /// The current diagram's version, 0 when there is none.
    pub diagram_version: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer<'a> {
    shown: bool,
    review_url: String,
    repository: String,
    number: u64,
    state: &'a str,
    version: u64,
    latest_version: u64,
    updated_by: Value,
    updated_at: &'a str,
    saved_before_latest_commits: bool,
    sections: usize,
    files: usize,
    checklist_items: usize,
    diagram_version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    diagram_url: Option<String>,
}

/// The result: small on purpose, since some hosts show `structuredContent` to the model too.
pub fn shape_result(inputs: ShowInputs<'_>) -> String {
    let ShowInputs {
        target,
        base_url,
        pull,
        record,
        latest_version,
        diagram_version,
    } = inputs;
    let page = review_url(base_url, &target.owner, &target.repo, target.number);
    let review_url = if record.version == latest_version {
        page.clone()
    } else {
        format!("{page}?version={}", record.version)
    };
    let counts = crate::json::read::<Order>(&record.body)
        .ok()
        .map(|order| order_counts(&order));
    let answer = Answer {
        shown: true,
        review_url,
        repository: format!("{}/{}", target.owner, target.repo),
        number: target.number,
        state: pull_state(pull),
        version: record.version,
        latest_version,
        updated_by: updated_by(record),
        updated_at: &record.saved_at,
        saved_before_latest_commits: record.head_sha != pull.head.sha,
        sections: counts.as_ref().map_or(0, |c| c.sections),
        files: counts.as_ref().map_or(0, |c| c.files),
        checklist_items: counts.as_ref().map_or(0, |c| c.checklist_items),
        diagram_version,
        diagram_url: (diagram_version > 0).then(|| format!("{page}#diagram")),
    };
    super::answer::to_json(&answer)
}

/// Fixtures the view tools' tests share.
#[cfg(test)]
pub(crate) mod tests;
