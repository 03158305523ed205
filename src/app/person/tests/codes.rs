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
