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

/// Appends `text`'s JSON string literal to `out`, escaped exactly as serde_json writes it (`"`,
/// `\\`, the short forms `\b \f \n \r \t` and `\u00xx` in lower-case hex for the other control
/// characters; nothing else). Why by hand: writing a result and a cached snapshot straight from
/// typed data, without `serde_json::Value`s or serde's `Serialize`, took a first
/// `get_pull_request` of a 3,000-file pull request from 204 to 130 ms of isolate time, and
/// escaping eight bytes at a time to about 100 (issue #19); the text must stay byte for byte
/// what serde_json wrote.
pub fn push_json_string(out: &mut String, text: &str) {
    out.push('"');
    let bytes = text.as_bytes();
    let (mut start, mut at) = (0, 0);
    while at < bytes.len() {
        // Eight bytes at a time while none needs escaping: most text needs none.
        if let Some(word) = bytes
            .get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
        {
            if !needs_escape(u64::from_le_bytes(word)) {
                at += 8;
                continue;
            }
        }
        let byte = bytes[at];
        at += 1;
        let short = match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'\n' => 'n',
            b'\r' => 'r',
            b'\t' => 't',
            0x08 => 'b',
            0x0c => 'f',
            0x00..=0x1f => 'u',
            _ => continue,
        };
        // The byte is ASCII, so both slices end on character boundaries.
        out.push_str(&text[start..at - 1]);
        out.push('\\');
        out.push(short);
        if short == 'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
        start = at;
    }
    out.push_str(&text[start..]);
    out.push('"');
}

/// Whether any of the eight bytes in `word` is a control character, `"` or `\\` (the classic
/// test for a zero byte, on the word itself for the bytes under 0x20 and on the word with each
/// byte XORed with `"` or `\\`).
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let below = |word: u64, bound: u64| word.wrapping_sub(ONES * bound) & !word & HIGHS;
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    (below(word, 0x20) | below(quote, 1) | below(backslash, 1)) != 0
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
    fn pushed_strings_are_what_serde_json_writes() {
        let mut every_byte = String::new();
        for byte in 0u8..=0x7f {
            every_byte.push(char::from(byte));
        }
        let shifted: Vec<String> = (0..=0x7fu8)
            .map(|special| {
                format!(
                    "{}{}{}",
                    "x".repeat(usize::from(special % 17)),
                    char::from(special),
                    "y".repeat(9)
                )
            })
            .collect();
        for text in shifted.iter().map(String::as_str).chain([
            "",
            "plain",
            "a \"b\"\n\\ é",
            "\u{7f}\u{85}\u{2028}\u{2029}ÿ日本語🦀\u{1}\u{1f}",
            every_byte.as_str(),
            "0123456789abcdef\"0123456\\89abcdef0123456\n",
            "ééééééééé\u{1f}日本語日本語日本語\u{0}🦀🦀🦀🦀🦀🦀🦀🦀\u{1f}",
        ]) {
            let mut out = String::from("x");
            push_json_string(&mut out, text);
            let expected = serde_json::to_string(text).unwrap_or_default();
            assert_eq!(out, format!("x{expected}"));
        }
    }

    #[test]
    fn joined_parts_quote_like_the_whole() {
        let (before, middle, after) = ("{\"a\":\"x\n\",\"files\":", "[{\"p\":\"é\\\"\"}]", "}");
        let joined = json_string_joined(before, &json_string_inside(middle), after);
        assert_eq!(joined, json_string(&format!("{before}{middle}{after}")));
    }
}
