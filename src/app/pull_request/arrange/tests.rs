//! Arranging on the web in process: the editor's page, its refusals (as a page, or as JSON for a
//! save), and a save checked against `base_version` and the order's validator before it is
//! stored with source `web`.

use serde_json::{json, Value};

use crate::app::pull_request::calls::{RouteCall, CSRF_COOKIE_HEADER};
use crate::app::pull_request::test_support::{Scripted, World};
use crate::http::HttpReply;
use crate::review::model::saved::{DocumentKind, SaveOutcome, SaveRequest};
use crate::web::arrange_page::submission;

fn order(paths: &[&str]) -> Value {
    let files: Vec<Value> = paths.iter().map(|path| json!({ "path": path })).collect();
    json!({ "sections": [{ "title": "All", "files": files }] })
}

const ALL: [&str; 3] = ["src/f0.rs", "src/f1.rs", "src/f2.rs"];

/// Saves a first order, as an agent would.
fn saved(world: &World) {
    let outcome = world
        .records()
        .save(&SaveRequest {
            kind: DocumentKind::Order,
            base_version: 0,
            body: order(&ALL),
            person: "agent-person".into(),
            client: Some("agent".into()),
            source: "agent".into(),
            head_sha: "h1".into(),
            saved_at: "2026-11-01T00:00:00Z".into(),
        })
        .unwrap();
    assert!(matches!(outcome, SaveOutcome::Saved { version: 1, .. }));
}

fn open(world: &World) -> HttpReply {
    world.answer(&world.call("gh:9", RouteCall::Arrange))
}

/// Saves `form`, read as the Worker reads the editor's JSON.
fn save(world: &World, form: Value) -> (u16, Value) {
    let submitted = submission(form.to_string().as_bytes()).expect("a well-formed save");
    let reply = world.answer(&world.call("gh:9", RouteCall::ArrangeSave(submitted)));
    (reply.status, serde_json::from_str(&reply.body).unwrap())
}

#[test]
fn the_editor_opens_on_the_saved_order() {
    let world = World::new();
    saved(&world);
    let reply = open(&world);
    assert_eq!(reply.status, 200);
    assert!(reply.body.contains("src/f1.rs"));
    assert!(reply
        .headers
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case(CSRF_COOKIE_HEADER)));
}

#[test]
fn without_an_order_or_write_access_the_editor_refuses() {
    let world = World::new();
    assert_eq!(open(&world).status, 404);
    let (status, body) = save(&world, json!({ "base_version": 0, "order": order(&ALL) }));
    assert_eq!(status, 404);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("arrange this pull request first"));
    saved(&world);
    world.github.on(
        "/repos/o/r",
        [Scripted::ok(
            r#"{"full_name":"o/r","permissions":{"push":false}}"#,
        )],
    );
    let reply = open(&world);
    assert_eq!(reply.status, 403);
    assert!(reply.body.contains("Read-only"));
    let (status, body) = save(&world, json!({ "base_version": 1, "order": order(&ALL) }));
    assert_eq!(status, 403);
    assert!(body["error"].is_string());
    assert_eq!(
        world.records().history(DocumentKind::Order).unwrap().len(),
        1
    );
}

#[test]
fn a_save_is_stored_with_source_web_as_the_viewer() {
    let world = World::new();
    saved(&world);
    let reordered = order(&["src/f2.rs", "src/f0.rs", "src/f1.rs"]);
    let (status, body) = save(&world, json!({ "base_version": 1, "order": reordered }));
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({ "version": 2, "location": "/r/o/r/pull/1", "commitStatus": { "set": true } })
    );
    let latest = world.records().current().unwrap().order.unwrap();
    assert_eq!(
        (
            latest.source.as_str(),
            latest.person.as_str(),
            latest.client
        ),
        ("web", "octo", None)
    );
    assert_eq!(latest.head_sha, "h1");
}

#[test]
fn a_stale_or_invalid_save_stores_nothing() {
    let world = World::new();
    saved(&world);
    let (status, body) = save(&world, json!({ "base_version": 0, "order": order(&ALL) }));
    assert_eq!(status, 409);
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("agent-person saved version 1"));
    let (status, body) = save(
        &world,
        json!({ "base_version": 1, "order": order(&["src/f0.rs"]) }),
    );
    assert_eq!(status, 400);
    let error = body["error"].as_str().unwrap_or("");
    assert!(
        error.starts_with("The order must list every changed file: "),
        "{error}"
    );
    // The tool's shape checks, with their message (a title over 200 characters).
    let long_title = json!({
        "base_version": 1,
        "order": { "sections": [{ "title": "x".repeat(201), "files": [] }] },
    });
    let (status, body) = save(&world, long_title);
    assert_eq!(status, 400);
    let error = body["error"].as_str().unwrap_or("");
    assert!(error.starts_with("The order is invalid: "), "{error}");
    // A body of another shape never becomes a call (`calls::tests`,
    // `a_bad_arrange_save_is_refused_with_its_message`).
    assert_eq!(
        world.records().history(DocumentKind::Order).unwrap().len(),
        1
    );
}
