//! Plain HTTP values shared by the pure core: a request's parts and a reply to send.
//!
//! The core decides what to answer with these; only `entry` converts them to and from `worker`
//! types, so every rule about status codes and headers is testable natively.

/// Request headers with lower-cased names, in arrival order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Headers(Vec<(String, String)>);

impl Headers {
    pub fn new<N: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (N, V)>) -> Self {
        Headers(
            pairs
                .into_iter()
                .map(|(name, value)| (name.into().to_ascii_lowercase(), value.into()))
                .collect(),
        )
    }

    /// The first value of a header, looked up case-insensitively.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// A response decided by the core.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpReply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpReply {
    pub fn new(status: u16, content_type: &str, body: impl Into<String>) -> Self {
        HttpReply {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body: body.into(),
        }
    }

    pub fn json(status: u16, value: &serde_json::Value) -> Self {
        HttpReply::new(status, "application/json", value.to_string())
    }

    pub fn empty(status: u16) -> Self {
        HttpReply {
            status,
            headers: Vec::new(),
            body: String::new(),
        }
    }

    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.into()));
        self
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// `scheme://host[:port]` of a URL, as browsers send it in `Origin`.
pub fn origin_of(url: &url::Url) -> String {
    url.origin().ascii_serialization()
}

/// True for hosts that only this machine can reach: local development is trusted only there.
pub fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host == "localhost"
        || host == "::1"
        || host
            .parse::<std::net::Ipv4Addr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(false)
}

/// `next` when it is a path on this site, else `/`: sign-in must not become an open redirect.
/// Only visible ASCII is kept, because browsers drop tabs and newlines while parsing a
/// `Location`, so `/\t/evil.example` would become the foreign `//evil.example`.
pub fn same_site_path(next: Option<&str>) -> String {
    match next {
        Some(path)
            if path.starts_with('/')
                && !path.starts_with("//")
                && path
                    .bytes()
                    .all(|b| (0x21..0x7f).contains(&b) && b != b'\\') =>
        {
            path.to_string()
        }
        _ => "/".to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_same_site_paths_are_kept_as_next() {
        use super::same_site_path as next;
        assert_eq!(
            next(Some("/r/acme/app/pull/3?x=1#s2")),
            "/r/acme/app/pull/3?x=1#s2"
        );
        for hostile in [
            "//evil.example",
            "/\t/evil.example",
            "/\n/evil.example",
            "/\\evil.example",
            "\\/evil.example",
            "https://evil.example",
            "/ /evil.example",
            "/\u{a0}/x",
            "",
        ] {
            assert_eq!(next(Some(hostile)), "/", "{hostile:?}");
        }
        assert_eq!(next(None), "/");
    }

    use super::*;

    #[test]
    fn headers_are_case_insensitive() {
        let headers = Headers::new([("MCP-Protocol-Version", "2025-11-25")]);
        assert_eq!(headers.get("mcp-protocol-version"), Some("2025-11-25"));
        assert_eq!(headers.get("Mcp-Protocol-Version"), Some("2025-11-25"));
        assert_eq!(headers.get("origin"), None);
    }

    #[test]
    fn loopback_hosts() {
        for host in ["localhost", "127.0.0.1", "127.8.9.1", "[::1]", "::1"] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "logikflow.dev",
            "10.0.0.1",
            "192.168.1.1",
            "localhost.evil.com",
            "",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }
}
