//! The bearer check: the person's rate window, the remembered checks and their capacity, the
//! resource a token is bound to, and the last use written at most once a minute.
//! (The window's case moved here from `tests/e2e/oauth.test.mjs`, "rate limit per person",
//! which made 31 requests through workerd; one smoke case stays there.)

use super::support::{block_on, World, RESOURCE};
use crate::app::person::check::{CHECKED_CAPACITY, USE_WRITTEN_EVERY_SECONDS};
use crate::oauth::person_api::{AddressReply, AddressRequest, CheckReply, CheckRequest};

fn check_limited(world: &World, token: &str, limit: u32) -> CheckReply {
    let request = CheckRequest {
        limit_per_minute: limit,
        ..World::check_request(token)
    };
    block_on(world.person().check(&request)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn an_allowed_check_says_who_and_what() {
    let world = World::new();
    let (access, _) = world.connect("app");
    match world.check(&access) {
        CheckReply::Allowed {
            person,
            login,
            github_token,
            may_write,
            client_name,
        } => {
            assert_eq!(person, "gh:42");
            assert_eq!(login, "octo");
            assert_eq!(github_token, "gho_one");
            assert!(may_write);
            assert_eq!(client_name, "App app");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_window_refuses_past_the_limit_and_opens_a_minute_later() {
    let world = World::new();
    let (access, _) = world.connect("app");
    for _ in 0..30 {
        assert!(matches!(
            check_limited(&world, &access, 30),
            CheckReply::Allowed { .. }
        ));
    }
    match check_limited(&world, &access, 30) {
        CheckReply::Limited {
            retry_after_seconds,
        } => assert!((1..=60).contains(&retry_after_seconds)),
        other => panic!("the 31st request was not limited: {other:?}"),
    }
    world.wait(60);
    assert!(matches!(
        check_limited(&world, &access, 30),
        CheckReply::Allowed { .. }
    ));
}

#[test]
fn another_persons_window_is_their_own() {
    let busy = World::new();
    let (access, _) = busy.connect("app");
    for _ in 0..3 {
        check_limited(&busy, &access, 3);
    }
    assert!(matches!(
        check_limited(&busy, &access, 3),
        CheckReply::Limited { .. }
    ));
    let other = World::new();
    let (theirs, _) = other.connect("app");
    assert!(matches!(
        check_limited(&other, &theirs, 3),
        CheckReply::Allowed { .. }
    ));
}

#[test]
fn the_address_window_counts_per_object() {
    let world = World::new();
    let request = AddressRequest {
        limit_per_minute: 2,
    };
    assert_eq!(world.person().address(&request), AddressReply::Allowed);
    assert_eq!(world.person().address(&request), AddressReply::Allowed);
    assert!(matches!(
        world.person().address(&request),
        AddressReply::Limited { .. }
    ));
    #[derive(serde::Deserialize)]
    struct Count {
        n: u64,
    }
    use crate::ports::sql::Sql;
    let tables: Vec<Count> = world
        .sql
        .rows("SELECT COUNT(*) AS n FROM sqlite_master", &[])
        .unwrap_or_default();
    assert_eq!(
        tables[0].n, 0,
        "an address object stores nothing, not even tables"
    );
}

#[test]
fn the_remembered_checks_stay_within_their_capacity() {
    let world = World::new();
    let tokens: Vec<String> = (0..CHECKED_CAPACITY + 4)
        .map(|i| world.connect(&format!("app{i}")).0)
        .collect();
    for token in &tokens {
        assert!(world.allowed(token));
    }
    assert_eq!(world.memory.checked.borrow().len(), CHECKED_CAPACITY);
    // The oldest were forgotten, not refused: they are read again.
    assert!(world.allowed(&tokens[0]));
    assert_eq!(world.memory.checked.borrow().len(), CHECKED_CAPACITY);
}

#[test]
fn a_remembered_check_is_forgotten_by_any_writing_operation() {
    let world = World::new();
    let (access, _) = world.connect("app");
    assert!(world.allowed(&access));
    // The grant goes behind the memory's back (as a revocation would) …
    crate::app::person::records::Records::new(&world.sql)
        .revoke_all_grants()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(world.allowed(&access), "… and the memory still says yes");
    // … until an operation that writes runs, which forgets before and after.
    world.answer("/settings", r#"{"current_token":null}"#);
    assert!(!world.allowed(&access));
}

#[test]
fn a_token_is_good_only_at_its_resource() {
    let world = World::new();
    let (access, _) = world.connect("app");
    let elsewhere = CheckRequest {
        resource: "https://other.test/mcp".into(),
        ..World::check_request(&access)
    };
    assert_eq!(
        block_on(world.person().check(&elsewhere)),
        Ok(CheckReply::Invalid)
    );
    assert!(world.allowed(&access), "{RESOURCE}");
}

#[test]
fn refresh_and_code_strings_are_not_bearer_tokens() {
    let world = World::new();
    let (_, refresh) = world.connect("app");
    assert_eq!(world.check(&refresh), CheckReply::Invalid);
    assert_eq!(world.check("lfa_garbage"), CheckReply::Invalid);
}

fn last_used(world: &World) -> u64 {
    crate::app::person::records::Records::new(&world.sql)
        .grants()
        .unwrap_or_default()
        .first()
        .map_or(0, |grant| grant.last_used_at)
}

#[test]
fn the_last_use_is_written_at_most_once_a_minute() {
    let world = World::new();
    let (access, _) = world.connect("app");
    let issued_at = last_used(&world);
    world.wait(5);
    assert!(world.allowed(&access));
    let first = last_used(&world);
    assert_eq!(first, issued_at + 5);
    world.wait(USE_WRITTEN_EVERY_SECONDS - 1);
    assert!(world.allowed(&access));
    assert_eq!(
        last_used(&world),
        first,
        "not written again within the minute"
    );
    world.wait(1);
    assert!(world.allowed(&access));
    assert_eq!(last_used(&world), first + USE_WRITTEN_EVERY_SECONDS);
}

fn check_web(world: &World, token: &str, limit: u32) -> CheckReply {
    let request = CheckRequest {
        limit_per_minute: limit,
        web: true,
        ..World::check_request(token)
    };
    block_on(world.person().check(&request)).unwrap_or_else(|e| panic!("{e}"))
}

/// Issue 36: the review pages spend a window of their own, and their reads spend none.
#[test]
fn the_review_pages_window_is_apart_and_reads_are_free() {
    let world = World::new();
    let (access, _) = world.connect("app");
    for _ in 0..3 {
        check_limited(&world, &access, 3);
    }
    assert!(matches!(
        check_limited(&world, &access, 3),
        CheckReply::Limited { .. }
    ));
    // MCP's window is full; the pages' posts and reads still go through.
    for _ in 0..3 {
        assert!(matches!(
            check_web(&world, &access, 3),
            CheckReply::Allowed { .. }
        ));
    }
    assert!(matches!(
        check_web(&world, &access, 3),
        CheckReply::Limited { .. }
    ));
    for _ in 0..50 {
        assert!(matches!(
            check_web(&world, &access, 0),
            CheckReply::Allowed { .. }
        ));
    }
}

/// Issue 36's budget at full size (moved from `tests/e2e/security-round3.test.mjs`, whose case
/// now ticks only past MCP's window): a fast review of a 320-file pull request, every file ticked
/// one by one (about 330 posts) with a page view and a diff per file (reads), all in one minute,
/// stays within the pages' budget, though MCP's window is full.
#[test]
fn a_fast_review_of_a_320_file_pull_request_never_meets_a_429() {
    use crate::oauth::rate_limit::{web_limit, DEFAULT_PER_PERSON};
    let world = World::new();
    let (access, _) = world.connect("app");
    for _ in 0..DEFAULT_PER_PERSON {
        check_limited(&world, &access, DEFAULT_PER_PERSON);
    }
    assert!(matches!(
        check_limited(&world, &access, DEFAULT_PER_PERSON),
        CheckReply::Limited { .. }
    ));
    let post = web_limit(true).unwrap_or(0);
    let read = web_limit(false).unwrap_or(0);
    for request in 0..330 {
        for (kind, limit) in [("post", post), ("read", read), ("read", read)] {
            let reply = check_web(&world, &access, limit);
            assert!(
                matches!(reply, CheckReply::Allowed { .. }),
                "{kind} {request}: {reply:?}"
            );
        }
    }
}
