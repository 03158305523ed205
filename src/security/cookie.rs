//! Cookies: reading one from a `Cookie` header, and building `Set-Cookie` values.
//!
//! Every cookie we set is HttpOnly with `Path=/`; on https it is also Secure with the `__Host-`
//! prefix (host-only, no Domain), so no other host or path can set or read it. Local development
//! on http drops the prefix and `Secure`, which browsers refuse there.

/// How a cookie may travel across sites (RFC 6265bis §5.4.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SameSite {
    /// Sent on top-level navigations from other sites (the return from GitHub, links to pages).
    Lax,
    /// Sent only with requests our own pages start (the consent form).
    Strict,
}

/// The value of cookie `name` in a `Cookie` request header; an empty value counts as absent.
pub fn read<'a>(header: Option<&'a str>, name: &str) -> Option<&'a str> {
    header?
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim())
        .filter(|value| !value.is_empty())
}

/// A cookie's name as sent: `__Host-{base}` on https, `base` on local http.
pub fn name(base: &str, secure: bool) -> String {
    if secure {
        format!("__Host-{base}")
    } else {
        base.to_string()
    }
}

/// A `Set-Cookie` value for `name` (already prefixed, see [`name`]): HttpOnly, `Path=/`, Secure
/// when `secure`. `max_age_seconds`: `Some(0)` deletes the cookie, `None` makes it last for the
/// browser session. Values must be cookie-safe (we only set base64url text and ids).
pub fn set(
    name: &str,
    value: &str,
    max_age_seconds: Option<u64>,
    same_site: SameSite,
    secure: bool,
) -> String {
    let same_site = match same_site {
        SameSite::Lax => "Lax",
        SameSite::Strict => "Strict",
    };
    let max_age = max_age_seconds
        .map(|seconds| format!("; Max-Age={seconds}"))
        .unwrap_or_default();
    let secure = if secure { "; Secure" } else { "" };
    format!("{name}={value}{max_age}; Path=/{secure}; HttpOnly; SameSite={same_site}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads() {
        assert_eq!(read(Some("a=1; __Host-x=abc"), "__Host-x"), Some("abc"));
        assert_eq!(read(Some("a=1;b=2"), "b"), Some("2"));
        assert_eq!(read(Some("a=1"), "b"), None);
        assert_eq!(read(Some("b="), "b"), None);
        assert_eq!(read(Some("ab=1"), "b"), None);
        assert_eq!(read(None, "b"), None);
    }

    #[test]
    fn sets() {
        assert_eq!(
            set("__Host-a", "v", Some(600), SameSite::Strict, true),
            "__Host-a=v; Max-Age=600; Path=/; Secure; HttpOnly; SameSite=Strict"
        );
        assert_eq!(
            set("a", "", Some(0), SameSite::Lax, false),
            "a=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"
        );
        assert_eq!(
            set(&name("c", true), "t", None, SameSite::Lax, true),
            "__Host-c=t; Path=/; Secure; HttpOnly; SameSite=Lax"
        );
        assert_eq!(name("c", false), "c");
    }
}
