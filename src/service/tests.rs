//! The service's decisions for `/mcp` in the wasm (on Node): who a request acts for, and the
//! replies given before any storage is reached. The Worker's `env` here has no bindings at all,
//! so a test passes only if the decision is made without a Durable Object or KV: a made-up token
//! is refused by its tag, a local-development request acts as the local user, and a refused
//! request echoes its id.

use std::future::Future;

use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;
use worker::js_sys::{Object, Reflect};
use worker::{Env, Result};

use super::{local_caller, mcp};
use crate::body::Capped;
use crate::config::Config;
use crate::http::{Headers, HttpReply};

fn no_bindings() -> Env {
    Object::new().unchecked_into()
}

/// The configuration a Worker with these vars reads (`bindings::read`).
fn config(vars: &[(&str, &str)]) -> Config {
    let object = Object::new();
    for (name, value) in vars {
        let _ = Reflect::set(&object, &JsValue::from_str(name), &JsValue::from_str(value));
    }
    crate::bindings::read(&object.unchecked_into())
}

const LOCAL: [(&str, &str); 3] = [
    ("LOCAL_DEV", "1"),
    ("LOCAL_GITHUB_TOKEN", "gho_local"),
    ("LOCAL_GITHUB_LOGIN", "octo"),
];

fn local() -> Config {
    config(&LOCAL)
}

fn body(text: &str) -> impl Future<Output = Result<Capped>> {
    let bytes = text.as_bytes().to_vec();
    async move { Ok(Capped::Body(bytes)) }
}

const LIST: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;

/// POSTs `message` to `/mcp` at `url` with the 2025-06-18 headers, `extra` ones replacing them.
async fn post(url: &str, extra: &[(&str, &str)], message: &str, config: &Config) -> HttpReply {
    let length = message.len().to_string();
    let mut pairs = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("mcp-protocol-version", "2025-06-18"),
        ("content-length", length.as_str()),
    ];
    pairs.retain(|(name, _)| extra.iter().all(|(other, _)| other != name));
    pairs.extend_from_slice(extra);
    let headers = Headers::new(pairs);
    let url = url::Url::parse(url).unwrap_or_else(|e| panic!("{url}: {e}"));
    match mcp(
        "POST",
        &url,
        &headers,
        body(message),
        &no_bindings(),
        config,
    )
    .await
    {
        Ok(reply) => reply,
        Err(error) => panic!("mcp reached for a binding: {error}"),
    }
}

fn json(reply: &HttpReply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or(Value::Null)
}

#[wasm_bindgen_test]
async fn local_development_lists_tools_for_a_loopback_request() {
    let reply = post("http://127.0.0.1:8787/mcp", &[], LIST, &local()).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let answer = json(&reply);
    assert_eq!(answer["id"], 7);
    let tools = answer["result"]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"get_pull_request"), "{names:?}");
    assert!(names.contains(&"save_reading_order"), "{names:?}");
}

#[wasm_bindgen_test]
async fn without_a_token_a_deployed_server_challenges_and_echoes_the_id() {
    let reply = post("https://review.example/mcp", &[], LIST, &Config::default()).await;
    assert_eq!(reply.status, 401);
    let challenge = reply.header("www-authenticate").unwrap_or_default();
    assert!(
        challenge.contains(
            r#"resource_metadata="https://review.example/.well-known/oauth-protected-resource/mcp""#
        ),
        "{challenge}"
    );
    assert_eq!(
        json(&reply)["id"],
        7,
        "the refusal names the request it refuses"
    );
}

#[wasm_bindgen_test]
async fn local_development_acts_for_no_one_off_loopback() {
    let reply = post("https://review.example/mcp", &[], LIST, &local()).await;
    assert_eq!(reply.status, 401, "a public host gets no local user");
}

#[wasm_bindgen_test]
async fn a_made_up_token_is_refused_by_its_tag_before_any_object() {
    let config = config(&[
        LOCAL[0],
        LOCAL[1],
        ("TOKEN_ENCRYPTION_KEY", "the deployment's secret"),
    ]);
    // Well formed (kind, person, 43 characters) but not minted with this deployment's key.
    let forged = "Bearer lfa_1001_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    let reply = post(
        "http://127.0.0.1:8787/mcp",
        &[("authorization", forged)],
        LIST,
        &config,
    )
    .await;
    assert_eq!(reply.status, 401);
    let challenge = reply.header("www-authenticate").unwrap_or_default();
    assert!(
        challenge.contains(r#"error="invalid_token""#),
        "{challenge}"
    );
    let reply = post(
        "http://127.0.0.1:8787/mcp",
        &[("authorization", "Basic eDp5")],
        LIST,
        &config,
    )
    .await;
    assert_eq!(reply.status, 401, "not a bearer token");
}

#[wasm_bindgen_test]
async fn a_foreign_origin_is_refused_first() {
    let reply = post(
        "http://127.0.0.1:8787/mcp",
        &[("origin", "https://evil.example")],
        LIST,
        &local(),
    )
    .await;
    assert_eq!(reply.status, 403);
}

#[wasm_bindgen_test]
async fn transport_rules_apply_once_the_caller_is_known() {
    let config = local();
    let url = "http://127.0.0.1:8787/mcp";
    let reply = post(url, &[("content-type", "text/plain")], LIST, &config).await;
    assert_eq!(reply.status, 415, "{}", reply.body);
    let reply = post(url, &[("content-length", "2000000")], LIST, &config).await;
    assert_eq!(reply.status, 413);
    let headers = Headers::new([("mcp-protocol-version", "2025-06-18")]);
    let parsed = url::Url::parse(url).unwrap_or_else(|e| panic!("{e}"));
    let reply = mcp("GET", &parsed, &headers, body(""), &no_bindings(), &config).await;
    assert_eq!(reply.map(|r| r.status).ok(), Some(405));
}

#[wasm_bindgen_test]
fn the_local_user_needs_local_development_loopback_and_no_credentials() {
    let none = Headers::new(Vec::<(String, String)>::new());
    let caller = local_caller(&none, "127.0.0.1", &local());
    assert_eq!(caller.as_ref().map(|c| c.login.as_str()), Some("octo"));
    assert_eq!(
        caller.as_ref().map(|c| c.person.as_str()),
        Some("local:octo")
    );
    assert!(caller.is_some_and(|c| c.may_write && c.github_token == "gho_local"));
    assert!(local_caller(&none, "localhost", &local()).is_some());
    assert!(local_caller(&none, "[::1]", &local()).is_some());

    assert!(local_caller(&none, "review.example", &local()).is_none());
    let token = Headers::new([("authorization", "Bearer x")]);
    assert!(local_caller(&token, "127.0.0.1", &local()).is_none());
    let deployed = config(&LOCAL[1..]);
    assert!(local_caller(&none, "127.0.0.1", &deployed).is_none());
    let no_token = config(&[LOCAL[0], LOCAL[2]]);
    assert!(local_caller(&none, "127.0.0.1", &no_token).is_none());
    let no_login = config(&LOCAL[..2]);
    let caller = local_caller(&none, "127.0.0.1", &no_login);
    assert_eq!(caller.map(|c| c.login), Some("local".to_string()));
}
