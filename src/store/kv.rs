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
