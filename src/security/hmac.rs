//! HMAC-SHA-256 (RFC 2104 with FIPS 180-4's SHA-256), on top of [`super::sha256::sha256`]: the
//! tag on every token we mint (`oauth::tokens`) and the pages' CSRF tokens (`web::csrf`).
//!
//! Why here and hand-written: HMAC is two hashes over padded keys, a dozen lines on the hash the
//! wasm already has (which is not `sha2` there, see `sha256`'s module doc); one home means the
//! token tags and the CSRF tokens can't drift apart. RFC 4231's test vectors hold it.
//! What not: no key derivation or comparison; callers compare tags with
//! `compare::constant_time_eq`.

use super::sha256::sha256;

/// SHA-256's block size in bytes (RFC 2104's `B`).
const BLOCK: usize = 64;

/// HMAC-SHA-256 of the parts, concatenated, under `key` (RFC 2104 §2): a key longer than a block
/// is hashed first, a shorter one padded with zeros.
pub fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut block = [0u8; BLOCK];
    if key.len() > BLOCK {
        block[..32].copy_from_slice(&sha256(&[key]));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner_pad = [0x36u8; BLOCK];
    let mut outer_pad = [0x5cu8; BLOCK];
    for (index, byte) in block.iter().enumerate() {
        inner_pad[index] ^= byte;
        outer_pad[index] ^= byte;
    }
    let mut inner_parts: Vec<&[u8]> = Vec::with_capacity(parts.len() + 1);
    inner_parts.push(&inner_pad);
    inner_parts.extend_from_slice(parts);
    let inner = sha256(&inner_parts);
    sha256(&[&outer_pad, &inner])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::security::sha256::hex;

    fn check(key: &[u8], data: &[u8], expected: &str) {
        assert_eq!(hex(&hmac_sha256(key, &[data])), expected, "{data:?}");
    }

    /// RFC 4231 §4.2–4.8 (case 5 truncates the output, which we never do).
    #[test]
    fn rfc_4231_vectors() {
        check(
            &[0x0b; 20],
            b"Hi There",
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
        );
        check(
            b"Jefe",
            b"what do ya want for nothing?",
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        );
        check(
            &[0xaa; 20],
            &[0xdd; 50],
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
        );
        let counting: Vec<u8> = (1..=25).collect();
        check(
            &counting,
            &[0xcd; 50],
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
        );
        check(
            &[0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
        );
        check(
            &[0xaa; 131],
            b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
        );
    }

    #[test]
    fn parts_are_concatenated() {
        assert_eq!(
            hmac_sha256(b"Jefe", &[b"what do ya ", b"", b"want for nothing?"]),
            hmac_sha256(b"Jefe", &[b"what do ya want for nothing?"])
        );
        // A block-long key is used as it is, not hashed.
        assert_ne!(
            hmac_sha256(&[1; BLOCK], &[b"x"]),
            hmac_sha256(&sha256(&[&[1; BLOCK]]), &[b"x"])
        );
    }
}
