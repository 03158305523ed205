//! The ticks route in process: the viewer's read first, each tick against the page, the
//! person's index noted before any tick is stored, the cap per tick, the first tick at a head
//! recording its files, and nothing stored for a refused batch.

use serde_json::json;

use super::tick_batch;
use crate::app::pull_request::object::{Object, Viewer};
use crate::app::pull_request::read::ReadMemo;
use crate::app::pull_request::records::{Records, Tick, TickSweep};
use crate::app::pull_request::test_support::{
    block_on, clock, config, script_pull, storage, Around, ScriptedGitHub,
};
use crate::github::client::GitHub;
use crate::ports::clock::FixedClock;
use crate::ports::sql::native::MemorySql;
use crate::router::PullPath;
use crate::tools::relay::reviewer::{read_results, ReviewerCall, TickResult};
use crate::tools::saved::MAX_TICKS_PER_PERSON;
use crate::web::tick_batch::{MAX_BATCH_ITEMS, NOT_ON_PAGE};

struct World {
    sql: MemorySql,
    around: Around,
    github: ScriptedGitHub,
    memo: ReadMemo,
    sweep: TickSweep,
    clock: FixedClock,
    schema_ready: std::cell::Cell<bool>,
}

impl World {
    fn new() -> World {
        let github = ScriptedGitHub::new();
        script_pull(&github, "h1", 3);
        World {
            sql: storage(),
            around: Around::default(),
            github,
            memo: ReadMemo::default(),
            sweep: TickSweep::default(),
            clock: clock(),
            schema_ready: std::cell::Cell::new(false),
        }
    }

    fn tick(&self, person: &str, ticks: &[(&str, bool)]) -> Vec<TickResult> {
        let ticks: Vec<_> = ticks
            .iter()
            .map(|(item, done)| json!({ "item": item, "done": done }))
            .collect();
        let call: ReviewerCall = serde_json::from_value(json!({
            "owner": "o", "repo": "r", "number": 1, "github_token": "t", "login": "octo",
            "person": person, "base_url": "https://review.test", "ticks": ticks,
        }))
        .unwrap();
        let config = config();
        let github = GitHub::new(&config, "t", &self.github, &self.clock);
        let pull = PullPath {
            owner: "o".into(),
            repo: "r".into(),
            number: 1,
        };
        let viewer = Viewer {
            call: &call,
            github: &github,
            pull: &pull,
        };
        let object = Object {
            storage: &self.sql,
            platform: &self.around,
            memo: &self.memo,
            sweep: &self.sweep,
            clock: &self.clock,
            schema_ready: &self.schema_ready,
        };
        let reply = block_on(tick_batch(&object, &viewer)).unwrap();
        assert_eq!(reply.status, 200);
        read_results(&reply.body, call.ticks.len()).unwrap()
    }

    fn ticked(&self) -> Vec<String> {
        let records = Records::new(&self.sql);
        records
            .ticks("gh:9")
            .unwrap()
            .into_iter()
            .map(|row| row.item)
            .collect()
    }
}

fn statuses(results: &[TickResult]) -> Vec<u16> {
    results.iter().map(|result| result.status).collect()
}

#[test]
fn a_batch_stores_what_the_page_offers_and_refuses_the_rest_per_tick() {
    let world = World::new();
    let results = world.tick(
        "gh:9",
        &[
            ("file:src/f0.rs", true),
            ("file:nope.rs", true),
            ("file:src/f1.rs", true),
        ],
    );
    assert_eq!(statuses(&results), [200, 404, 200]);
    assert_eq!(results[1].error.as_deref(), Some(NOT_ON_PAGE));
    let ticked = world.ticked();
    assert_eq!(ticked.len(), 2, "{ticked:?}");
    assert!(
        ticked.iter().all(|item| item.starts_with("change:src/f")),
        "{ticked:?}"
    );
    // The index was noted once, before the ticks.
    assert_eq!(*world.around.noted.borrow(), ["gh:9 o/r#1@gh:9"]);
    // The first tick at this head recorded its files.
    assert!(Records::new(&world.sql).knows_head("h1").unwrap());
    // Unticking removes them.
    let results = world.tick("gh:9", &[("file:src/f0.rs", false)]);
    assert_eq!(statuses(&results), [200]);
    assert_eq!(world.ticked().len(), 1);
}

#[test]
fn a_batch_nothing_of_which_is_on_the_page_notes_and_stores_nothing() {
    let world = World::new();
    let results = world.tick("gh:9", &[("file:nope.rs", true)]);
    assert_eq!(statuses(&results), [404]);
    assert!(world.around.noted.borrow().is_empty());
    assert!(world.ticked().is_empty());
}

#[test]
fn without_the_index_no_tick_is_stored() {
    let world = World::new();
    world.around.refuse_notes.set(true);
    let results = world.tick("gh:9", &[("file:src/f0.rs", true), ("file:nope.rs", true)]);
    assert_eq!(statuses(&results), [503, 404]);
    assert!(world.ticked().is_empty());
    // A local user has no index to note.
    let results = world.tick("local:octo", &[("file:src/f0.rs", true)]);
    assert_eq!(statuses(&results), [200]);
    assert_eq!(
        Records::new(&world.sql).ticks("local:octo").unwrap().len(),
        1
    );
}

#[test]
fn a_viewer_github_shows_nothing_stores_nothing_and_creates_no_tables() {
    let world = World {
        sql: MemorySql::new(),
        github: ScriptedGitHub::new(),
        ..World::new()
    };
    let results = world.tick(
        "gh:9",
        &[("file:src/f0.rs", true), ("file:src/f1.rs", true)],
    );
    assert_eq!(statuses(&results), [404, 404]);
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
    let results = world.tick("gh:9", &many);
    assert!(statuses(&results).iter().all(|status| *status == 400));
    assert_eq!(world.github.total(), 0, "refused before GitHub is asked");
    assert!(world.ticked().is_empty());
}

#[test]
fn a_person_at_the_cap_is_refused_each_tick_with_409() {
    let world = World::new();
    let records = Records::new(&world.sql);
    let items: Vec<String> = (0..MAX_TICKS_PER_PERSON)
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
    let results = world.tick("gh:9", &[("file:src/f0.rs", true), ("file:nope.rs", true)]);
    assert_eq!(statuses(&results), [409, 404]);
    assert!(results[0]
        .error
        .as_deref()
        .unwrap_or("")
        .contains("5000 ticks"));
}

/// Issue 36: ticks written under a login before rows were keyed by person id move to the
/// account whose own index lists them under that login, and to no other.
#[test]
fn login_rows_move_to_the_account_whose_index_lists_them() {
    let old = |world: &World| {
        Records::new(&world.sql)
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
    world.tick("gh:2", &[("file:nope.rs", true)]);
    assert!(Records::new(&world.sql).ticks("gh:2").unwrap().is_empty());
    assert_eq!(Records::new(&world.sql).ticks("octo").unwrap().len(), 1);
    // The account that wrote them: its index lists the pull request under the login.
    let world = World::new();
    old(&world);
    world
        .around
        .noted
        .borrow_mut()
        .push("gh:9 o/r#1@octo".into());
    world.tick("gh:9", &[("file:nope.rs", true)]);
    assert!(Records::new(&world.sql).ticks("octo").unwrap().is_empty());
    assert_eq!(world.ticked(), ["change:src/f0.rs#old"]);
    assert!(world
        .around
        .noted
        .borrow()
        .contains(&"gh:9 o/r#1@gh:9".to_string()));
}
