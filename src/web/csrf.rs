//! Cross-site request forgery protection for the review pages' forms (double-submit cookie plus
//! an Origin check), built on `security`'s cookies, randomness and comparison.
//!
//! A page GET sets a random token in a cookie and in its forms; a POST must carry the same token
//! in the form and, when the browser sends `Origin`, come from this site. A cross-site page can
//! neither read the cookie nor forge the `Origin` header.

use crate::security::compare::constant_time_eq;
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

/// The `Set-Cookie` value carrying `token` (a browser-session cookie).
pub fn set_cookie(token: &str, secure: bool) -> String {
    cookie::set(cookie_name(secure), token, None, SameSite::Lax, secure)
}

/// A fresh token for a page's forms.
pub fn token() -> Result<String, RandomError> {
    random::token()
}

/// Checks a POST: the form's token equals the cookie's (in constant time), and `Origin`, when
/// present, is this site.
pub fn verify(
    cookie_token: Option<&str>,
    form_token: Option<&str>,
    origin: Option<&str>,
    own_origin: &str,
) -> bool {
    if origin.is_some_and(|origin| !origin.eq_ignore_ascii_case(own_origin)) {
        return false;
    }
    match (cookie_token, form_token) {
        (Some(cookie), Some(form)) if !cookie.is_empty() => {
            constant_time_eq(cookie.as_bytes(), form.as_bytes())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies() {
        let set = set_cookie("t", true);
        assert!(
            set.starts_with("__Host-lkf_csrf=t; Path=/; Secure; HttpOnly; SameSite=Lax"),
            "{set}"
        );
        assert!(!set.contains("Max-Age"), "a browser-session cookie");
        assert!(!set_cookie("t", false).contains("Secure"));
        assert_eq!(token().map(|t| t.len()), Ok(43));
    }

    fn check(cookie: Option<&str>, form: Option<&str>, origin: Option<&str>, expected: bool) {
        assert_eq!(
            verify(cookie, form, origin, "https://h"),
            expected,
            "{cookie:?} {form:?} {origin:?}"
        );
    }

    #[test]
    fn verification() {
        check(Some("tok"), Some("tok"), None, true);
        check(Some("tok"), Some("tok"), Some("https://h"), true);
        check(Some("tok"), Some("tok"), Some("https://evil"), false);
        check(Some("tok"), Some("tox"), None, false);
        check(None, Some("tok"), None, false);
        check(Some(""), Some(""), None, false);
        check(Some("tok"), None, None, false);
        check(Some("tok"), Some("tokk"), None, false);
    }
}
