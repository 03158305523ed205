//! Stored JSON as earlier builds wrote it (field names, `null`s and tags as their `Serialize`
//! wrote them, before decoding moved to serde's derive, issue #28) must still read: KV values,
//! the pull request object's rows, the person object's records. Each text here is one such
//! value, written by hand; a renamed field or a changed tag fails here.

use crate::json::decode;
use crate::oauth::authorize::AuthorizationRequest;
use crate::oauth::clients::{ClientKind, ClientRecord};
use crate::oauth::github_flow::GitHubTokens;
use crate::oauth::grants::CodeRecord;
use crate::person_data::TickedList;
use crate::review::model::saved::{CurrentState, SaveOutcome};
use crate::review::model::ticks::{ReviewerState, TickReply};

fn read<T: serde::de::DeserializeOwned>(text: &str) -> T {
    decode(text).unwrap_or_else(|error| panic!("{error}: {text}"))
}

#[test]
fn client_records_read_back() {
    let registered: ClientRecord = read(
        r#"{"client_id":"lfc_1","client_name":"Cursor","redirect_uris":["cursor://anysphere.cursor-mcp/oauth/callback"],"created_at":1764000000,"kind":"registered"}"#,
    );
    assert_eq!(registered.kind, ClientKind::Registered);
    assert_eq!(registered.redirect_uris.len(), 1);
    let document: ClientRecord = read(
        r#"{"client_id":"https://app.example/client.json","client_name":"App","redirect_uris":["https://app.example/cb"],"created_at":1,"kind":{"metadata_document":{"domain":"app.example"}}}"#,
    );
    assert_eq!(document.verified_domain(), Some("app.example"));
}

#[test]
fn person_records_read_back() {
    let code: CodeRecord = read(
        r#"{"client_id":"lfc_1","client_name":"App","redirect_uri":"http://127.0.0.1:3000/cb","redirect_uri_sent":true,"code_challenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","resource":"https://h.example/mcp","may_write":false,"expires_at":1764000600,"grant_id":null}"#,
    );
    assert_eq!(code.grant_id, None);
    assert_eq!(
        code.code_challenge.as_str(),
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    );
    let tokens: GitHubTokens = read(
        r#"{"access_token":"ghu_x","refresh_token":"ghr_y","expires_at":1764028800,"refresh_expires_at":null}"#,
    );
    assert_eq!(tokens.refresh_token.as_deref(), Some("ghr_y"));
    assert_eq!(tokens.refresh_expires_at, None);
    let plain: GitHubTokens = read(r#"{"access_token":"gho_x"}"#);
    assert_eq!(plain.expires_at, None);
    let pending: AuthorizationRequest = read(
        r#"{"client_id":"lfc_1","client_name":"App","verified_domain":null,"redirect_uri":"http://127.0.0.1:3000/cb","redirect_uri_sent":false,"state":"s","code_challenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","resource":"https://h.example/mcp"}"#,
    );
    assert_eq!(pending.state.as_deref(), Some("s"));
    let ticked: TickedList =
        read(r#"{"pulls":[{"owner":"Acme","repo":"App","number":12,"login":"octo"}]}"#);
    assert_eq!(ticked.pulls[0].key(), "acme/app#12@octo");
}

#[test]
fn pull_request_object_state_reads_back() {
    let state: CurrentState = read(
        r#"{"order":{"version":2,"body":{"overview":"x","sections":[{"title":"A","layer":"logic","files":[{"path":"src/a.rs","focus":"key"}]}],"checklist":[]},"person":"octo","client":"Claude Code","source":"agent","head_sha":"abc","saved_at":"2026-01-01T00:00:00Z"},"diagram":null}"#,
    );
    let order = state.order.map(|record| record.body);
    let order: crate::review::order::Order =
        crate::json::read(&order.unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(order.sections[0].files[0].path, "src/a.rs");
    assert_eq!(state.diagram, None);
    let reviewer: ReviewerState = read(
        r#"{"ticks":[{"item":"change:src/a.rs#c1","head_sha":null,"at":"2026-01-01T00:00:00Z"}],"heads":{"abc":{"src/a.rs":["c1"]}}}"#,
    );
    assert_eq!(reviewer.ticks[0].head_sha, None);
    assert!(reviewer.heads.contains_key("abc"));
    assert_eq!(
        read::<SaveOutcome>(r#"{"outcome":"saved","version":3,"has_diagram":false}"#),
        SaveOutcome::Saved {
            version: 3,
            has_diagram: false
        }
    );
    let tick: TickReply = read(r#"{"outcome":"full","known_head":true}"#);
    assert!(tick.known_head);
}
