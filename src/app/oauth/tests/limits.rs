//! The per-address limit of `/authorize`, `/oauth/token` and `/oauth/register`: counted in the
//! address's object, per address, failing open.

use super::support::*;
use super::*;

fn register(world: &World, address: &str) -> HttpReply {
    let body = format!(r#"{{"client_name":"App","redirect_uris":["{REDIRECT}"]}}"#);
    let mut incoming = json(&body);
    incoming.address = address.into();
    world.call(OAuthEndpoint::Register, incoming)
}

#[test]
fn registration_is_limited_per_address() {
    let world = World::with(&[("ADDRESS_RATE_LIMIT_PER_MINUTE", "2")]);
    assert_eq!(register(&world, ADDRESS).status, 201);
    assert_eq!(register(&world, ADDRESS).status, 201);
    let limited = register(&world, ADDRESS);
    assert_eq!(limited.status, 429, "{}", limited.body);
    assert!(limited.header("retry-after").is_some());
    assert_eq!(body_json(&limited)["error"], "temporarily_unavailable");
    assert_eq!(
        world.kv.keys("client:").len(),
        2,
        "the refused one stored nothing"
    );
    // Another address has its own window.
    assert_eq!(register(&world, "198.51.100.1").status, 201);
    assert!(world.persons.exists(&format!("ip:{ADDRESS}")));
    // A minute later the window is open again.
    world.wait(60);
    assert_eq!(register(&world, ADDRESS).status, 201);
}

#[test]
fn authorize_and_token_count_in_the_same_window() {
    let world = World::with(&[("ADDRESS_RATE_LIMIT_PER_MINUTE", "3")]);
    let mut flow = Flow::register(&world, "App");
    assert_eq!(flow.authorize(&flow.query("s")).status, 302);
    assert_eq!(flow.exchange("lfc_1001_x").status, 400);
    let page = flow.authorize(&flow.query("s"));
    assert_eq!(page.status, 429, "{}", page.body);
    assert!(page
        .header("content-type")
        .unwrap_or_default()
        .starts_with("text/html"));
    assert_eq!(flow.exchange("lfc_1001_x").status, 429);
}

#[test]
fn the_limit_fails_open_when_the_address_object_is_unreachable() {
    let world = World::with(&[("ADDRESS_RATE_LIMIT_PER_MINUTE", "1")]);
    world.persons.down.set(true);
    assert_eq!(register(&world, ADDRESS).status, 201);
    assert_eq!(register(&world, ADDRESS).status, 201);
    assert!(world
        .console
        .0
        .borrow()
        .iter()
        .any(|l| l.contains("address limit unavailable")));
}
