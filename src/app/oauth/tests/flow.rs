//! The authorization flow: `/authorize` → GitHub → the callback → consent → a code (the
//! end-to-end `oauth.test.mjs` cases "full flow", "deny", "only in the browser that started it",
//! "two apps at once", now in-process), and the flow's expiry.

use super::support::*;
use super::*;
use crate::app::oauth::flow::FLOW_TTL_SECONDS;
use crate::oauth::tokens::hash;

#[test]
fn metadata_names_the_endpoints_and_is_cached_publicly() {
    let world = World::new();
    let reply = world.call(OAuthEndpoint::Metadata, get(""));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("cache-control"), Some("public, max-age=3600"));
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let metadata = body_json(&reply);
    assert_eq!(metadata["issuer"], BASE);
    assert_eq!(
        metadata["authorization_endpoint"],
        format!("{BASE}/authorize")
    );
    assert_eq!(metadata["token_endpoint"], format!("{BASE}/oauth/token"));
    assert_eq!(
        metadata["registration_endpoint"],
        format!("{BASE}/oauth/register")
    );
    assert_eq!(
        metadata["revocation_endpoint"],
        format!("{BASE}/oauth/revoke")
    );
    assert_eq!(metadata["code_challenge_methods_supported"][0], "S256");
    assert_eq!(metadata["client_id_metadata_document_supported"], true);
    assert_eq!(
        metadata["authorization_response_iss_parameter_supported"],
        true
    );
}

#[test]
fn authorize_keeps_the_request_and_sends_the_browser_to_github_with_our_pkce() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let reply = flow.authorize(&flow.query("s1"));
    assert_eq!(reply.status, 302, "{}", reply.body);
    let location = reply.header("location").unwrap_or_default();
    assert!(
        location.starts_with("https://github.test/login/oauth/authorize?"),
        "{location}"
    );
    let state = param(location, "state").unwrap_or_default();
    assert_eq!(param(location, "client_id").as_deref(), Some("Iv1.test"));
    assert_eq!(
        param(location, "code_challenge_method").as_deref(),
        Some("S256")
    );
    assert_eq!(
        param(location, "redirect_uri").as_deref(),
        Some("https://lf.test/oauth/callback")
    );
    // The flow waits in KV for ten minutes under the hash of `state`, never `state` itself.
    let key = format!("flow:{}", hash(&state));
    assert_eq!(world.kv.ttl(&key), Some(FLOW_TTL_SECONDS));
    let stored = world.kv.value(&key).unwrap_or_default();
    assert!(
        stored.contains(REDIRECT) && !stored.contains(&state),
        "{stored}"
    );
    // Bound to this browser by a `__Host-` cookie holding `state`, sent back from GitHub (Lax).
    let cookie = cookies(&reply).join("\n");
    assert!(cookie.starts_with("__Host-lf_flow_"), "{cookie}");
    assert!(cookie.contains(&format!("={state};")), "{cookie}");
    assert!(
        cookie.contains("Max-Age=600") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    assert_eq!(reply.header("referrer-policy"), Some("no-referrer"));
}

#[test]
fn full_flow_consent_page_code_and_token() {
    let world = World::new();
    let mut flow = Flow::register(&world, "Full <Flow> App");
    let page = flow.through_github("full");
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(page.header("x-frame-options"), Some("DENY"));
    let csp = page.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(
        csp.contains("form-action 'self' http://127.0.0.1:*"),
        "{csp}"
    );
    assert!(page.body.contains("Full &lt;Flow&gt; App") && !page.body.contains("<Flow>"));
    assert!(page.body.contains("Unverified"));
    assert!(page
        .body
        .contains("Signed in with GitHub as <strong>octo</strong>"));
    assert!(page.body.contains("127.0.0.1 (this computer)"));
    let csrf = cookies(&page)
        .into_iter()
        .find(|c| c.starts_with("__Host-lf_csrf_"))
        .unwrap_or_default();
    for attribute in ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(csrf.contains(attribute), "{attribute}: {csrf}");
    }
    // The flow is used up: its cookie cleared, its KV entry gone.
    assert!(cookies(&page)
        .iter()
        .any(|c| c.starts_with("__Host-lf_flow_") && c.contains("Max-Age=0")));
    assert!(world.kv.keys("flow:").is_empty());

    let approved = flow.answer(&page, "approve", true);
    assert_eq!(approved.status, 303);
    let location = approved.header("location").unwrap_or_default();
    assert!(location.starts_with(REDIRECT), "{location}");
    assert_eq!(param(location, "state").as_deref(), Some("full"));
    assert_eq!(param(location, "iss").as_deref(), Some(BASE));
    let code = param(location, "code").unwrap_or_default();
    assert!(code.starts_with("lfc_1001_"), "{code}");

    let tokens = flow.exchange(&code);
    assert_eq!(tokens.status, 200, "{}", tokens.body);
    assert_eq!(tokens.header("cache-control"), Some("no-store"));
    let body = body_json(&tokens);
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3600);
    assert!(body["access_token"]
        .as_str()
        .unwrap_or_default()
        .starts_with("lfa_1001_"));
    assert!(body["refresh_token"]
        .as_str()
        .unwrap_or_default()
        .starts_with("lfr_1001_"));
    assert!(
        !tokens.body.contains("gho_"),
        "the GitHub token never leaves the server"
    );
    // GitHub was asked with our verifier, and as the person who signed in.
    let exchanges = world.github.requests();
    assert!(exchanges[0]
        .body
        .as_deref()
        .unwrap_or_default()
        .contains("code_verifier="));
    let caller = block_on(
        world
            .server()
            .authenticate_bearer(body["access_token"].as_str().unwrap_or_default()),
    );
    let caller = caller.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        (caller.login.as_str(), caller.github_token.as_str()),
        ("octo", "gho_octo")
    );
    assert!(caller.may_write);
}

#[test]
fn deny_sends_access_denied_back_with_state_and_iss() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let page = flow.through_github("no");
    let denied = flow.answer(&page, "deny", false);
    assert_eq!(denied.status, 303);
    let location = denied.header("location").unwrap_or_default();
    assert_eq!(param(location, "error").as_deref(), Some("access_denied"));
    assert_eq!(param(location, "state").as_deref(), Some("no"));
    assert_eq!(param(location, "iss").as_deref(), Some(BASE));
}

#[test]
fn the_callback_completes_only_in_the_browser_that_started_it() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    world.github_signs_in("octo", 1001);
    let started = flow.authorize(&flow.query("s"));
    flow.jar.clear();
    let reply = flow.callback(&started);
    assert_eq!(reply.status, 400, "{}", reply.body);
    assert_eq!(
        world.github.total(),
        0,
        "GitHub is not asked for a foreign flow"
    );
}

#[test]
fn a_flow_is_used_once() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    world.github_signs_in("octo", 1001);
    let started = flow.authorize(&flow.query("s"));
    let jar = flow.jar.clone();
    assert_eq!(flow.callback(&started).status, 200);
    flow.jar = jar;
    assert_eq!(
        flow.callback(&started).status,
        400,
        "the second callback finds nothing"
    );
}

#[test]
fn a_flow_expires_after_ten_minutes_even_if_kv_still_holds_it() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    world.github_signs_in("octo", 1001);
    let started = flow.authorize(&flow.query("s"));
    world.wait(FLOW_TTL_SECONDS);
    let reply = flow.callback(&started);
    assert_eq!(reply.status, 400, "{}", reply.body);
    assert!(reply.body.contains("Please start again"), "{}", reply.body);
    assert_eq!(world.github.total(), 0);
    // One second less is in time.
    let mut again = Flow::register(&world, "App");
    let started = again.authorize(&again.query("s"));
    world.wait(FLOW_TTL_SECONDS - 1);
    assert_eq!(again.callback(&started).status, 200);
}

#[test]
fn two_apps_can_be_connected_at_once_in_one_browser() {
    let world = World::new();
    world.github_signs_in("octo", 1001);
    let mut first = Flow::register(&world, "First");
    let mut second = Flow::register(&world, "Second");
    let one = first.authorize(&first.query("1"));
    let two = second.authorize(&second.query("2"));
    let jar = [first.jar.clone(), second.jar.clone()].concat();
    second.jar = jar.clone();
    let page = second.callback(&two);
    assert!(page.body.contains("Connect Second"), "{}", page.body);
    first.jar = jar;
    let page = first.callback(&one);
    assert!(page.body.contains("Connect First"), "{}", page.body);
}

#[test]
fn declining_at_github_goes_back_to_the_client_with_access_denied() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let started = flow.authorize(&flow.query("s"));
    let state = param(started.header("location").unwrap_or_default(), "state").unwrap_or_default();
    let mut incoming = get(&format!("error=access_denied&state={}", enc(&state)));
    incoming.cookie = flow.cookie_header();
    let reply = world.call(OAuthEndpoint::Callback, incoming);
    assert_eq!(reply.status, 302);
    let location = reply.header("location").unwrap_or_default();
    assert_eq!(param(location, "error").as_deref(), Some("access_denied"));
    assert_eq!(param(location, "state").as_deref(), Some("s"));
}

#[test]
fn github_refusing_the_code_or_failing_goes_back_to_the_client() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    world.github.on(
        "/login/oauth/access_token",
        [crate::app::pull_request::test_support::Scripted::status(
            502, "",
        )],
    );
    let started = flow.authorize(&flow.query("s"));
    let reply = flow.callback(&started);
    assert_eq!(reply.status, 302);
    let location = reply.header("location").unwrap_or_default();
    assert!(location.starts_with(REDIRECT), "{location}");
    assert_eq!(
        param(location, "error").as_deref(),
        Some("temporarily_unavailable")
    );
    assert!(world
        .console
        .0
        .borrow()
        .iter()
        .any(|l| l.contains("answered HTTP 502")));
}

#[test]
fn the_consent_post_is_held_to_the_browser_post_rules() {
    let world = World::new();
    let mut flow = Flow::register(&world, "App");
    let page = flow.through_github("s");
    let consent = hidden(&page.body, "consent");
    let csrf = hidden(&page.body, "csrf");
    let body = format!("consent={consent}&csrf={csrf}&action=approve");
    // Another origin.
    let mut foreign = form(&body);
    foreign.cookie = flow.cookie_header();
    foreign.origin = Some("https://evil.example".into());
    assert_eq!(world.call(OAuthEndpoint::Consent, foreign).status, 403);
    // No CSRF cookie.
    let mut bare = form(&body);
    bare.origin = Some(BASE.into());
    assert_eq!(world.call(OAuthEndpoint::Consent, bare).status, 403);
    // The right one still works once, then the consent is spent.
    assert_eq!(flow.answer(&page, "approve", false).status, 303);
    let mut again = form(&body);
    again.cookie = Some(format!("__Host-lf_csrf_x={csrf}"));
    again.origin = Some(BASE.into());
    assert!(world.call(OAuthEndpoint::Consent, again).status >= 400);
}
