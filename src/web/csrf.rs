//! Cross-site request forgery protection for every state-changing request the pages make:
//! settings forms, ticks, the arrange editor's save, sign-out, and any form added later (issue
//! #31). One check, [`verify_post`], which `service::forms::verified_post` runs for every such
//! POST, so a new endpoint gets all of it by calling that.
//!
//! What a POST must show, in this order (the rules themselves are `security::browser_post`):
//! 1. the content type its endpoint reads (415 otherwise);
//! 2. that one of this site's pages sent it: `Origin` equal to this site or `Sec-Fetch-Site:
//!    same-origin`, neither naming anything else, one of them present (403);
//! 3. the token of this browser session and signed-in person (403): HMAC-SHA-256 under a key
//!    derived from `TOKEN_ENCRYPTION_KEY` of the session's nonce (a random value in this
//!    HttpOnly cookie, made on the first page and again at each sign-in) and the person's id.
//!    Before issue #31 the token was the cookie's value itself (a double-submit pair), so anyone
//!    able to plant a cookie could pair it with a form; now only the server can make a token,
//!    and only for a page it shows that person in that browser.
//!
//! On https the cookie is `__Host-lkf_csrf` (Secure, host-only, `Path=/`), so no other host,
//! sibling domain or plain-http page can set it. Local development on plain http can't use the
//! prefix; what protects it is the same-origin rule of step 2 (a page on another port or host is
//! another origin), the token's binding to the person (a planted nonce gets no token without the
//! key), and `wrangler dev` listening on loopback only.
//!
//! What not: no HTTP and no storage; pages put [`SessionKey::token`]'s value in their forms.

use crate::security::browser_post::{declares, same_origin};
pub use crate::security::browser_post::{BodyKind, SessionKey};
use crate::security::cookie::{self, SameSite};
use crate::security::random::{self, RandomError};

/// The cookie's name: `__Host-` (Secure, host-only, path /) on https; plain on local http.
pub fn cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-lkf_csrf"
    } else {
        "lkf_csrf"
    }
}

/// The `Set-Cookie` value carrying the browser session's `nonce` (a browser-session cookie).
pub fn set_cookie(nonce: &str, secure: bool) -> String {
    cookie::set(cookie_name(secure), nonce, None, SameSite::Lax, secure)
}

/// The `Set-Cookie` value that removes it (sign-out, Delete my data).
pub fn clear_cookie(secure: bool) -> String {
    cookie::set(cookie_name(secure), "", Some(0), SameSite::Lax, secure)
}

/// A fresh nonce for a browser session.
pub fn nonce() -> Result<String, RandomError> {
    random::token()
}

/// The cookie's value when it is a nonce we could have made (43 base64url characters); a page
/// keeps using it, so the tabs of one browser share their tokens.
pub fn usable_nonce(cookie: Option<&str>) -> Option<&str> {
    cookie.filter(|value| {
        value.len() == 43
            && value
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

/// A state-changing request, as the check sees it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Post<'a> {
    pub content_type: Option<&'a str>,
    pub origin: Option<&'a str>,
    pub sec_fetch_site: Option<&'a str>,
    /// The CSRF cookie: the browser session's nonce.
    pub nonce: Option<&'a str>,
    /// The token the form's `csrf` field (or, for JSON, the `X-CSRF-Token` header) carried.
    pub token: Option<&'a str>,
}

/// Why a state-changing request was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The body is not of the kind the endpoint reads: 415.
    MediaType(BodyKind),
    /// Neither `Origin` nor `Sec-Fetch-Site` says one of this site's pages sent it: 403.
    CrossSite,
    /// No token, or not the token of this browser session and person: 403.
    Token,
    /// The body is larger than anything the page sends: 413.
    TooLarge,
}

impl Refusal {
    pub fn status(self) -> u16 {
        match self {
            Refusal::MediaType(_) => 415,
            Refusal::CrossSite | Refusal::Token => 403,
            Refusal::TooLarge => 413,
        }
    }

    /// One sentence or two a person can act on; nothing was changed in every case.
    pub fn message(self) -> String {
        match self {
            Refusal::MediaType(kind) => format!(
                "Nothing was changed: this address takes {} bodies only, as the page sends them.",
                kind.media_type()
            ),
            Refusal::CrossSite => "Nothing was changed: this request didn't come from this site's own page (a browser says so with its Origin or Sec-Fetch-Site header). Go back, reload the page and try again.".to_string(),
            Refusal::Token => "Nothing was changed: this form expired or belongs to another sign-in. Reload the page and try again.".to_string(),
            Refusal::TooLarge => "Nothing was changed: this is larger than the page ever sends.".to_string(),
        }
    }
}

/// The check every state-changing browser request passes (see the module doc): `kind` is what
/// the endpoint reads, `key` the deployment's session key (`None` when none is configured, which
/// refuses every token), `person` the signed-in person's id as the page that made the token saw
/// it (empty for nobody), `own_origin` this site (`https://host`).
pub fn verify_post(
    post: &Post,
    kind: BodyKind,
    key: Option<&SessionKey>,
    person: &str,
    own_origin: &str,
) -> Result<(), Refusal> {
    if !declares(post.content_type, kind) {
        return Err(Refusal::MediaType(kind));
    }
    if !same_origin(post.origin, post.sec_fetch_site, own_origin) {
        return Err(Refusal::CrossSite);
    }
    match (key, post.nonce, post.token) {
        (Some(key), Some(nonce), Some(token)) if key.accepts(token, nonce, person) => Ok(()),
        _ => Err(Refusal::Token),
    }
}

/// The page a browser sees when a form is refused.
pub fn refusal_page(refusal: Refusal, base_url: &str) -> String {
    let title = "This form can't be accepted";
    let body = format!(
        "<h1>{}</h1><p>{}</p>",
        super::html::escape(title),
        super::html::escape(&refusal.message())
    );
    super::html::page(title, &body, base_url)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OWN: &str = "https://h.example";

    #[test]
    fn cookies() {
        let set = set_cookie("t", true);
        assert!(
            set.starts_with("__Host-lkf_csrf=t; Path=/; Secure; HttpOnly; SameSite=Lax"),
            "{set}"
        );
        assert!(!set.contains("Max-Age"), "a browser-session cookie");
        assert!(!set_cookie("t", false).contains("Secure"));
        assert!(clear_cookie(true).starts_with("__Host-lkf_csrf=; Max-Age=0;"));
        let fresh = nonce().unwrap_or_default();
        assert_eq!(usable_nonce(Some(&fresh)), Some(fresh.as_str()));
        assert_eq!(usable_nonce(Some("short")), None);
        assert_eq!(usable_nonce(Some(&"A".repeat(42))), None);
        assert_eq!(usable_nonce(Some(&format!("{}=", "A".repeat(42)))), None);
        assert_eq!(usable_nonce(None), None);
    }

    /// A POST as our own page sends it, with a token for `gh:1` in the browser session `n`.
    fn good<'a>(token: &'a str) -> Post<'a> {
        Post {
            content_type: Some("application/x-www-form-urlencoded;charset=UTF-8"),
            origin: Some(OWN),
            sec_fetch_site: Some("same-origin"),
            nonce: Some("n"),
            token: Some(token),
        }
    }

    fn check(post: Post, expected: Result<(), Refusal>) {
        let key = SessionKey::derive("secret");
        assert_eq!(
            verify_post(&post, BodyKind::Form, Some(&key), "gh:1", OWN),
            expected,
            "{post:?}"
        );
    }

    #[test]
    fn verification() {
        let key = SessionKey::derive("secret");
        let token = key.token("n", "gh:1");
        let token = token.as_str();
        check(good(token), Ok(()));
        check(
            Post {
                origin: None,
                ..good(token)
            },
            Ok(()),
        );
        check(
            Post {
                sec_fetch_site: None,
                ..good(token)
            },
            Ok(()),
        );
        // Content type first: a text/plain body is refused whatever it holds.
        for content_type in [
            None,
            Some("text/plain"),
            Some("text/plain;charset=UTF-8"),
            Some("multipart/form-data"),
            Some("multipart/form-data; boundary=x"),
            Some("application/json"),
        ] {
            check(
                Post {
                    content_type,
                    ..good(token)
                },
                Err(Refusal::MediaType(BodyKind::Form)),
            );
        }
        // Neither header, or either naming another site.
        check(
            Post {
                origin: None,
                sec_fetch_site: None,
                ..good(token)
            },
            Err(Refusal::CrossSite),
        );
        check(
            Post {
                origin: Some("https://evil.example"),
                ..good(token)
            },
            Err(Refusal::CrossSite),
        );
        check(
            Post {
                origin: None,
                sec_fetch_site: Some("cross-site"),
                ..good(token)
            },
            Err(Refusal::CrossSite),
        );
        // Moved from tests/e2e/security.test.mjs (issue #37): no `Origin` with `Sec-Fetch-Site`
        // naming anything but this origin, an opaque `Origin: null`, or a cross-site fetch.
        for site in ["same-site", "none"] {
            check(
                Post {
                    origin: None,
                    sec_fetch_site: Some(site),
                    ..good(token)
                },
                Err(Refusal::CrossSite),
            );
        }
        check(
            Post {
                origin: Some("null"),
                sec_fetch_site: None,
                ..good(token)
            },
            Err(Refusal::CrossSite),
        );
        check(
            Post {
                sec_fetch_site: Some("cross-site"),
                ..good(token)
            },
            Err(Refusal::CrossSite),
        );
        // A planted pair is refused whatever the headers say.
        for (origin, sec_fetch_site) in [
            (None, None),
            (Some(OWN), None),
            (None, Some("same-origin")),
            (Some(OWN), Some("same-origin")),
        ] {
            let refused = verify_post(
                &Post {
                    origin,
                    sec_fetch_site,
                    nonce: Some("AAAA"),
                    token: Some("AAAA"),
                    ..good(token)
                },
                BodyKind::Form,
                Some(&SessionKey::derive("secret")),
                "gh:1",
                OWN,
            );
            assert!(refused.is_err(), "{origin:?} {sec_fetch_site:?}");
        }
        // The old double-submit pair: the same made-up value in cookie and form.
        check(
            Post {
                nonce: Some("AAAA"),
                token: Some("AAAA"),
                ..good(token)
            },
            Err(Refusal::Token),
        );
        // Another browser session's nonce, no token, no cookie.
        check(
            Post {
                nonce: Some("m"),
                ..good(token)
            },
            Err(Refusal::Token),
        );
        check(
            Post {
                token: None,
                ..good(token)
            },
            Err(Refusal::Token),
        );
        check(
            Post {
                nonce: None,
                ..good(token)
            },
            Err(Refusal::Token),
        );
        // Another person's token, and no key configured.
        let other = key.token("n", "gh:2");
        check(good(&other), Err(Refusal::Token));
        assert_eq!(
            verify_post(&good(token), BodyKind::Form, None, "gh:1", OWN),
            Err(Refusal::Token)
        );
        // A JSON endpoint takes JSON only.
        let json = Post {
            content_type: Some("application/json"),
            ..good(token)
        };
        assert_eq!(
            verify_post(&json, BodyKind::Json, Some(&key), "gh:1", OWN),
            Ok(())
        );
        assert_eq!(
            verify_post(&good(token), BodyKind::Json, Some(&key), "gh:1", OWN),
            Err(Refusal::MediaType(BodyKind::Json))
        );
    }

    #[test]
    fn refusals_say_what_to_do() {
        assert_eq!(Refusal::MediaType(BodyKind::Form).status(), 415);
        assert_eq!(Refusal::CrossSite.status(), 403);
        assert_eq!(Refusal::Token.status(), 403);
        assert_eq!(Refusal::TooLarge.status(), 413);
        assert!(Refusal::MediaType(BodyKind::Form)
            .message()
            .contains("application/x-www-form-urlencoded"));
        assert!(Refusal::CrossSite.message().contains("from this site"));
        let page = refusal_page(Refusal::CrossSite, OWN);
        assert!(
            page.contains("<h1>This form can&#39;t be accepted</h1>"),
            "{page}"
        );
        assert!(page.contains("from this site&#39;s own page"), "{page}");
    }
}
