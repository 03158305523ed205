//! Text values in KV: one `KvStore::put` value type, and texts larger than one KV value stored
//! in parts (see `kv_parts`).

use worker::kv::{KvError, ToRawKvValue};
use worker::wasm_bindgen::JsValue;

/// A string to store in KV as text. `KvStore::put` takes any `Serialize` value and converts it
/// through serde-wasm-bindgen, then formats numbers with the float formatter; a string ends up
/// as the same JS string, so this hands it over directly and leaves that code out of the build.
/// Borrowed, so storing a part of a large text copies nothing on the Rust side.
pub struct KvText<'a>(pub &'a str);

impl ToRawKvValue for KvText<'_> {
    fn raw_kv_value(&self) -> Result<JsValue, KvError> {
        Ok(JsValue::from_str(self.0))
    }
}

/// Stores `text` under `key` for `ttl_seconds`, in parts when it is larger than `part_bytes`
/// (see `kv_parts`): the parts first, one at a time, then the head. Returns false, storing
/// nothing, when the text is too large to store. A failed write is an error; the caller decides
/// whether it matters.
pub async fn put_text(
    kv: &worker::KvStore,
    key: &str,
    text: &str,
    part_bytes: usize,
    ttl_seconds: u64,
) -> worker::Result<bool> {
    use crate::kv_parts::{lay_out, Layout};
    let write_id = crate::security::random::bytes::<12>()
        .map(|bytes| crate::security::random::text_of(&bytes))
        .map_err(|e| worker::Error::RustError(e.to_string()))?;
    let put = |key: &str, value: &str| {
        let put = kv.put(key, KvText(value));
        async move {
            put?.expiration_ttl(ttl_seconds)
                .execute()
                .await
                .map_err(worker::Error::from)
        }
    };
    match lay_out(key, text, part_bytes, &write_id) {
        Layout::Whole => put(key, text).await?,
        Layout::Parts { head, parts } => {
            for (part_key, range) in parts {
                put(&part_key, &text[range]).await?;
            }
            put(key, &head).await?;
        }
        Layout::TooLarge => return Ok(false),
    }
    Ok(true)
}

/// The text stored under `key` by [`put_text`], put back together from its parts when it was
/// stored in parts (each appended as it arrives); `None` when it or a part is absent.
pub async fn get_text(kv: &worker::KvStore, key: &str) -> worker::Result<Option<String>> {
    use crate::kv_parts::{read_head, Head};
    let Some(value) = text_of(kv.get(key).bytes().await?) else {
        return Ok(None);
    };
    let Head::Parts(keys) = read_head(key, &value) else {
        return Ok(Some(value));
    };
    let mut text = String::new();
    for part_key in &keys {
        match text_of(kv.get(part_key).bytes().await?) {
            Some(part) => text.push_str(&part),
            None => return Ok(None),
        }
    }
    Ok(Some(text))
}

/// A stored value's text. Read as bytes, not as a string: a string enters the wasm through
/// the bindings' JavaScript loop over its characters, bytes through one copy, which made a
/// 320-file pull request's cached listing a tenth cheaper to read (issue #19). Values are
/// written as text, so they are UTF-8; anything else reads as absent.
fn text_of(bytes: Option<Vec<u8>>) -> Option<String> {
    String::from_utf8(bytes?).ok()
}
