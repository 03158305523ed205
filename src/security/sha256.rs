//! SHA-256 (FIPS 180-4) for every hash the server takes: change and checklist ids, GitHub's file
//! anchors, PKCE, token hashes and tags, the sealing key's derivation, KV keys.
//!
//! Computed by the `sha2` crate, in the wasm as natively, so the native tests hash as the Worker
//! does. `tests/it/stored_values.rs` holds the stored values hashed before (ids, token hashes,
//! PKCE) and finds them unchanged on both targets.

use sha2::{Digest, Sha256};

/// The SHA-256 of the parts, concatenated.
pub fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// Lower-case hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 15)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fips_180_4_examples() {
        assert_eq!(
            hex(&sha256(&[b"abc"])),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex(&sha256(&[
                b"abcdbcdecdefdefgefghfghighij",
                b"hijkijkljklmklmnlmnomnopnopq"
            ])),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
        assert_eq!(
            hex(&sha256(&[])),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
