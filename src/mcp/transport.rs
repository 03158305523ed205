//! HTTP rules of MCP's Streamable HTTP transport that come before any JSON-RPC is read.
//!
//! The endpoint is stateless and answers with JSON only: POST carries one message; GET (the
//! server-to-client stream) and DELETE (session end) have nothing to do here and get 405. A
//! present `Origin` must be this server's own or on the configured allow-list, which stops DNS
//! rebinding and cross-site requests from browsers (MCP transport spec, "Security Warning").

use serde_json::{json, Value};

use super::jsonrpc::code;
use crate::http::{Headers, HttpReply};

/// Request bodies above this size are refused with 413 before being read.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// What the transport needs to know about a request.
pub struct RequestParts<'a> {
    pub method: &'a str,
    pub headers: &'a Headers,
    /// `scheme://host[:port]` of the URL the request was sent to.
    pub own_origin: &'a str,
    /// Extra origins allowed to call the endpoint from a browser.
    pub allowed_origins: &'a [String],
}

/// The first check, before authentication: a present `Origin` must be this server's own or on
/// the allow-list. `Ok` carries an allowed foreign origin, whose replies need CORS headers
/// ([`allow_cross_origin`]). A CORS preflight (`OPTIONS`) is answered here, because browsers
/// send it without credentials. `Err` is the reply to send.
pub fn check_origin(parts: &RequestParts<'_>) -> Result<Option<String>, HttpReply> {
    let cross_origin = match parts.headers.get("origin") {
        None => None,
        Some(origin) if !origin_allowed(origin, parts.own_origin, parts.allowed_origins) => {
            return Err(error_reply(
                403,
                code::SERVER_ERROR,
                &format!("Forbidden: requests from origin {origin} are not allowed"),
            ));
        }
        Some(origin) => {
            let origin = origin.trim().trim_end_matches('/');
            (!origin.eq_ignore_ascii_case(parts.own_origin)).then(|| origin.to_string())
        }
    };
    if parts.method == "OPTIONS" {
        let reply = HttpReply::empty(204).with_header("allow", "POST, OPTIONS");
        return Err(match &cross_origin {
            Some(origin) => allow_cross_origin(reply, origin)
                .with_header("access-control-allow-methods", "POST, OPTIONS")
                .with_header("access-control-allow-headers", ALLOWED_REQUEST_HEADERS)
                .with_header("access-control-max-age", "86400"),
            None => reply,
        });
    }
    Ok(cross_origin)
}

/// Request headers a browser client on an allowed origin may send.
const ALLOWED_REQUEST_HEADERS: &str = "authorization, content-type, accept, mcp-protocol-version, \
     mcp-method, mcp-name, mcp-session-id, last-event-id";

/// CORS headers for a reply to an allowed foreign origin; the challenge and the rate limit's
/// wait are exposed so a browser client can act on them.
pub fn allow_cross_origin(reply: HttpReply, origin: &str) -> HttpReply {
    reply
        .with_header("access-control-allow-origin", origin)
        .with_header(
            "access-control-expose-headers",
            "www-authenticate, retry-after",
        )
        .with_header("vary", "origin")
}

/// The second check, once the caller is known (so an anonymous request gets the 401 challenge
/// first, as the spec asks): the HTTP method, the media type and the declared size.
pub fn check_message(parts: &RequestParts<'_>) -> Result<(), HttpReply> {
    if parts.method != "POST" {
        return Err(error_reply(
            405,
            code::SERVER_ERROR,
            "Method not allowed: this endpoint is stateless and answers POST only",
        )
        .with_header("allow", "POST"));
    }
    if let Some(content_type) = parts.headers.get("content-type") {
        let media = content_type.split(';').next().unwrap_or("").trim();
        if !media.eq_ignore_ascii_case("application/json") {
            return Err(error_reply(
                415,
                code::INVALID_REQUEST,
                &format!("Unsupported media type {media}: send application/json"),
            ));
        }
    }
    let declared = parts
        .headers
        .get("content-length")
        .and_then(|length| length.trim().parse::<usize>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES) {
        return Err(too_large());
    }
    Ok(())
}

/// The reply for a body over [`MAX_BODY_BYTES`], also used once the body is read.
pub fn too_large() -> HttpReply {
    error_reply(
        413,
        code::INVALID_REQUEST,
        "Request body too large: the limit is 1 MiB",
    )
}

fn origin_allowed(origin: &str, own_origin: &str, allowed: &[String]) -> bool {
    let origin = origin.trim().trim_end_matches('/');
    origin.eq_ignore_ascii_case(own_origin)
        || allowed
            .iter()
            .any(|allowed| origin.eq_ignore_ascii_case(allowed.trim().trim_end_matches('/')))
}

/// `reply`, a refusal made before the body was read (401, 429, 503), with the id of the request
/// in `body` put in place of its null id, so the client can match the error to its request. A
/// body that is not one JSON-RPC request leaves the reply as it is.
pub fn with_request_id(mut reply: HttpReply, body: &[u8]) -> HttpReply {
    let id = match crate::json::value(body) {
        Some(Value::Object(mut message)) => message.remove("id"),
        _ => None,
    };
    let Some(id @ (Value::String(_) | Value::Number(_))) = id else {
        return reply;
    };
    if let Ok(Value::Object(mut answer)) = serde_json::from_str::<Value>(&reply.body) {
        if answer.get("id") == Some(&Value::Null) {
            answer.insert("id".into(), id);
            reply.body = Value::Object(answer).to_string();
        }
    }
    reply
}

/// A JSON-RPC error with a null id, for refusals made before the body is read.
pub fn error_reply(status: u16, error_code: i64, message: &str) -> HttpReply {
    let body: Value = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": error_code, "message": message },
    });
    HttpReply::json(status, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(method: &str, headers: &[(&str, &str)], expected_status: Option<u16>) {
        let headers = Headers::new(headers.iter().copied());
        let allowed = vec!["https://inspector.example".to_string()];
        let parts = RequestParts {
            method,
            headers: &headers,
            own_origin: "http://127.0.0.1:8787",
            allowed_origins: &allowed,
        };
        let got = check_origin(&parts)
            .and_then(|_| check_message(&parts))
            .err()
            .map(|reply| reply.status);
        assert_eq!(got, expected_status, "{method} {headers:?}");
    }

    #[test]
    fn methods() {
        check("POST", &[], None);
        check("GET", &[], Some(405));
        check("DELETE", &[], Some(405));
        check("PUT", &[], Some(405));
        check("OPTIONS", &[], Some(204));
    }

    #[test]
    fn origins() {
        check("POST", &[("origin", "http://127.0.0.1:8787")], None);
        check("POST", &[("origin", "https://inspector.example")], None);
        check("POST", &[("origin", "http://evil.example.com")], Some(403));
        check("POST", &[("origin", "http://127.0.0.1:9999")], Some(403));
        check("POST", &[("origin", "null")], Some(403));
        // An origin check comes before the method check: a hostile GET is a 403, not a 405.
        check("GET", &[("origin", "http://evil.example.com")], Some(403));
    }

    #[test]
    fn sizes_and_types() {
        check("POST", &[("content-length", "1048576")], None);
        check("POST", &[("content-length", "1048577")], Some(413));
        check(
            "POST",
            &[("content-type", "application/json; charset=utf-8")],
            None,
        );
        check("POST", &[("content-type", "text/plain")], Some(415));
    }

    #[test]
    fn refusals_made_before_the_body_get_its_id() {
        let refusal = || error_reply(401, code::SERVER_ERROR, "Unauthorized");
        let id_of = |reply: HttpReply| {
            serde_json::from_str::<Value>(&reply.body).unwrap_or_default()["id"].clone()
        };
        let body = br#"{"jsonrpc":"2.0","id":"abc","method":"tools/list"}"#;
        assert_eq!(id_of(with_request_id(refusal(), body)), json!("abc"));
        assert_eq!(id_of(with_request_id(refusal(), br#"{"id":7}"#)), json!(7));
        for unusable in [
            &b""[..],
            b"{",
            br#"[{"id":1}]"#,
            br#"{"id":{"x":1}}"#,
            br#"{"method":"x"}"#,
        ] {
            assert_eq!(id_of(with_request_id(refusal(), unusable)), Value::Null);
        }
        let kept = with_request_id(refusal().with_header("www-authenticate", "Bearer"), body);
        assert_eq!(kept.status, 401);
        assert_eq!(kept.header("www-authenticate"), Some("Bearer"));
    }

    #[test]
    fn too_large_says_the_limit() {
        let reply = too_large();
        assert_eq!(reply.status, 413);
        let body: Value = serde_json::from_str(&reply.body).unwrap_or_default();
        assert_eq!(
            body["error"]["message"],
            "Request body too large: the limit is 1 MiB"
        );
    }

    #[test]
    fn method_not_allowed_names_post() {
        let headers = Headers::default();
        let parts = RequestParts {
            method: "GET",
            headers: &headers,
            own_origin: "http://localhost:8787",
            allowed_origins: &[],
        };
        let reply = check_message(&parts).unwrap_err();
        assert_eq!(reply.header("allow"), Some("POST"));
    }

    fn origin_check(method: &str, origin: &str) -> Result<Option<String>, HttpReply> {
        let headers = Headers::new([("origin", origin)]);
        let allowed = vec!["https://inspector.example/".to_string()];
        check_origin(&RequestParts {
            method,
            headers: &headers,
            own_origin: "https://logikflow.dev",
            allowed_origins: &allowed,
        })
    }

    #[test]
    fn an_allowed_foreign_origin_gets_cors_and_the_own_origin_does_not() {
        assert_eq!(
            origin_check("POST", "https://inspector.example").unwrap(),
            Some("https://inspector.example".to_string())
        );
        assert_eq!(origin_check("POST", "https://logikflow.dev").unwrap(), None);
        let reply = allow_cross_origin(HttpReply::empty(200), "https://inspector.example");
        assert_eq!(
            reply.header("access-control-allow-origin"),
            Some("https://inspector.example")
        );
        assert_eq!(reply.header("vary"), Some("origin"));
        // A browser client may read the challenge and the rate limit's wait.
        let exposed = reply
            .header("access-control-expose-headers")
            .unwrap_or_default();
        assert!(exposed.contains("www-authenticate"), "{exposed}");
        assert!(exposed.contains("retry-after"), "{exposed}");
    }

    #[test]
    fn a_preflight_is_answered_before_authentication() {
        let reply = origin_check("OPTIONS", "https://inspector.example").unwrap_err();
        assert_eq!(reply.status, 204);
        assert_eq!(
            reply.header("access-control-allow-origin"),
            Some("https://inspector.example")
        );
        let allowed = reply.header("access-control-allow-headers").unwrap();
        for name in ["authorization", "mcp-protocol-version", "content-type"] {
            assert!(allowed.contains(name), "{allowed}");
        }
        // A hostile origin's preflight is refused like its POST, with no CORS header.
        let hostile = origin_check("OPTIONS", "https://evil.example").unwrap_err();
        assert_eq!(hostile.status, 403);
        assert_eq!(hostile.header("access-control-allow-origin"), None);
    }
}
