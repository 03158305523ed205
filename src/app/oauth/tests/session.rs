//! The review pages' web session: sign-in through the same authorization server, the callback,
//! the viewer with its refresh, sign-out (the end-to-end sign-in cases, now in-process).

use super::support::*;
use super::*;
use crate::app::oauth::session::{session_person, WebRequest};
use crate::app::oauth::BearerRefusal;

pub(super) fn web(path: &str, method: &str, cookie: Option<&str>) -> WebRequest {
    WebRequest {
        url: url::Url::parse(&format!("{BASE}{path}")).unwrap_or_else(|e| panic!("{e}")),
        method: method.into(),
        cookie: cookie.map(str::to_string),
        address: ADDRESS.into(),
    }
}

/// `name=value` of the cookie `reply` sets under `name`.
pub(super) fn set(reply: &HttpReply, name: &str) -> Option<String> {
    cookies(reply)
        .into_iter()
        .find(|c| c.starts_with(&format!("{name}=")))
        .map(|c| c.split(';').next().unwrap_or_default().to_string())
}

/// Signs `octo` in on the web from `/signin?next=…`: the callback's reply and the sign-in cookie.
fn sign_in(world: &World, next: &str) -> (HttpReply, String) {
    let started = block_on(world.server().web_sign_in(&web(
        &format!("/signin?next={next}"),
        "GET",
        None,
    )));
    let started = started.unwrap_or_else(|e| panic!("{e:?}"));
    let signin = set(&started, "__Host-lkf_signin").unwrap_or_default();
    let authorize = started.header("location").unwrap_or_default().to_string();
    let query = authorize
        .split_once('?')
        .map(|(_, q)| q)
        .unwrap_or_default();
    let mut flow = Flow::for_client(world, "");
    world.github_signs_in("octo", 1001);
    let at_github = flow.authorize(query);
    let page = flow.callback(&at_github);
    let approved = flow.answer(&page, "approve", true);
    let back = approved.header("location").unwrap_or_default().to_string();
    let path = back.strip_prefix(BASE).unwrap_or(&back).to_string();
    let done = block_on(
        world
            .server()
            .web_callback(&web(&path, "GET", Some(&signin))),
    );
    (done.unwrap_or_else(|e| panic!("{e:?}")), signin)
}

/// The session's cookie header after a sign-in.
pub(super) fn session(world: &World) -> String {
    let (done, _) = sign_in(world, "/settings");
    [set(&done, "__Host-lkf_at"), set(&done, "__Host-lkf_rt")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ")
}

#[test]
fn sign_in_registers_the_pages_client_once_and_starts_the_flow_with_pkce() {
    let world = World::new();
    let first = block_on(world.server().web_sign_in(&web(
        "/signin?next=/r/a/b/pull/1",
        "GET",
        None,
    )));
    let first = first.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(first.status, 302);
    let location = first.header("location").unwrap_or_default();
    assert!(
        location.starts_with(&format!("{BASE}/authorize?")),
        "{location}"
    );
    assert_eq!(
        param(location, "code_challenge_method").as_deref(),
        Some("S256")
    );
    let cookie = cookies(&first).join("");
    assert!(
        cookie.starts_with("__Host-lkf_signin=") && cookie.contains("Max-Age=600"),
        "{cookie}"
    );
    assert!(
        cookie.ends_with("") && cookie.contains(".%2Fr%2Fa%2Fb%2Fpull%2F1"),
        "{cookie}"
    );
    let _ = block_on(world.server().web_sign_in(&web("/signin", "GET", None)));
    assert_eq!(
        world.kv.keys("client:").len(),
        1,
        "registered once per host"
    );
    // Its registration gone (180 days unused), the next sign-in registers again.
    let old = world.kv.keys("client:");
    world
        .kv
        .entries
        .borrow_mut()
        .retain(|key, _| !key.starts_with("client:"));
    let _ = block_on(world.server().web_sign_in(&web("/signin", "GET", None)));
    assert_eq!(world.kv.keys("client:").len(), 1);
    assert_ne!(world.kv.keys("client:"), old);
}

#[test]
fn the_callback_sets_the_session_and_clears_the_sign_in_and_the_forms_nonce() {
    let world = World::new();
    let (done, _) = sign_in(&world, "%2Fsettings");
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(done.header("location"), Some("/settings"));
    let all = cookies(&done).join("\n");
    assert!(
        all.contains("__Host-lkf_at=lfa_1001_") && all.contains("Max-Age=3600"),
        "{all}"
    );
    assert!(
        all.contains("__Host-lkf_rt=lfr_1001_") && all.contains("Max-Age=2592000"),
        "{all}"
    );
    assert!(all.contains("__Host-lkf_signin=;"), "{all}");
    assert!(
        all.contains(&crate::web::csrf::clear_cookie(true)),
        "the forms' nonce goes: {all}"
    );
}

#[test]
fn a_callback_from_another_browser_or_without_a_code_fails_on_a_page() {
    let world = World::new();
    let expired = block_on(world.server().web_callback(&web(
        "/signin/callback?code=c&state=s",
        "GET",
        None,
    )));
    let expired = expired.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(expired.status, 400);
    assert!(expired.body.contains("Sign-in expired"));
    // A sign-in cookie for another `state`: this browser did not start that sign-in.
    let other = web(
        "/signin/callback?code=c&state=s",
        "GET",
        Some("__Host-lkf_signin=t.v.%2F"),
    );
    let other = block_on(world.server().web_callback(&other)).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(other.body.contains("Sign-in expired"), "{}", other.body);
    assert!(
        world.persons.calls.borrow().is_empty(),
        "no exchange was tried"
    );
    let declined = web(
        "/signin/callback?error=access_denied&error_description=%3Cb%3Eno%3C%2Fb%3E",
        "GET",
        None,
    );
    let declined =
        block_on(world.server().web_callback(&declined)).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(declined.status, 400);
    assert!(
        declined.body.contains("&lt;b&gt;no&lt;/b&gt;"),
        "the reason is escaped"
    );
    assert_eq!(declined.header("x-frame-options"), Some("DENY"));
}

#[test]
fn a_refused_code_is_not_redeemed_and_the_callback_counts_in_the_address_window() {
    let world = World::with(&[("ADDRESS_RATE_LIMIT_PER_MINUTE", "3")]);
    // /authorize counts one, the callback's exchange the second.
    let (done, signin) = sign_in(&world, "/settings");
    assert_eq!(done.status, 303);
    let state = signin
        .split('=')
        .nth(1)
        .and_then(|v| v.split('.').next())
        .unwrap_or_default()
        .to_string();
    let path = format!("/signin/callback?code=lfc_1001_nope&state={state}");
    let counted = || {
        world
            .persons
            .calls
            .borrow()
            .iter()
            .filter(|(name, _)| name.starts_with("ip:"))
            .count()
    };
    let before = counted();
    let refused = block_on(
        world
            .server()
            .web_callback(&web(&path, "GET", Some(&signin))),
    );
    let refused = refused.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(refused.status, 400);
    assert!(refused.body.contains("could not be redeemed"));
    assert_eq!(counted(), before + 1, "the callback counts in the window");
    let limited = block_on(
        world
            .server()
            .web_callback(&web(&path, "GET", Some(&signin))),
    );
    assert!(limited
        .unwrap_or_else(|e| panic!("{e:?}"))
        .body
        .contains("could not be redeemed"));
    assert!(
        world
            .console
            .0
            .borrow()
            .iter()
            .any(|l| l.contains("code was refused: too many requests")),
        "{:?}",
        world.console.0.borrow()
    );
}

#[test]
fn the_viewer_is_the_signed_in_person_and_a_refresh_renews_an_expired_session() {
    let world = World::new();
    let cookie = session(&world);
    let viewer = block_on(
        world
            .server()
            .viewer(&web("/settings", "GET", Some(&cookie))),
    );
    let caller = viewer
        .unwrap_or_else(|e| panic!("{e:?}"))
        .unwrap_or_else(|r| panic!("{}", r.status));
    assert_eq!(caller.login, "octo");
    assert_eq!(
        session_person(&web("/", "GET", Some(&cookie)), &world.config),
        "gh:1001"
    );
    // The access token expired: the refresh cookie renews it with a redirect to the same page.
    world.wait(3601);
    let renewed = block_on(world.server().viewer(&web(
        "/r/a/b/pull/1?view=files",
        "GET",
        Some(&cookie),
    )));
    let renewed = renewed
        .unwrap_or_else(|e| panic!("{e:?}"))
        .err()
        .unwrap_or_else(|| panic!("a caller"));
    assert_eq!(renewed.status, 303);
    assert_eq!(renewed.header("location"), Some("/r/a/b/pull/1?view=files"));
    assert!(cookies(&renewed)
        .iter()
        .any(|c| c.starts_with("__Host-lkf_rt=lfr_")));
}

#[test]
fn without_a_session_a_get_signs_in_and_a_post_is_told_its_session_ended() {
    let world = World::new();
    let get = block_on(world.server().viewer(&web("/settings?x=1", "GET", None)));
    let get = get
        .unwrap_or_else(|e| panic!("{e:?}"))
        .err()
        .unwrap_or_else(|| panic!("a caller"));
    assert_eq!(get.status, 302);
    assert_eq!(
        get.header("location"),
        Some("/signin?next=%2Fsettings%3Fx%3D1")
    );
    let post = block_on(world.server().viewer(&web(
        "/settings/tokens",
        "POST",
        Some("__Host-lkf_at=lfa_x"),
    )));
    let post = post
        .unwrap_or_else(|e| panic!("{e:?}"))
        .err()
        .unwrap_or_else(|| panic!("a caller"));
    assert_eq!(post.status, 401);
    assert_eq!(post.body, "Sign in again: your session ended.");
}

#[test]
fn a_session_over_its_limit_or_with_its_object_unreachable_says_so() {
    let world = World::new();
    let cookie = session(&world);
    world.persons.down.set(true);
    let down = block_on(
        world
            .server()
            .viewer(&web("/settings", "GET", Some(&cookie))),
    );
    let down = down
        .unwrap_or_else(|e| panic!("{e:?}"))
        .err()
        .unwrap_or_else(|| panic!("a caller"));
    assert_eq!(down.status, 503);
    world.persons.down.set(false);
    let access = cookie
        .split("; ")
        .next()
        .and_then(|c| c.split_once('='))
        .map(|(_, v)| v.to_string());
    let access = access.unwrap_or_default();
    let mut limited = None;
    let posts = crate::oauth::rate_limit::WEB_POSTS_PER_PERSON + 1;
    for _ in 0..posts {
        if let Err(BearerRefusal::RateLimited { .. }) =
            block_on(world.server().authenticate_web(&access, true))
        {
            limited = Some(());
            break;
        }
    }
    assert!(limited.is_some(), "posts spend a web budget");
    let post = block_on(
        world
            .server()
            .viewer(&web("/settings/tokens", "POST", Some(&cookie))),
    );
    let post = post
        .unwrap_or_else(|e| panic!("{e:?}"))
        .err()
        .unwrap_or_else(|| panic!("a caller"));
    assert_eq!(post.status, 429);
    assert!(post.header("retry-after").is_some());
}

#[test]
fn sign_out_revokes_the_grant_and_clears_the_cookies() {
    let world = World::new();
    let cookie = session(&world);
    let out = block_on(
        world
            .server()
            .web_sign_out(&web("/signout", "POST", Some(&cookie))),
    );
    assert_eq!(out.status, 303);
    assert_eq!(out.header("location"), Some("/"));
    let all = cookies(&out).join("\n");
    assert!(
        all.contains("__Host-lkf_at=;") && all.contains("__Host-lkf_rt=;"),
        "{all}"
    );
    let viewer = block_on(
        world
            .server()
            .viewer(&web("/settings", "GET", Some(&cookie))),
    );
    let viewer = viewer.unwrap_or_else(|e| panic!("{e:?}"));
    assert!(viewer.is_err(), "the session is gone");
}
