//! `save_reading_order` and `save_diagram`: the pure halves shared by both saves — the target
//! pull request and base version, the pull request facts validation needs, the messages for write
//! access and conflicts, and the result shapes.
//!
//! Validation itself lives in `review::order` and `review::diagram`; the path both saves take runs
//! in the pull request's Durable Object (`app::pull_request::saves`, `tools::relay`).

use serde_json::{json, Map, Value};

use super::arguments::{version, Problems};
use super::get_pull_request::review_url;
use super::pull_target::{self, PullTarget};
use crate::review::files::FileStatus;
use crate::review::hints::FileHints;
use crate::review::model::saved::VersionSummary;
use crate::review::model::snapshot::Snapshot;
use crate::review::order::{
    checklist_ids, render_message, Order, OrderCounts, PullFacts, PullFileFacts,
};

/// Which pull request a save is for, and the version it builds on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveTarget {
    pub owner: String,
    pub repo: String,
    pub number: u64,
    pub base_version: u64,
}

impl SaveTarget {
    pub fn label(&self) -> String {
        pull_target::label(&self.owner, &self.repo, self.number)
    }
}

/// Reads `owner`, `repo`, `number` and `base_version`: the target, when neither it nor the
/// document has a problem; else one message, after `prefix` ("The order is invalid" or "The
/// diagram is invalid"), with the target's problems and then `document_problems` (the
/// document's shape problems, which need no pull request), so an agent fixes its whole call in
/// one go, before any GitHub request.
pub fn checked_target(
    args: &Map<String, Value>,
    document_problems: Vec<String>,
    prefix: &str,
) -> Result<SaveTarget, String> {
    let mut problems = Problems::default();
    let PullTarget {
        owner,
        repo,
        number,
    } = PullTarget::read(args, &mut problems);
    let target = SaveTarget {
        owner,
        repo,
        number,
        base_version: version(args, "base_version", &mut problems),
    };
    let mut problems = problems.into_vec();
    problems.extend(document_problems);
    if problems.is_empty() {
        Ok(target)
    } else {
        Err(render_message(prefix, &problems))
    }
}

/// The arguments naming the target, the rest being the document's.
pub const TARGET_KEYS: [&str; 4] = ["owner", "repo", "number", "base_version"];

/// The arguments without the target keys: what the order or diagram validator reads.
pub fn document_arguments(args: &Map<String, Value>) -> Value {
    let mut rest = args.clone();
    for key in TARGET_KEYS {
        rest.remove(key);
    }
    Value::Object(rest)
}

/// The facts validation and suggestions need, from the pull request's snapshot.
pub fn facts_from_snapshot(snapshot: &Snapshot) -> PullFacts {
    PullFacts {
        files: snapshot
            .files
            .iter()
            .map(|file| PullFileFacts {
                path: file.path.clone(),
                status: FileStatus::from_github(&file.status).unwrap_or(FileStatus::Modified),
                additions: file.additions,
                deletions: file.deletions,
                change_ids: file.changes.iter().map(|c| c.id.clone()).collect(),
                has_diff: file.has_diff(),
                hints: FileHints {
                    depends_on: file.depends_on.clone(),
                    test_of: file.test_of.clone(),
                    likely_generated: file.likely_generated,
                },
            })
            .collect(),
    }
}

/// The stored form of an order: the order as given, plus its checklist identities so reviewers'
/// ticks can follow an item across saves.
pub fn stored_order(order: &Order) -> Value {
    let order = &without_bidi_controls(order);
    let mut body = serde_json::to_value(order).unwrap_or_else(|_| json!({}));
    body["checklist"] = json!(checklist_ids(order)
        .into_iter()
        .map(|item| json!({ "id": item.id, "scope": item.scope, "text": item.text }))
        .collect::<Vec<_>>());
    body
}

/// The order with the bidirectional controls taken out of its words (issue 36,
/// `unicode::without_bidi_controls`): overview, section titles, notes and checks. Paths stay as
/// they are: they name the pull request's files.
fn without_bidi_controls(order: &Order) -> Order {
    let clean = |text: &mut String| *text = crate::unicode::without_bidi_controls(text);
    let mut order = order.clone();
    order.overview.iter_mut().for_each(clean);
    for section in &mut order.sections {
        section.title.iter_mut().for_each(clean);
        section.note.iter_mut().for_each(clean);
        section.checks.iter_mut().for_each(clean);
        for file in &mut section.files {
            file.note.iter_mut().for_each(clean);
            file.checks.iter_mut().for_each(clean);
        }
    }
    order
}

/// The message when the person may read but not write the repository.
pub fn no_write_access(login: &str, owner: &str, repo: &str, what: &str) -> String {
    format!(
        "{login} doesn't have write access to {owner}/{repo} on GitHub, so LogiKFlow can't save {what} for it. Ask someone with push access to the repository to arrange it."
    )
}

/// The message when someone saved a newer version first. `document` is "" for orders and
/// "diagram " for diagrams, as in the spec's "Conflict: … saved diagram version N".
pub fn conflict(latest: &VersionSummary, sent: u64, document: &str, base_field: &str) -> String {
    if latest.version == 0 {
        return format!(
            "Conflict: base_version is {sent}, but no {document}version has been saved yet (saved {document}version 0). Save with base_version 0."
        );
    }
    let who = if latest.person.is_empty() {
        "someone"
    } else {
        latest.person.as_str()
    };
    let what = if document.is_empty() {
        "order"
    } else {
        "diagram"
    };
    if sent > latest.version {
        // Not someone else's save: a base_version from nowhere (a typo, or another pull request).
        return format!(
            "Conflict: {who} saved {document}version {} at {}, the latest; there is no version {sent} to start from. Call get_pull_request again, merge your changes into the current {what}, and save with base_version {} ({base_field}).",
            latest.version, latest.saved_at, latest.version,
        );
    }
    format!(
        "Conflict: {who} saved {document}version {} at {}, after the version you started from ({sent}). Call get_pull_request again, merge your changes into the current {what}, and save with base_version {} ({base_field}).",
        latest.version,
        latest.saved_at,
        latest.version,
    )
}

/// The `save_reading_order` result.
pub fn order_result(
    target: &SaveTarget,
    base_url: &str,
    version: u64,
    counts: OrderCounts,
    suggestions: Vec<String>,
    next_step: String,
    commit_status: Value,
) -> Value {
    json!({
        "saved": true,
        "version": version,
        "reviewUrl": review_url(base_url, &target.owner, &target.repo, target.number),
        "overview": counts.overview,
        "sections": counts.sections,
        "files": counts.files,
        "checklistItems": counts.checklist_items,
        "suggestions": suggestions,
        "nextStep": next_step,
        "commitStatus": commit_status,
    })
}

/// The `save_diagram` result.
pub fn diagram_result(
    target: &SaveTarget,
    base_url: &str,
    version: u64,
    counts: crate::review::diagram::DiagramCounts,
) -> Value {
    json!({
        "saved": true,
        "version": version,
        "diagramUrl": format!("{}#diagram", review_url(base_url, &target.owner, &target.repo, target.number)),
        "nodes": counts.nodes,
        "edges": counts.edges,
        "groups": counts.groups,
        "linkedFiles": counts.linked_files,
    })
}

/// The `diagram` argument, or the problem when it is missing or not an object.
pub fn diagram_argument(args: &Map<String, Value>) -> Result<&Value, String> {
    match args.get("diagram") {
        Some(value @ Value::Object(_)) => Ok(value),
        Some(other) => Err(format!(
            "diagram must be an object with nodes and edges, got {}",
            crate::json::describe(other)
        )),
        None => Err("diagram is required (an object with nodes and edges)".into()),
    }
}

/// Keys `save_diagram` takes besides `diagram`: the problems with any others.
pub fn unknown_diagram_keys(args: &Map<String, Value>) -> Vec<String> {
    let mut problems = Problems::default();
    super::arguments::unknown_keys(
        args,
        &["owner", "repo", "number", "base_version", "diagram"],
        &mut problems,
    );
    problems.into_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    /// Issue 36: an order's words are stored without bidirectional controls; paths as they are.
    #[test]
    fn stored_orders_lose_bidi_controls_in_their_words() {
        let order: Order = crate::json::read(&json!({
            "overview": "Safe\u{202E}evil",
            "sections": [{ "title": "T\u{2066}x\u{2069}", "note": "n\u{202D}", "checks": ["c\u{200F}"],
                "files": [{ "path": "odd\u{202E}name.rs", "note": "f\u{202A}", "checks": ["k\u{202B}"] }] }]
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        let text = stored_order(&order).to_string();
        assert!(
            text.contains("Safeevil") && text.contains("\"Tx\""),
            "{text}"
        );
        for c in [
            '\u{202A}', '\u{202B}', '\u{202D}', '\u{2066}', '\u{2069}', '\u{200F}',
        ] {
            assert!(!text.contains(c), "{c:?} in {text}");
        }
        assert!(
            text.contains("odd\u{202E}name.rs"),
            "the path stays: {text}"
        );
    }

    #[test]
    fn targets() {
        let ok = checked_target(
            &args(json!({ "owner": "a", "repo": "b", "number": 2, "base_version": 0 })),
            Vec::new(),
            "The order is invalid",
        );
        assert_eq!(ok.map(|t| t.label()), Ok("a/b#2".to_string()));
        let bad = checked_target(
            &args(json!({ "owner": "a", "repo": "b", "number": 2 })),
            Vec::new(),
            "The order is invalid",
        )
        .unwrap_err();
        assert!(
            bad.starts_with("The order is invalid: base_version is required"),
            "{bad}"
        );
        let bad = checked_target(
            &args(json!({ "owner": "a", "repo": "b", "number": 2, "base_version": -1 })),
            Vec::new(),
            "The diagram is invalid",
        )
        .unwrap_err();
        assert!(
            bad.starts_with("The diagram is invalid: base_version must be a whole number"),
            "{bad}"
        );
    }

    #[test]
    fn target_and_document_problems_come_in_one_message() {
        let bad = checked_target(
            &args(json!({ "owner": "a", "number": 0, "base_version": 0 })),
            vec!["nodes must not be empty".into()],
            "The diagram is invalid",
        )
        .unwrap_err();
        assert!(
            bad.starts_with("The diagram is invalid: repo is required"),
            "{bad}"
        );
        assert!(bad.contains("; number must be"), "{bad}");
        assert!(bad.ends_with("; nodes must not be empty"), "{bad}");
        let only_document = checked_target(
            &args(json!({ "owner": "a", "repo": "b", "number": 2, "base_version": 0 })),
            vec!["sections is required".into()],
            "The order is invalid",
        );
        assert_eq!(
            only_document,
            Err("The order is invalid: sections is required".to_string())
        );
    }

    #[test]
    fn document_arguments_drop_the_target() {
        let rest = document_arguments(&args(
            json!({ "owner": "a", "repo": "b", "number": 2, "base_version": 0, "sections": [] }),
        ));
        assert_eq!(rest, json!({ "sections": [] }));
    }

    fn summary(version: u64) -> VersionSummary {
        VersionSummary {
            version,
            person: "mona".into(),
            client: Some("claude-code".into()),
            source: "agent".into(),
            head_sha: "abc".into(),
            saved_at: "2026-11-29T10:00:00Z".into(),
        }
    }

    #[test]
    fn conflicts_start_as_the_spec_says() {
        let order = conflict(&summary(3), 2, "", "baseVersion");
        assert!(
            order.starts_with("Conflict: mona saved version 3"),
            "{order}"
        );
        assert!(order.contains("base_version 3"), "{order}");
        let diagram = conflict(&summary(2), 1, "diagram ", "diagramBaseVersion");
        assert!(
            diagram.starts_with("Conflict: mona saved diagram version 2"),
            "{diagram}"
        );
        let ahead = conflict(&summary(3), 9, "diagram ", "diagramBaseVersion");
        assert!(
            ahead.starts_with("Conflict: mona saved diagram version 3")
                && ahead.contains("there is no version 9")
                && !ahead.contains("after the version you started from"),
            "{ahead}"
        );
        let none = conflict(&summary(0), 4, "", "baseVersion");
        assert!(
            none.starts_with("Conflict: ") && none.contains("saved version 0"),
            "{none}"
        );
    }

    #[test]
    fn write_access_message() {
        let message = no_write_access("reader", "acme", "app", "an order");
        assert!(
            message.starts_with("reader doesn't have write access"),
            "{message}"
        );
    }
}
