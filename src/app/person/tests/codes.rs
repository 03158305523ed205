//! Single-use authorization codes (issue #31): a failed redemption burns the code, a second
//! redemption revokes what the first made, and a code expires by the clock.

use super::support::{issued, refused, World, VERIFIER};
use crate::oauth::error::GrantError;
use crate::oauth::grants::CODE_TTL_SECONDS;

const WRONG_VERIFIER: &str = "another-verifier-of-enough-length-to-be-valid-98765";

#[test]
fn a_code_is_exchanged_once_for_a_working_pair() {
    let world = World::new();
    let code = world.code("app", true);
    let (access, _) = issued(world.exchange(&code, "app", VERIFIER));
    assert!(world.allowed(&access));
}

#[test]
fn a_failed_redemption_burns_the_code() {
    let world = World::new();
    let code = world.code("app", true);
    assert_eq!(
        refused(world.exchange(&code, "app", WRONG_VERIFIER)),
        GrantError::PkceMismatch
    );
    // The right verifier now finds no code at all.
    assert_eq!(
        refused(world.exchange(&code, "app", VERIFIER)),
        GrantError::CodeUnknown
    );
    assert_eq!(world.rows("codes"), 0);
}

#[test]
fn another_client_presenting_the_code_burns_it() {
    let world = World::new();
    let code = world.code("app", true);
    assert_eq!(
        refused(world.exchange(&code, "intruder", VERIFIER)),
        GrantError::ClientMismatch
    );
    assert_eq!(
        refused(world.exchange(&code, "app", VERIFIER)),
        GrantError::CodeUnknown
    );
}

#[test]
fn a_reused_code_revokes_the_grant_it_made() {
    let world = World::new();
    let code = world.code("app", true);
    let (access, refresh) = issued(world.exchange(&code, "app", VERIFIER));
    assert_eq!(
        refused(world.exchange(&code, "app", VERIFIER)),
        GrantError::CodeReused
    );
    world.memory.forget_checks();
    assert!(!world.allowed(&access), "the first exchange's tokens end");
    assert_eq!(
        refused(world.refresh(&refresh, "app")),
        GrantError::RefreshUnknown
    );
}

#[test]
fn a_code_expires_after_its_lifetime() {
    let world = World::new();
    let code = world.code("app", true);
    world.wait(CODE_TTL_SECONDS);
    assert_eq!(
        refused(world.exchange(&code, "app", VERIFIER)),
        GrantError::CodeExpired
    );
    assert_eq!(world.rows("codes"), 0, "and it is spent");
}

#[test]
fn a_code_just_inside_its_lifetime_works() {
    let world = World::new();
    let code = world.code("app", true);
    world.wait(CODE_TTL_SECONDS - 1);
    issued(world.exchange(&code, "app", VERIFIER));
}

#[test]
fn a_token_of_another_kind_is_not_a_code() {
    let world = World::new();
    let (access, _) = world.connect("app");
    assert_eq!(
        refused(world.exchange(&access, "app", VERIFIER)),
        GrantError::CodeUnknown
    );
}

/// Moved from `tests/e2e/oauth.test.mjs` ("W1. a code presented by another client, redirect
/// URI or resource is spent", issue #31): each mismatch spends the code, so the right request
/// then finds none.
#[test]
fn w1_a_code_presented_with_another_redirect_uri_or_resource_is_spent() {
    use crate::oauth::person_api::CodeTokenRequest;
    type Mismatch = fn(&mut CodeTokenRequest);
    let mismatches: [(Mismatch, GrantError); 3] = [
        (
            |request| request.redirect_uri = Some("http://127.0.0.1:33419/callback".into()),
            GrantError::RedirectMismatch,
        ),
        (
            |request| request.redirect_uri = None,
            GrantError::RedirectMismatch,
        ),
        (
            |request| request.resource = Some("https://other.example/mcp".into()),
            GrantError::WrongResource,
        ),
    ];
    for (mismatch, expected) in mismatches {
        let world = World::new();
        let code = world.code("app", true);
        let mut request = CodeTokenRequest {
            code: code.clone(),
            client_id: "app".into(),
            redirect_uri: Some("https://app.example/cb".into()),
            code_verifier: VERIFIER.into(),
            resource: Some(super::support::RESOURCE.into()),
            access_ttl_seconds: 60,
        };
        mismatch(&mut request);
        let reply = world.person().exchange(&request);
        assert_eq!(reply.map(refused), Ok(expected));
        assert_eq!(
            refused(world.exchange(&code, "app", VERIFIER)),
            GrantError::CodeUnknown,
            "{expected:?} spent the code"
        );
    }
}

/// Moved from `tests/e2e/oauth.test.mjs` ("W1. a failed attempt with an already redeemed code
/// (wrong verifier or client) revokes the tokens it made").
#[test]
fn w1_a_failed_attempt_with_a_redeemed_code_revokes_what_it_made() {
    for (client, verifier) in [("app", WRONG_VERIFIER), ("someone-else", VERIFIER)] {
        let world = World::new();
        let code = world.code("app", true);
        let (access, refresh) = issued(world.exchange(&code, "app", VERIFIER));
        assert!(world.allowed(&access));
        assert_eq!(
            refused(world.exchange(&code, client, verifier)),
            GrantError::CodeReused
        );
        world.memory.forget_checks();
        assert!(!world.allowed(&access), "revoked after {client}");
        assert_eq!(
            refused(world.refresh(&refresh, "app")),
            GrantError::RefreshUnknown
        );
    }
}
