//! The `WWW-Authenticate` challenge and protected-resource metadata for `/mcp`.
//!
//! MCP authorization (2025-06-18 onward) has clients discover the authorization server from a
//! 401's `resource_metadata` parameter (RFC 9728 §5.1), so every unauthenticated `/mcp` answer
//! carries it, with the scope the tools need.

use crate::mcp::jsonrpc::RpcError;
use serde_json::{json, Value};

use crate::http::HttpReply;

/// The one OAuth scope: read pull requests and saved orders, and (when granted) save them.
pub const SCOPE: &str = "reviews";

/// Why a request to `/mcp` was not let in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// No bearer token at all.
    MissingToken,
    /// A token we did not issue, or one that expired or was revoked.
    InvalidToken,
}

/// The path of the protected-resource metadata for `/mcp` (RFC 9728 §3.1, path-suffixed form).
pub const RESOURCE_METADATA_PATH: &str = "/.well-known/oauth-protected-resource/mcp";

/// A 401 with the challenge that tells a client where to start OAuth.
pub fn unauthorized(base_url: &str, refusal: Refusal) -> HttpReply {
    let metadata = format!("{base_url}{RESOURCE_METADATA_PATH}");
    let (challenge, message) = match refusal {
        Refusal::MissingToken => (
            format!(r#"Bearer resource_metadata="{metadata}", scope="{SCOPE}""#),
            "Authorization required: connect through OAuth (the WWW-Authenticate header says where)",
        ),
        Refusal::InvalidToken => (
            format!(
                r#"Bearer error="invalid_token", error_description="The access token expired or was revoked", resource_metadata="{metadata}", scope="{SCOPE}""#
            ),
            "The access token expired or was revoked: refresh it or connect again",
        ),
    };
    let body = RpcError::new(Value::Null, -32001, message).to_json();
    HttpReply::json(401, &body).with_header("www-authenticate", challenge)
}

/// The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1; the scheme is
/// case-insensitive). `None` for other schemes or an empty token.
pub fn bearer_token(authorization: &str) -> Option<&str> {
    let (scheme, token) = authorization.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() && !token.contains(' '))
        .then_some(token)
}

/// JSON-RPC error code of a request refused by the per-person rate limit (server-defined range).
pub const RATE_LIMITED_CODE: i64 = -32029;
/// JSON-RPC error code of a save refused because the grant is read-only.
pub const INSUFFICIENT_SCOPE_CODE: i64 = -32003;

/// HTTP 429 for a person over their per-minute limit, with `Retry-After` (RFC 9110 §10.2.3) and
/// a JSON-RPC error that says when to retry. The request's id is not known at this point.
pub fn rate_limited_reply(retry_after_seconds: u64) -> HttpReply {
    let seconds = retry_after_seconds.max(1);
    let unit = if seconds == 1 { "second" } else { "seconds" };
    let message = format!("Too many requests for this account: retry in {seconds} {unit}");
    let body = RpcError::new(Value::Null, RATE_LIMITED_CODE, message)
        .with_data(json!({ "retryAfterSeconds": seconds }))
        .to_json();
    HttpReply::json(429, &body).with_header("retry-after", seconds.to_string())
}

/// HTTP 403 for a save tool called with a read-only grant (RFC 6750 §3.1 `insufficient_scope`;
/// MCP's scope challenge). `id` is the JSON-RPC request's id.
pub fn insufficient_scope_reply(base_url: &str, id: &Value) -> HttpReply {
    let metadata = format!("{base_url}{RESOURCE_METADATA_PATH}");
    let challenge = format!(
        r#"Bearer error="insufficient_scope", scope="{SCOPE}", resource_metadata="{metadata}", error_description="Saving reading orders and diagrams was not granted""#
    );
    let body = RpcError::new(
        id.clone(),
        INSUFFICIENT_SCOPE_CODE,
        "This connection may only read: saving reading orders and diagrams was not granted. Reconnect LogiKFlow and keep \"Save reading orders and diagrams\" ticked",
    )
    .to_json();
    HttpReply::json(403, &body).with_header("www-authenticate", challenge)
}

/// HTTP 503 when the person's object (token check) cannot be reached: the client should retry.
pub fn unavailable_reply() -> HttpReply {
    let body = RpcError::new(
        Value::Null,
        -32603,
        "Sign-in storage is unavailable right now: retry in a few seconds",
    )
    .to_json();
    HttpReply::json(503, &body).with_header("retry-after", "5")
}

/// RFC 9728 protected-resource metadata for `{base_url}/mcp`.
pub fn resource_metadata(base_url: &str) -> Value {
    // `oauth/resource-metadata.json` with `{origin}` filled in; `SCOPE` is checked by the tests.
    crate::json::with_origin(include_str!("resource-metadata.json"), base_url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_token_points_at_metadata() {
        let reply = unauthorized("https://logikflow.dev", Refusal::MissingToken);
        assert_eq!(reply.status, 401);
        assert_eq!(
            reply.header("www-authenticate"),
            Some(
                r#"Bearer resource_metadata="https://logikflow.dev/.well-known/oauth-protected-resource/mcp", scope="reviews""#
            )
        );
    }

    #[test]
    fn invalid_token_says_so() {
        let reply = unauthorized("https://logikflow.dev", Refusal::InvalidToken);
        let challenge = reply.header("www-authenticate").unwrap_or_default();
        assert!(challenge.starts_with(r#"Bearer error="invalid_token""#));
        assert!(challenge.contains("resource_metadata="));
    }

    #[test]
    fn bearer_tokens() {
        assert_eq!(bearer_token("Bearer lfa_1_x"), Some("lfa_1_x"));
        assert_eq!(bearer_token("bearer  lfa_1_x "), Some("lfa_1_x"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("Bearer a b"), None);
        assert_eq!(bearer_token("lfa_1_x"), None);
    }

    #[test]
    fn rate_limited_says_when_to_retry() {
        let reply = rate_limited_reply(17);
        assert_eq!(reply.status, 429);
        assert_eq!(reply.header("retry-after"), Some("17"));
        let body: Value = serde_json::from_str(&reply.body).unwrap_or_default();
        assert_eq!(body["error"]["code"], RATE_LIMITED_CODE);
        assert_eq!(body["error"]["data"]["retryAfterSeconds"], 17);
        assert!(body["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("retry in 17 seconds"));
        assert_eq!(rate_limited_reply(0).header("retry-after"), Some("1"));
    }

    #[test]
    fn insufficient_scope_names_the_scope() {
        let reply = insufficient_scope_reply("https://logikflow.dev", &json!(7));
        assert_eq!(reply.status, 403);
        let challenge = reply.header("www-authenticate").unwrap_or_default();
        assert!(
            challenge.starts_with(r#"Bearer error="insufficient_scope", scope="reviews""#),
            "{challenge}"
        );
        let body: Value = serde_json::from_str(&reply.body).unwrap_or_default();
        assert_eq!(body["id"], 7);
    }

    #[test]
    fn unavailable_asks_for_a_retry() {
        let reply = unavailable_reply();
        assert_eq!(reply.status, 503);
        assert_eq!(reply.header("retry-after"), Some("5"));
    }

    #[test]
    fn metadata_names_the_resource() {
        let metadata = resource_metadata("http://127.0.0.1:8787");
        assert_eq!(metadata["resource"], "http://127.0.0.1:8787/mcp");
        assert_eq!(metadata["scopes_supported"][0], SCOPE);
        assert_eq!(
            metadata["authorization_servers"][0],
            "http://127.0.0.1:8787"
        );
        assert_eq!(metadata["resource_documentation"], "http://127.0.0.1:8787/");
        assert_eq!(metadata["bearer_methods_supported"][0], "header");
        assert_eq!(metadata.as_object().map(|o| o.len()), Some(6));
        // An origin is escaped as JSON string content.
        let odd = resource_metadata("http://a\"b");
        assert_eq!(odd["resource"], "http://a\"b/mcp");
    }
}
