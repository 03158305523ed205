//! The records keep the stored values: a state written by the build before this layer is read
//! and used as it was (`tests/data/person-object/state-160ae30.sql`), and what the layer writes
//! has the storage classes that build wrote (integers for times and flags, text for the rest).

use super::support::{issued, refused, World, CSRF, VERIFIER};
use crate::oauth::error::GrantError;
use crate::oauth::person_api::{BeginReply, CheckReply, ConsentReply, SettingsRequest};
use crate::oauth::tokens::{self, TagKey, TokenKind};
use crate::ports::sql::Sql;

const OLD_STATE: &str = include_str!("../../../../tests/data/person-object/state-160ae30.sql");

/// A token of `kind` for person 42, from fixed bytes.
fn token(world: &World, kind: TokenKind, seed: u8) -> String {
    let key: TagKey = world
        .config
        .token_tag_key()
        .unwrap_or_else(|| panic!("no key"));
    tokens::mint(kind, &world.person, &[seed; tokens::RANDOM_BYTES], &key)
}

struct Old {
    access: String,
    refresh: String,
    spent: String,
    code: String,
    api: String,
    consent: String,
}

/// A world holding the old build's state.
fn old_world() -> (World, Old) {
    let world = World::new();
    let old = Old {
        access: token(&world, TokenKind::Access, 1),
        refresh: token(&world, TokenKind::Refresh, 2),
        spent: token(&world, TokenKind::Refresh, 3),
        code: token(&world, TokenKind::Code, 4),
        api: token(&world, TokenKind::Api, 5),
        consent: token(&world, TokenKind::Consent, 6),
    };
    let state = OLD_STATE
        .replace("{access}", &tokens::hash(&old.access))
        .replace("{refresh}", &tokens::hash(&old.refresh))
        .replace("{spent}", &tokens::hash(&old.spent))
        .replace("{code}", &tokens::hash(&old.code))
        .replace("{api}", &tokens::hash(&old.api))
        .replace("{consent}", &tokens::hash(&old.consent))
        .replace("{csrf}", &tokens::hash(CSRF))
        .replace("{challenge}", &crate::security::pkce::s256(VERIFIER));
    let records = crate::app::person::records::Records::new(&world.sql);
    records.create().unwrap_or_else(|e| panic!("{e}"));
    world.sql.script(&state).unwrap_or_else(|e| panic!("{e}"));
    (world, old)
}

#[test]
fn the_schema_can_be_created_again_over_a_live_object() {
    let (world, _) = old_world();
    let records = crate::app::person::records::Records::new(&world.sql);
    records.create().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(world.rows("grants"), 1);
}

#[test]
fn an_old_state_is_read_as_it_was_written() {
    let (world, old) = old_world();
    match world.check(&old.access) {
        CheckReply::Allowed {
            github_token,
            may_write,
            client_name,
            ..
        } => {
            assert_eq!(github_token, "gho_old");
            assert!(may_write);
            assert_eq!(client_name, "App app");
        }
        other => panic!("{other:?}"),
    }
    match world.check(&old.api) {
        CheckReply::Allowed { may_write, .. } => assert!(!may_write),
        other => panic!("{other:?}"),
    }
    let settings = world
        .person()
        .settings(&SettingsRequest {
            current_token: Some(old.access.clone()),
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(settings.apps.len(), 1);
    assert!(settings.apps[0].current);
    assert_eq!(settings.tokens[0].name, "CI");
    // The old code exchanges once, read-only as its record says.
    let (fresh, _) = issued(world.exchange(&old.code, "app", VERIFIER));
    match world.check(&fresh) {
        CheckReply::Allowed { may_write, .. } => assert!(!may_write),
        other => panic!("{other:?}"),
    }
    // The old pending consent is answered.
    assert!(matches!(
        world.consent(&old.consent, true),
        ConsentReply::Approved { .. }
    ));
    // The remembered write consent skips the page.
    assert!(matches!(world.begin("app"), BeginReply::Code { .. }));
    // The index lists the old entry.
    let listed = world.answer("/data/ticked/list", r#"{"limit":5}"#);
    assert!(listed.contains(r#""number":7"#), "{listed}");
}

#[test]
fn an_old_spent_refresh_token_is_a_replay_and_an_old_live_one_rotates() {
    let (world, old) = old_world();
    issued(world.refresh(&old.refresh, "app"));
    let (world, old) = old_world();
    assert_eq!(
        refused(world.refresh(&old.spent, "app")),
        GrantError::RefreshReplayed
    );
    assert_eq!(world.rows("grants"), 0, "the replay revoked the grant");
}

#[derive(serde::Deserialize)]
struct Column {
    name: String,
}

#[derive(serde::Deserialize)]
struct Class {
    t: String,
}

/// `table.column: class` for every column of every table, the classes the values stored in it
/// have (sorted, comma-separated), or `-` for an empty column.
fn storage_classes(world: &World) -> String {
    let mut out = String::new();
    for table in crate::app::person::records::TABLES {
        let columns: Vec<Column> = world
            .sql
            .rows(
                &format!("SELECT name FROM pragma_table_info('{table}')"),
                &[],
            )
            .unwrap_or_default();
        for column in columns {
            let classes: Vec<Class> = world
                .sql
                .rows(
                    &format!(
                        "SELECT DISTINCT typeof({}) AS t FROM {table} ORDER BY t",
                        column.name
                    ),
                    &[],
                )
                .unwrap_or_default();
            let classes: Vec<String> = classes.into_iter().map(|c| c.t).collect();
            let classes = if classes.is_empty() {
                "-".to_string()
            } else {
                classes.join(",")
            };
            out.push_str(&format!("{table}.{}: {classes}\n", column.name));
        }
    }
    out
}

#[test]
fn what_the_layer_writes_has_the_old_storage_classes() {
    let world = World::new();
    let (_, refresh) = world.connect("app");
    issued(world.refresh(&refresh, "app"));
    world.begin("pending");
    world.answer(
        "/api-token/create",
        r#"{"person":"42","name":"CI","may_write":true}"#,
    );
    world.answer(
        "/data/ticked/note",
        r#"{"owner":"O","repo":"R","number":3,"login":"octo"}"#,
    );
    let (old, tokens) = old_world();
    issued(old.exchange(&tokens.code, "app", VERIFIER));
    assert_eq!(storage_classes(&world), storage_classes(&old));
    assert!(storage_classes(&world).contains("grants.may_write: integer\n"));
    assert!(storage_classes(&world).contains("codes.grant_id: text\n"));
}
