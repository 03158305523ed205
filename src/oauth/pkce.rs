//! PKCE (RFC 7636) as OAuth 2.1 and the MCP authorization spec require it: `S256` only.
//!
//! Why: a public client proves at the token endpoint that it started the authorization, so a
//! stolen code is useless. `plain` would send the secret itself through the browser, so it is
//! refused, and so is a challenge without a method (RFC 7636 §4.3 would default it to `plain`).
//! What not: no storage; the challenge travels inside the code's record.

use serde::{Deserialize, Serialize};

use super::error::{Error, GrantError};
use crate::security::compare::constant_time_eq;
use crate::security::pkce::s256;

/// A validated S256 code challenge: 43 base64url characters, the length of a SHA-256 digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CodeChallenge(String);

impl CodeChallenge {
    /// Parses the authorization request's `code_challenge` and `code_challenge_method`
    /// (RFC 7636 §4.3).
    pub fn parse(challenge: Option<&str>, method: Option<&str>) -> Result<CodeChallenge, Error> {
        let challenge = challenge.ok_or(Error::PkceMissing)?;
        match method {
            Some("S256") => {}
            None | Some("plain") => return Err(Error::PkcePlain),
            Some(_) => return Err(Error::PkceMethod),
        }
        let well_formed = challenge.len() == 43
            && challenge
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !well_formed {
            return Err(Error::PkceChallengeMalformed);
        }
        Ok(CodeChallenge(challenge.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Checks the token request's `code_verifier` against this challenge (RFC 7636 §4.6), in
    /// constant time.
    pub fn verify(&self, verifier: &str) -> Result<(), GrantError> {
        if !is_verifier(verifier) {
            return Err(GrantError::PkceVerifierMalformed);
        }
        if constant_time_eq(s256(verifier).as_bytes(), self.0.as_bytes()) {
            Ok(())
        } else {
            Err(GrantError::PkceMismatch)
        }
    }
}

/// RFC 7636 §4.1: 43 to 128 characters of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"`.
pub fn is_verifier(verifier: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 7636 Appendix B.
    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

    fn check_parse(challenge: Option<&str>, method: Option<&str>, expected: Result<(), Error>) {
        assert_eq!(
            CodeChallenge::parse(challenge, method).map(|_| ()),
            expected,
            "{challenge:?} {method:?}"
        );
    }

    #[test]
    fn only_s256_is_accepted() {
        check_parse(Some(CHALLENGE), Some("S256"), Ok(()));
        check_parse(None, Some("S256"), Err(Error::PkceMissing));
        check_parse(None, None, Err(Error::PkceMissing));
        check_parse(Some(CHALLENGE), None, Err(Error::PkcePlain));
        check_parse(Some(CHALLENGE), Some("plain"), Err(Error::PkcePlain));
        check_parse(Some(CHALLENGE), Some("s256"), Err(Error::PkceMethod));
        check_parse(Some(CHALLENGE), Some("S512"), Err(Error::PkceMethod));
        check_parse(
            Some("short"),
            Some("S256"),
            Err(Error::PkceChallengeMalformed),
        );
        check_parse(
            Some("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw+cM"),
            Some("S256"),
            Err(Error::PkceChallengeMalformed),
        );
    }

    fn check_verify(verifier: &str, expected: Result<(), GrantError>) {
        let challenge = CodeChallenge::parse(Some(CHALLENGE), Some("S256"));
        assert_eq!(
            challenge.map(|c| c.verify(verifier)),
            Ok(expected),
            "{verifier}"
        );
    }

    #[test]
    fn verifiers() {
        check_verify(VERIFIER, Ok(()));
        check_verify(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK",
            Err(GrantError::PkceMismatch),
        );
        check_verify("too-short", Err(GrantError::PkceVerifierMalformed));
        check_verify(&"a".repeat(129), Err(GrantError::PkceVerifierMalformed));
        check_verify(
            "dBjftJeZ4CVP+mB92K27uhbUJU1p1r/wW1gFWFOEjXk",
            Err(GrantError::PkceVerifierMalformed),
        );
        assert_eq!(s256(VERIFIER), CHALLENGE);
    }
}
