//! OAuth clients: dynamic registration (RFC 7591) and Client ID Metadata Documents.
//!
//! Why: MCP clients are not known in advance. They either register themselves (and are shown as
//! "Unverified" at consent, since anyone can pick any name) or identify themselves by an https
//! URL whose host vouches for the document (shown as "Verified" with that domain).
//! Every client is public: there are no client secrets, PKCE proves possession instead.
//! What not: no fetching or storage; the endpoints fetch documents and keep records in KV.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::error::{DocumentProblem, Error};
use super::redirect_uri::RedirectUri;

/// Most redirect URIs one client may register.
pub const MAX_REDIRECT_URIS: usize = 10;
/// Largest registration request or metadata document we read.
pub const MAX_DOCUMENT_BYTES: usize = 5 * 1024;
/// Longest `client_id` we accept (a metadata-document URL).
pub const MAX_CLIENT_ID_LEN: usize = 500;
/// Prefix of client ids we issue at registration.
pub const REGISTERED_PREFIX: &str = "lfd_";

/// How a client is known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientKind {
    /// Registered through `/oauth/register`: its name is its own claim.
    Registered,
    /// A Client ID Metadata Document served by `domain`.
    MetadataDocument { domain: String },
}

/// A client as the authorization endpoint needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientRecord {
    pub client_id: String,
    /// The name the client gave (may be empty for a registered client).
    pub client_name: String,
    pub redirect_uris: Vec<RedirectUri>,
    /// Epoch seconds.
    pub created_at: u64,
    pub kind: ClientKind,
}

impl ClientRecord {
    /// The domain that vouches for this client, if any.
    pub fn verified_domain(&self) -> Option<&str> {
        match &self.kind {
            ClientKind::MetadataDocument { domain } => Some(domain),
            ClientKind::Registered => None,
        }
    }

    /// The name shown to people: the client's own, or a neutral stand-in.
    pub fn display_name(&self) -> &str {
        if self.client_name.trim().is_empty() {
            "An unnamed app"
        } else {
            &self.client_name
        }
    }
}

/// What a registration request asks to be (RFC 7591 §2), validated: the name and redirect URIs
/// its record keeps. `/oauth/register` reads it from JSON ([`read_registration`]); the review
/// pages' own client is one built in code (`web_client::registration`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// The name the client gave, trimmed (may be empty).
    pub client_name: String,
    pub redirect_uris: Vec<RedirectUri>,
}

impl Registration {
    /// The registered client's record, under a `client_id` the caller freshly minted.
    pub fn record(self, client_id: String, now: u64) -> ClientRecord {
        ClientRecord {
            client_id,
            client_name: self.client_name,
            redirect_uris: self.redirect_uris,
            created_at: now,
            kind: ClientKind::Registered,
        }
    }
}

/// Validates an RFC 7591 registration request.
///
/// Requests for client authentication other than `none` are answered with `none` (RFC 7591
/// §3.2.1 lets the server replace requested values): every client here is public and proves
/// itself with PKCE.
pub fn read_registration(body: &[u8]) -> Result<Registration, Error> {
    if body.len() > MAX_DOCUMENT_BYTES {
        return Err(Error::MalformedBody);
    }
    let Some(Value::Object(request)) = crate::json::value(body) else {
        return Err(Error::MalformedBody);
    };
    let redirect_uris = match request.get("redirect_uris") {
        Some(Value::Array(items)) if !items.is_empty() && items.len() <= MAX_REDIRECT_URIS => items
            .iter()
            .map(|item| {
                item.as_str()
                    .ok_or(Error::ClientMetadata("redirect_uris"))
                    .and_then(|text| RedirectUri::parse(text).map_err(Error::InvalidRedirectUri))
            })
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err(Error::ClientMetadata("redirect_uris")),
    };
    check_list(
        &request,
        "grant_types",
        &["authorization_code", "refresh_token"],
        "authorization_code",
    )?;
    check_list(&request, "response_types", &["code"], "code")?;
    // Left out, the name is empty and the consent page says "An unnamed app"; sent, it must
    // show something, or the page would name no one.
    let client_name = match request.get("client_name") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(name)) if !crate::unicode::has_visible(name) => {
            return Err(Error::BlankClientName)
        }
        Some(Value::String(name)) if valid_name(name) => name.trim().to_string(),
        Some(_) => return Err(Error::ClientMetadata("client_name")),
    };
    Ok(Registration {
        client_name,
        redirect_uris,
    })
}

/// A list field that, when present, may only hold `allowed` values and must hold `required`.
fn check_list(
    request: &Map<String, Value>,
    field: &'static str,
    allowed: &[&str],
    required: &str,
) -> Result<(), Error> {
    let Some(value) = request.get(field) else {
        return Ok(());
    };
    let items = value.as_array().ok_or(Error::ClientMetadata(field))?;
    let mut has_required = false;
    for item in items {
        let item = item.as_str().ok_or(Error::ClientMetadata(field))?;
        if !allowed.contains(&item) {
            return Err(Error::ClientMetadata(field));
        }
        has_required |= item == required;
    }
    if has_required {
        Ok(())
    } else {
        Err(Error::ClientMetadata(field))
    }
}

/// A client name fit to show on the consent page: short, and free of control and format
/// characters (a right-to-left override would make `Claude Code \u{202E}gnp.exe` read as
/// "Claude Code exe.png").
fn valid_name(name: &str) -> bool {
    let trimmed = name.trim();
    trimmed.chars().count() <= super::MAX_CLIENT_NAME_CHARS
        && crate::unicode::is_plain_name(trimmed)
}

/// The registration response (RFC 7591 §3.2.1).
pub fn registration_response(client: &ClientRecord) -> Value {
    let mut body = json!({
        "client_id": client.client_id,
        "client_id_issued_at": client.created_at,
        "redirect_uris": client.redirect_uris,
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    if !client.client_name.is_empty() {
        body["client_name"] = json!(client.client_name);
    }
    body
}

/// Whether `client_id` is a Client ID Metadata Document URL: https, a host name, a path other
/// than `/`, no fragment, user info or dot segments. `allow_loopback_http` admits
/// `http://127.0.0.1:PORT/…` for end-to-end tests only (a Worker in production cannot reach it).
pub fn is_metadata_document_url(client_id: &str, allow_loopback_http: bool) -> bool {
    if client_id.len() > MAX_CLIENT_ID_LEN || client_id.contains('#') {
        return false;
    }
    let Ok(url) = url::Url::parse(client_id) else {
        return false;
    };
    // The URL must be written in its normal form, so the document's `client_id` can equal it.
    if url.as_str() != client_id {
        return false;
    }
    let host_ok = match (url.scheme(), url.host()) {
        ("https", Some(url::Host::Domain(domain))) => is_public_domain(domain),
        ("http", Some(url::Host::Ipv4(ip))) => allow_loopback_http && ip.is_loopback(),
        _ => false,
    };
    let path = url.path();
    host_ok
        && url.username().is_empty()
        && url.password().is_none()
        && path != "/"
        && !super::redirect_uri::has_dot_segments(client_id)
}

/// Top-level names that never lead to the public internet: special-use names (RFC 6761, 6762,
/// 8375, 9476), names private networks and clouds use for their own hosts (`.internal`,
/// `metadata.google.internal`, `.lan`, `.corp`…), and reverse-lookup zones.
const INTERNAL_TOP_LEVEL: &[&str] = &[
    "alt",
    "arpa",
    "corp",
    "home",
    "internal",
    "intranet",
    "invalid",
    "lan",
    "local",
    "localdomain",
    "localhost",
    "onion",
    "private",
    "test",
];

/// Whether a Client ID Metadata Document host looks like a public name, checked before any
/// fetch: at least two labels, no trailing dot (`localhost.` is `localhost`), a top-level label
/// that is neither numeric nor one of [`INTERNAL_TOP_LEVEL`]. The Worker's own network decides
/// what a name resolves to; this keeps it from being asked about names that can only be internal.
fn is_public_domain(domain: &str) -> bool {
    let domain = domain.to_ascii_lowercase();
    let labels: Vec<&str> = domain.split('.').collect();
    let Some(top) = labels.last() else {
        return false;
    };
    labels.len() >= 2
        && labels.iter().all(|label| !label.is_empty())
        && !top.bytes().all(|b| b.is_ascii_digit())
        && !INTERNAL_TOP_LEVEL.contains(top)
}

/// Validates a fetched Client ID Metadata Document for `url` and builds the client's record.
pub fn parse_metadata_document(
    url: &str,
    body: &[u8],
    now: u64,
) -> Result<ClientRecord, DocumentProblem> {
    if body.len() > MAX_DOCUMENT_BYTES {
        return Err(DocumentProblem::TooLarge);
    }
    let Some(Value::Object(document)) = crate::json::value(body) else {
        return Err(DocumentProblem::NotJson);
    };
    match document.get("client_id").and_then(Value::as_str) {
        Some(id) if id == url => {}
        Some(_) => return Err(DocumentProblem::ClientIdMismatch),
        None => return Err(DocumentProblem::MissingField("client_id")),
    }
    let redirect_uris = match document.get("redirect_uris") {
        Some(Value::Array(items)) if !items.is_empty() && items.len() <= MAX_REDIRECT_URIS => items
            .iter()
            .map(|item| {
                item.as_str()
                    .ok_or(DocumentProblem::MissingField("redirect_uris"))
                    .and_then(|text| RedirectUri::parse(text).map_err(DocumentProblem::RedirectUri))
            })
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err(DocumentProblem::MissingField("redirect_uris")),
    };
    let client_name = match document.get("client_name").and_then(Value::as_str) {
        Some(name) if crate::unicode::has_visible(name) && valid_name(name) => {
            name.trim().to_string()
        }
        _ => return Err(DocumentProblem::MissingField("client_name")),
    };
    let domain = url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .ok_or(DocumentProblem::ClientIdMismatch)?;
    Ok(ClientRecord {
        client_id: url.to_string(),
        client_name,
        redirect_uris,
        created_at: now,
        kind: ClientKind::MetadataDocument { domain },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::error::RedirectUriError;

    fn check_register(body: &str, expected: Result<(), Error>) {
        assert_eq!(
            read_registration(body.as_bytes()).map(|_| ()),
            expected,
            "{body}"
        );
    }

    #[test]
    fn registration_requests() {
        check_register(r#"{"redirect_uris":["http://127.0.0.1:3000/cb"]}"#, Ok(()));
        check_register(
            r#"{"redirect_uris":["cursor://anysphere.cursor-retrieval/cb"],"client_name":"Cursor","token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"],"response_types":["code"]}"#,
            Ok(()),
        );
        check_register(
            r#"{"redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}"#,
            Ok(()),
        );
        check_register(
            r#"{"redirect_uris":[]}"#,
            Err(Error::ClientMetadata("redirect_uris")),
        );
        check_register(r#"{}"#, Err(Error::ClientMetadata("redirect_uris")));
        check_register(
            r#"{"redirect_uris":"https://a.example/cb"}"#,
            Err(Error::ClientMetadata("redirect_uris")),
        );
        check_register(
            r#"{"redirect_uris":[1]}"#,
            Err(Error::ClientMetadata("redirect_uris")),
        );
        check_register(
            r#"{"redirect_uris":["javascript:alert(1)"]}"#,
            Err(Error::InvalidRedirectUri(RedirectUriError::ForbiddenScheme)),
        );
        check_register(
            r#"{"redirect_uris":["https://a.example/cb#x"]}"#,
            Err(Error::InvalidRedirectUri(RedirectUriError::Fragment)),
        );
        check_register(
            r#"{"redirect_uris":["http://a.example/cb"]}"#,
            Err(Error::InvalidRedirectUri(RedirectUriError::InsecureHttp)),
        );
        check_register(
            r#"{"redirect_uris":["https://a.example/cb"],"grant_types":["client_credentials"]}"#,
            Err(Error::ClientMetadata("grant_types")),
        );
        check_register(
            r#"{"redirect_uris":["https://a.example/cb"],"grant_types":["refresh_token"]}"#,
            Err(Error::ClientMetadata("grant_types")),
        );
        check_register(
            r#"{"redirect_uris":["https://a.example/cb"],"response_types":["token"]}"#,
            Err(Error::ClientMetadata("response_types")),
        );
        check_register(
            &format!(
                r#"{{"redirect_uris":["https://a.example/cb"],"client_name":"{}"}}"#,
                "n".repeat(101)
            ),
            Err(Error::ClientMetadata("client_name")),
        );
        for hidden in [
            "Claude Code \\u202Egnp.exe\\u202C \\u200B",
            "A\\u2066B",
            "Tab\\tName",
            "Zero\\uFEFFwidth",
        ] {
            check_register(
                &format!(
                    r#"{{"redirect_uris":["https://a.example/cb"],"client_name":"{hidden}"}}"#
                ),
                Err(Error::ClientMetadata("client_name")),
            );
        }
        // A name that shows nothing names no one on the consent page (issue #31); leaving the
        // field out is still fine.
        for blank in [
            "",
            "   ",
            "\\u3000\\u00A0",
            "\\u3164",
            "\\u2800",
            "\\u200B",
            " \\uFE0F ",
        ] {
            check_register(
                &format!(r#"{{"redirect_uris":["https://a.example/cb"],"client_name":"{blank}"}}"#),
                Err(Error::BlankClientName),
            );
        }
        check_register(
            r#"{"redirect_uris":["https://a.example/cb"],"client_name":null}"#,
            Ok(()),
        );
        check_register("not json", Err(Error::MalformedBody));
        check_register("[]", Err(Error::MalformedBody));
    }

    /// What `tests/e2e/oauth.test.mjs` registered until issue #37 moved it here: https, loopback
    /// http (any port) and app schemes are registered as public clients; script, data, file,
    /// plain http, fragments and user info are refused as `invalid_redirect_uri` (400); no
    /// redirect URIs, or a grant type we don't issue, is `invalid_client_metadata` (400).
    #[test]
    fn the_redirect_uris_a_client_may_register() {
        for uri in [
            "https://app.example/callback",
            "http://127.0.0.1:6274/cb",
            "http://localhost:1/cb",
            "cursor://anysphere.cursor-retrieval/oauth/callback",
            "vscode://vscode.github-authentication/did-authenticate",
        ] {
            let body = format!(r#"{{"client_name":"App","redirect_uris":["{uri}"]}}"#);
            let response = read_registration(body.as_bytes())
                .map(|registration| registration_response(&registration.record("lfd_x".into(), 1)))
                .unwrap_or_else(|error| panic!("{uri}: {error:?}"));
            assert_eq!(response["redirect_uris"], json!([uri]), "{uri}");
            assert_eq!(response["token_endpoint_auth_method"], "none", "{uri}");
            assert!(response.get("client_secret").is_none(), "{uri}");
        }
        for uri in [
            "javascript:alert(1)",
            "data:text/html,x",
            "https://app.example/cb#frag",
            "http://app.example/cb",
            "file:///etc/passwd",
            "https://user:pw@app.example/cb",
        ] {
            let body = format!(r#"{{"redirect_uris":["{uri}"]}}"#);
            let error = read_registration(body.as_bytes()).err();
            assert_eq!(
                error.as_ref().map(|e| (e.code(), e.status())),
                Some(("invalid_redirect_uri", 400)),
                "{uri}: {error:?}"
            );
        }
        for body in [
            r#"{"client_name":"No redirects"}"#,
            r#"{"redirect_uris":["https://a.example/cb"],"grant_types":["client_credentials"]}"#,
        ] {
            let error = read_registration(body.as_bytes()).err();
            assert_eq!(
                error.as_ref().map(|e| (e.code(), e.status())),
                Some(("invalid_client_metadata", 400)),
                "{body}"
            );
        }
    }

    /// What `tests/e2e/security.test.mjs` registered until issue #37 moved it here (issues 14
    /// and 31): names with format or control characters, and names with nothing visible, are
    /// refused with descriptions that say so; a name with letters among invisible ones is fine.
    #[test]
    fn client_names_that_hide_or_show_nothing_are_refused() {
        let register = |name: &str| {
            let body = serde_json::json!({
                "client_name": name,
                "redirect_uris": ["http://127.0.0.1:33418/callback"],
            })
            .to_string();
            read_registration(body.as_bytes())
                .map(|_| ())
                .map_err(|error| (error.code(), error.status(), error.description()))
        };
        for name in [
            "Claude Code \u{202E}gnp.exe\u{202C} \u{200B}",
            "A\u{2066}B\u{2069}",
            "Tab\tName",
            "BOM\u{FEFF}",
        ] {
            let refused = register(name);
            assert!(
                matches!(&refused, Err(("invalid_client_metadata", 400, text)) if text.contains("no control or format characters")),
                "{name:?}: {refused:?}"
            );
        }
        for name in [
            "",
            " ",
            "   ",
            "\u{3000}",
            "\u{3164}",
            "\u{2800}",
            "\u{115F}\u{1160}",
            "\u{034F}",
            " \u{FE0F} ",
            "\u{00A0}\u{2007}",
        ] {
            let refused = register(name);
            assert!(
                matches!(&refused, Err(("invalid_client_metadata", 400, text)) if text.contains("client_name must have at least one visible character")),
                "{name:?}: {refused:?}"
            );
        }
        assert_eq!(register(" \u{3164} Zed \u{2800}"), Ok(()));
        assert_eq!(register("مرحبا App"), Ok(()));
        let unnamed = br#"{"redirect_uris":["http://127.0.0.1:33418/callback"]}"#;
        assert!(read_registration(unnamed).is_ok());
    }

    #[test]
    fn registration_response_is_public_client() {
        let record =
            read_registration(br#"{"redirect_uris":["https://a.example/cb"],"client_name":"A"}"#)
                .map(|registration| registration.record("lfd_1".into(), 7));
        let response = record
            .map(|r| registration_response(&r))
            .unwrap_or_default();
        assert_eq!(response["client_id"], "lfd_1");
        assert_eq!(response["token_endpoint_auth_method"], "none");
        assert_eq!(response["client_name"], "A");
        assert_eq!(response["client_id_issued_at"], 7);
        assert!(response.get("client_secret").is_none());
    }

    #[test]
    fn metadata_document_urls() {
        for (url, loopback, expected) in [
            ("https://app.example/oauth/client.json", false, true),
            ("https://app.example/client", false, true),
            ("https://app.example/", false, false),
            ("https://app.example", false, false),
            ("http://app.example/client.json", false, false),
            ("https://app.example/a/../client.json", false, false),
            ("https://app.example/client.json#x", false, false),
            ("https://user@app.example/client.json", false, false),
            ("https://127.0.0.1/client.json", false, false),
            ("https://localhost/client.json", false, false),
            ("https://APP.example/client.json", false, false),
            ("http://127.0.0.1:4000/client.json", false, false),
            ("http://127.0.0.1:4000/client.json", true, true),
            ("lfd_abc", false, false),
            // Internal-looking hosts are refused before any fetch.
            ("https://localhost.:8799/client.json", false, false),
            ("https://localhost./client.json", false, false),
            ("https://app.example./client.json", false, false),
            ("https://x.localhost/client.json", false, false),
            ("https://intranet/client.json", false, false),
            (
                "https://metadata.google.internal/computeMetadata/v1/",
                false,
                false,
            ),
            ("https://db.internal/client.json", false, false),
            ("https://printer.local/client.json", false, false),
            ("https://router.lan/client.json", false, false),
            ("https://nas.home.arpa/client.json", false, false),
            ("https://1.0.0.127.in-addr.arpa/client.json", false, false),
            ("https://app.test/client.json", false, false),
            ("https://0x7f.0.0.1/client.json", false, false),
            ("https://2130706433/client.json", false, false),
            ("https://[::1]/client.json", false, false),
            (
                "https://claude.ai/oauth/mcp-oauth-client-metadata",
                false,
                true,
            ),
            ("https://app.example.co.uk/client.json", false, true),
        ] {
            assert_eq!(is_metadata_document_url(url, loopback), expected, "{url}");
        }
    }

    fn check_document(body: &str, expected: Result<(), DocumentProblem>) {
        let url = "https://app.example/client.json";
        assert_eq!(
            parse_metadata_document(url, body.as_bytes(), 1).map(|_| ()),
            expected,
            "{body}"
        );
    }

    #[test]
    fn metadata_documents() {
        check_document(
            r#"{"client_id":"https://app.example/client.json","client_name":"App","redirect_uris":["http://127.0.0.1/cb"]}"#,
            Ok(()),
        );
        check_document(
            r#"{"client_id":"https://app.example/client.json/","client_name":"App","redirect_uris":["http://127.0.0.1/cb"]}"#,
            Err(DocumentProblem::ClientIdMismatch),
        );
        check_document(
            r#"{"client_id":"https://app.example/client.json","client_name":" \u3164 ","redirect_uris":["http://127.0.0.1/cb"]}"#,
            Err(DocumentProblem::MissingField("client_name")),
        );
        check_document(
            r#"{"client_name":"App","redirect_uris":["http://127.0.0.1/cb"]}"#,
            Err(DocumentProblem::MissingField("client_id")),
        );
        check_document(
            r#"{"client_id":"https://app.example/client.json","redirect_uris":["http://127.0.0.1/cb"]}"#,
            Err(DocumentProblem::MissingField("client_name")),
        );
        check_document(
            r#"{"client_id":"https://app.example/client.json","client_name":"App","redirect_uris":[]}"#,
            Err(DocumentProblem::MissingField("redirect_uris")),
        );
        check_document(
            r#"{"client_id":"https://app.example/client.json","client_name":"App","redirect_uris":["data:x"]}"#,
            Err(DocumentProblem::RedirectUri(
                RedirectUriError::ForbiddenScheme,
            )),
        );
        check_document("<html>", Err(DocumentProblem::NotJson));
        check_document(
            &" ".repeat(MAX_DOCUMENT_BYTES + 1),
            Err(DocumentProblem::TooLarge),
        );
        let record = parse_metadata_document(
            "https://app.example/client.json",
            br#"{"client_id":"https://app.example/client.json","client_name":"App","redirect_uris":["http://127.0.0.1/cb"]}"#,
            1,
        );
        assert_eq!(
            record.map(|r| r.verified_domain().map(str::to_string)),
            Ok(Some("app.example".into()))
        );
    }
}
