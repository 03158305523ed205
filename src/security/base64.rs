//! Base64 (RFC 4648): the URL-safe alphabet without padding for everything this server makes
//! (tokens, ids, PKCE challenges, sealed values), and the standard alphabet for the files
//! GitHub's contents API sends.
//!
//! Why not the `base64` crate in the wasm: its general-purpose engine (chunked decoders, padding
//! modes, error types) came to about 1 KB of the 400 KiB gzip budget (DESIGN.md section 7) for
//! the two alphabets used here. Decoding is strict where it guards something: a character
//! outside the alphabet, a length no encoder makes or non-zero trailing bits is refused, so one
//! value has one encoding (as the crate's default). The unit tests compare both ways with the
//! crate on every length up to 200 bytes.

/// RFC 4648 §5: `-` and `_` for 62 and 63.
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/// RFC 4648 §4: `+` and `/` for 62 and 63.
const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Bytes as URL-safe base64 without padding.
pub fn encode_url_safe(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let mut group = [0u8; 3];
        group[..chunk.len()].copy_from_slice(chunk);
        let bits = u32::from(group[0]) << 16 | u32::from(group[1]) << 8 | u32::from(group[2]);
        // One byte gives two characters, two give three, three give four.
        for index in 0..=chunk.len() {
            let sextet = (bits >> (18 - 6 * index)) & 63;
            out.push(char::from(URL_SAFE[sextet as usize]));
        }
    }
    out
}

/// URL-safe base64 without padding, strictly: `None` for anything [`encode_url_safe`] would not
/// have written.
pub fn decode_url_safe(text: &str) -> Option<Vec<u8>> {
    decode(text.as_bytes(), URL_SAFE)
}

/// Standard base64 as GitHub's contents API sends it: line breaks and other ASCII white space
/// are skipped, and the `=` padding at the end is optional.
pub fn decode_standard(text: &str) -> Option<Vec<u8>> {
    let mut compact: Vec<u8> = Vec::with_capacity(text.len());
    for byte in text.bytes() {
        if !byte.is_ascii_whitespace() {
            compact.push(byte);
        }
    }
    let unpadded = compact.len()
        - compact
            .iter()
            .rev()
            .take(2)
            .take_while(|b| **b == b'=')
            .count();
    if !compact.len().is_multiple_of(4) && unpadded != compact.len() {
        return None;
    }
    decode(&compact[..unpadded], STANDARD)
}

/// Decodes unpadded text in `alphabet`, refusing other characters, a dangling character and
/// non-zero bits after the last byte.
fn decode(text: &[u8], alphabet: &[u8; 64]) -> Option<Vec<u8>> {
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for chunk in text.chunks(4) {
        let mut bits = 0u32;
        for (index, character) in chunk.iter().enumerate() {
            let sextet = alphabet.iter().position(|a| a == character)?;
            bits |= (sextet as u32) << (18 - 6 * index);
        }
        let bytes = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
        let kept = chunk.len() - 1;
        // What the characters hold beyond the kept bytes must be zero (a canonical encoding).
        if bytes[kept..].iter().any(|byte| *byte != 0) && kept < 3 {
            return None;
        }
        out.extend_from_slice(&bytes[..kept]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{STANDARD as CRATE_STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine;

    /// Deterministic bytes (no randomness needed to cover every length and value).
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

    #[test]
    fn agrees_with_the_crate_both_ways() {
        for length in 0..200 {
            for seed in 0..8 {
                let data = bytes(length, seed * 1000 + length as u32);
                let ours = encode_url_safe(&data);
                assert_eq!(ours, URL_SAFE_NO_PAD.encode(&data), "{length}");
                assert_eq!(decode_url_safe(&ours), Some(data.clone()));
                let standard = CRATE_STANDARD.encode(&data);
                assert_eq!(decode_standard(&standard), Some(data.clone()));
                assert_eq!(decode_standard(standard.trim_end_matches('=')), Some(data));
            }
        }
        assert_eq!(encode_url_safe(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn strict_where_the_crate_is() {
        for bad in [
            "A", "AAAAA", "AB", "AAB", "A+==", "AA==", "AA=A", "AA A", "ÿÿ", "AB\n",
        ] {
            assert_eq!(decode_url_safe(bad), None, "{bad:?}");
            assert!(
                URL_SAFE_NO_PAD.decode(bad).is_err(),
                "the crate refuses {bad:?} too"
            );
        }
        // Every two- and three-character tail: refused exactly when the crate refuses it.
        for a in URL_SAFE.iter().chain(b"=+/ ") {
            for b in URL_SAFE.iter().chain(b"=+/") {
                for tail in [vec![b'Q', *a], vec![b'Q', *a, *b]] {
                    let text = String::from_utf8(tail).unwrap_or_default();
                    assert_eq!(
                        decode_url_safe(&text).is_some(),
                        URL_SAFE_NO_PAD.decode(&text).is_ok(),
                        "{text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn github_contents_with_line_breaks() {
        let text = "bGlua3M6IG9mZgpkaWFncmFtczog\nYWx3YXlzCg==\n";
        assert_eq!(
            decode_standard(text).map(String::from_utf8),
            Some(Ok("links: off\ndiagrams: always\n".to_string()))
        );
        assert_eq!(decode_standard("QQ="), None, "padding of the wrong length");
        assert_eq!(decode_standard("Q-=="), None, "not the standard alphabet");
        assert_eq!(decode_standard("===="), None);
    }
}
