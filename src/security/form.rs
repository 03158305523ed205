//! `application/x-www-form-urlencoded` bodies (the pages' forms; OAuth's `Params` adds RFC
//! 6749's rules on top), decoded by the `url` crate.

/// A form body as pairs, in arrival order.
pub fn pairs(body: &[u8]) -> Vec<(String, String)> {
    url::form_urlencoded::parse(body).into_owned().collect()
}

/// The first value of `name` in form pairs.
pub fn value<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

/// Encodes pairs as a form body.
pub fn encode(pairs: &[(&str, &str)]) -> String {
    let mut out = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs {
        out.append_pair(name, value);
    }
    out.finish()
}

/// Appends query parameters to a URI, keeping the URI exactly as it was (an OAuth redirect URI
/// must stay as registered).
pub fn append_query(uri: &str, pairs: &[(&str, &str)]) -> String {
    let separator = if uri.contains('?') { '&' } else { '?' };
    format!("{uri}{separator}{}", encode(pairs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let body = encode(&[("a", "x y"), ("b", "&"), ("a", "2")]);
        assert_eq!(body, "a=x+y&b=%26&a=2");
        let form = pairs(body.as_bytes());
        assert_eq!(value(&form, "a"), Some("x y"));
        assert_eq!(value(&form, "b"), Some("&"));
        assert_eq!(value(&form, "c"), None);
    }
}
