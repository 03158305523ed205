//! Query strings and form bodies as the OAuth endpoints read them (cookies, encoding and the
//! plain form reading the pages use are in `security`).
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
}
