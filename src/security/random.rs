//! Randomness from the platform (WebCrypto's `getRandomValues` on Workers, the OS natively), and
//! the text made from it: every token, id, CSRF value and PKCE verifier comes from here.

/// The platform could not give randomness; nothing secret may be made without it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomError(pub String);

impl std::fmt::Display for RandomError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no randomness: {}", self.0)
    }
}

/// `N` random bytes.
pub fn bytes<const N: usize>() -> Result<[u8; N], RandomError> {
    let mut out = [0u8; N];
    getrandom::fill(&mut out).map_err(|e| RandomError(e.to_string()))?;
    Ok(out)
}

/// Bytes as URL-safe base64 without padding (cookie-, URL- and form-safe).
pub fn text_of(bytes: &[u8]) -> String {
    super::base64::encode_url_safe(bytes)
}

/// A 256-bit token as 43 characters of URL-safe base64: CSRF values, PKCE verifiers, secrets.
pub fn token() -> Result<String, RandomError> {
    bytes::<32>().map(|b| text_of(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_43_safe_characters_and_differ() {
        let a = token().unwrap_or_default();
        let b = token().unwrap_or_default();
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert_eq!(text_of(&[0xfb, 0xff]), "-_8");
    }
}
