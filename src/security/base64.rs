//! Base64 (RFC 4648) through the `base64` crate: the URL-safe alphabet without padding for
//! everything this server makes (tokens, ids, PKCE challenges, sealed values), and the standard
//! alphabet for the files GitHub's contents API sends.
//!
//! Decoding is strict where it guards something: a character outside the alphabet, a length no
//! encoder makes or non-zero trailing bits is refused, so one value has one encoding (the crate's
//! default). `tests/it/stored_values.rs` holds what the hand-written base64 before it made and
//! refused, and finds the crate doing the same.

use ::base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use ::base64::Engine;

/// Bytes as URL-safe base64 without padding.
pub fn encode_url_safe(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// URL-safe base64 without padding, strictly: `None` for anything [`encode_url_safe`] would not
/// have written.
pub fn decode_url_safe(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text).ok()
}

/// Standard base64 as GitHub's contents API sends it: line breaks and other ASCII white space
/// are skipped, and the `=` padding at the end is optional, but complete when present.
pub fn decode_standard(text: &str) -> Option<Vec<u8>> {
    let compact: Vec<u8> = text
        .bytes()
        .filter(|byte| !byte.is_ascii_whitespace())
        .collect();
    let engine = if compact.ends_with(b"=") {
        &STANDARD
    } else {
        &STANDARD_NO_PAD
    };
    engine.decode(compact).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_safe_round_trip_and_alphabet() {
        for length in 0..70u8 {
            let data: Vec<u8> = (0..length).map(|i| i.wrapping_mul(37) ^ length).collect();
            let text = encode_url_safe(&data);
            assert!(!text.contains('='), "{text}");
            assert_eq!(decode_url_safe(&text), Some(data));
        }
        assert_eq!(encode_url_safe(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn url_safe_decoding_is_strict() {
        for bad in [
            "A", "AAAAA", "AB", "AAB", "A+==", "AA==", "AA=A", "AA A", "ÿÿ", "AB\n",
        ] {
            assert_eq!(decode_url_safe(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn github_contents_with_line_breaks() {
        let text = "bGlua3M6IG9mZgpkaWFncmFtczog\nYWx3YXlzCg==\n";
        assert_eq!(
            decode_standard(text).map(String::from_utf8),
            Some(Ok("links: off\ndiagrams: always\n".to_string()))
        );
        assert_eq!(decode_standard("QUI"), Some(b"AB".to_vec()), "no padding");
        assert_eq!(decode_standard("QQ="), None, "padding of the wrong length");
        assert_eq!(decode_standard("Q-=="), None, "not the standard alphabet");
        assert_eq!(decode_standard("===="), None);
    }
}
