//! `/settings`: connected apps, disconnecting, and API tokens.

use super::support::World;
use crate::oauth::person_api::{CreateApiTokenReply, Removed, SettingsReply};

fn settings(world: &World, current: Option<&str>) -> SettingsReply {
    let body = serde_json::json!({ "current_token": current }).to_string();
    crate::json::decode(&world.answer("/settings", &body)).unwrap_or_default()
}

fn create(world: &World, name: &str, may_write: bool) -> CreateApiTokenReply {
    let body = serde_json::json!({ "person": "42", "name": name, "may_write": may_write });
    crate::json::decode(&world.answer("/api-token/create", &body.to_string()))
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn settings_list_apps_most_recently_used_first_and_mark_this_browser() {
    let world = World::new();
    let (first, _) = world.connect("one");
    world.wait(10);
    world.connect("two");
    let listed = settings(&world, Some(&first));
    let names: Vec<&str> = listed.apps.iter().map(|a| a.client_name.as_str()).collect();
    assert_eq!(names, vec!["App two", "App one"]);
    assert!(listed.apps[1].current && !listed.apps[0].current);
}

#[test]
fn disconnecting_ends_the_grant_and_says_whether_it_was_there() {
    let world = World::new();
    let (access, _) = world.connect("app");
    let grant_id = settings(&world, None).apps[0].grant_id.clone();
    let body = serde_json::json!({ "grant_id": grant_id }).to_string();
    let removed: Removed =
        crate::json::decode(&world.answer("/disconnect", &body)).unwrap_or_else(|e| panic!("{e}"));
    assert!(removed.removed);
    assert!(!world.allowed(&access));
    let again: Removed =
        crate::json::decode(&world.answer("/disconnect", &body)).unwrap_or_else(|e| panic!("{e}"));
    assert!(!again.removed);
}

#[test]
fn an_api_token_works_until_revoked_and_never_expires() {
    let world = World::new();
    world.connect("app");
    let created = create(&world, "CI", false);
    match world.check(&created.token) {
        crate::oauth::person_api::CheckReply::Allowed {
            may_write,
            client_name,
            ..
        } => {
            assert!(!may_write);
            assert_eq!(client_name, "CI");
        }
        other => panic!("{other:?}"),
    }
    world.wait(400 * 24 * 3600);
    assert!(world.allowed(&created.token), "API tokens do not expire");
    world.memory.forget_checks();
    assert!(world.allowed(&created.token), "nor when read again");
    let listed = settings(&world, None);
    assert_eq!(listed.tokens.len(), 1);
    assert_eq!(listed.tokens[0].id, created.id);
    assert!(listed.tokens[0].last_used_at > 0);
    let body = serde_json::json!({ "id": created.id }).to_string();
    let removed: Removed = crate::json::decode(&world.answer("/api-token/revoke", &body))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(removed.removed);
    assert!(!world.allowed(&created.token));
}

#[test]
fn whoever_holds_an_api_token_may_revoke_it() {
    let world = World::new();
    world.connect("app");
    let created = create(&world, "CI", true);
    let body = serde_json::json!({ "token": created.token, "client_id": "anyone" });
    world.answer("/revoke", &body.to_string());
    assert!(!world.allowed(&created.token));
}
