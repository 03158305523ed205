//! `view_reading_order`: the order as saved, with the pull request's file facts beside it.

use serde_json::json;

use super::*;
use crate::tools::save_reading_order::stored_order;
use crate::tools::show_reading_order::tests::{order_body, pull, record, snapshot, target};

/// The answer parsed, as the view reads it.
fn shape_result(inputs: ViewInputs<'_>) -> Value {
    serde_json::from_str(&super::shape_result(inputs)).unwrap_or(Value::Null)
}

fn shape(body: Value, head: &str) -> Value {
    shape_result(ViewInputs {
        target: &target(None),
        base_url: "https://logikflow.dev",
        pull: &pull(&"h".repeat(40)),
        snapshot: &snapshot(),
        record: &record(4, body, head),
        latest_version: 5,
        diagram_version: 2,
        review: None,
    })
}

#[test]
fn the_order_goes_out_as_saved_without_checklist_ids() {
    let order = crate::json::read::<crate::review::order::Order>(&order_body());
    let stored = order.map(|o| stored_order(&o)).unwrap_or_default();
    assert!(stored.get("checklist").is_some());
    let result = shape(stored, "old");
    assert!(result["order"].get("checklist").is_none());
    assert_eq!(result["order"]["overview"], "Start with the `flag`.");
    assert_eq!(
        result["order"]["sections"][0]["note"],
        "<script>alert(1)</script>"
    );
    assert_eq!(
        result["order"]["sections"][1]["files"][0]["hunks"],
        json!([])
    );
}

#[test]
fn every_changed_file_comes_with_its_facts_and_changes() {
    let result = shape(order_body(), "old");
    let files = result["files"].as_array().cloned().unwrap_or_default();
    let paths: Vec<&str> = files.iter().filter_map(|f| f["path"].as_str()).collect();
    assert_eq!(
        paths,
        ["lib/flags.ts", "app/router.ts", "package-lock.json"]
    );
    let router = &files[1];
    assert_eq!(router["status"], "modified");
    assert_eq!(router["diff"], true);
    assert_eq!(router["changes"].as_array().map(Vec::len), Some(2));
    assert_eq!(router["changes"][1]["header"], "@@ -40,2 +41,2 @@ routes");
    assert_eq!(router["changes"][1]["additions"], 1);
    let lockfile = &files[2];
    assert_eq!(lockfile["diff"], false);
    assert_eq!(lockfile["changes"], json!([]));
    assert_eq!(lockfile["likelyGenerated"], true);
    assert!(files[0].get("likelyGenerated").is_none());
}

#[test]
fn version_and_authorship() {
    let result = shape(order_body(), &"h".repeat(40));
    assert_eq!(result["version"], 4);
    assert_eq!(result["latestVersion"], 5);
    assert_eq!(result["source"], "agent");
    assert_eq!(result["updatedBy"]["person"], "octo");
    assert_eq!(result["savedBeforeLatestCommits"], false);
    assert_eq!(result["diagramVersion"], 2);
    assert_eq!(result["title"], "Add <b>invites</b>");
    assert_eq!(result["url"], "https://github.com/acme/app/pull/7");
    assert_eq!(
        result["reviewUrl"],
        "https://logikflow.dev/r/acme/app/pull/7"
    );
    assert!(shape(order_body(), "old")["savedBeforeLatestCommits"] == true);
}
