//! `view_diagram`: the layout as data, and the answer when no diagram is saved.

use serde_json::{json, Map};

use super::*;
use crate::tools::show_reading_order::tests::{pull, record, target};

/// The answer parsed, as the view reads it.
fn shape_result(
    target: &ViewTarget,
    base_url: &str,
    pull: &PullRequest,
    record: Option<&SavedRecord>,
) -> Value {
    serde_json::from_str(&super::shape_result(target, base_url, pull, record))
        .unwrap_or(Value::Null)
}

fn diagram() -> Value {
    json!({
        "title": "How <b>an invite</b> is accepted",
        "groups": [{ "id": "server", "title": "Server" }],
        "nodes": [
            { "id": "link", "title": "Invite link opened", "kind": "trigger", "lines": [{ "label": "example", "text": "/invite/abc" }] },
            { "id": "accept", "title": "<img src=x onerror=alert(1)>", "kind": "decision", "group": "server", "file": "lib/flags.ts" },
            { "id": "store", "title": "Store", "kind": "data", "group": "server" }
        ],
        "edges": [
            { "from": "link", "to": "accept", "label": "token" },
            { "from": "accept", "to": "store", "dashed": true }
        ]
    })
}

#[test]
fn arguments_take_no_version() {
    let args = json!({ "owner": "acme", "repo": "app", "number": 7 });
    assert_eq!(
        crate::tools::show_reading_order::parse_args(
            args.as_object().unwrap_or(&Map::new()),
            false
        ),
        Ok(target(None))
    );
    let args = json!({ "owner": "acme", "repo": "app", "number": 7, "version": 1 });
    let message = crate::tools::show_reading_order::parse_args(
        args.as_object().unwrap_or(&Map::new()),
        false,
    )
    .unwrap_err();
    assert!(
        message.contains("\"version\" is not an argument"),
        "{message}"
    );
}

#[test]
fn no_diagram_is_version_zero_with_a_null_layout() {
    let result = shape_result(&target(None), "https://x.dev", &pull("h"), None);
    assert_eq!(result["version"], 0);
    assert_eq!(
        result["diagramUrl"],
        "https://x.dev/r/acme/app/pull/7#diagram"
    );
    assert_eq!(result["layout"], Value::Null);
    assert!(result.get("updatedBy").is_none());
    assert_eq!(result["metrics"]["titleFontPx"], 13.0);
}

#[test]
fn the_layout_is_numbers_and_plain_strings() {
    let saved = record(2, diagram(), "old");
    let result = shape_result(&target(None), "https://x.dev", &pull("h"), Some(&saved));
    assert_eq!(result["version"], 2);
    assert_eq!(result["savedBeforeLatestCommits"], true);
    let layout = &result["layout"];
    assert_eq!(layout["title"], "How <b>an invite</b> is accepted");
    assert!(layout["width"].as_f64().is_some_and(|w| w > 0.0));
    let nodes = layout["nodes"].as_array().cloned().unwrap_or_default();
    assert_eq!(nodes.len(), 3);
    let accept = nodes
        .iter()
        .find(|n| n["id"] == "accept")
        .cloned()
        .unwrap_or_default();
    assert_eq!(accept["kind"], "decision");
    assert_eq!(accept["group"], "server");
    assert_eq!(accept["file"], "lib/flags.ts");
    assert_eq!(accept["title"], "<img src=x onerror=alert(1)>");
    assert!(accept["titleLines"]
        .as_array()
        .is_some_and(|l| !l.is_empty()));
    let link = nodes
        .iter()
        .find(|n| n["id"] == "link")
        .cloned()
        .unwrap_or_default();
    assert_eq!(link["lines"][0]["label"], "example");
    let edges = layout["edges"].as_array().cloned().unwrap_or_default();
    assert_eq!(edges.len(), 2);
    let labelled = edges
        .iter()
        .find(|e| e["label"] == "token")
        .cloned()
        .unwrap_or_default();
    assert!(labelled["labelAt"][0].as_f64().is_some_and(|x| x > 0.0));
    assert!(labelled["points"].as_array().is_some_and(|p| p.len() >= 2));
    assert!(edges
        .iter()
        .any(|e| e.get("label").is_none() && e["dashed"] == true));
    assert_eq!(layout["groups"][0]["title"], "Server");
    assert_eq!(result["metrics"]["labelCharPx"], 6.6);
    // Nothing in the answer is markup the server wrote.
    assert!(!result.to_string().contains("<svg"));
}
