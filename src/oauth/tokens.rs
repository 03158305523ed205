//! The strings we hand out: access and refresh tokens, authorization codes and consent ids.
//!
//! Why: each carries the person's GitHub user id (`lfa_1001_<random>`), so any handler can route
//! to that person's Durable Object without a lookup (DESIGN.md §3), and 256 random bits, so it
//! cannot be guessed. Only SHA-256 hashes are stored: a leaked database holds nothing usable.
//! What not: no randomness of our own (the adapter passes bytes in), no storage, no lifetimes
//! (`grants` decides those).

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::Serialize;

use sha2::{Digest, Sha256};

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
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct PersonId(String);

/// Read back from internal messages as sent (it was parsed from a token or from GitHub).
impl crate::json::FromJson for PersonId {
    fn from_json(value: serde_json::Value) -> Result<Self, crate::json::DecodeError> {
        String::from_json(value).map(PersonId)
    }
}

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

/// Random bytes in every minted string.
pub const RANDOM_BYTES: usize = 32;

/// `lfa_<person>_<43 base64url characters>`.
pub fn mint(kind: TokenKind, person: &PersonId, random: &[u8; RANDOM_BYTES]) -> String {
    format!(
        "{}{}_{}",
        kind.prefix(),
        person,
        URL_SAFE_NO_PAD.encode(random)
    )
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
    hex(&Sha256::digest(token.as_bytes()))
}

/// An opaque id (grants, registered clients): base64url of the bytes.
pub fn random_id(random: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(random)
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(DIGITS[usize::from(byte >> 4)] as char);
        out.push(DIGITS[usize::from(byte & 15)] as char);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person() -> PersonId {
        PersonId::from_github_id(1001)
    }

    #[test]
    fn mint_and_parse() {
        for kind in TokenKind::ALL {
            let token = mint(kind, &person(), &[7; RANDOM_BYTES]);
            assert_eq!(parse(&token), Some((kind, person())), "{token}");
        }
        let access = mint(TokenKind::Access, &person(), &[255; RANDOM_BYTES]);
        assert!(access.starts_with("lfa_1001_"), "{access}");
        assert_eq!(access.len(), "lfa_1001_".len() + 43);
        let api = mint(TokenKind::Api, &person(), &[1; RANDOM_BYTES]);
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
