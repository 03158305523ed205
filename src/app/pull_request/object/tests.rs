//! Issue 36: ticks and drafts written under a login before rows were keyed by person id move to
//! the account whose own index lists them, whatever login it has now, and to nobody else.

use crate::app::pull_request::calls::RouteCall;
use crate::app::pull_request::records::Tick;
use crate::app::pull_request::test_support::{block_on, World};
use crate::github::reviews::{Anchor, Side};
use crate::review::drafts::{Draft, DraftPut, PutOutcome};

/// A tick stored under `key` at head `h1`, as the object did before issue 36.
fn old_tick(world: &World, key: &str, item: &str) {
    world
        .records()
        .tick(&Tick {
            person: key.into(),
            items: vec![item.into()],
            done: true,
            head_sha: "h1".into(),
            at: "2026-11-01T00:00:00Z".into(),
        })
        .unwrap();
}

/// A draft stored under `key` at head `h1`, as the object did before issue 36.
fn old_draft(world: &World, key: &str, body: &str) {
    let put = DraftPut {
        person: key.into(),
        id: None,
        draft: Draft {
            id: 0,
            anchor: Anchor {
                path: "src/f0.rs".into(),
                line: 2,
                side: Side::Right,
                start_line: None,
                start_side: None,
            },
            head_sha: "h1".into(),
            lines: Vec::new(),
            body: body.into(),
            updated_at: "2026-11-01T00:00:00Z".into(),
        },
    };
    let stored = world.records().put_draft(&put).unwrap();
    assert!(matches!(stored, PutOutcome::Stored(_)), "{stored:?}");
}

fn draft_bodies(world: &World, key: &str) -> Vec<String> {
    let drafts = world.records().drafts(key).unwrap();
    drafts.into_iter().map(|draft| draft.body).collect()
}

/// `person`, signed in as `login`, opens the pull request (the viewer's read that every
/// reviewer route starts with).
fn visit(world: &World, person: &str, login: &str) {
    let mut call = world.call(person, RouteCall::Arrange);
    call.viewer.login = login.to_string();
    let read = world.run(&call.viewer, |object, viewer| {
        block_on(object.viewer_read(viewer))
    });
    assert!(matches!(read, Ok(Ok(_))), "the viewer's read");
}

fn items(world: &World, key: &str) -> Vec<String> {
    let rows = world.records().ticks(key).unwrap();
    rows.into_iter().map(|row| row.item).collect()
}

#[test]
fn an_account_renamed_before_its_first_visit_keeps_its_rows() {
    let world = World::new();
    old_tick(&world, "octo-old", "file:src/f0.rs");
    // gh:9 wrote them as octo-old: its own index says so.
    world
        .around
        .noted
        .borrow_mut()
        .push("gh:9 o/r#1@octo-old".into());
    visit(&world, "gh:9", "octo-new");
    assert_eq!(items(&world, "gh:9"), ["file:src/f0.rs"]);
    assert!(items(&world, "octo-old").is_empty());
    assert!(world.records().login_keys().unwrap().is_empty());
}

#[test]
fn a_new_holder_of_a_released_login_gets_none_and_the_index_is_asked_once() {
    let world = World::new();
    old_tick(&world, "octo", "file:src/f0.rs");
    old_draft(&world, "octo", "earlier holder's draft");
    visit(&world, "gh:7", "octo");
    visit(&world, "gh:7", "octo");
    assert!(items(&world, "gh:7").is_empty());
    assert!(draft_bodies(&world, "gh:7").is_empty());
    assert_eq!(
        items(&world, "octo"),
        ["file:src/f0.rs"],
        "kept for its owner"
    );
    assert_eq!(draft_bodies(&world, "octo"), ["earlier holder's draft"]);
    assert_eq!(world.around.asked.get(), 1, "once per person per instance");
    // Its owner, renamed since, comes back and takes them.
    world
        .around
        .noted
        .borrow_mut()
        .push("gh:9 o/r#1@octo".into());
    visit(&world, "gh:9", "octo-renamed");
    assert_eq!(items(&world, "gh:9"), ["file:src/f0.rs"]);
    assert_eq!(draft_bodies(&world, "gh:9"), ["earlier holder's draft"]);
    assert!(draft_bodies(&world, "octo").is_empty());
}

#[test]
fn without_rows_under_logins_the_index_is_not_asked() {
    let world = World::new();
    visit(&world, "gh:9", "octo");
    assert_eq!(world.around.asked.get(), 0);
}
