//! Cross-site request forgery protection for the review pages' forms (double-submit cookie plus
//! an Origin check), and the small cookie and form parsing the pages need.
//!
//! A page GET sets a random token in a cookie and in its forms; a POST must carry the same token
//! in the form and, when the browser sends `Origin`, come from this site. A cross-site page can
//! neither read the cookie nor forge the `Origin` header.

/// The cookie's name: `__Host-` (Secure, host-only, path /) on https; plain on local http.
pub fn cookie_name(secure: bool) -> &'static str {
    if secure {
        "__Host-lkf_csrf"
    } else {
        "lkf_csrf"
    }
}

/// The `Set-Cookie` value carrying `token`.
pub fn set_cookie(token: &str, secure: bool) -> String {
    let secure_attr = if secure { "; Secure" } else { "" };
    format!(
        "{}={token}; Path=/; HttpOnly; SameSite=Lax{secure_attr}",
        cookie_name(secure)
    )
}

/// A token from 32 random bytes, as URL-safe base64.
pub fn token_from(random: &[u8; 32]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(random)
}

/// The value of cookie `name` in a `Cookie` header.
pub fn cookie<'a>(header: &'a str, name: &str) -> Option<&'a str> {
    header
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// An `application/x-www-form-urlencoded` body as pairs.
pub fn form_pairs(body: &[u8]) -> Vec<(String, String)> {
    url::form_urlencoded::parse(body).into_owned().collect()
}

/// The first value of `name` in form pairs.
pub fn form_value<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
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
        (Some(cookie), Some(form)) if !cookie.is_empty() && cookie.len() == form.len() => {
            cookie
                .bytes()
                .zip(form.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies() {
        assert_eq!(cookie("a=1; lkf_csrf=xyz; b=2", "lkf_csrf"), Some("xyz"));
        assert_eq!(cookie("lkf_csrfx=1", "lkf_csrf"), None);
        assert_eq!(cookie("", "lkf_csrf"), None);
        assert!(set_cookie("t", true)
            .starts_with("__Host-lkf_csrf=t; Path=/; HttpOnly; SameSite=Lax; Secure"));
        assert!(!set_cookie("t", false).contains("Secure"));
    }

    #[test]
    fn forms() {
        let form = form_pairs(b"csrf=a%2Bb&item=file%3Asrc%2Fa.rs&done=1");
        assert_eq!(form_value(&form, "item"), Some("file:src/a.rs"));
        assert_eq!(form_value(&form, "csrf"), Some("a+b"));
        assert_eq!(form_value(&form, "nope"), None);
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
        assert_eq!(token_from(&[0u8; 32]).len(), 43);
    }
}
