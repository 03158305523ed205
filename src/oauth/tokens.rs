//! The strings we hand out: access and refresh tokens, authorization codes and consent ids.
//!
//! Why: each carries the person's GitHub user id (`lfa_1001_<random>`), so any handler can route
//! to that person's Durable Object without a lookup (DESIGN.md §3), and 192 random bits, so it
//! cannot be guessed. Only SHA-256 hashes are stored: a leaked database holds nothing usable.
//! The last 64 bits of the random-looking part are a tag (HMAC-SHA-256 under a key derived from
//! the deployment's secret), so the Worker refuses a made-up string before it reaches anyone's
//! object: knowing a person's public GitHub id is not enough to load their object with lookups.
//! What not: no randomness of our own (the adapter passes bytes in), no storage, no lifetimes
//! (`grants` decides those).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::security::base64::{decode_url_safe, encode_url_safe};
use crate::security::hmac::hmac_sha256;
use crate::security::sha256::{hex, sha256};

/// What a minted string is for; the prefix says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// `lfa_`: a bearer token for `/mcp` (RFC 6750).
    Access,
    /// `lfr_`: a refresh token (RFC 6749 §6).
    Refresh,
    /// `lfc_`: an authorization code (RFC 6749 §4.1.2).
    Code,
    /// `lfp_`: a pending consent form.
    Consent,
    /// `lfk_`: an API token made on `/settings`, a bearer token for `/mcp` that does not expire.
    Api,
}

impl TokenKind {
    fn prefix(self) -> &'static str {
        match self {
            TokenKind::Access => "lfa_",
            TokenKind::Refresh => "lfr_",
            TokenKind::Code => "lfc_",
            TokenKind::Consent => "lfp_",
            TokenKind::Api => "lfk_",
        }
    }

    const ALL: [TokenKind; 5] = [
        TokenKind::Access,
        TokenKind::Refresh,
        TokenKind::Code,
        TokenKind::Consent,
        TokenKind::Api,
    ];

    /// True for the kinds `/mcp` accepts as `Authorization: Bearer …`.
    pub fn is_bearer(self) -> bool {
        matches!(self, TokenKind::Access | TokenKind::Api)
    }
}

/// A GitHub user id, the key of a person's Durable Object.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PersonId(String);

impl PersonId {
    /// A GitHub user id: 1 to 20 decimal digits.
    pub fn parse(text: &str) -> Option<PersonId> {
        let ok = (1..=20).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit());
        ok.then(|| PersonId(text.to_string()))
    }

    pub fn from_github_id(id: u64) -> PersonId {
        PersonId(id.to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name of this person's Durable Object, also `Caller::person`.
    pub fn object_name(&self) -> String {
        format!("gh:{}", self.0)
    }
}

impl fmt::Display for PersonId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Bytes behind the 43 base64url characters of every minted string: random, then the tag.
pub const RANDOM_BYTES: usize = 32;
/// The tag's share of them.
const TAG_BYTES: usize = 8;

/// The key that tags minted strings, derived from the deployment's `TOKEN_ENCRYPTION_KEY`.
#[derive(Clone, PartialEq, Eq)]
pub struct TagKey([u8; 32]);

impl TagKey {
    /// Derived rather than the secret itself, so the tag never uses the encryption key raw.
    pub fn derive(secret: &str) -> TagKey {
        TagKey(sha256(&[b"logikflow token tag v1\0", secret.as_bytes()]))
    }

    /// HMAC-SHA-256 (RFC 2104) of the string's head (`lfa_1001_`) and its random bytes.
    fn tag(&self, head: &str, random: &[u8]) -> [u8; 32] {
        hmac_sha256(&self.0, &[head.as_bytes(), random])
    }
}

/// `TagKey` holds a secret: never printed.
impl fmt::Debug for TagKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TagKey([redacted])")
    }
}

/// `lfa_<person>_<43 base64url characters>`: 24 of `random`'s bytes, then their tag.
pub fn mint(
    kind: TokenKind,
    person: &PersonId,
    random: &[u8; RANDOM_BYTES],
    key: &TagKey,
) -> String {
    let head = format!("{}{}_", kind.prefix(), person);
    let split = RANDOM_BYTES - TAG_BYTES;
    let mut body = *random;
    let tag = key.tag(&head, &body[..split]);
    body[split..].copy_from_slice(&tag[..TAG_BYTES]);
    head + &encode_url_safe(&body)
}

/// The kind and person of a string minted with `key`: well formed and carrying its tag.
/// `None` for anything else, including a well-formed string someone made up.
pub fn verify(token: &str, key: &TagKey) -> Option<(TokenKind, PersonId)> {
    let (kind, person) = parse(token)?;
    let head_len = kind.prefix().len() + person.as_str().len() + 1;
    let body = decode_url_safe(token.get(head_len..)?)?;
    if body.len() != RANDOM_BYTES {
        return None;
    }
    let (random, tag) = body.split_at(RANDOM_BYTES - TAG_BYTES);
    let expected = key.tag(token.get(..head_len)?, random);
    crate::security::compare::constant_time_eq(tag, &expected[..TAG_BYTES])
        .then_some((kind, person))
}

/// The kind and person of a string we minted; `None` for anything else.
pub fn parse(token: &str) -> Option<(TokenKind, PersonId)> {
    if token.len() > 100 {
        return None;
    }
    let kind = TokenKind::ALL
        .into_iter()
        .find(|kind| token.starts_with(kind.prefix()))?;
    let rest = &token[kind.prefix().len()..];
    let (person, random) = rest.split_once('_')?;
    let random_ok = random.len() == 43
        && random
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !random_ok {
        return None;
    }
    Some((kind, PersonId::parse(person)?))
}

/// The stored form of a token, code or consent id: hex SHA-256.
pub fn hash(token: &str) -> String {
    hex(&sha256(&[token.as_bytes()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person() -> PersonId {
        PersonId::from_github_id(1001)
    }

    fn key() -> TagKey {
        TagKey::derive("the-secret")
    }

    #[test]
    fn mint_and_parse() {
        for kind in TokenKind::ALL {
            let token = mint(kind, &person(), &[7; RANDOM_BYTES], &key());
            assert_eq!(parse(&token), Some((kind, person())), "{token}");
        }
        let access = mint(TokenKind::Access, &person(), &[255; RANDOM_BYTES], &key());
        assert!(access.starts_with("lfa_1001_"), "{access}");
        assert_eq!(access.len(), "lfa_1001_".len() + 43);
        let api = mint(TokenKind::Api, &person(), &[1; RANDOM_BYTES], &key());
        assert!(api.starts_with("lfk_1001_"), "{api}");
        assert_eq!(parse(&api), Some((TokenKind::Api, person())));
        assert!(TokenKind::Api.is_bearer() && TokenKind::Access.is_bearer());
        assert!(!TokenKind::Refresh.is_bearer() && !TokenKind::Code.is_bearer());
        assert_eq!(parse("lfk_1001_short"), None);
    }

    #[test]
    fn foreign_strings_are_not_ours() {
        for token in [
            "",
            "gho_standin_octo",
            "lfa_",
            "lfa_1001",
            "lfa_1001_short",
            "lfa_abc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "lfa__AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "lfx_1001_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            "lfa_1001_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ] {
            assert_eq!(parse(token), None, "{token}");
        }
    }

    #[test]
    fn only_strings_minted_with_the_key_verify() {
        for kind in TokenKind::ALL {
            for fill in [0_u8, 7, 255] {
                let token = mint(kind, &person(), &[fill; RANDOM_BYTES], &key());
                assert_eq!(verify(&token, &key()), Some((kind, person())), "{token}");
                assert_eq!(verify(&token, &TagKey::derive("another")), None, "{token}");
            }
        }
        let token = mint(TokenKind::Access, &person(), &[9; RANDOM_BYTES], &key());
        // Another person, another kind, or any changed character: the tag no longer matches.
        assert_eq!(verify(&token.replacen("1001", "1002", 1), &key()), None);
        assert_eq!(verify(&token.replacen("lfa_", "lfk_", 1), &key()), None);
        let mut changed = token.clone().into_bytes();
        let last = changed.len() - 20;
        changed[last] = if changed[last] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            verify(&String::from_utf8(changed).unwrap_or_default(), &key()),
            None
        );
        // Well formed but made up.
        assert_eq!(
            verify(
                "lfa_1001_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                &key()
            ),
            None
        );
        assert_eq!(format!("{:?}", key()), "TagKey([redacted])");
    }

    #[test]
    fn hmac_matches_rfc_4231() {
        // RFC 4231 test case 2 ("Jefe"), through the same construction with a 32-byte key
        // padded by zeros, which HMAC defines as the same key.
        let mut raw = [0_u8; 32];
        raw[..4].copy_from_slice(b"Jefe");
        let tag = TagKey(raw).tag("what do ya want ", b"for nothing?");
        assert_eq!(
            hex(&tag),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn hashes_are_hex_sha256() {
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn person_ids() {
        assert!(PersonId::parse("1001").is_some());
        assert!(PersonId::parse("").is_none());
        assert!(PersonId::parse("12a").is_none());
        assert!(PersonId::parse(&"1".repeat(21)).is_none());
        assert_eq!(person().object_name(), "gh:1001");
    }
}
