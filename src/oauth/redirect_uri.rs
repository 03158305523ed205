//! Redirect URIs: which ones a client may register, and whether a request's URI matches one.
//!
//! Why: the redirect URI is where codes go, so it is checked before anything else and compared
//! exactly (OAuth 2.1 §2.3.1, §4.1.3). Native apps get RFC 8252's allowances: `http` on a
//! loopback address with any port (§7.3: the port is chosen at run time) and private-use schemes
//! such as `cursor://` and `vscode://` (§7.1). Schemes a browser would run or read locally
//! (`javascript:`, `data:`, `file:` …), fragments and user info are refused.
//! What not: no fetching, no storage; the client's record keeps the strings it registered.

use super::error::RedirectUriError;
use serde::{Deserialize, Serialize};

/// Longest redirect URI we accept; real ones are far shorter.
pub const MAX_LEN: usize = 2000;

/// Schemes that execute code, read local data or never leave the browser.
const FORBIDDEN_SCHEMES: &[&str] = &[
    "javascript",
    "data",
    "file",
    "vbscript",
    "about",
    "blob",
    "filesystem",
    "view-source",
    "ftp",
    "ws",
    "wss",
];

/// Whether a URL as written has a `.` or `..` path segment, plain or percent-encoded (`%2e`),
/// with `/` or `\` between segments (URL parsers treat both as separators): the one rule for
/// redirect URIs and metadata document URLs (`clients::is_metadata_document_url`), issue 36.
/// A parser resolves such segments, so the URL compared would not be the URL written.
pub fn has_dot_segments(text: &str) -> bool {
    let path = text.split(['?', '#']).next().unwrap_or_default();
    path.split(['/', '\\']).any(|segment| {
        let decoded = segment.to_ascii_lowercase().replace("%2e", ".");
        decoded == "." || decoded == ".."
    })
}

/// A redirect URI that passed the registration rules, kept exactly as the client sent it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RedirectUri(String);

impl RedirectUri {
    /// Applies the registration rules.
    pub fn parse(text: &str) -> Result<RedirectUri, RedirectUriError> {
        if text.len() > MAX_LEN {
            return Err(RedirectUriError::TooLong);
        }
        // The URL parser quietly strips whitespace and control characters; we refuse them, so
        // the string we compare is the string that was checked.
        if text.is_empty() || text.bytes().any(|b| b <= b' ' || b == 0x7f) {
            return Err(RedirectUriError::Malformed);
        }
        if text.contains('#') {
            return Err(RedirectUriError::Fragment);
        }
        if has_dot_segments(text) {
            return Err(RedirectUriError::DotSegments);
        }
        let url = url::Url::parse(text).map_err(|_| RedirectUriError::Malformed)?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err(RedirectUriError::UserInfo);
        }
        let scheme = url.scheme();
        if FORBIDDEN_SCHEMES.contains(&scheme) {
            return Err(RedirectUriError::ForbiddenScheme);
        }
        match scheme {
            "https" if url.host_str().is_none_or(str::is_empty) => Err(RedirectUriError::Malformed),
            "http" if !is_loopback(&url) => Err(RedirectUriError::InsecureHttp),
            _ => Ok(RedirectUri(text.to_string())),
        }
    }

    /// The URI as registered.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether an authorization request's `redirect_uri` matches this registered one: the same
    /// string, except that a loopback `http` URI may name another port (RFC 8252 §7.3).
    pub fn matches(&self, requested: &str) -> bool {
        if self.0 == requested {
            return true;
        }
        let (Ok(registered), Ok(requested_url)) =
            (url::Url::parse(&self.0), url::Url::parse(requested))
        else {
            return false;
        };
        if registered.scheme() != "http" || !is_loopback(&registered) {
            return false;
        }
        // The requested URI must itself be acceptable, then equal in all but the port.
        RedirectUri::parse(requested).is_ok()
            && requested_url.scheme() == "http"
            && requested_url.host_str() == registered.host_str()
            && requested_url.path() == registered.path()
            && requested_url.query() == registered.query()
    }

    /// What the consent page shows as the destination: `host` for web URIs, `scheme://host` or
    /// `scheme:` for app schemes.
    pub fn display(&self) -> String {
        let Ok(url) = url::Url::parse(&self.0) else {
            return self.0.clone();
        };
        match (url.scheme(), url.host_str()) {
            ("https", Some(host)) => host.to_string(),
            ("http", Some(host)) => format!("{host} (this computer)"),
            (scheme, Some(host)) if !host.is_empty() => format!("{scheme}://{host}"),
            (scheme, _) => format!("{scheme}:"),
        }
    }

    /// The CSP source expression that lets our consent form post and then redirect here
    /// (browsers apply `form-action` to the redirect that follows a form submission).
    pub fn csp_source(&self) -> Option<String> {
        let url = url::Url::parse(&self.0).ok()?;
        let scheme = url.scheme();
        let source = match (scheme, url.host_str()) {
            ("http", Some(host)) => format!("http://{host}:*"),
            ("https", Some(host)) => match url.port() {
                Some(port) => format!("https://{host}:{port}"),
                None => format!("https://{host}"),
            },
            _ => format!("{scheme}:"),
        };
        // Host names and schemes from the URL parser never contain these, but a CSP is a
        // security boundary: refuse anything that could end a directive or a source.
        let safe = source
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-+:/*[]_".contains(&b));
        safe.then_some(source)
    }
}

/// The redirect URI as remembered consent is keyed: a loopback `http` URI without its port,
/// since native apps pick a new port on every run (RFC 8252 §7.3); any other URI as it is.
pub fn consent_key(uri: &str) -> String {
    match url::Url::parse(uri) {
        Ok(mut url) if url.scheme() == "http" && is_loopback(&url) => {
            if url.set_port(None).is_ok() {
                url.to_string()
            } else {
                uri.to_string()
            }
        }
        _ => uri.to_string(),
    }
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(domain)) => domain == "localhost",
        None => false,
    }
}

/// Finds the registered redirect URI an authorization request names. With no `redirect_uri` in
/// the request, a client that registered exactly one gets that one (RFC 6749 §3.1.2.3).
pub fn select<'a>(
    registered: &'a [RedirectUri],
    requested: Option<&str>,
) -> Result<&'a RedirectUri, super::error::Error> {
    use super::error::Error;
    match requested {
        Some(requested) => registered
            .iter()
            .find(|uri| uri.matches(requested))
            .ok_or(Error::RedirectUriNotRegistered),
        None => match registered {
            [only] => Ok(only),
            _ => Err(Error::RedirectUriRequired),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(uri: &str, expected: Result<(), RedirectUriError>) {
        assert_eq!(RedirectUri::parse(uri).map(|_| ()), expected, "{uri}");
    }

    #[test]
    fn registration_rules() {
        use RedirectUriError::*;
        check("https://app.example/callback", Ok(()));
        check("https://app.example:8443/cb?x=1", Ok(()));
        check("http://127.0.0.1/callback", Ok(()));
        check("http://127.0.0.1:33418/callback", Ok(()));
        check("http://[::1]:8080/cb", Ok(()));
        check("http://localhost:6274/oauth/callback", Ok(()));
        check(
            "cursor://anysphere.cursor-retrieval/oauth/user-logikflow/callback",
            Ok(()),
        );
        check(
            "vscode://vscode.github-authentication/did-authenticate",
            Ok(()),
        );
        check("com.example.app:/oauth2redirect", Ok(()));
        check("http://app.example/callback", Err(InsecureHttp));
        check("http://192.168.1.2/callback", Err(InsecureHttp));
        check("http://localhost.evil.com/cb", Err(InsecureHttp));
        check("javascript:alert(1)", Err(ForbiddenScheme));
        check("JavaScript:alert(1)", Err(ForbiddenScheme));
        check("data:text/html,hi", Err(ForbiddenScheme));
        check("file:///etc/passwd", Err(ForbiddenScheme));
        check("vbscript:msgbox", Err(ForbiddenScheme));
        check("about:blank", Err(ForbiddenScheme));
        check("blob:https://a.example/1", Err(ForbiddenScheme));
        check("https://app.example/cb#frag", Err(Fragment));
        check("https://app.example/cb#", Err(Fragment));
        check("https://user:pw@app.example/cb", Err(UserInfo));
        check("https://user@app.example/cb", Err(UserInfo));
        check("/relative/path", Err(Malformed));
        // Issue 36: dot segments, as for metadata document URLs.
        for uri in [
            "https://app.example/./cb",
            "https://app.example/a/../cb",
            "https://app.example/a/%2e%2e/cb",
            "https://app.example/a/%2E/cb",
            "http://127.0.0.1:1/a/..",
            "cursor://x/a/../b",
            "https://app.example/a\\..\\cb",
        ] {
            check(uri, Err(DotSegments));
            assert!(
                !crate::oauth::clients::is_metadata_document_url(uri, true),
                "{uri}"
            );
        }
        check("https://app.example/.well-known/cb?next=../x", Ok(()));
        check("", Err(Malformed));
        check("https://app.example/cb\n", Err(Malformed));
        check("https://app.example/c b", Err(Malformed));
        check(
            &format!("https://app.example/{}", "a".repeat(MAX_LEN)),
            Err(TooLong),
        );
    }

    fn check_match(registered: &str, requested: &str, expected: bool) {
        let uri = RedirectUri::parse(registered);
        assert_eq!(
            uri.map(|u| u.matches(requested)),
            Ok(expected),
            "{registered} vs {requested}"
        );
    }

    #[test]
    fn matching() {
        check_match("https://app.example/cb", "https://app.example/cb", true);
        check_match("https://app.example/cb", "https://app.example/cb/", false);
        check_match(
            "https://app.example/cb",
            "https://app.example/cb?x=1",
            false,
        );
        check_match("https://app.example/cb", "https://APP.example/cb", false);
        check_match(
            "https://app.example:443/cb",
            "https://app.example:444/cb",
            false,
        );
        check_match("http://127.0.0.1:1234/cb", "http://127.0.0.1:5678/cb", true);
        check_match("http://127.0.0.1/cb", "http://127.0.0.1:5678/cb", true);
        check_match("http://localhost:1/cb", "http://localhost:2/cb", true);
        check_match("http://[::1]:1/cb", "http://[::1]:2/cb", true);
        check_match(
            "http://127.0.0.1:1234/cb",
            "http://127.0.0.1:5678/other",
            false,
        );
        check_match(
            "http://127.0.0.1:1234/cb",
            "http://localhost:1234/cb",
            false,
        );
        check_match(
            "http://127.0.0.1:1234/cb",
            "https://127.0.0.1:1234/cb",
            false,
        );
        check_match(
            "http://127.0.0.1:1234/cb",
            "http://127.0.0.1:5678/cb#x",
            false,
        );
        check_match("cursor://a/cb", "cursor://a/cb", true);
        check_match("cursor://a/cb", "cursor://a/cb2", false);
    }

    #[test]
    fn selection() {
        use super::super::error::Error;
        let one = vec![RedirectUri("https://a.example/cb".into())];
        let two = vec![
            RedirectUri("https://a.example/cb".into()),
            RedirectUri("http://127.0.0.1/cb".into()),
        ];
        assert_eq!(
            select(&one, None).map(RedirectUri::as_str),
            Ok("https://a.example/cb")
        );
        assert_eq!(select(&two, None), Err(Error::RedirectUriRequired));
        assert_eq!(
            select(&two, Some("http://127.0.0.1:9/cb")).map(RedirectUri::as_str),
            Ok("http://127.0.0.1/cb")
        );
        assert_eq!(
            select(&two, Some("https://evil.example/cb")),
            Err(Error::RedirectUriNotRegistered)
        );
    }

    #[test]
    fn consent_keys() {
        assert_eq!(
            consent_key("http://127.0.0.1:5000/cb"),
            "http://127.0.0.1/cb"
        );
        assert_eq!(
            consent_key("http://127.0.0.1:6000/cb"),
            "http://127.0.0.1/cb"
        );
        assert_eq!(
            consent_key("https://a.example:8443/cb"),
            "https://a.example:8443/cb"
        );
        assert_eq!(consent_key("cursor://a/cb"), "cursor://a/cb");
    }

    #[test]
    fn display_and_csp() {
        let show = |uri: &str| RedirectUri::parse(uri).map(|u| (u.display(), u.csp_source()));
        assert_eq!(
            show("https://app.example/cb"),
            Ok(("app.example".into(), Some("https://app.example".into())))
        );
        assert_eq!(
            show("http://127.0.0.1:9/cb"),
            Ok((
                "127.0.0.1 (this computer)".into(),
                Some("http://127.0.0.1:*".into())
            ))
        );
        assert_eq!(
            show("cursor://anysphere.cursor-retrieval/cb"),
            Ok((
                "cursor://anysphere.cursor-retrieval".into(),
                Some("cursor:".into())
            ))
        );
        assert_eq!(
            show("com.example.app:/cb"),
            Ok(("com.example.app:".into(), Some("com.example.app:".into())))
        );
    }
}
