//! The saves' rules that `tests/e2e/save-order.test.mjs` and `save-diagram.test.mjs` used to
//! check through `wrangler dev` (issue #37), run here through the same dispatch: a save's answer
//! and what reads back, the order saved before the latest commits, every refusal with its message
//! and nothing written, splits, write access, a diagram's answer and refusals, and the order's
//! next step knowing a diagram is saved.
//!
//! What not: concurrent saves serialized by the real object and saves surviving a restart; those
//! stay end to end.

use serde_json::{json, Value};

use super::{call, ok, refused, saved_versions, world_with_a_split_file, ALL};
use crate::app::pull_request::test_support::{Scripted, World};
use crate::review::model::saved::DocumentKind;

fn target() -> Value {
    json!({ "owner": "o", "repo": "r", "number": 1 })
}

/// What `get_pull_request` answers now.
fn read(world: &World) -> Value {
    ok(call(world, "get_pull_request", target()))
}

/// An order over `paths` in two titled sections, as the end-to-end test wrote it.
fn order_for(paths: &[&str], base_version: u64) -> Value {
    let half = paths.len().div_ceil(2);
    let files =
        |part: &[&str]| -> Vec<Value> { part.iter().map(|p| json!({ "path": p })).collect() };
    json!({
        "owner": "o", "repo": "r", "number": 1, "base_version": base_version,
        "overview": "Reads the change from its model to its callers.",
        "sections": [
            { "title": "Core", "layer": "logic", "note": "Start here.", "checks": ["Ids stay stable"],
              "files": files(&paths[..half]) },
            { "title": "Everything else", "layer": "tooling", "files": files(&paths[half..]) },
        ],
    })
}

#[test]
fn a_saved_order_answers_its_counts_and_reads_back_as_saved() {
    let world = World::new();
    assert_eq!(read(&world)["baseVersion"], 0);
    let saved = ok(call(&world, "save_reading_order", order_for(&ALL, 0)));
    assert_eq!(saved["saved"], true, "{saved}");
    assert_eq!(saved["version"], 1);
    assert_eq!(saved["reviewUrl"], "https://review.test/r/o/r/pull/1");
    assert_eq!(saved["sections"], 2);
    assert_eq!(saved["files"], 3);
    assert_eq!(saved["checklistItems"], 1);
    assert_eq!(saved["overview"], true);
    assert!(saved["nextStep"].is_string(), "{saved}");
    assert!(saved["suggestions"].is_array(), "{saved}");

    let after = read(&world);
    let order = &after["currentOrder"];
    assert_eq!(after["baseVersion"], 1, "{after}");
    assert_eq!(order["version"], 1);
    assert_eq!(order["source"], "agent");
    assert_eq!(order["updatedBy"]["person"], "octo");
    assert_eq!(order["savedBeforeLatestCommits"], false);
    assert_eq!(
        order["overview"],
        "Reads the change from its model to its callers."
    );
    assert_eq!(order["sections"][0]["title"], "Core");
    assert_eq!(order["sections"][1]["title"], "Everything else");
    assert_eq!(order["suggestions"], saved["suggestions"]);

    let second = ok(call(&world, "save_reading_order", order_for(&ALL, 1)));
    assert_eq!(second["version"], 2);
}

#[test]
fn after_new_commits_the_order_says_it_was_saved_before_them() {
    let world = World::new();
    ok(call(&world, "save_reading_order", order_for(&ALL, 0)));
    crate::app::pull_request::test_support::script_pull(&world.github, "h2", 3);
    let after = read(&world);
    assert_eq!(after["pullRequest"]["headSha"], "h2", "{after}");
    assert_eq!(after["currentOrder"]["savedBeforeLatestCommits"], true);
}

#[test]
fn an_order_that_is_refused_leaves_nothing_saved() {
    type Build = fn(&mut Value);
    let cases: [(&str, Build, &str); 6] = [
        (
            "a missing file",
            |o| o["sections"][0]["files"] = json!([{ "path": "src/f1.rs" }]),
            "The order must list every changed file",
        ),
        (
            "an unknown file",
            |o| push(o, 0, json!({ "path": "nope.ts" })),
            "The order must list every changed file",
        ),
        (
            "a file listed twice",
            |o| push(o, 1, json!({ "path": "src/f0.rs" })),
            "The order must list every changed file",
        ),
        (
            "an empty checklist item",
            |o| o["sections"][0]["checks"] = json!(["  "]),
            "The order is invalid: sections[0].checks[0] is empty",
        ),
        (
            "too many sections",
            |o| {
                let one = json!({ "title": "t", "files": [{ "path": "src/f0.rs" }] });
                o["sections"] = Value::Array(vec![one; 51]);
            },
            "The order is invalid: ",
        ),
        (
            "an unknown change id",
            |o| {
                let first = o["sections"][0]["files"].as_array_mut();
                if let Some(files) = first {
                    files.retain(|f| f["path"] != "src/f2.rs");
                    files.push(json!({ "path": "src/f2.rs", "hunks": ["hnotreal"] }));
                }
            },
            "The order must list every changed file, and place every change of a split file exactly once",
        ),
    ];
    for (name, build, message) in cases {
        let world = world_with_a_split_file();
        ok(call(&world, "save_reading_order", order_for(&ALL, 0)));
        let mut order = order_for(&ALL, 1);
        build(&mut order);
        let text = refused(call(&world, "save_reading_order", order));
        assert!(text.starts_with(message), "{name}: {text}");
        assert_eq!(
            saved_versions(&world, DocumentKind::Order),
            1,
            "{name}: nothing saved"
        );
        assert_eq!(read(&world)["baseVersion"], 1, "{name}");
    }
}

fn push(order: &mut Value, section: usize, file: Value) {
    if let Some(files) = order["sections"][section]["files"].as_array_mut() {
        files.push(file);
    }
}

#[test]
fn target_and_shape_problems_of_an_order_come_in_one_reply_before_github() {
    let world = World::new();
    let mut order = order_for(&ALL, 0);
    order["number"] = json!(0);
    order.as_object_mut().map(|o| o.remove("base_version"));
    order["sections"][0]["checks"] = json!(["  "]);
    let text = refused(call(&world, "save_reading_order", order));
    assert!(
        text.starts_with("The order is invalid: number must be"),
        "{text}"
    );
    assert!(text.contains("; base_version is required"), "{text}");
    assert!(text.contains("; sections[0].checks[0] is empty"), "{text}");
    assert_eq!(world.github.total(), 0, "no GitHub request");
    assert_eq!(saved_versions(&world, DocumentKind::Order), 0);
}

/// The order of `world_with_a_split_file` with `src/f2.rs` split: `first` in Core, the rest in
/// the other section.
fn split_order(first: Value) -> Value {
    let mut order = order_for(&["src/f0.rs", "src/f1.rs"], 0);
    push(&mut order, 0, first);
    push(
        &mut order,
        1,
        json!({ "path": "src/f2.rs", "note": "The rest." }),
    );
    order
}

#[test]
fn a_split_placing_every_change_once_is_saved_and_a_change_named_twice_counts_once() {
    let world = world_with_a_split_file();
    let file = read(&world)["files"]
        .as_array()
        .and_then(|files| files.iter().find(|f| f["path"] == "src/f2.rs").cloned())
        .unwrap_or_default();
    let change = file["changes"][0]["id"].clone();
    assert!(change.is_string(), "src/f2.rs has changes: {file}");
    let saved = ok(call(
        &world,
        "save_reading_order",
        split_order(json!({ "path": "src/f2.rs", "hunks": [change.clone()], "note": "Part 1." })),
    ));
    assert_eq!(saved["version"], 1, "{saved}");
    let mut twice =
        split_order(json!({ "path": "src/f2.rs", "hunks": [change.clone(), change.clone()] }));
    twice["base_version"] = json!(1);
    ok(call(&world, "save_reading_order", twice));
    let current = read(&world);
    let part = current["currentOrder"]["sections"][0]["files"]
        .as_array()
        .and_then(|files| files.iter().find(|f| f["path"] == "src/f2.rs").cloned())
        .unwrap_or_default();
    assert_eq!(part["hunks"], json!([change]), "{current}");
}

#[test]
fn without_write_access_the_reader_is_named_and_cannot_arrange() {
    let world = World::new();
    world.github.on(
        "/repos/o/r",
        [Scripted::ok(
            r#"{"full_name":"o/r","private":false,"permissions":{"push":false,"pull":true}}"#,
        )],
    );
    assert_eq!(read(&world)["canArrange"], false);
    let text = refused(call(&world, "save_reading_order", order_for(&ALL, 0)));
    assert!(text.starts_with("octo doesn't have write access"), "{text}");
    assert_eq!(saved_versions(&world, DocumentKind::Order), 0);
}

/// The end-to-end test's diagram: a split file's change and a plain file linked.
fn diagram(base_version: i64) -> Value {
    json!({
        "owner": "o", "repo": "r", "number": 1, "base_version": base_version,
        "diagram": {
            "title": "How an order is saved",
            "groups": [{ "id": "server", "title": "Server" }],
            "nodes": [
                { "id": "agent", "title": "Agent calls save", "kind": "trigger",
                  "lines": [{ "label": "example", "text": "save_reading_order" }] },
                { "id": "check", "title": "Validate <order>", "kind": "decision", "group": "server",
                  "file": "src/f2.rs", "hunk": "CHANGE" },
                { "id": "store", "title": "Store version", "kind": "data", "group": "server", "file": "src/f0.rs" },
            ],
            "edges": [
                { "from": "agent", "to": "check", "label": "order" },
                { "from": "check", "to": "store", "label": "if valid", "dashed": true },
            ],
        },
    })
}

/// `world_with_a_split_file` and its diagram, the hunk set to `src/f2.rs`'s first change.
fn diagram_world() -> (World, impl Fn(i64) -> Value) {
    let world = world_with_a_split_file();
    let change = read(&world)["files"][2]["changes"][0]["id"].clone();
    let build = move |base_version| {
        let mut d = diagram(base_version);
        d["diagram"]["nodes"][1]["hunk"] = change.clone();
        d
    };
    (world, build)
}

#[test]
fn a_saved_diagram_answers_its_counts_reads_back_and_conflicts_on_a_stale_base() {
    let (world, diagram) = diagram_world();
    let before = read(&world);
    assert_eq!(before["diagramBaseVersion"], 0);
    assert_eq!(before["currentDiagram"], Value::Null);
    let saved = ok(call(&world, "save_diagram", diagram(0)));
    assert_eq!(
        saved,
        json!({ "saved": true, "version": 1, "diagramUrl": "https://review.test/r/o/r/pull/1#diagram",
                "nodes": 3, "edges": 2, "groups": 1, "linkedFiles": 2 })
    );
    let after = read(&world);
    assert_eq!(after["diagramBaseVersion"], 1);
    assert_eq!(after["currentDiagram"]["version"], 1);
    assert_eq!(after["currentDiagram"]["updatedBy"]["person"], "octo");
    assert_eq!(
        after["currentDiagram"]["diagram"]["nodes"][1]["title"],
        "Validate <order>"
    );
    assert_eq!(after["baseVersion"], 0, "the reading order is untouched");
    let stale = refused(call(&world, "save_diagram", diagram(0)));
    assert!(
        stale.starts_with("Conflict: octo saved diagram version 1"),
        "{stale}"
    );
    assert_eq!(saved_versions(&world, DocumentKind::Diagram), 1);
}

#[test]
fn a_refused_diagram_leaves_nothing_saved() {
    type Mutate = fn(&mut Value);
    let cases: [(&str, Mutate, &str, &str); 7] = [
        (
            "an edge to an unknown node",
            |d| edges(d).push(json!({ "from": "agent", "to": "ghost" })),
            "The diagram is invalid: ",
            "ghost",
        ),
        (
            "one node only",
            |d| {
                d["nodes"] = json!([d["nodes"][0].clone()]);
                d["edges"] = json!([]);
            },
            "The diagram is invalid: ",
            "",
        ),
        (
            "a duplicate id across groups and nodes",
            |d| {
                d["nodes"][0]["id"] = json!("server");
                d["edges"][0]["from"] = json!("server");
            },
            "The diagram is invalid: ",
            "",
        ),
        (
            "a bad kind",
            |d| d["nodes"][0]["kind"] = json!("rocket"),
            "The diagram is invalid: ",
            "kind",
        ),
        (
            "a long edge label",
            |d| d["edges"][0]["label"] = json!("x".repeat(41)),
            "The diagram is invalid: ",
            "label",
        ),
        (
            "a file not in the pull request",
            |d| d["nodes"][2]["file"] = json!("src/not-changed.rs"),
            "The diagram points at files or changes that aren't in the pull request",
            "",
        ),
        (
            "a change of another file",
            |d| d["nodes"][2]["hunk"] = json!("hzzzzzz"),
            "The diagram points at files or changes that aren't in the pull request",
            "",
        ),
    ];
    for (name, mutate, start, names) in cases {
        let (world, diagram) = diagram_world();
        let mut args = diagram(0);
        mutate(&mut args["diagram"]);
        let text = refused(call(&world, "save_diagram", args));
        assert!(text.starts_with(start), "{name}: {text}");
        assert!(text.contains(names), "{name}: {text}");
        assert_eq!(saved_versions(&world, DocumentKind::Diagram), 0, "{name}");
        assert_eq!(read(&world)["diagramBaseVersion"], 0, "{name}");
    }
}

fn edges(diagram: &mut Value) -> &mut Vec<Value> {
    match diagram["edges"].as_array_mut() {
        Some(edges) => edges,
        None => panic!("the diagram has edges"),
    }
}

#[test]
fn target_unknown_key_and_shape_problems_of_a_diagram_come_in_one_reply_before_github() {
    let world = World::new();
    let mut args = diagram(-1);
    args["colour"] = json!("red");
    args["diagram"]["nodes"][0]["kind"] = json!("rocket");
    let text = refused(call(&world, "save_diagram", args));
    assert!(
        text.starts_with("The diagram is invalid: base_version must be"),
        "{text}"
    );
    assert!(text.contains("colour"), "{text}");
    assert!(text.contains("kind"), "{text}");
    assert_eq!(world.github.total(), 0, "no GitHub request");
    assert_eq!(saved_versions(&world, DocumentKind::Diagram), 0);
}

#[test]
fn an_orders_next_step_knows_whether_a_diagram_is_saved() {
    // Six files: not small, so the next step speaks of the diagram.
    let world = World::new();
    crate::app::pull_request::test_support::script_pull(&world.github, "h1", 6);
    let six = [
        "src/f0.rs",
        "src/f1.rs",
        "src/f2.rs",
        "src/f3.rs",
        "src/f4.rs",
        "src/f5.rs",
    ];
    let first = ok(call(&world, "save_reading_order", order_for(&six, 0)));
    let says_drawn = |step: &Value| {
        let step = step.as_str().unwrap_or_default();
        step.contains("has a diagram") || step.contains("this one has one")
    };
    assert!(!says_drawn(&first["nextStep"]), "{first}");
    ok(call(&world, "save_diagram", super::diagram_args(0)));
    let second = ok(call(&world, "save_reading_order", order_for(&six, 1)));
    assert!(says_drawn(&second["nextStep"]), "{second}");
}
