//! PKCE's S256 method (RFC 7636 §4.2), for both sides: the token endpoint checks a verifier
//! against the challenge a client sent, and our own sign-ins (to GitHub, and the review pages to
//! this server) send the challenge of a verifier they keep.

/// `BASE64URL-ENCODE(SHA256(ASCII(verifier)))`.
pub fn s256(verifier: &str) -> String {
    super::base64::encode_url_safe(&super::sha256::sha256(&[verifier.as_bytes()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_7636_appendix_b() {
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }
}
