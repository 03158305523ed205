//! The index of ticked pull requests and "Delete my data".

use super::support::World;
use crate::person_data::{Forgotten, Ticked, TickedList, TICK_RETENTION_SECONDS};

fn ticked(number: u64) -> Ticked {
    Ticked {
        owner: "LogiKFlow".into(),
        repo: "Demo".into(),
        number,
        login: "octo".into(),
    }
}

fn note(world: &World, number: u64) {
    let body = serde_json::to_string(&ticked(number)).unwrap_or_default();
    assert_eq!(world.answer("/data/ticked/note", &body), "{}");
}

fn list(world: &World, limit: usize) -> Vec<u64> {
    let body = world.answer("/data/ticked/list", &format!(r#"{{"limit":{limit}}}"#));
    let list: TickedList = crate::json::decode(&body).unwrap_or_default();
    list.pulls.iter().map(|pull| pull.number).collect()
}

#[test]
fn the_index_lists_least_recently_ticked_first_in_batches() {
    let world = World::new();
    for number in [3, 1, 2] {
        note(&world, number);
        world.wait(1);
    }
    note(&world, 3);
    assert_eq!(list(&world, 10), vec![1, 2, 3]);
    assert_eq!(list(&world, 2), vec![1, 2]);
    let drop = TickedList {
        pulls: vec![ticked(1)],
    };
    let body = serde_json::to_string(&drop).unwrap_or_default();
    assert_eq!(world.answer("/data/ticked/drop", &body), "{}");
    assert_eq!(list(&world, 10), vec![2, 3]);
}

#[test]
fn a_batch_is_at_most_the_pulls_per_request() {
    let world = World::new();
    for number in 0..45 {
        note(&world, number);
    }
    assert_eq!(
        list(&world, 1000).len(),
        crate::person_data::PULLS_PER_REQUEST
    );
}

#[test]
fn entries_unchanged_for_a_year_are_swept() {
    let world = World::new();
    note(&world, 1);
    note(&world, 2);
    world.wait(TICK_RETENTION_SECONDS - 10);
    note(&world, 2);
    world.wait(11);
    note(&world, 3);
    assert_eq!(list(&world, 10), vec![2, 3], "the year-old entry went");
}

#[test]
fn delete_my_data_removes_every_row_and_the_tokens_fail_at_once() {
    let world = World::new();
    let (access, _) = world.connect("app");
    world.begin("pending-app");
    note(&world, 7);
    world.answer(
        "/api-token/create",
        r#"{"person":"42","name":"CI","may_write":false}"#,
    );
    assert!(world.allowed(&access));
    let body = world.answer("/data/forget", "");
    let forgotten: Forgotten = crate::json::decode(&body).unwrap_or_default();
    assert_eq!(
        forgotten,
        Forgotten {
            grants: 1,
            api_tokens: 1,
            github_token: true
        }
    );
    for table in crate::app::person::records::TABLES {
        assert_eq!(world.rows(table), 0, "{table}");
    }
    assert!(!world.allowed(&access), "refused on the very next request");
    assert!(world.memory.opened.borrow().is_none());
}

/// Issue 36: a pull request's object asks whether rows under a login are this person's.
#[test]
fn the_index_says_whether_it_lists_a_pull_request_under_a_key() {
    let world = World::new();
    note(&world, 7);
    let listed = serde_json::to_string(&ticked(7)).unwrap_or_default();
    assert_eq!(
        world.answer("/data/ticked/has", &listed),
        r#"{"listed":true,"logins":["octo"]}"#
    );
    let other = Ticked {
        login: "gh:42".into(),
        ..ticked(7)
    };
    let body = serde_json::to_string(&other).unwrap_or_default();
    assert_eq!(
        world.answer("/data/ticked/has", &body),
        r#"{"listed":false,"logins":["octo"]}"#
    );
}

/// Issue 36: an account renamed before its first visit since rows were keyed by id finds its
/// rows by the logins its own index lists the pull request under: every login of that pull
/// request (any case of its name), never a person id, never another pull request's.
#[test]
fn the_index_names_the_logins_it_lists_a_pull_request_under() {
    let world = World::new();
    note(&world, 7);
    note(&world, 8);
    for (login, owner) in [("octo-old", "logikflow"), ("gh:42", "LogiKFlow")] {
        let body = serde_json::to_string(&Ticked {
            owner: owner.into(),
            login: login.into(),
            ..ticked(7)
        })
        .unwrap_or_default();
        assert_eq!(world.answer("/data/ticked/note", &body), "{}");
    }
    let asked = Ticked {
        login: "octo-new".into(),
        ..ticked(7)
    };
    let body = serde_json::to_string(&asked).unwrap_or_default();
    assert_eq!(
        world.answer("/data/ticked/has", &body),
        r#"{"listed":false,"logins":["octo","octo-old"]}"#
    );
}
