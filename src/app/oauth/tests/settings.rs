//! `/settings` in-process (the end-to-end settings cases' rules): the list of connected apps,
//! Disconnect, API tokens, and "Delete my data" with its batches, over the real person
//! application and a stand-in for the pull requests' objects.

use super::session::{session, set, web};
use super::support::*;
use super::*;
use crate::app::oauth::settings::{SettingsForm, SettingsVisit};
use crate::oauth::tokens::PersonId;
use crate::ports::edge::Objects;
use crate::tools::caller::Caller;

/// A signed-in `octo` (person 1001) on `/settings`: the session's cookie header and its caller.
fn signed_in(world: &World) -> (String, Caller) {
    let cookie = session(world);
    let viewer = block_on(
        world
            .server()
            .viewer(&web("/settings", "GET", Some(&cookie))),
    );
    let caller = viewer
        .unwrap_or_else(|e| panic!("{e:?}"))
        .unwrap_or_else(|r| panic!("{}", r.status));
    (cookie, caller)
}

fn visit<'c>(cookie: &str, caller: &'c Caller) -> SettingsVisit<'c> {
    let access = cookie
        .split("; ")
        .find_map(|pair| pair.strip_prefix("__Host-lkf_at="))
        .map(str::to_string);
    SettingsVisit {
        caller,
        person: PersonId::parse("1001").unwrap_or_else(|| panic!("an id")),
        current_token: access,
        csrf: "the-csrf".into(),
        csrf_cookie: "__Host-lkf_csrf=nonce; Path=/".into(),
        secure: true,
    }
}

fn page(world: &World, visit: &SettingsVisit<'_>) -> HttpReply {
    block_on(world.server().settings_page(visit, None, None))
}

fn post(world: &World, visit: &SettingsVisit<'_>, which: SettingsForm, body: &str) -> HttpReply {
    block_on(world.server().settings_form(visit, which, body.as_bytes()))
}

/// The table row that starts with `name` (as the page shows it, escaped).
fn row<'h>(html: &'h str, name: &str) -> Option<&'h str> {
    html.split("<tr>").find(|row| {
        let plain = row
            .replacen("<td><bdi>", "<td>", 1)
            .replacen("</bdi>", "", 1);
        plain.starts_with(&format!("<td>{name}"))
    })
}

/// The grant id in a row's Disconnect form.
fn grant_in(row: &str) -> String {
    hidden(row, "grant")
}

fn works(world: &World, token: &str) -> bool {
    block_on(world.server().authenticate_bearer(token)).is_ok()
}

#[test]
fn the_page_lists_connected_apps_escaped_with_their_access_and_is_not_stored() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    Flow::register(&world, "Reader <App>").tokens();
    let reply = page(&world, &visit(&cookie, &caller));
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let csp = reply.header("content-security-policy").unwrap_or_default();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(
        cookies(&reply),
        vec!["__Host-lkf_csrf=nonce; Path=/"],
        "the forms' token is bound to this browser session"
    );
    assert!(reply.body.contains("name=\"csrf\" value=\"the-csrf\""));
    assert!(reply.body.contains("Signed in as <strong>octo</strong>"));
    assert!(
        !reply.body.contains("Reader <App>"),
        "the app name is escaped"
    );
    let app = row(&reply.body, "Reader &lt;App&gt;").unwrap_or_else(|| panic!("{}", reply.body));
    assert!(app.contains("<td>read + save</td>"), "{app}");
    let when = "<td>2027-01-15 08:00 UTC</td><td>2027-01-15 08:00 UTC</td>";
    assert!(app.contains(when), "connected and last used: {app}");
    let web = row(&reply.body, "LogiKFlow review pages (this browser)");
    assert!(
        web.is_some(),
        "the web session is a connected app, marked as this browser's"
    );
}

#[test]
fn disconnect_ends_an_app_at_once_and_keeps_the_session() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    let (access, refresh) = Flow::register(&world, "Reader <App>").tokens();
    let visit = visit(&cookie, &caller);
    let listed = page(&world, &visit);
    let grant = row(&listed.body, "Reader &lt;App&gt;").map(grant_in);
    let body = format!("grant={}", grant.unwrap_or_default());
    let reply = post(&world, &visit, SettingsForm::Disconnect, &body);
    assert_eq!(reply.status, 303, "{}", reply.body);
    assert_eq!(reply.header("location"), Some("/settings"));
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    assert!(!works(&world, &access), "the very next request is refused");
    let refreshed = format!(
        "grant_type=refresh_token&refresh_token={}&client_id=x",
        enc(&refresh)
    );
    let refreshed = world.call(OAuthEndpoint::Token, form(&refreshed));
    assert_eq!(refreshed.status, 400, "{}", refreshed.body);
    assert_eq!(body_json(&refreshed)["error"], "invalid_grant");
    let after = page(&world, &visit);
    assert!(row(&after.body, "Reader &lt;App&gt;").is_none(), "gone");
    let web = row(&after.body, "LogiKFlow review pages (this browser)");
    assert!(web.is_some(), "the session is still signed in");
}

#[test]
fn disconnecting_this_browsers_own_session_signs_it_out() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    let visit = visit(&cookie, &caller);
    let listed = page(&world, &visit);
    let own = row(&listed.body, "LogiKFlow review pages (this browser)").map(grant_in);
    let body = format!("grant={}", own.unwrap_or_default());
    let reply = post(&world, &visit, SettingsForm::Disconnect, &body);
    assert_eq!(reply.status, 303, "{}", reply.body);
    assert_eq!(reply.header("location"), Some("/"));
    for name in ["__Host-lkf_at", "__Host-lkf_rt"] {
        assert_eq!(set(&reply, name).as_deref(), Some(&*format!("{name}=")));
    }
    let gone = block_on(
        world
            .server()
            .viewer(&web("/settings", "GET", Some(&cookie))),
    );
    let gone = gone.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(
        gone.err().map(|r| r.status),
        Some(302),
        "that session ended"
    );
}

#[test]
fn a_token_needs_a_name_of_1_to_80_characters_and_read_or_write_access() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    let visit = visit(&cookie, &caller);
    let long = format!("name={}&access=read", "x".repeat(81));
    for body in [long.as_str(), "name=%20%20&access=read", "access=read"] {
        let reply = post(&world, &visit, SettingsForm::CreateToken, body);
        assert_eq!(reply.status, 400, "{body}");
        let notice = "Give the token a name of 1 to 80 characters.";
        assert!(reply.body.contains(notice), "{}", reply.body);
    }
    let reply = post(
        &world,
        &visit,
        SettingsForm::CreateToken,
        "name=x&access=admin",
    );
    assert_eq!(reply.status, 400);
    assert!(reply.body.contains("Choose read or write access."));
    let listed = page(&world, &visit);
    assert!(row(&listed.body, "x").is_none(), "no token was made");
}

#[test]
fn a_token_is_shown_once_listed_with_its_access_and_revoking_it_ends_it() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    let visit = visit(&cookie, &caller);
    let body = "name=CI+%3Cbot%3E&access=write";
    let created = post(&world, &visit, SettingsForm::CreateToken, body);
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(created.header("cache-control"), Some("no-store"));
    let token = created
        .body
        .split("id=\"api-token\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .unwrap_or_default()
        .to_string();
    assert!(works(&world, &token), "the token works: {}", created.body);
    assert!(created.body.contains("CI &lt;bot&gt;"));
    let again = page(&world, &visit);
    assert!(!again.body.contains(&token), "shown only once");
    let listed = row(&again.body, "CI &lt;bot&gt;").unwrap_or_else(|| panic!("{}", again.body));
    assert!(listed.contains("<td>read + save</td>"), "{listed}");
    let id = hidden(listed, "token");
    let read = post(&world, &visit, SettingsForm::CreateToken, "name=second");
    assert_eq!(read.status, 200, "read access when none is chosen");
    let revoked = post(
        &world,
        &visit,
        SettingsForm::RevokeToken,
        &format!("token={id}"),
    );
    assert_eq!(revoked.status, 303);
    assert_eq!(revoked.header("location"), Some("/settings"));
    assert!(!works(&world, &token), "revoked: refused at once");
    assert!(row(&page(&world, &visit).body, "CI &lt;bot&gt;").is_none());
    assert!(
        row(&page(&world, &visit).body, "second").is_some(),
        "others stay"
    );
}

/// Notes in octo's index a tick on `owner/repo#number`.
fn ticked(world: &World, owner: &str, number: u64) {
    let body =
        format!(r#"{{"owner":"{owner}","repo":"Repo","number":{number},"login":"gh:1001"}}"#);
    let noted = block_on(
        world
            .persons
            .post("gh:1001", crate::person_data::NOTE_TICKED, &body),
    );
    let noted = noted.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(noted.status, 200, "{}", noted.body);
}

fn forgotten_in(world: &World) -> Vec<String> {
    let calls = world.pulls.calls.borrow();
    calls
        .iter()
        .map(|(name, op, body)| format!("{name} {op} {body}"))
        .collect()
}

#[test]
fn delete_my_data_needs_its_confirmation() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    let visit = visit(&cookie, &caller);
    ticked(&world, "Octo", 1);
    for body in ["confirm=no", "csrf=x"] {
        let reply = post(&world, &visit, SettingsForm::DeleteData, body);
        assert_eq!(reply.status, 400, "{body}");
        let notice = "Tick “Yes, delete my data” to confirm.";
        assert!(reply.body.contains(notice));
    }
    assert!(forgotten_in(&world).is_empty(), "nothing was deleted");
    assert!(works(
        &world,
        &visit.current_token.clone().unwrap_or_default()
    ));
}

#[test]
fn delete_my_data_clears_every_pull_requests_ticks_then_the_credentials() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    let (agent, _) = Flow::register(&world, "Agent").tokens();
    let visit = visit(&cookie, &caller);
    ticked(&world, "Octo", 1);
    ticked(&world, "Octo", 2);
    let reply = post(&world, &visit, SettingsForm::DeleteData, "confirm=delete");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    assert!(
        reply.body.contains("Your data was deleted"),
        "{}",
        reply.body
    );
    assert!(
        reply.body.contains("connected apps: 2, API tokens: 0"),
        "{}",
        reply.body
    );
    assert_eq!(
        forgotten_in(&world),
        vec![
            r#"octo/repo#1 /ticks/forget {"person":"gh:1001"}"#,
            r#"octo/repo#2 /ticks/forget {"person":"gh:1001"}"#,
        ]
    );
    for name in ["__Host-lkf_at", "__Host-lkf_rt"] {
        assert_eq!(set(&reply, name).as_deref(), Some(&*format!("{name}=")));
    }
    assert!(!works(&world, &agent), "the tokens no longer work");
}

#[test]
fn delete_my_data_goes_a_batch_at_a_time_and_keeps_what_failed_listed() {
    let world = World::with(&[("DELETE_BATCH_PULLS", "2")]);
    let (cookie, caller) = signed_in(&world);
    let visit = visit(&cookie, &caller);
    for number in 1..=3 {
        ticked(&world, "Octo", number);
    }
    world.pulls.failing.borrow_mut().push("octo/repo#2".into());
    let first = post(&world, &visit, SettingsForm::DeleteData, "confirm=delete");
    assert_eq!(first.status, 200, "{}", first.body);
    let partly = "Deleted your ticks on 1 pull requests; more are left. Press Delete my data again to go on.";
    assert!(first.body.contains(partly), "{}", first.body);
    let session = visit.current_token.clone().unwrap_or_default();
    assert!(works(&world, &session), "still signed in with ticks left");
    world.pulls.failing.borrow_mut().clear();
    let second = post(&world, &visit, SettingsForm::DeleteData, "confirm=delete");
    assert!(
        second
            .body
            .contains("Deleted your ticks on 2 pull requests"),
        "{}",
        second.body
    );
    let third = post(&world, &visit, SettingsForm::DeleteData, "confirm=delete");
    assert!(
        third.body.contains("Your data was deleted"),
        "{}",
        third.body
    );
    let names: Vec<String> = forgotten_in(&world)
        .iter()
        .map(|call| call.split(' ').next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        names,
        ["octo/repo#1", "octo/repo#2", "octo/repo#2", "octo/repo#3"]
    );
}

#[test]
fn an_unreachable_person_object_is_a_503_that_says_to_retry() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    let visit = visit(&cookie, &caller);
    world.persons.down.set(true);
    for reply in [
        page(&world, &visit),
        post(&world, &visit, SettingsForm::RevokeToken, "token=t"),
        post(&world, &visit, SettingsForm::DeleteData, "confirm=delete"),
    ] {
        assert_eq!(reply.status, 503);
        assert_eq!(
            reply.body,
            "Settings are unavailable right now; retry in a minute."
        );
        assert_eq!(reply.header("cache-control"), Some("no-store"));
    }
}

#[test]
fn a_pull_request_that_failed_keeps_the_credentials_even_in_the_last_batch() {
    let world = World::new();
    let (cookie, caller) = signed_in(&world);
    let visit = visit(&cookie, &caller);
    ticked(&world, "Octo", 1);
    world.pulls.failing.borrow_mut().push("octo/repo#1".into());
    let reply = post(&world, &visit, SettingsForm::DeleteData, "confirm=delete");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(
        reply.body.contains("Deleted your ticks on 0 pull requests"),
        "{}",
        reply.body
    );
    let session = visit.current_token.clone().unwrap_or_default();
    assert!(
        works(&world, &session),
        "the credentials stay while ticks are left"
    );
    let line = "deleting ticks failed: pull request store answered 500";
    assert!(world.console.0.borrow().iter().any(|l| l == line));
}
