//! Consent: the form is single use, bound to its CSRF token and its lifetime, and an approval
//! with write access is remembered per client and redirect URI (loopback port aside).

use super::support::{block_on, World, CSRF};
use crate::oauth::grants::CONSENT_TTL_SECONDS;
use crate::oauth::person_api::{BeginReply, ConsentReply, ConsentRequest};

fn consent_id(world: &World, client: &str) -> String {
    match world.begin(client) {
        BeginReply::Consent { consent_id } => consent_id,
        BeginReply::Code { .. } => panic!("consent was not asked"),
    }
}

#[test]
fn write_consent_is_remembered_and_skips_the_page() {
    let world = World::new();
    world.code("app", true);
    assert!(matches!(world.begin("app"), BeginReply::Code { .. }));
    assert!(
        matches!(world.begin("other"), BeginReply::Consent { .. }),
        "per client"
    );
}

/// Issue #36: a person who remembered write access can sign in again read-only without
/// disconnecting first: a request asking for the page gets it, and the new answer is remembered.
#[test]
fn a_request_asking_for_consent_gets_the_page_though_write_is_remembered() {
    let world = World::new();
    world.code("app", true);
    let BeginReply::Consent { consent_id } = world.begin_asking_again("app") else {
        panic!("prompt=consent was not honoured");
    };
    assert!(matches!(
        world.consent(&consent_id, false),
        ConsentReply::Approved { .. }
    ));
    assert!(
        matches!(world.begin("app"), BeginReply::Consent { .. }),
        "the read-only answer replaced the remembered write consent"
    );
}

#[test]
fn read_only_consent_is_asked_again() {
    let world = World::new();
    world.code("app", false);
    assert!(matches!(world.begin("app"), BeginReply::Consent { .. }));
}

#[test]
fn a_consent_form_is_single_use() {
    let world = World::new();
    let id = consent_id(&world, "app");
    assert!(matches!(
        world.consent(&id, true),
        ConsentReply::Approved { .. }
    ));
    assert_eq!(world.consent(&id, true), ConsentReply::Expired);
}

#[test]
fn a_wrong_csrf_token_spends_the_form() {
    let world = World::new();
    let id = consent_id(&world, "app");
    let forged = ConsentRequest {
        consent_id: id.clone(),
        csrf: "planted".into(),
        approve: true,
        may_write: true,
    };
    assert_eq!(world.person().consent(&forged), Ok(ConsentReply::Expired));
    assert_eq!(world.consent(&id, true), ConsentReply::Expired);
    assert_eq!(world.rows("consents"), 0, "nothing remembered");
}

#[test]
fn a_consent_form_expires() {
    let world = World::new();
    let id = consent_id(&world, "app");
    world.wait(CONSENT_TTL_SECONDS);
    assert_eq!(world.consent(&id, true), ConsentReply::Expired);
}

#[test]
fn denying_sends_the_request_back_and_remembers_nothing() {
    let world = World::new();
    let id = consent_id(&world, "app");
    let deny = ConsentRequest {
        consent_id: id,
        csrf: CSRF.into(),
        approve: false,
        may_write: true,
    };
    assert!(matches!(
        world.person().consent(&deny),
        Ok(ConsentReply::Denied { .. })
    ));
    assert_eq!(world.rows("consents"), 0);
    assert!(matches!(world.begin("app"), BeginReply::Consent { .. }));
}

#[test]
fn begin_seals_the_github_token_under_the_person() {
    let world = World::new();
    world.begin("app");
    let row = crate::app::person::records::Records::new(&world.sql)
        .github()
        .unwrap_or_default()
        .unwrap_or_else(|| panic!("no github row"));
    assert_eq!(row.login, "octo");
    assert!(row.sealed.starts_with("test.gh:42|"), "{}", row.sealed);
    // A missing key fails the sign-in and stores nothing.
    let other = World::new();
    other.sealer.unavailable.set(true);
    let request = crate::oauth::person_api::BeginRequest {
        person: other.person.clone(),
        login: "octo".into(),
        github: super::support::github_token("gho", None),
        request: World::authorization("app"),
        csrf_hash: String::new(),
    };
    assert!(block_on(other.person().begin(&request)).is_err());
    assert_eq!(other.rows("pending"), 0);
}
