//! A diff on demand and lines of context in process: the viewer's read first, the refusals as
//! plain text, the diff of the changes asked for with the viewer's drafts' forms, and context
//! from the file at the head.

use crate::app::pull_request::calls::{Route, RouteCall};
use crate::app::pull_request::read::{read_in_object, Files};
use crate::app::pull_request::test_support::{block_on, Scripted, ScriptedGitHub, World};
use crate::http::HttpReply;

/// The answer to `…/diff` (or `…/context`) with `query`, decoded as the Worker decodes it.
fn get(world: &World, query: &str, context: bool) -> HttpReply {
    let route = if context { Route::Context } else { Route::Diff };
    let route = RouteCall::of_get(route, query).expect("a GET route");
    world.answer(&world.call("gh:9", route))
}

/// The change id of `src/f0.rs`'s one change, as the page's link names it.
fn change_id(world: &World) -> String {
    let call = world.call("gh:9", RouteCall::Arrange);
    world.run(&call.viewer, |object, viewer| {
        let read = block_on(read_in_object(
            &object.platform,
            object.memo,
            viewer.github,
            ("o", "r", 1),
            Files::Whole,
        ))
        .unwrap();
        read.snapshot.files[0].changes[0].id.clone()
    })
}

#[test]
fn a_diff_shows_the_changes_asked_for() {
    let world = World::new();
    let id = change_id(&world);
    let reply = get(
        &world,
        &format!("path=src/f0.rs&hunks={id}&fragment=1"),
        false,
    );
    assert_eq!(reply.status, 200);
    assert!(reply.body.contains("b0"), "{}", reply.body);
    // Without the script, a page with that one diff.
    let page = get(&world, &format!("path=src/f0.rs&hunks={id}"), false);
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("<html")
            || page.body.contains("<!DOCTYPE")
            || page.body.contains("<!doctype")
    );
}

#[test]
fn a_diff_is_refused_in_plain_text() {
    let world = World::new();
    let missing = get(&world, "hunks=x", false);
    assert_eq!(missing.status, 400);
    assert!(missing
        .headers
        .iter()
        .any(|(name, value)| name == "content-type" && value.starts_with("text/plain")));
    let gone = get(&world, "path=src/none.rs&hunks=x", false);
    assert_eq!(gone.status, 404);
    assert!(gone.body.contains("no longer changes this file"));
    let hidden = World {
        github: ScriptedGitHub::new(),
        ..World::new()
    };
    let refused = get(&hidden, "path=src/f0.rs", false);
    assert_eq!(refused.status, 404);
    assert!(
        !hidden.schema_ready.get(),
        "nothing stored for a viewer GitHub shows nothing"
    );
}

#[test]
fn context_comes_from_the_file_at_the_head() {
    let world = World::new();
    // "a\nb0\n" and more lines below the change, base64 as GitHub sends it.
    let text = "a\nb0\nc\nd\n";
    let content = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(text)
    };
    world.github.on(
        "/repos/o/r/contents/src/f0.rs?ref=h1",
        [Scripted::ok(format!(
            r#"{{"content":"{content}","encoding":"base64"}}"#
        ))],
    );
    let reply = get(&world, "path=src/f0.rs&from=3&to=4", true);
    assert_eq!(reply.status, 200, "{}", reply.body);
    let body: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(body["total"], 4);
    assert_eq!(body["lines"][0][2], "c");
    // A file GitHub won't send: the answer names the file, not the pull request (issue 31).
    let world = World::new();
    world.github.on(
        "/repos/o/r/contents/src/f0.rs?ref=h1",
        [Scripted::status(404, r#"{"message":"Not Found"}"#)],
    );
    let reply = get(&world, "path=src/f0.rs&from=3&to=4", true);
    assert_eq!(reply.status, 404);
    assert!(reply.body.contains("src/f0.rs"), "{}", reply.body);
    assert!(
        reply.body.contains("GitHub couldn't serve"),
        "{}",
        reply.body
    );
    assert!(
        !reply.body.contains("pull request doesn't exist"),
        "{}",
        reply.body
    );
}
