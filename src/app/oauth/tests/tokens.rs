//! The token endpoint and revocation, and the bearer check after each.

use super::support::*;
use super::*;
use crate::app::oauth::BearerRefusal;

#[test]
fn the_token_endpoint_takes_only_a_form() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let code = flow.code("s");
    let body = format!(
        "grant_type=authorization_code&code={code}&code_verifier={VERIFIER}&client_id={}",
        enc(&flow.client_id)
    );
    let mut as_json = form(&body);
    as_json.content_type = Some("application/json".into());
    let refused = world.call(OAuthEndpoint::Token, as_json);
    assert_eq!(refused.status, 400);
    assert_eq!(body_json(&refused)["error"], "invalid_request");
    assert_eq!(refused.header("access-control-allow-origin"), Some("*"));
    // The code was not spent by the refused request.
    assert_eq!(flow.exchange(&code).status, 200);
}

#[test]
fn a_code_is_spent_on_its_first_use() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let code = flow.code("s");
    assert_eq!(flow.exchange(&code).status, 200);
    let again = flow.exchange(&code);
    assert_eq!(again.status, 400);
    assert_eq!(body_json(&again)["error"], "invalid_grant");
}

#[test]
fn a_refresh_rotates_and_the_old_refresh_token_is_refused() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let (_, refresh) = flow.tokens();
    let body = |token: &str| {
        format!(
            "grant_type=refresh_token&refresh_token={}&client_id={}",
            enc(token),
            enc(&flow.client_id)
        )
    };
    let rotated = world.call(OAuthEndpoint::Token, form(&body(&refresh)));
    assert_eq!(rotated.status, 200, "{}", rotated.body);
    let new_refresh = body_json(&rotated)["refresh_token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert_ne!(new_refresh, refresh);
    let replayed = world.call(OAuthEndpoint::Token, form(&body(&refresh)));
    assert_eq!(body_json(&replayed)["error"], "invalid_grant");
}

#[test]
fn revoking_a_token_ends_its_grant_and_unknown_tokens_are_no_error() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let (access, refresh) = flow.tokens();
    let server = world.server();
    assert!(block_on(server.authenticate_bearer(&access)).is_ok());
    let revoked = world.call(
        OAuthEndpoint::Revoke,
        form(&format!("token={}", enc(&refresh))),
    );
    assert_eq!(revoked.status, 200);
    assert_eq!(revoked.header("cache-control"), Some("no-store"));
    assert_eq!(
        block_on(server.authenticate_bearer(&access)),
        Err(BearerRefusal::Invalid)
    );
    // A made-up token reaches nobody's object.
    let before = world.persons.calls.borrow().len();
    let unknown = world.call(OAuthEndpoint::Revoke, form("token=lfa_1001_made-up"));
    assert_eq!(unknown.status, 200);
    assert_eq!(world.persons.calls.borrow().len(), before);
    let missing = world.call(OAuthEndpoint::Revoke, form("client_id=x"));
    assert_eq!(missing.status, 400);
}

#[test]
fn the_bearer_check_refuses_what_is_not_ours_without_a_hop() {
    let world = World::new();
    let server = world.server();
    for token in [
        "gho_standin_octo",
        "lfa_1001_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ] {
        assert_eq!(
            block_on(server.authenticate_bearer(token)),
            Err(BearerRefusal::Invalid)
        );
    }
    assert!(world.persons.calls.borrow().is_empty());
}

#[test]
fn the_bearer_check_counts_against_the_persons_limit_and_reports_an_outage() {
    let world = World::with(&[("RATE_LIMIT_PER_MINUTE", "2")]);
    let mut flow = Flow::register(&world, "App");
    let (access, _) = flow.tokens();
    let server = world.server();
    assert!(block_on(server.authenticate_bearer(&access)).is_ok());
    assert!(block_on(server.authenticate_bearer(&access)).is_ok());
    assert!(matches!(
        block_on(server.authenticate_bearer(&access)),
        Err(BearerRefusal::RateLimited { .. })
    ));
    world.persons.down.set(true);
    assert_eq!(
        block_on(server.authenticate_bearer(&access)),
        Err(BearerRefusal::Unavailable)
    );
}
