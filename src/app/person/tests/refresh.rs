//! Access token expiry and refresh rotation by the clock (no sleeps): a refresh gives a new
//! pair and spends the old refresh token; presenting it again revokes the whole grant.
//! (Moved here from `tests/e2e/oauth.test.mjs`, "expired access tokens are refused; a refresh
//! brings access back", which set a 3-second lifetime and slept.)

use super::support::{issued, refused, World, ACCESS_TTL};
use crate::oauth::error::GrantError;
use crate::oauth::grants::{GRANT_MAX_SECONDS, REFRESH_IDLE_SECONDS};

#[test]
fn an_access_token_expires_and_a_refresh_brings_access_back() {
    let world = World::new();
    let (access, refresh) = world.connect("app");
    assert!(world.allowed(&access));
    world.wait(ACCESS_TTL - 1);
    assert!(world.allowed(&access), "still inside its lifetime");
    world.wait(1);
    assert!(!world.allowed(&access), "expired, though remembered");
    let (fresh, _) = issued(world.refresh(&refresh, "app"));
    assert!(world.allowed(&fresh));
}

#[test]
fn an_expired_token_is_refused_when_first_read_too() {
    let world = World::new();
    let (access, _) = world.connect("app");
    world.wait(ACCESS_TTL);
    assert!(!world.allowed(&access));
}

#[test]
fn a_refresh_rotates_and_a_replay_revokes_the_grant() {
    let world = World::new();
    let (_, first) = world.connect("app");
    let (access, second) = issued(world.refresh(&first, "app"));
    assert_ne!(first, second);
    assert!(world.allowed(&access));
    assert_eq!(
        refused(world.refresh(&first, "app")),
        GrantError::RefreshReplayed
    );
    world.memory.forget_checks();
    assert!(!world.allowed(&access), "the replay ended the grant");
    assert_eq!(
        refused(world.refresh(&second, "app")),
        GrantError::RefreshUnknown,
        "the newest refresh token went with it"
    );
}

#[test]
fn a_refresh_must_come_from_the_grants_client() {
    let world = World::new();
    let (_, refresh) = world.connect("app");
    assert_eq!(
        refused(world.refresh(&refresh, "other")),
        GrantError::ClientMismatch
    );
    issued(world.refresh(&refresh, "app"));
}

#[test]
fn a_refresh_token_expires_when_idle() {
    let world = World::new();
    let (_, refresh) = world.connect("app");
    world.wait(REFRESH_IDLE_SECONDS);
    // The sweep of an earlier operation may have removed it: either way it is refused.
    let error = refused(world.refresh(&refresh, "app"));
    assert!(
        matches!(
            error,
            GrantError::RefreshExpired | GrantError::RefreshUnknown
        ),
        "{error:?}"
    );
}

#[test]
fn no_refresh_outlives_the_grants_180th_day() {
    let world = World::new();
    let (_, mut refresh) = world.connect("app");
    // Rotate every 20 days: each rotation is inside the idle lifetime.
    let mut days = 0;
    loop {
        world.wait(20 * 24 * 3600);
        days += 20;
        match world.refresh(&refresh, "app") {
            crate::oauth::person_api::TokenReply::Issued { refresh_token, .. } => {
                refresh = refresh_token
            }
            crate::oauth::person_api::TokenReply::Refused { error } => {
                assert!(
                    matches!(
                        error,
                        GrantError::RefreshExpired | GrantError::RefreshUnknown
                    ),
                    "{error:?}"
                );
                break;
            }
        }
        assert!(days < 400, "the grant never ended");
    }
    assert!(
        days * 24 * 3600 >= GRANT_MAX_SECONDS,
        "ended on day {days}, before the grant's limit"
    );
    assert!(days * 24 * 3600 <= GRANT_MAX_SECONDS + 20 * 24 * 3600);
}

#[test]
fn revocation_ends_the_grant_at_once() {
    let world = World::new();
    let (access, refresh) = world.connect("app");
    assert!(world.allowed(&access));
    let body = serde_json::json!({ "token": refresh, "client_id": "app" }).to_string();
    assert_eq!(world.answer("/revoke", &body), "{}");
    assert!(!world.allowed(&access), "the very next request is refused");
    assert_eq!(
        refused(world.refresh(&refresh, "app")),
        GrantError::RefreshUnknown
    );
}

#[test]
fn another_client_cannot_revoke_a_grant_and_unknown_tokens_change_nothing() {
    let world = World::new();
    let (access, _) = world.connect("app");
    let other = serde_json::json!({ "token": access, "client_id": "other" }).to_string();
    assert_eq!(world.answer("/revoke", &other), "{}");
    assert!(world.allowed(&access));
    let unknown = serde_json::json!({ "token": "nonsense", "client_id": null }).to_string();
    assert_eq!(world.answer("/revoke", &unknown), "{}");
    assert!(world.allowed(&access));
}
