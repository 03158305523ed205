//! The view tools' rules that `tests/e2e/mcp-apps.test.mjs` used to check through `wrangler dev`
//! (issue #37), run here through the same dispatch: every view call reads the pull request from
//! GitHub as the caller first, also with the snapshot cached, and shows nothing GitHub refuses;
//! bad arguments name every field.
//!
//! What not: the MCP Apps protocol (the extension, the ui:// resource, `_meta.ui`) and one smoke
//! call per view tool through a real client; those stay end to end.

use serde_json::json;

use super::{call, diagram_args, ok, order_args, refused};
use crate::app::pull_request::test_support::{Scripted, World};
use crate::mcp::dispatch::ToolResult;

const PULL: &str = "/repos/o/r/pulls/1";

const VIEWS: [(&str, Option<&str>); 4] = [
    ("show_reading_order", None),
    ("view_reading_order", None),
    ("view_diagram", None),
    ("view_change", Some("src/f1.rs")),
];

fn arguments(path: Option<&str>) -> serde_json::Value {
    let mut arguments = json!({ "owner": "o", "repo": "r", "number": 1 });
    if let Some(path) = path {
        arguments["path"] = json!(path);
    }
    arguments
}

#[test]
fn every_view_call_reads_github_as_the_caller_first_and_shows_nothing_it_refuses() {
    let world = World::new();
    ok(call(&world, "save_reading_order", order_args(0)));
    ok(call(&world, "save_diagram", diagram_args(0)));
    for (tool, path) in VIEWS {
        let before = world.github.count(PULL);
        ok(call(&world, tool, arguments(path)));
        assert_eq!(world.github.count(PULL), before + 1, "{tool} asks GitHub");
        let asked = world.github.requests();
        let last = asked.iter().rev().find(|e| e.url.ends_with(PULL));
        assert!(
            last.is_some_and(|e| e
                .headers
                .iter()
                .any(|(name, value)| *name == "authorization" && value.ends_with(" t"))),
            "{tool} asks with the caller's token"
        );
    }
    for (tool, path) in VIEWS {
        let world = World::new();
        ok(call(&world, "save_reading_order", order_args(0)));
        ok(call(&world, "save_diagram", diagram_args(0)));
        world
            .github
            .on(PULL, [Scripted::status(404, r#"{"message":"Not Found"}"#)]);
        let result = call(&world, tool, arguments(path));
        assert!(matches!(result, ToolResult::Error(_)), "{tool}: {result:?}");
        let text = refused(result);
        assert!(
            text.contains("doesn't exist or this account can't see it"),
            "{tool}: {text}"
        );
    }
}

#[test]
fn bad_view_arguments_name_every_field() {
    let world = World::new();
    let text = refused(call(
        &world,
        "view_reading_order",
        json!({ "owner": "o", "repo": "r", "number": "three", "version": 0 }),
    ));
    assert!(text.starts_with("The request is invalid: "), "{text}");
    let number = text.find("number must be a positive integer");
    let version = text.find("version must be a positive integer");
    assert!(
        matches!((number, version), (Some(n), Some(v)) if n < v),
        "{text}"
    );
    assert_eq!(world.github.total(), 0);
}
