//! SHA-256 (FIPS 180-4) for every hash the server takes: change and checklist ids, GitHub's file
//! anchors, PKCE, token hashes and tags, the sealing key's derivation.
//!
//! Why not the `sha2` crate in the wasm: its compression function and the hasher code inlined at
//! each of the seven callers came to about 3 KB of the 400 KiB gzip budget (DESIGN.md section 7),
//! and at `opt-level = "z"` it is also slow: a 3,000-file pull request's change ids were a tenth
//! of its first read (issue #19). The wasm's entry installs a hash written in the Worker's
//! JavaScript (`src/sha256.mjs`) when an instance starts ([`install`]); native builds and tests use
//! `sha2`, and `tests/e2e/sha256.test.mjs` checks the script against Node's own SHA-256, so both
//! give the same digest for every input.

/// The SHA-256 of the parts, concatenated.
#[cfg(not(target_arch = "wasm32"))]
pub fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// A hash writing the digest of its input into its 32-byte output.
#[cfg(target_arch = "wasm32")]
type HashInto = fn(&[u8], &mut [u8]);

#[cfg(target_arch = "wasm32")]
static HASH: std::sync::OnceLock<HashInto> = std::sync::OnceLock::new();

/// Sets the hash [`sha256`] uses, once per instance (the entry's start hook): it writes the
/// digest of its input into its 32-byte output.
#[cfg(target_arch = "wasm32")]
pub fn install(hash: HashInto) {
    let _ = HASH.set(hash);
}

/// The SHA-256 of the parts, concatenated.
#[cfg(target_arch = "wasm32")]
pub fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut digest = [0u8; 32];
    let input;
    let whole: &[u8] = match parts {
        [one] => one,
        _ => {
            input = parts.concat();
            &input
        }
    };
    match HASH.get() {
        Some(hash) => hash(whole, &mut digest),
        // Not reached: the start hook runs before any request. A hash that silently returned
        // zeros would collide every id and token, so this is a bug worth stopping on.
        None => panic!("sha256 used before the entry installed it"),
    }
    digest
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
