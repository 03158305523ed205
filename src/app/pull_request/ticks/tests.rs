//! The ticks route in process: the viewer's read first, each tick against the page, the
//! person's index noted before any tick is stored, the cap per tick, the first tick at a head
//! recording its files, and nothing stored for a refused batch.

use crate::app::pull_request::calls::{read_results, RouteCall};
use crate::app::pull_request::records::Tick;
use crate::app::pull_request::test_support::{ScriptedGitHub, World};
use crate::review::model::ticks::MAX_TICKS_PER_PERSON;
use crate::review::model::ticks::{TickItem, TickResult};
use crate::web::tick_batch::{MAX_BATCH_ITEMS, NOT_ON_PAGE};

/// Ticks as `person` and reads the results.
fn tick(world: &World, person: &str, ticks: &[(&str, bool)]) -> Vec<TickResult> {
    let ticks: Vec<TickItem> = ticks
        .iter()
        .map(|(item, done)| TickItem {
            item: item.to_string(),
            done: *done,
        })
        .collect();
    let sent = ticks.len();
    let reply = world.answer(&world.call(person, RouteCall::Ticks(ticks)));
    assert_eq!(reply.status, 200);
    read_results(&reply.body, sent).unwrap()
}

/// The items `gh:9` holds.
fn ticked(world: &World) -> Vec<String> {
    world
        .records()
        .ticks("gh:9")
        .unwrap()
        .into_iter()
        .map(|row| row.item)
        .collect()
}

fn statuses(results: &[TickResult]) -> Vec<u16> {
    results.iter().map(|result| result.status).collect()
}

#[test]
fn a_batch_stores_what_the_page_offers_and_refuses_the_rest_per_tick() {
    let world = World::new();
    let results = tick(
        &world,
        "gh:9",
        &[
            ("file:src/f0.rs", true),
            ("file:nope.rs", true),
            ("file:src/f1.rs", true),
        ],
    );
    assert_eq!(statuses(&results), [200, 404, 200]);
    assert_eq!(results[1].error.as_deref(), Some(NOT_ON_PAGE));
    let items = ticked(&world);
    assert_eq!(items.len(), 2, "{items:?}");
    assert!(
        items.iter().all(|item| item.starts_with("change:src/f")),
        "{items:?}"
    );
    // The index was noted once, before the ticks.
    assert_eq!(*world.around.noted.borrow(), ["gh:9 o/r#1@gh:9"]);
    // The first tick at this head recorded its files.
    assert!(world.records().knows_head("h1").unwrap());
    // Unticking removes them.
    let results = tick(&world, "gh:9", &[("file:src/f0.rs", false)]);
    assert_eq!(statuses(&results), [200]);
    assert_eq!(ticked(&world).len(), 1);
}

#[test]
fn a_batch_nothing_of_which_is_on_the_page_notes_and_stores_nothing() {
    let world = World::new();
    // A made-up file, a check the pull request doesn't have, an offered item with a tail.
    let results = tick(
        &world,
        "gh:9",
        &[
            ("file:nope.rs", true),
            ("check:000000000000", true),
            ("file:src/f0.rsx", true),
        ],
    );
    assert_eq!(statuses(&results), [404, 404, 404]);
    for result in &results {
        assert_eq!(result.error.as_deref(), Some(NOT_ON_PAGE));
    }
    // One tick alone (read on its own path): a change the pull request doesn't have.
    let results = tick(&world, "gh:9", &[("change:src/f0.rs#hnothere1", true)]);
    assert_eq!(statuses(&results), [404]);
    assert_eq!(results[0].error.as_deref(), Some(NOT_ON_PAGE));
    assert!(world.around.noted.borrow().is_empty());
    assert!(ticked(&world).is_empty());
}

#[test]
fn without_the_index_no_tick_is_stored() {
    let world = World::new();
    world.around.refuse_notes.set(true);
    let results = tick(
        &world,
        "gh:9",
        &[("file:src/f0.rs", true), ("file:nope.rs", true)],
    );
    assert_eq!(statuses(&results), [503, 404]);
    assert!(ticked(&world).is_empty());
    // A local user has no index to note.
    let results = tick(&world, "local:octo", &[("file:src/f0.rs", true)]);
    assert_eq!(statuses(&results), [200]);
    assert_eq!(world.records().ticks("local:octo").unwrap().len(), 1);
}

#[test]
fn a_viewer_github_shows_nothing_stores_nothing_and_creates_no_tables() {
    let world = World {
        github: ScriptedGitHub::new(),
        ..World::new()
    };
    let results = tick(
        &world,
        "gh:9",
        &[("file:src/f0.rs", true), ("file:src/f1.rs", true)],
    );
    assert_eq!(statuses(&results), [404, 404]);
    for result in &results {
        let error = result.error.as_deref().unwrap_or("");
        assert!(
            error.contains("doesn't exist or this account can't see it"),
            "{error}"
        );
    }
    assert!(!world.schema_ready.get());
    #[derive(serde::Deserialize)]
    struct Name {
        #[allow(dead_code)]
        name: String,
    }
    let tables: Vec<Name> = crate::ports::sql::Sql::rows(
        &world.sql,
        "SELECT name FROM sqlite_master WHERE type = 'table'",
        &[],
    )
    .unwrap();
    assert!(tables.is_empty(), "no storage for a refused viewer");
}

#[test]
fn a_batch_of_more_than_max_batch_items_is_refused_whole() {
    let world = World::new();
    let many: Vec<(&str, bool)> = vec![("file:src/f0.rs", true); MAX_BATCH_ITEMS + 1];
    let results = tick(&world, "gh:9", &many);
    assert!(statuses(&results).iter().all(|status| *status == 400));
    assert_eq!(world.github.total(), 0, "refused before GitHub is asked");
    assert!(ticked(&world).is_empty());
}

/// A batch past the cap stores the ticks that fit and refuses the rest, each with 409.
#[test]
fn a_batch_past_the_cap_stores_what_fits_and_refuses_the_rest_with_409() {
    let world = World::new();
    let records = world.records();
    let items: Vec<String> = (0..MAX_TICKS_PER_PERSON - 1)
        .map(|i| format!("old{i}"))
        .collect();
    records
        .tick(&Tick {
            person: "gh:9".into(),
            items,
            done: true,
            head_sha: "h0".into(),
            at: "2026-11-01T00:00:00Z".into(),
        })
        .unwrap();
    let results = tick(
        &world,
        "gh:9",
        &[
            ("file:src/f0.rs", true),
            ("file:src/f1.rs", true),
            ("file:nope.rs", true),
        ],
    );
    assert_eq!(statuses(&results), [200, 409, 404]);
    assert!(results[1]
        .error
        .as_deref()
        .unwrap_or("")
        .starts_with("You already hold 5000 ticks on this pull request"));
    let held = ticked(&world);
    assert_eq!(held.len(), MAX_TICKS_PER_PERSON);
    assert!(held.iter().any(|item| item.starts_with("change:src/f0.rs")));
    assert!(!held.iter().any(|item| item.starts_with("change:src/f1.rs")));
}

/// Issue 36: ticks written under a login before rows were keyed by person id move to the
/// account whose own index lists them under that login, and to no other.
#[test]
fn login_rows_move_to_the_account_whose_index_lists_them() {
    let old = |world: &World| {
        world
            .records()
            .tick(&Tick {
                person: "octo".into(),
                items: vec!["change:src/f0.rs#old".into()],
                done: true,
                head_sha: "h0".into(),
                at: "2026-11-01T00:00:00Z".into(),
            })
            .unwrap();
    };
    // The new holder of the login: its index lists nothing under it.
    let world = World::new();
    old(&world);
    tick(&world, "gh:2", &[("file:nope.rs", true)]);
    assert!(world.records().ticks("gh:2").unwrap().is_empty());
    assert_eq!(world.records().ticks("octo").unwrap().len(), 1);
    // The account that wrote them: its index lists the pull request under the login.
    let world = World::new();
    old(&world);
    world
        .around
        .noted
        .borrow_mut()
        .push("gh:9 o/r#1@octo".into());
    tick(&world, "gh:9", &[("file:nope.rs", true)]);
    assert!(world.records().ticks("octo").unwrap().is_empty());
    assert_eq!(ticked(&world), ["change:src/f0.rs#old"]);
    assert!(world
        .around
        .noted
        .borrow()
        .contains(&"gh:9 o/r#1@gh:9".to_string()));
}
