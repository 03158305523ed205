//! The sealed GitHub token: refreshed by one request at a time within the in-flight window,
//! kept when GitHub fails, not written back after "Delete my data", and every grant ended when
//! it no longer opens.

use std::pin::pin;
use std::task::Poll;

use super::support::{block_on, github_token, poll_once, World, START};
use crate::app::person::github::REFRESH_IN_FLIGHT_SECONDS;
use crate::oauth::github_flow::REFRESH_MARGIN_SECONDS;
use crate::oauth::person_api::{BeginReply, CheckReply};

const FRESH: &str = r#"{"access_token":"gho_two","refresh_token":"ghr_two","expires_in":28800}"#;

/// A world whose GitHub token expires within the refresh margin, with one connected app.
fn expiring() -> (World, String) {
    let world = World::new();
    let expires_at = START + REFRESH_MARGIN_SECONDS + 100;
    let code = match world.begin_with("app", github_token("gho_one", Some(expires_at))) {
        BeginReply::Consent { consent_id } => match world.consent(&consent_id, true) {
            crate::oauth::person_api::ConsentReply::Approved { code, .. } => code,
            other => panic!("{other:?}"),
        },
        BeginReply::Code { code } => code,
    };
    let (access, _) =
        super::support::issued(world.exchange(&code, "app", super::support::VERIFIER));
    // Inside the margin now.
    world.wait(200);
    (world, access)
}

fn github_of(reply: CheckReply) -> String {
    match reply {
        CheckReply::Allowed { github_token, .. } => github_token,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_token_about_to_expire_is_refreshed_and_stored() {
    let (world, access) = expiring();
    world.github.answer(FRESH);
    assert_eq!(github_of(world.check(&access)), "gho_two");
    assert_eq!(world.github.count(), 1);
    let exchange = &world.github.exchanges.borrow()[0];
    assert_eq!(exchange.url, "http://github.test/login/oauth/access_token");
    assert!(exchange
        .body
        .as_deref()
        .is_some_and(|body| body.contains("grant_type=refresh_token")));
    // Stored sealed, and not refreshed again.
    world.memory.forget_checks();
    *world.memory.opened.borrow_mut() = None;
    assert_eq!(github_of(world.check(&access)), "gho_two");
    assert_eq!(world.github.count(), 1);
}

#[test]
fn a_failed_refresh_keeps_the_current_token_and_says_so_in_the_log() {
    let (world, access) = expiring();
    // No answer queued: the stand-in times out.
    assert_eq!(github_of(world.check(&access)), "gho_one");
    let warnings = world.memory.take_warnings();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("refreshing the GitHub token failed")),
        "{warnings:?}"
    );
}

#[test]
fn one_refresh_at_a_time_within_the_in_flight_window() {
    let (world, access) = expiring();
    world.github.held.set(true);
    let person = world.person();
    let first_request = World::check_request(&access);
    let mut first = pin!(person.check(&first_request));
    assert!(poll_once(first.as_mut()).is_pending(), "awaiting GitHub");
    assert_eq!(world.github.count(), 1);
    // Meanwhile another request goes on with the current token, without asking GitHub.
    let second_request = World::check_request(&access);
    let mut second = pin!(person.check(&second_request));
    match poll_once(second.as_mut()) {
        Poll::Ready(Ok(reply)) => assert_eq!(github_of(reply), "gho_one"),
        other => panic!("the second request waited on GitHub: {other:?}"),
    }
    assert_eq!(world.github.count(), 1, "one refresh in flight");
    // A refresh that never finishes blocks the next one only for the window.
    world.wait(REFRESH_IN_FLIGHT_SECONDS);
    let third_request = World::check_request(&access);
    let mut third = pin!(person.check(&third_request));
    assert!(poll_once(third.as_mut()).is_pending());
    assert_eq!(world.github.count(), 2, "the window has passed");
    // GitHub answers both; the first's answer is stored.
    world.github.answer(FRESH);
    world.github.answer(FRESH);
    world.github.held.set(false);
    assert!(matches!(poll_once(first.as_mut()), Poll::Ready(Ok(_))));
    assert!(matches!(poll_once(third.as_mut()), Poll::Ready(Ok(_))));
}

#[test]
fn a_refresh_answered_after_delete_my_data_stores_nothing() {
    let (world, access) = expiring();
    world.github.held.set(true);
    let person = world.person();
    let request = World::check_request(&access);
    let mut check = pin!(person.check(&request));
    assert!(poll_once(check.as_mut()).is_pending());
    world.answer("/data/forget", "");
    world.github.answer(FRESH);
    world.github.held.set(false);
    match poll_once(check.as_mut()) {
        Poll::Ready(Ok(reply)) => assert_eq!(reply, CheckReply::Invalid),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        world.rows("github"),
        0,
        "the refreshed token was not written back"
    );
}

#[test]
fn a_token_that_no_longer_opens_ends_every_grant() {
    let world = World::new();
    let (access, refresh) = world.connect("app");
    let records = crate::app::person::records::Records::new(&world.sql);
    records
        .store_github("octo", "test.gh:7|sealed-for-someone-else", START)
        .unwrap_or_else(|e| panic!("{e}"));
    world.memory.forget_checks();
    assert_eq!(world.check(&access), CheckReply::Invalid);
    assert_eq!(world.rows("grants"), 0);
    assert_eq!(world.rows("tokens"), 0);
    assert_eq!(
        super::support::refused(world.refresh(&refresh, "app")),
        crate::oauth::error::GrantError::RefreshUnknown
    );
}

#[test]
fn a_missing_key_fails_the_check_and_changes_nothing() {
    let world = World::new();
    let (access, _) = world.connect("app");
    world.memory.forget_checks();
    *world.memory.opened.borrow_mut() = None;
    world.sealer.unavailable.set(true);
    assert!(block_on(world.person().check(&World::check_request(&access))).is_err());
    assert_eq!(world.rows("grants"), 1);
}

#[test]
fn the_token_is_opened_once_for_many_checks() {
    let world = World::new();
    let (access, _) = world.connect("app");
    world.memory.forget_checks();
    *world.memory.opened.borrow_mut() = None;
    assert!(world.allowed(&access));
    // Now the sealer fails: the opened token is reused, so checks go on.
    world.sealer.unavailable.set(true);
    assert!(world.allowed(&access));
}
