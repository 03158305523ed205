//! Encryption of GitHub tokens at rest (wasm only).
//!
//! Why: a person's GitHub token is the most valuable thing we store, so the person's object keeps
//! it sealed with AES-256-GCM (WebCrypto, reached through `js_sys` reflection: no new crate) under
//! a key from the `TOKEN_ENCRYPTION_KEY` Worker secret. The key is SHA-256 of a fixed label and the
//! secret (the secret is high-entropy, so one hash is a sound derivation), each seal has a fresh
//! 96-bit IV, and the person's object name is the additional data, so a sealed token copied into
//! another person's object does not open.
//! Format: `v1.` + base64url(IV ‖ ciphertext ‖ tag).
//! What not: no storage, no key rotation yet (a new secret makes old tokens unreadable, which
//! signs people out: their next request needs a new GitHub sign-in).

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use worker::js_sys::{Array, Function, Object, Promise, Reflect, Uint8Array};

const VERSION: &str = "v1.";
const IV_BYTES: usize = 12;
const KEY_LABEL: &[u8] = b"logikflow github-token seal v1\0";

/// Why sealing or opening failed. Details are for logs only.
#[derive(Debug)]
pub struct SealError(pub String);

impl std::fmt::Display for SealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn js_error(value: JsValue) -> SealError {
    SealError(value.as_string().unwrap_or_else(|| format!("{value:?}")))
}

fn subtle() -> Result<JsValue, SealError> {
    let crypto = Reflect::get(&worker::js_sys::global(), &"crypto".into()).map_err(js_error)?;
    Reflect::get(&crypto, &"subtle".into()).map_err(js_error)
}

async fn call(subtle: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, SealError> {
    let function: Function = Reflect::get(subtle, &method.into())
        .map_err(js_error)?
        .dyn_into()
        .map_err(js_error)?;
    let array = Array::new();
    for arg in args {
        array.push(arg);
    }
    let promise: Promise = function
        .apply(subtle, &array)
        .map_err(js_error)?
        .dyn_into()
        .map_err(js_error)?;
    JsFuture::from(promise).await.map_err(js_error)
}

fn bytes(data: &[u8]) -> JsValue {
    Uint8Array::from(data).into()
}

fn gcm_params(iv: &[u8], additional_data: &str) -> Result<JsValue, SealError> {
    let params = Object::new();
    Reflect::set(&params, &"name".into(), &"AES-GCM".into()).map_err(js_error)?;
    Reflect::set(&params, &"iv".into(), &bytes(iv)).map_err(js_error)?;
    Reflect::set(
        &params,
        &"additionalData".into(),
        &bytes(additional_data.as_bytes()),
    )
    .map_err(js_error)?;
    Ok(params.into())
}

/// An imported AES-GCM key (a WebCrypto `CryptoKey`), derived from the secret.
pub async fn import_key(secret: &str) -> Result<JsValue, SealError> {
    let key = crate::security::sha256::sha256(&[KEY_LABEL, secret.as_bytes()]);
    let algorithm = Object::new();
    Reflect::set(&algorithm, &"name".into(), &"AES-GCM".into()).map_err(js_error)?;
    let usages = Array::of2(&"encrypt".into(), &"decrypt".into());
    call(
        &subtle()?,
        "importKey",
        &[
            "raw".into(),
            bytes(&key),
            algorithm.into(),
            false.into(),
            usages.into(),
        ],
    )
    .await
}

/// Seals `plaintext`, bound to `additional_data`.
pub async fn seal(
    key: &JsValue,
    additional_data: &str,
    plaintext: &str,
) -> Result<String, SealError> {
    let iv = crate::security::random::bytes::<IV_BYTES>().map_err(|e| SealError(e.0))?;
    let sealed = call(
        &subtle()?,
        "encrypt",
        &[
            gcm_params(&iv, additional_data)?,
            key.clone(),
            bytes(plaintext.as_bytes()),
        ],
    )
    .await?;
    let mut out = iv.to_vec();
    out.extend(Uint8Array::new(&sealed).to_vec());
    Ok(format!(
        "{VERSION}{}",
        crate::security::base64::encode_url_safe(&out)
    ))
}

/// Opens what `seal` produced with the same key and additional data.
pub async fn open(key: &JsValue, additional_data: &str, sealed: &str) -> Result<String, SealError> {
    let encoded = sealed
        .strip_prefix(VERSION)
        .ok_or_else(|| SealError("unknown seal version".into()))?;
    let data = crate::security::base64::decode_url_safe(encoded)
        .ok_or_else(|| SealError("sealed value is not base64url".into()))?;
    if data.len() <= IV_BYTES {
        return Err(SealError("sealed value too short".into()));
    }
    let (iv, ciphertext) = data.split_at(IV_BYTES);
    let plain = call(
        &subtle()?,
        "decrypt",
        &[
            gcm_params(iv, additional_data)?,
            key.clone(),
            bytes(ciphertext),
        ],
    )
    .await?;
    String::from_utf8(Uint8Array::new(&plain).to_vec()).map_err(|e| SealError(e.to_string()))
}
