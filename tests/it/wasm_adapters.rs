//! The wasm-only adapters' public halves, run in the wasm on Node (`cargo test --target
//! wasm32-unknown-unknown`): the Worker's configuration read from its bindings
//! (`bindings::read`) and the sealing of GitHub tokens with WebCrypto (`oauth::seal`). Native
//! builds do not compile either, so only these tests check them outside `wrangler dev`.

use logikflow::config::DEFAULT_GITHUB_TIMEOUT_MS;
use logikflow::oauth::rate_limit::ClientAddress;
use logikflow::oauth::seal;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;
use worker::js_sys::{Object, Reflect};

/// A Worker's `env` with these vars (as workerd passes them: plain strings).
fn env(vars: &[(&str, &str)]) -> worker::Env {
    let object = Object::new();
    for (name, value) in vars {
        let set = Reflect::set(&object, &JsValue::from_str(name), &JsValue::from_str(value));
        assert_eq!(set, Ok(true), "{name}");
    }
    object.unchecked_into()
}

#[wasm_bindgen_test]
fn configuration_defaults_with_no_bindings() {
    let config = logikflow::bindings::read(&env(&[]));
    assert_eq!(config.github_api_url, "https://api.github.com");
    assert_eq!(config.github_oauth_url, "https://github.com");
    assert!(!config.local_dev);
    assert!(!config.crash_test);
    assert_eq!(config.rate_limit_per_minute, 120);
    assert_eq!(config.address_rate_limit_per_minute, 60);
    assert_eq!(config.client_address, ClientAddress::Edge);
    assert_eq!(config.delete_batch_pulls, 40);
    assert_eq!(config.access_token_ttl_seconds, 3600);
    assert_eq!(config.github_timeout_ms, DEFAULT_GITHUB_TIMEOUT_MS);
    assert_eq!(
        config.kv_part_bytes,
        logikflow::kv_parts::DEFAULT_PART_BYTES
    );
    assert!(config.token_tag_key().is_none(), "no secret, no tag key");
}

#[wasm_bindgen_test]
fn configuration_from_local_development_vars() {
    let config = logikflow::bindings::read(&env(&[
        ("GITHUB_API_URL", "http://127.0.0.1:9000/"),
        ("GITHUB_OAUTH_URL", "http://127.0.0.1:9000//"),
        ("LOCAL_DEV", "1"),
        ("LOCAL_GITHUB_TOKEN", "gho_local"),
        ("LOCAL_GITHUB_LOGIN", "octo"),
        ("ALLOWED_ORIGINS", " https://a.example, ,https://b.example "),
        ("RATE_LIMIT_PER_MINUTE", "100000000"),
        ("DELETE_BATCH_PULLS", "500"),
        ("ACCESS_TOKEN_TTL_SECONDS", "7200"),
        ("GITHUB_TIMEOUT_MS", "250"),
        ("KV_PART_BYTES", "1024"),
        ("CRASH_TEST", "1"),
        ("TOKEN_ENCRYPTION_KEY", "a secret of the test"),
    ]));
    assert_eq!(
        config.github_api_url, "http://127.0.0.1:9000",
        "trailing slashes go"
    );
    assert_eq!(config.github_oauth_url, "http://127.0.0.1:9000");
    assert!(config.local_dev);
    assert_eq!(config.local_github_token.as_deref(), Some("gho_local"));
    assert_eq!(config.local_github_login.as_deref(), Some("octo"));
    assert_eq!(
        config.allowed_origins,
        ["https://a.example", "https://b.example"]
    );
    assert_eq!(config.rate_limit_per_minute, 100_000_000);
    assert_eq!(
        config.delete_batch_pulls, 40,
        "at most a request's subrequests allow"
    );
    assert_eq!(
        config.access_token_ttl_seconds, 3600,
        "never more than an hour"
    );
    assert_eq!(config.github_timeout_ms, 250);
    assert_eq!(config.kv_part_bytes, 1024);
    assert!(config.crash_test);
    assert_eq!(
        config.client_address,
        ClientAddress::Socket,
        "wrangler dev keeps a forged cf-connecting-ip: the socket's address counts"
    );
    assert_eq!(
        config.token_tag_key(),
        Some(logikflow::oauth::tokens::TagKey::derive(
            "a secret of the test"
        ))
    );
}

#[wasm_bindgen_test]
fn blank_and_unreadable_values_count_as_unset() {
    let config = logikflow::bindings::read(&env(&[
        ("LOCAL_DEV", "false"),
        ("LOCAL_GITHUB_TOKEN", "   "),
        ("RATE_LIMIT_PER_MINUTE", "many"),
        ("ACCESS_TOKEN_TTL_SECONDS", "0"),
        ("GITHUB_TIMEOUT_MS", "-5"),
        ("KV_PART_BYTES", "999999999999"),
        ("CLIENT_ADDRESS", "socket"),
        ("TOKEN_ENCRYPTION_KEY", ""),
    ]));
    assert!(!config.local_dev);
    assert_eq!(config.local_github_token, None);
    assert_eq!(config.rate_limit_per_minute, 120);
    assert_eq!(config.access_token_ttl_seconds, 3600);
    assert_eq!(config.github_timeout_ms, DEFAULT_GITHUB_TIMEOUT_MS);
    assert_eq!(
        config.kv_part_bytes,
        logikflow::kv_parts::DEFAULT_PART_BYTES,
        "over KV's limit"
    );
    assert_eq!(
        config.client_address,
        ClientAddress::Socket,
        "set explicitly"
    );
    assert!(config.token_tag_key().is_none());
}

async fn key(secret: &str) -> JsValue {
    match seal::import_key(secret).await {
        Ok(key) => key,
        Err(error) => panic!("import_key: {error}"),
    }
}

#[wasm_bindgen_test]
async fn a_sealed_token_opens_with_its_key_and_object_only() {
    let key = key("the deployment's secret").await;
    let sealed = seal::seal(&key, "gh:1001", "gho_secret_token")
        .await
        .map_err(|e| e.0);
    let Ok(sealed) = sealed else {
        panic!("seal: {sealed:?}");
    };
    assert!(sealed.starts_with("v1."), "{sealed}");
    assert!(!sealed.contains("gho_secret_token"));
    let opened = seal::open(&key, "gh:1001", &sealed).await.map_err(|e| e.0);
    assert_eq!(opened.as_deref(), Ok("gho_secret_token"));

    let again = seal::seal(&key, "gh:1001", "gho_secret_token")
        .await
        .map_err(|e| e.0);
    assert_ne!(again, Ok(sealed.clone()), "a fresh IV per seal");

    assert!(
        seal::open(&key, "gh:1002", &sealed).await.is_err(),
        "another person's object"
    );
    let other_key = key_for_other_secret().await;
    assert!(
        seal::open(&other_key, "gh:1001", &sealed).await.is_err(),
        "another secret"
    );
}

async fn key_for_other_secret() -> JsValue {
    key("another deployment's secret").await
}

#[wasm_bindgen_test]
async fn malformed_sealed_values_are_refused() {
    let key = key("the deployment's secret").await;
    let sealed = seal::seal(&key, "gh:7", "gho_x").await.map_err(|e| e.0);
    let Ok(sealed) = sealed else {
        panic!("seal: {sealed:?}");
    };
    // One character of the ciphertext changed: the tag no longer matches.
    let mut tampered = sealed.clone().into_bytes();
    let last = tampered.len() - 5;
    tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap_or_default();
    let refusals = [
        (tampered.as_str(), None),
        (
            sealed.trim_start_matches("v1."),
            Some("unknown seal version"),
        ),
        ("v2.AAAA", Some("unknown seal version")),
        ("v1.not*base64", Some("sealed value is not base64url")),
        ("v1.AAAAAAAAAAAAAAAA", Some("sealed value too short")),
    ];
    for (text, message) in refusals {
        let opened = seal::open(&key, "gh:7", text).await.map_err(|e| e.0);
        assert!(opened.is_err(), "{text} opened");
        if let (Some(message), Err(error)) = (message, &opened) {
            assert_eq!(error, message, "{text}");
        }
    }
}
