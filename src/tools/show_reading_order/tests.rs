//! `show_reading_order`: arguments, which version is read, the result, and fixtures the other view
//! tools' tests share.

use serde_json::json;

use super::*;
use crate::github::api::{Account, GitRef, PullFile};
use crate::review::model::snapshot::Snapshot;
use crate::tools::get_pull_request::build_snapshot;

/// The answer parsed, as a host reads it.
fn shape_result(inputs: ShowInputs<'_>) -> Value {
    serde_json::from_str(&super::shape_result(inputs)).unwrap_or(Value::Null)
}

pub(crate) fn target(version: Option<u64>) -> ViewTarget {
    ViewTarget {
        owner: "acme".into(),
        repo: "app".into(),
        number: 7,
        version,
    }
}

pub(crate) fn pull(head: &str) -> PullRequest {
    PullRequest {
        number: 7,
        title: "Add <b>invites</b>".into(),
        state: "open".into(),
        merged: false,
        draft: false,
        user: Some(Account {
            login: "octo".into(),
            id: 1,
        }),
        html_url: "https://github.com/acme/app/pull/7".into(),
        base: GitRef {
            name: "main".into(),
            sha: "b".repeat(40),
        },
        head: GitRef {
            name: "invites".into(),
            sha: head.into(),
        },
        changed_files: 3,
        review_comments: None,
        additions: None,
        deletions: None,
    }
}

pub(crate) fn record(version: u64, body: Value, head: &str) -> SavedRecord {
    SavedRecord {
        version,
        body,
        person: "octo".into(),
        client: Some("claude".into()),
        source: "agent".into(),
        head_sha: head.into(),
        saved_at: "2026-12-01T10:00:00Z".into(),
    }
}

/// Three files: `lib/flags.ts` (one change), `app/router.ts` (two changes) and a lockfile without
/// a diff.
pub(crate) fn snapshot() -> Snapshot {
    let file = |path: &str, patch: Option<&str>| PullFile {
        filename: path.into(),
        status: "modified".into(),
        additions: 3,
        deletions: 1,
        patch: patch.map(str::to_string),
        previous_filename: None,
        sha: None,
    };
    build_snapshot(
        vec![
            file("lib/flags.ts", Some("@@ -1,2 +1,3 @@\n export const a = 1;\n+export const invites = false;\n export const b = 2;")),
            file(
                "app/router.ts",
                Some("@@ -10,2 +10,3 @@ import\n import a;\n+import { invites } from './invites';\n import b;\n@@ -40,2 +41,2 @@ routes\n-  { path: '/old' },\n+  { path: '/invites' },\n   { path: '/' },"),
            ),
            file("package-lock.json", None),
        ],
        3,
        None,
        None,
    )
}

pub(crate) fn order_body() -> Value {
    json!({
        "overview": "Start with the `flag`.",
        "sections": [
            { "title": "Flag", "layer": "contracts", "note": "<script>alert(1)</script>", "checks": ["Off by default"],
              "files": [{ "path": "lib/flags.ts", "focus": "key", "checks": ["Named well"] }] },
            { "title": "Routes", "files": [
                { "path": "app/router.ts", "hunks": [] },
                { "path": "package-lock.json", "focus": "generated" }
            ] }
        ]
    })
}

fn parse_args_v(args: &Map<String, Value>) -> Result<ViewTarget, String> {
    parse_args(args, true)
}

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[test]
fn arguments() {
    let parsed = parse_args_v(&args(
        json!({ "owner": "acme", "repo": "app", "number": 7 }),
    ));
    assert_eq!(parsed, Ok(target(None)));
    let parsed = parse_args_v(&args(
        json!({ "owner": "acme", "repo": "app", "number": 7, "version": 2 }),
    ));
    assert_eq!(parsed, Ok(target(Some(2))));
    let message = parse_args_v(&args(
        json!({ "owner": "acme", "number": 0, "version": "x", "base_version": 1 }),
    ))
    .unwrap_err();
    assert!(message.starts_with("The request is invalid: "), "{message}");
    for part in [
        "repo is required",
        "number must be",
        "version must be",
        "\"base_version\" is not an argument",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
}

#[test]
fn which_version_is_read() {
    assert_eq!(
        version_to_read(&target(None), None),
        Err(no_order("acme/app#7"))
    );
    assert!(version_to_read(&target(None), None)
        .unwrap_err()
        .starts_with("No reading order is saved for acme/app#7 yet"));
    assert_eq!(version_to_read(&target(None), Some(3)), Ok(None));
    assert_eq!(version_to_read(&target(Some(3)), Some(3)), Ok(None));
    assert_eq!(version_to_read(&target(Some(2)), Some(3)), Ok(Some(2)));
    let message = version_to_read(&target(Some(4)), Some(3)).unwrap_err();
    assert!(message.contains("no reading order version 4"), "{message}");
    assert!(message.contains("from 1 to 3"), "{message}");
}

#[test]
fn the_result_counts_and_links_without_copying_notes() {
    let head = "h".repeat(40);
    let saved = record(2, order_body(), "old");
    let result = shape_result(ShowInputs {
        target: &target(Some(2)),
        base_url: "https://logikflow.dev",
        pull: &pull(&head),
        record: &saved,
        latest_version: 3,
        diagram_version: 1,
    });
    assert_eq!(
        result,
        json!({
            "shown": true,
            "reviewUrl": "https://logikflow.dev/r/acme/app/pull/7?version=2",
            "repository": "acme/app",
            "number": 7,
            "state": "open",
            "version": 2,
            "latestVersion": 3,
            "updatedBy": { "person": "octo", "client": "claude" },
            "updatedAt": "2026-12-01T10:00:00Z",
            "savedBeforeLatestCommits": true,
            "sections": 2,
            "files": 3,
            "checklistItems": 2,
            "diagramVersion": 1,
            "diagramUrl": "https://logikflow.dev/r/acme/app/pull/7#diagram",
        })
    );
    assert!(!result.to_string().contains("script"));
}

#[test]
fn the_latest_version_links_to_the_plain_review_page() {
    let head = "h".repeat(40);
    let saved = record(3, order_body(), &head);
    let result = shape_result(ShowInputs {
        target: &target(None),
        base_url: "https://logikflow.dev",
        pull: &pull(&head),
        record: &saved,
        latest_version: 3,
        diagram_version: 0,
    });
    assert_eq!(
        result["reviewUrl"],
        "https://logikflow.dev/r/acme/app/pull/7"
    );
    assert_eq!(result["savedBeforeLatestCommits"], false);
    assert!(result.get("diagramUrl").is_none());
}
