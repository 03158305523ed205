//! The tool's arguments, and its answer written from plain inputs in the shape its output schema
//! declares.

use serde_json::{json, Value};

use super::*;
use crate::github::api::PullFile;
use crate::review::coverage::{EntryItems, OrderItems, ReviewerTicks, SectionItems};
use crate::review::feedback::{CommentInput, DiffSide, ReviewInput, ReviewState, ThreadInput};
use crate::tools::get_pull_request::build_snapshot;

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[test]
fn arguments_are_checked_like_get_pull_request() {
    let parsed = parse_args(&arguments(
        json!({"owner": "acme", "repo": "app", "number": 7}),
    ));
    assert_eq!(
        parsed.map(|a| (a.label(), a.include_resolved)),
        Ok(("acme/app#7".to_string(), false))
    );
    let asked = parse_args(&arguments(
        json!({"owner": "acme", "repo": "app", "number": 7, "include_resolved": true}),
    ));
    assert!(asked.is_ok_and(|a| a.include_resolved));
    let bad = parse_args(&arguments(
        json!({"owner": "", "repo": "app", "number": 0, "include_resolved": "yes", "extra": 1}),
    ))
    .err()
    .unwrap_or_default();
    assert!(bad.starts_with("The request is invalid"), "{bad}");
    for field in ["owner", "number", "include_resolved", "extra"] {
        assert!(bad.contains(field), "{field} in {bad}");
    }
}

fn pull() -> PullRequest {
    let text = r#"{"number": 7, "title": "Invites", "state": "open", "html_url": "https://github.com/acme/app/pull/7",
        "user": {"login": "author"}, "base": {"ref": "main", "sha": "base1"}, "head": {"ref": "invites", "sha": "head2"}}"#;
    crate::json::decode(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_answer_has_the_schema_shape() {
    let patch = "@@ -1,2 +1,2 @@\n-let b = 2;\n+let b = 3;\n same";
    let snapshot = build_snapshot(
        vec![PullFile {
            filename: "src/app.rs".into(),
            status: "modified".into(),
            additions: 1,
            deletions: 1,
            patch: Some(patch.into()),
            previous_filename: None,
            sha: Some("blob".into()),
        }],
        1,
        None,
        None,
    );
    let id = snapshot.files[0].changes[0].id.clone();
    let order = SavedRecord {
        version: 3,
        body: json!({"sections": [{"title": "The flag", "files": [{"path": "src/app.rs"}]}]}),
        person: "author".into(),
        client: None,
        source: "agent".into(),
        head_sha: "head1".into(),
        saved_at: "2026-12-04T09:00:00Z".into(),
    };
    let review = Review {
        threads: vec![ThreadInput {
            path: "src/app.rs".into(),
            side: DiffSide::Right,
            line: Some(1),
            start_line: None,
            original_line: Some(1),
            original_start_line: None,
            outdated: false,
            resolved: false,
            comments: vec![CommentInput {
                author: "rev".into(),
                body: "```suggestion\nlet b = B;\n```".into(),
                created_at: "2026-12-04T10:00:00Z".into(),
                url: "https://github.com/acme/app/pull/7#discussion_r1".into(),
                diff_hunk: "@@ -1,2 +1,2 @@\n-let b = 2;\n+let b = 5;".into(),
                original_commit: Some("head1".into()),
                pending: false,
            }],
        }],
        reviews: vec![ReviewInput {
            id: Some(1),
            author: "rev".into(),
            state: ReviewState::ChangesRequested,
            body: "Two things".into(),
            commit: Some("head1".into()),
            submitted_at: Some("2026-12-04T10:00:00Z".into()),
            url: "https://github.com/acme/app/pull/7#pullrequestreview-1".into(),
        }],
        truncated: false,
    };
    let args = parse_args(&arguments(
        json!({"owner": "acme", "repo": "app", "number": 7}),
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let pull = pull();
    // A second, unread section, and the record of review 1 (rev's): rev had read section 1.
    let item = |path: &str, id: &str| format!("change:{path}#{id}");
    let entries = OrderItems {
        sections: vec![
            SectionItems {
                title: Some("The flag".into()),
                entries: vec![EntryItems {
                    path: "src/app.rs".into(),
                    items: vec![item("src/app.rs", &id)],
                }],
            },
            SectionItems {
                title: Some("Docs".into()),
                entries: vec![EntryItems {
                    path: "README.md".into(),
                    items: vec![item("README.md", "hdoc")],
                }],
            },
        ],
        not_in_order: vec![],
    };
    let rev = ReviewerTicks {
        login: "rev".into(),
        ticked: [item("src/app.rs", &id)].into_iter().collect(),
        changed: Default::default(),
        last_active: "2026-12-04T09:30:00Z".into(),
    };
    let coverage = coverage::coverage(&entries, vec![rev]);
    let receipt = crate::review::receipt::receipt(&coverage, "rev", 3, "head1", "t");
    let text = answer(&Sources {
        args: &args,
        base_url: "https://logikflow.dev",
        pull: &pull,
        snapshot: &snapshot,
        order: Some(&order),
        review: &review,
        coverage: &coverage,
        receipts: &[(1, receipt.clone()), (2, receipt)],
    });
    let value: Value = serde_json::from_str(&text).unwrap_or_default();
    assert_eq!(
        value["reviewUrl"],
        "https://logikflow.dev/r/acme/app/pull/7"
    );
    assert_eq!(value["headSha"], "head2");
    assert_eq!(value["orderVersion"], 3);
    assert_eq!(value["verdicts"][0]["state"], "changes_requested");
    assert_eq!(value["verdicts"][0]["atCurrentHead"], false);
    let thread = &value["threads"][0];
    assert_eq!(thread["changeId"], json!(id));
    assert_eq!(thread["section"], json!({"index": 1, "title": "The flag"}));
    assert_eq!(thread["changedSince"], true);
    assert_eq!(thread["suggestion"]["lines"], json!(["let b = B;"]));
    assert_eq!(
        value["counts"],
        json!({"open": 1, "resolved": 0, "changedSince": 1})
    );
    let covered = &value["coverage"]["sections"];
    assert_eq!(covered[0]["readBy"], json!(["rev"]));
    assert_eq!(covered[1]["readBy"], json!([]));
    assert_eq!(
        covered[1]["unread"],
        json!([{"path": "README.md", "changes": ["hdoc"]}])
    );
    assert_eq!(value["coverage"]["totals"]["filesUnread"], 1);
    assert_eq!(value["verdicts"][0]["read"]["filesRead"], 1);
    assert_eq!(value["verdicts"][0]["read"]["sectionsRead"], 1);
    let next = value["nextStep"].as_str().unwrap_or_default();
    assert!(
        next.contains("Nobody has read section 2 \"Docs\" yet (coverage)"),
        "{next}"
    );
    // Every key the schema requires, and no other.
    let schema: Value = serde_json::from_str(include_str!(
        "../../../schema/get_review_feedback.output.json"
    ))
    .unwrap_or_default();
    let mut required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut keys: Vec<&str> = value
        .as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default();
    required.sort_unstable();
    keys.sort_unstable();
    assert_eq!(keys, required);
}
