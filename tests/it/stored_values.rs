//! Stored values must not move (issue #28): change ids, checklist ids, token hashes and tags,
//! PKCE challenges, SHA-256 digests (GitHub anchors, KV keys, the sealing key) and base64 text
//! are kept in people's databases and in links, so a new hash or base64 implementation must give
//! every one of them byte for byte as before.
//!
//! `tests/data/stored-values/golden.json` holds them as the code before the `sha2`/`base64`
//! change computed them (commit 3f74057): natively with `sha2` and the hand-written base64, and in
//! the wasm with the JavaScript SHA-256 the Worker installed then (the wasm run of this same test
//! checked that both gave the same file; the sealed token in it was sealed there). This test
//! recomputes every value with the code of today and finds it identical, natively (`cargo test`)
//! and in the wasm (`cargo test --target wasm32-unknown-unknown`, on Node). The file is never
//! rewritten from the code under test: a value that moved is a bug, or a migration that says so.

use logikflow::oauth::tokens::{self, PersonId, TagKey, TokenKind};
use logikflow::review::change_id::describe_changes;
use logikflow::review::order::{checklist_ids, FileEntry, Order, Section};
use logikflow::review::patch::parse_patch;
use logikflow::security::{base64, pkce, sha256};
use serde_json::{json, Value};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

const GOLDEN: &str = include_str!("../data/stored-values/golden.json");

/// Deterministic bytes (xorshift): every length and byte value without randomness.
fn bytes(length: usize, seed: u32) -> Vec<u8> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..length)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 11) as u8
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    sha256::hex(bytes)
}

/// SHA-256 digests: every length up to 300 (where the padding moves), multi-part inputs as the
/// callers pass them, text with non-ASCII characters and a 1 MiB input.
fn sha256_values() -> Value {
    let mut out = Vec::new();
    for length in 0..=300 {
        let data = bytes(length, length as u32 + 7);
        let digest = hex(&sha256::sha256(&[&data]));
        out.push(json!({ "length": length, "seed": length + 7, "digest": digest }));
    }
    let texts: [&[&str]; 8] = [
        &["abc"],
        &[
            "abcdbcdecdefdefgefghfghighij",
            "hijkijkljklmklmnlmnomnopnopq",
        ],
        &["src/app/router.ts"],
        &["src/a b~c#d%e.é日🦀_-Z09\t\"<>"],
        &["logikflow github-token seal v1\0", "the-secret"],
        &["logikflow token tag v1\0", "the-secret"],
        &["https://client.example/metadata.json"],
        &["", "", "x", ""],
    ];
    for parts in texts {
        let raw: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
        out.push(json!({ "parts": parts, "digest": hex(&sha256::sha256(&raw)) }));
    }
    let large = bytes(1 << 20, 99);
    out.push(json!({ "generated": "1 MiB, seed 99", "digest": hex(&sha256::sha256(&[&large])) }));
    Value::Array(out)
}

/// Patches whose hunks' change ids are stored in saved orders and review ticks.
const PATCHES: [&str; 6] = [
    "@@ -1,3 +1,4 @@ fn main() {\n line\n-old\n+new\n+more\n line\n",
    "@@ -10,1 +10,1 @@\n-a\n+b\n@@ -20,1 +20,1 @@\n-a\n+b\n@@ -30,1 +30,1 @@\n-c\n+d\n@@ -40,1 +40,1 @@\n-a\n+b\n",
    "@@ -1 +1 @@\n-no newline\n\\ No newline at end of file\n+no newline\n",
    "@@ -0,0 +1,3 @@\n+é日🦀\n+\ttabs\tand \"quotes\" <tags>\n+\n",
    "@@ -5,3 +5,0 @@ class A\n-x\n-y\n-z\n@@ -50,0 +48,1 @@\n+only added\n",
    "@@ -1,2 +1,2 @@\n context\n-same\n+SAME\n@@ -9,2 +9,2 @@\n other context\n-same\n+SAME\n",
];

fn change_id_values() -> Value {
    let mut out = Vec::new();
    for patch in PATCHES {
        let ids: Vec<String> = match parse_patch(patch) {
            Ok(hunks) => describe_changes(&hunks).into_iter().map(|c| c.id).collect(),
            Err(error) => vec![format!("parse error: {error}")],
        };
        out.push(json!({ "patch": patch, "ids": ids }));
    }
    // A hunk repeated 40 times (a mass rename): salts 1 to 39.
    let repeated = "@@ -1,1 +1,1 @@\n-r\n+s\n".repeat(40);
    let ids: Vec<String> = match parse_patch(&repeated) {
        Ok(hunks) => describe_changes(&hunks).into_iter().map(|c| c.id).collect(),
        Err(error) => vec![format!("parse error: {error}")],
    };
    out.push(json!({ "patch": "@@ -1,1 +1,1 @@\\n-r\\n+s\\n × 40", "ids": ids }));
    Value::Array(out)
}

fn file(path: &str, checks: &[&str], hunks: Option<&[&str]>) -> FileEntry {
    FileEntry {
        path: path.into(),
        note: None,
        checks: checks.iter().map(|c| c.to_string()).collect(),
        focus: None,
        hunks: hunks.map(|h| h.iter().map(|id| id.to_string()).collect()),
    }
}

fn section(title: Option<&str>, checks: &[&str], files: Vec<FileEntry>) -> Section {
    Section {
        title: title.map(str::to_string),
        layer: None,
        note: None,
        checks: checks.iter().map(|c| c.to_string()).collect(),
        files,
    }
}

fn checklist_values() -> Value {
    let order = Order {
        overview: Some("Golden order".into()),
        sections: vec![
            section(
                Some("Data model"),
                &[
                    "Names say what they hold",
                    "  Errors   reach the caller ",
                    "Names say what they hold",
                ],
                vec![
                    file(
                        "src/model.rs",
                        &["Fields are documented", "Fields are documented"],
                        None,
                    ),
                    file(
                        "src/app/router.ts",
                        &["The route is tested"],
                        Some(&["hyzm99a", "h1pdwiwd", "hyzm99a"]),
                    ),
                ],
            ),
            section(
                None,
                &["An untitled section's check"],
                vec![file("README.md", &[], None)],
            ),
            section(
                Some("DATA   model"),
                &["Names say what they hold", "é日🦀 in a check"],
                vec![file(
                    "src/a b~c#d%e.é日🦀",
                    &["Path with every kind of character"],
                    Some(&[]),
                )],
            ),
            section(Some("Tests"), &[], vec![file("tests/it.rs", &[], None)]),
        ],
    };
    let items: Vec<Value> = checklist_ids(&order)
        .into_iter()
        .map(|item| json!({ "scope": item.scope, "text": item.text, "id": item.id }))
        .collect();
    Value::Array(items)
}

fn token_values() -> Value {
    let hashes: Vec<Value> = [
        "lfa_1001_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "lfr_42_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ",
        "lfk_7_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_",
        "an authorization code",
        "",
    ]
    .iter()
    .map(|token| json!({ "token": token, "hash": tokens::hash(token) }))
    .collect();
    let kinds = [
        ("access", TokenKind::Access),
        ("refresh", TokenKind::Refresh),
        ("code", TokenKind::Code),
        ("consent", TokenKind::Consent),
        ("api", TokenKind::Api),
    ];
    let mut minted = Vec::new();
    for (index, (name, kind)) in kinds.into_iter().enumerate() {
        for secret in [
            "the-secret",
            "another secret, longer than the sixty-four bytes of a SHA-256 block",
        ] {
            let mut random = [0u8; tokens::RANDOM_BYTES];
            random.copy_from_slice(&bytes(tokens::RANDOM_BYTES, index as u32 + 300));
            let person = PersonId::from_github_id(1000 + index as u64);
            let token = tokens::mint(kind, &person, &random, &TagKey::derive(secret));
            minted.push(json!({
                "kind": name, "person": person.as_str(), "secret": secret,
                "random_hex": hex(&random), "token": token,
            }));
        }
    }
    json!({ "hashes": hashes, "minted": minted })
}

fn pkce_values() -> Value {
    // RFC 7636 appendix B first, then verifiers of the shortest and longest lengths allowed.
    let verifiers = [
        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".to_string(),
        "a".repeat(43),
        "~._-".repeat(32),
        base64::encode_url_safe(&bytes(96, 5)),
    ];
    Value::Array(
        verifiers
            .iter()
            .map(|v| json!({ "verifier": v, "challenge": pkce::s256(v) }))
            .collect(),
    )
}

/// Every 2- and 3-character tail `Q?`/`Q??` over the URL-safe alphabet and `=+/ `, and whether
/// URL-safe decoding accepts it: the strictness a token check relies on.
fn url_safe_tails() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ ";
    let mut accepted = Vec::new();
    for a in ALPHABET {
        let two = String::from_utf8(vec![b'Q', *a]).unwrap_or_default();
        if base64::decode_url_safe(&two).is_some() {
            accepted.push(two);
        }
        for b in ALPHABET {
            let three = String::from_utf8(vec![b'Q', *a, *b]).unwrap_or_default();
            if base64::decode_url_safe(&three).is_some() {
                accepted.push(three);
            }
        }
    }
    accepted.join(" ")
}

fn base64_values() -> Value {
    let decoded = |result: Option<Vec<u8>>| result.map_or(Value::Null, |b| Value::String(hex(&b)));
    let mut encode = Vec::new();
    for length in 0..=100 {
        let data = bytes(length, length as u32 + 1000);
        encode.push(json!({ "hex": hex(&data), "url_safe": base64::encode_url_safe(&data) }));
    }
    let url_safe_inputs = [
        "", "A", "AA", "AAA", "AAAA", "AAAAA", "AB", "AAB", "AA==", "A+==", "AA=A", "AA A", "ÿÿ",
        "AB\n", "-_8", "-_-_", "Zm9vYmFy", "Zm9vYmE", "Zm9vYg", "Zm9vYh", "+/+/", "TWFu", "TWE",
        "TQ", "TR",
    ];
    let url_safe_decode: Vec<Value> = url_safe_inputs
        .iter()
        .map(|text| json!({ "text": text, "hex": decoded(base64::decode_url_safe(text)) }))
        .collect();
    let standard_inputs = [
        "",
        "QQ",
        "QQ==",
        "QQ=",
        "QUI=",
        "QUI",
        "QUJD",
        "Q-==",
        "====",
        "QQ==QQ==",
        "Q===",
        "bGlua3M6IG9mZgpkaWFncmFtczog\nYWx3YXlzCg==\n",
        " Q U J D \r\n\t",
        "+/+/",
        "++==",
        "+/A=",
        "+/B=",
        "QR==",
        "QQ==\n",
        "Zm9v\nYmFy\n",
        "A",
    ];
    let mut standard_decode: Vec<Value> = standard_inputs
        .iter()
        .map(|text| json!({ "text": text, "hex": decoded(base64::decode_standard(text)) }))
        .collect();
    // GitHub's contents API: standard base64 with a line break every 60 characters.
    let file = bytes(1000, 77);
    let mut wrapped = String::new();
    let standard = standard_encode(&file);
    for (index, character) in standard.chars().enumerate() {
        if index > 0 && index % 60 == 0 {
            wrapped.push('\n');
        }
        wrapped.push(character);
    }
    wrapped.push('\n');
    standard_decode
        .push(json!({ "text": wrapped, "hex": decoded(base64::decode_standard(&wrapped)) }));
    json!({
        "encode": encode,
        "url_safe_decode": url_safe_decode,
        "standard_decode": standard_decode,
        "url_safe_tails_accepted": url_safe_tails(),
    })
}

/// Standard, padded base64 written here (RFC 4648 §4), so the input of a decoding case does not
/// come from the code under test.
fn standard_encode(data: &[u8]) -> String {
    const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let mut group = [0u8; 3];
        group[..chunk.len()].copy_from_slice(chunk);
        let bits = u32::from(group[0]) << 16 | u32::from(group[1]) << 8 | u32::from(group[2]);
        for index in 0..4 {
            if index <= chunk.len() {
                out.push(char::from(
                    STANDARD[((bits >> (18 - 6 * index)) & 63) as usize],
                ));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Every value, as the golden file holds them (but its `sealed` entry, which the wasm opens).
fn computed() -> Value {
    json!({
        "sha256": sha256_values(),
        "change_ids": change_id_values(),
        "checklist_ids": checklist_values(),
        "tokens": token_values(),
        "pkce_s256": pkce_values(),
        "base64": base64_values(),
    })
}

fn golden() -> Value {
    serde_json::from_str(GOLDEN).unwrap_or(Value::Null)
}

/// Compares key by key, so a failure names the family of values that moved.
fn check() {
    let golden = golden();
    let computed = computed();
    assert!(computed.as_object().is_some_and(|values| values.len() == 6));
    for (key, value) in computed.as_object().into_iter().flatten() {
        assert_eq!(Some(value), golden.get(key), "stored values moved: {key}");
    }
    assert_eq!(
        pkce::s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        "RFC 7636 appendix B"
    );
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn stored_values_are_unchanged() {
    check();
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen_test]
fn stored_values_are_unchanged_in_the_wasm() {
    check();
}

/// The sealed GitHub token in the golden file, sealed in the wasm by the code before the change,
/// still opens under the same secret and object name, and only under them.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen_test]
async fn a_sealed_token_still_opens() {
    use logikflow::oauth::seal;
    let golden = golden();
    let text = |key: &str| {
        golden["sealed"][key]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let key = seal::import_key(&text("secret")).await.map_err(|e| e.0);
    let Ok(key) = key else {
        panic!("import_key failed: {key:?}");
    };
    let opened = seal::open(&key, &text("object"), &text("sealed"))
        .await
        .map_err(|e| e.0);
    assert_eq!(opened, Ok(text("plaintext")));
    let elsewhere = seal::open(&key, "gh:2", &text("sealed")).await;
    assert!(
        elsewhere.is_err(),
        "a sealed value opened under another object's name"
    );
}
