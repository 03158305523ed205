//! A text value for `KvStore::put`.

use worker::kv::{KvError, ToRawKvValue};
use worker::wasm_bindgen::JsValue;

/// A string to store in KV as text. `KvStore::put` takes any `Serialize` value and converts it
/// through serde-wasm-bindgen, then formats numbers with the float formatter; a string ends up
/// as the same JS string, so this hands it over directly and leaves that code out of the build.
pub struct KvText(pub String);

impl ToRawKvValue for KvText {
    fn raw_kv_value(&self) -> Result<JsValue, KvError> {
        Ok(JsValue::from(self.0.as_str()))
    }
}

/// Stores `text` under `key` for `ttl_seconds`, in parts when it is larger than `part_bytes`
/// (see `kv_parts`): the parts first, then the head. Returns false, storing nothing, when the
/// text would take more parts than a reader could hold. A failed write is an error; the caller
/// decides whether it matters.
pub async fn put_text(
    kv: &worker::KvStore,
    key: &str,
    text: String,
    part_bytes: usize,
    ttl_seconds: u64,
) -> worker::Result<bool> {
    use crate::kv_parts::{lay_out, Layout};
    let write_id = crate::oauth::seal::random::<12>()
        .map(|bytes| crate::oauth::tokens::random_id(&bytes))
        .map_err(|e| worker::Error::RustError(e.to_string()))?;
    let put = |key: String, value: String| async move {
        kv.put(&key, KvText(value))?
            .expiration_ttl(ttl_seconds)
            .execute()
            .await
            .map_err(worker::Error::from)
    };
    match lay_out(key, &text, part_bytes, &write_id) {
        Layout::Whole(_) => put(key.to_string(), text).await?,
        // One at a time: a large snapshot is rare, and each concurrent write would hold its own
        // copy of up to 20 MiB.
        Layout::Parts { head, parts } => {
            for (key, value) in parts {
                put(key, value).await?;
            }
            put(key.to_string(), head).await?;
        }
        Layout::TooLarge => return Ok(false),
    }
    Ok(true)
}

/// The text stored under `key` by [`put_text`], put back together from its parts when it was
/// stored in parts; `None` when it is absent or a part is missing or from another write.
pub async fn get_text(kv: &worker::KvStore, key: &str) -> worker::Result<Option<String>> {
    use crate::kv_parts::{join, read_head, Head};
    let Some(value) = kv.get(key).text().await? else {
        return Ok(None);
    };
    let (write_id, keys) = match read_head(key, &value) {
        Head::Whole(_) => return Ok(Some(value)),
        Head::Parts { write_id, keys } => (write_id.to_string(), keys),
    };
    let mut parts = Vec::with_capacity(keys.len());
    for key in &keys {
        parts.push(kv.get(key).text().await?);
    }
    Ok(join(&write_id, &parts))
}
