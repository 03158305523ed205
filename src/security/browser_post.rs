//! The rules every state-changing request from a browser meets (issue #31): it came from one of
//! this site's own pages, its body is the kind the endpoint reads, and it carries the token of
//! this browser's session. The pages' forms (`web::csrf`) and the OAuth consent form
//! (`oauth::authorize`) are both held to the first two here, so they can't drift apart.
//!
//! * Same origin: `Origin` equal to this site, or `Sec-Fetch-Site: same-origin`; either header
//!   naming anything else refuses, and a request with neither is refused too. Browsers send
//!   `Origin` on every POST (forms and `fetch` alike) and `Sec-Fetch-Site` on every request, so
//!   only a client that is not a browser, or a browser told to hide both, sends neither; a page on
//!   another site can't set either header.
//! * Content type: the media type the endpoint reads (`application/x-www-form-urlencoded` for
//!   forms, `application/json` for the arrange editor's save), parameters aside.
//! * The session token: HMAC-SHA-256, under a key derived from the deployment's secret, of the
//!   browser session's random nonce (the CSRF cookie) and the signed-in person. A cookie planted
//!   in the browser can't be paired with a token, because only the server can compute one, and
//!   a token copied from another person's page or another browser doesn't match this one's.
//!
//! What not: no cookies, no HTTP and no wording (`web::csrf` renders the refusals).

use super::base64::encode_url_safe;
use super::compare::constant_time_eq;
use super::hmac::hmac_sha256;
use super::sha256::sha256;

/// What an endpoint reads from a POST body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// `application/x-www-form-urlencoded`: HTML forms and the tick script's `URLSearchParams`.
    Form,
    /// `application/json`: the arrange editor's save.
    Json,
}

impl BodyKind {
    /// The media type a body of this kind must declare.
    pub fn media_type(self) -> &'static str {
        match self {
            BodyKind::Form => "application/x-www-form-urlencoded",
            BodyKind::Json => "application/json",
        }
    }
}

/// Whether `content_type` declares `kind`'s media type (RFC 9110 §8.3.1: case-insensitive, its
/// parameters such as `charset` aside).
pub fn declares(content_type: Option<&str>, kind: BodyKind) -> bool {
    content_type
        .and_then(|value| value.split(';').next())
        .is_some_and(|media| media.trim().eq_ignore_ascii_case(kind.media_type()))
}

/// Whether the request came from one of this site's pages: every one of `Origin` and
/// `Sec-Fetch-Site` that is present says this origin, and at least one is present.
pub fn same_origin(origin: Option<&str>, sec_fetch_site: Option<&str>, own_origin: &str) -> bool {
    let origin_ok = origin.map(|origin| origin.trim().eq_ignore_ascii_case(own_origin));
    let site_ok = sec_fetch_site.map(|site| site.trim().eq_ignore_ascii_case("same-origin"));
    match (origin_ok, site_ok) {
        (None, None) => false,
        (origin_ok, site_ok) => origin_ok != Some(false) && site_ok != Some(false),
    }
}

/// The key session tokens are made with, derived from the deployment's secret.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionKey([u8; 32]);

impl SessionKey {
    /// Derived under its own label, so it is neither the secret itself nor any other key made
    /// from it (the token tag key, the GitHub token seal).
    pub fn derive(secret: &str) -> SessionKey {
        SessionKey(sha256(&[b"logikflow csrf v1\0", secret.as_bytes()]))
    }

    /// The token a page of this browser session (`nonce`, its CSRF cookie) shows `person` (the
    /// signed-in person's id, empty when nobody is): 43 base64url characters.
    pub fn token(&self, nonce: &str, person: &str) -> String {
        encode_url_safe(&hmac_sha256(
            &self.0,
            &[nonce.as_bytes(), b"\0", person.as_bytes()],
        ))
    }

    /// Whether `submitted` is the token of this session and person, compared in constant time.
    pub fn accepts(&self, submitted: &str, nonce: &str, person: &str) -> bool {
        !nonce.is_empty()
            && constant_time_eq(submitted.as_bytes(), self.token(nonce, person).as_bytes())
    }
}

/// `SessionKey` holds a secret: never printed.
impl std::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionKey([redacted])")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        let form = BodyKind::Form;
        assert!(declares(Some("application/x-www-form-urlencoded"), form));
        assert!(declares(
            Some("Application/X-WWW-Form-URLEncoded ; charset=UTF-8"),
            form
        ));
        for other in [
            None,
            Some(""),
            Some("text/plain"),
            Some("text/plain;charset=UTF-8"),
            Some("multipart/form-data; boundary=x"),
            Some("application/json"),
            Some("application/x-www-form-urlencodedx"),
        ] {
            assert!(!declares(other, form), "{other:?}");
        }
        assert!(declares(
            Some("application/json; charset=utf-8"),
            BodyKind::Json
        ));
        assert!(!declares(Some("text/plain"), BodyKind::Json));
    }

    fn check(origin: Option<&str>, site: Option<&str>, expected: bool) {
        assert_eq!(
            same_origin(origin, site, "https://h.example"),
            expected,
            "{origin:?} {site:?}"
        );
    }

    #[test]
    fn origins() {
        check(Some("https://h.example"), None, true);
        check(Some("HTTPS://H.EXAMPLE"), None, true);
        check(None, Some("same-origin"), true);
        check(Some("https://h.example"), Some("same-origin"), true);
        // Neither header: refused.
        check(None, None, false);
        // Either header naming something else refuses, whatever the other says.
        check(Some("https://evil.example"), None, false);
        check(Some("null"), None, false);
        check(Some("https://h.example.evil"), Some("same-origin"), false);
        check(Some("http://h.example"), None, false);
        check(None, Some("cross-site"), false);
        check(None, Some("same-site"), false);
        check(None, Some("none"), false);
        check(Some("https://h.example"), Some("cross-site"), false);
    }

    #[test]
    fn session_tokens() {
        let key = SessionKey::derive("secret");
        let token = key.token("nonce", "gh:1");
        assert_eq!(token.len(), 43);
        assert!(key.accepts(&token, "nonce", "gh:1"));
        // Another browser session, another person, another deployment, a planted value.
        assert!(!key.accepts(&token, "other", "gh:1"));
        assert!(!key.accepts(&token, "nonce", "gh:2"));
        assert!(!SessionKey::derive("other").accepts(&token, "nonce", "gh:1"));
        assert!(!key.accepts("nonce", "nonce", "gh:1"));
        assert!(!key.accepts("", "", ""));
        // The separator keeps (nonce, person) pairs apart.
        assert_ne!(key.token("ab", "c"), key.token("a", "bc"));
        assert_eq!(format!("{key:?}"), "SessionKey([redacted])");
    }
}
