//! Query strings, form bodies and cookies as the OAuth endpoints read them.
//!
//! Why: RFC 6749 §3.1 says a parameter sent without a value is treated as omitted and one sent
//! twice is an error; doing that in one place keeps every endpoint honest about it.
//! What not: no percent-decoding rules of our own (the `url` crate's `form_urlencoded` decides),
//! no typed parsing of values (each endpoint parses its own newtypes).

use super::error::Error;

/// Decoded `application/x-www-form-urlencoded` pairs, in arrival order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Parses a query string (without `?`) or a form body.
    pub fn parse(text: &str) -> Params {
        Params(
            url::form_urlencoded::parse(text.as_bytes())
                .map(|(name, value)| (name.into_owned(), value.into_owned()))
                .collect(),
        )
    }

    /// The value of `name`: `None` when absent or empty (RFC 6749 §3.1), an error when repeated.
    pub fn get(&self, name: &'static str) -> Result<Option<&str>, Error> {
        let mut found = None;
        for (key, value) in &self.0 {
            if key == name && !value.is_empty() {
                if found.is_some() {
                    return Err(Error::DuplicateParameter(name));
                }
                found = Some(value.as_str());
            }
        }
        Ok(found)
    }

    /// The value of `name`, which must be present.
    pub fn require(&self, name: &'static str) -> Result<&str, Error> {
        self.get(name)?.ok_or(Error::MissingParameter(name))
    }
}

/// Encodes pairs as `application/x-www-form-urlencoded`.
pub fn encode(pairs: &[(&str, &str)]) -> String {
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs {
        out.append_pair(name, value);
    }
    out.finish()
}

/// The value of cookie `name` in a `Cookie` request header.
pub fn cookie<'a>(header: Option<&'a str>, name: &str) -> Option<&'a str> {
    header?
        .split(';')
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim())
        .filter(|value| !value.is_empty())
}

/// How a cookie may travel across sites (RFC 6265bis §5.4.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SameSite {
    /// Sent on top-level navigations from other sites (the return from GitHub).
    Lax,
    /// Sent only with requests our own pages start (the consent form).
    Strict,
}

/// A `Set-Cookie` value for a `__Host-` cookie: Secure, `Path=/`, no Domain, HttpOnly.
///
/// `max_age_seconds == 0` deletes the cookie. Values must be cookie-safe (we only ever set
/// base64url text), which the caller guarantees.
pub fn host_cookie(name: &str, value: &str, max_age_seconds: u64, same_site: SameSite) -> String {
    let same_site = match same_site {
        SameSite::Lax => "Lax",
        SameSite::Strict => "Strict",
    };
    format!(
        "{name}={value}; Max-Age={max_age_seconds}; Path=/; Secure; HttpOnly; SameSite={same_site}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(query: &str, name: &'static str, expected: Result<Option<&str>, Error>) {
        assert_eq!(Params::parse(query).get(name), expected, "{query}");
    }

    #[test]
    fn parameters() {
        check("a=1&b=2", "a", Ok(Some("1")));
        check("a=1&b=2", "c", Ok(None));
        check("a=&b=2", "a", Ok(None));
        check("a=x%20y+z", "a", Ok(Some("x y z")));
        check("a=1&a=2", "a", Err(Error::DuplicateParameter("a")));
        check("a=1&a=", "a", Ok(Some("1")));
        assert_eq!(
            Params::parse("").require("code"),
            Err(Error::MissingParameter("code"))
        );
    }

    #[test]
    fn cookies() {
        assert_eq!(cookie(Some("a=1; __Host-x=abc"), "__Host-x"), Some("abc"));
        assert_eq!(cookie(Some("a=1;b=2"), "b"), Some("2"));
        assert_eq!(cookie(Some("a=1"), "b"), None);
        assert_eq!(cookie(Some("b="), "b"), None);
        assert_eq!(cookie(None, "b"), None);
    }

    #[test]
    fn set_cookie() {
        assert_eq!(
            host_cookie("__Host-a", "v", 600, SameSite::Strict),
            "__Host-a=v; Max-Age=600; Path=/; Secure; HttpOnly; SameSite=Strict"
        );
        assert_eq!(encode(&[("a", "x y"), ("b", "&")]), "a=x+y&b=%26");
    }
}
