//! A text as a JSON string literal (quoted and escaped).
//!
//! Why not always `serde_json::to_string`: a tool's result goes out twice, as `structuredContent`
//! and as the same JSON quoted in a text block, and escaping that JSON (a quote every few bytes)
//! byte by byte in the wasm was a sixth of a repeat `get_pull_request`'s CPU on a 320-file pull
//! request (`tests/bench/profile.mjs gpr-big`, issue #19). The runtime's `JSON.stringify` does
//! the same natively, so the wasm's entry installs it when an instance starts ([`install`], through `src/quote.mjs`, which
//! passes the text as bytes);
//! native builds and tests use serde_json's. Both write valid JSON for the same string (they may
//! differ only in optional escapes, which every JSON reader reads alike).

#[cfg(target_arch = "wasm32")]
use std::sync::OnceLock;

/// The quoting the entry installed.
#[cfg(target_arch = "wasm32")]
static QUOTE: OnceLock<fn(&str) -> Option<String>> = OnceLock::new();

/// Sets the function [`json_string`] uses, once per instance (the entry's start hook).
#[cfg(target_arch = "wasm32")]
pub fn install(quote: fn(&str) -> Option<String>) {
    let _ = QUOTE.set(quote);
}

/// `text` as a JSON string literal.
pub fn json_string(text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    if let Some(quoted) = QUOTE.get().and_then(|quote| quote(text)) {
        return quoted;
    }
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

/// The JSON string literal of `before`, a text whose literal's inside is `quoted_middle`
/// (quotes left off), and `after`, joined: what [`json_string`] of the three joined gives, with
/// the middle's escaping done ahead of time.
pub fn json_string_joined(before: &str, quoted_middle: &str, after: &str) -> String {
    let before = json_string(before);
    let after = json_string(after);
    let mut out = String::with_capacity(before.len() + quoted_middle.len() + after.len());
    out.push_str(before.strip_suffix('"').unwrap_or(&before));
    out.push_str(quoted_middle);
    out.push_str(after.strip_prefix('"').unwrap_or(&after));
    out
}

/// The inside of `text`'s JSON string literal (escaped, without the quotes).
pub fn json_string_inside(text: &str) -> String {
    let quoted = json_string(text);
    match quoted.strip_prefix('"').and_then(|q| q.strip_suffix('"')) {
        Some(inside) => inside.to_string(),
        None => quoted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_and_escapes() {
        assert_eq!(json_string("a \"b\"\n\\ é"), r#""a \"b\"\n\\ é""#);
        let back: String =
            serde_json::from_str(&json_string("{\"k\":[1,\"\\u0001\"]}\t")).unwrap_or_default();
        assert_eq!(back, "{\"k\":[1,\"\\u0001\"]}\t");
    }

    #[test]
    fn joined_parts_quote_like_the_whole() {
        let (before, middle, after) = ("{\"a\":\"x\n\",\"files\":", "[{\"p\":\"é\\\"\"}]", "}");
        let joined = json_string_joined(before, &json_string_inside(middle), after);
        assert_eq!(joined, json_string(&format!("{before}{middle}{after}")));
    }
}
