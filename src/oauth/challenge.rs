//! The `WWW-Authenticate` challenge and protected-resource metadata for `/mcp`.
//!
//! MCP authorization (2025-06-18 onward) has clients discover the authorization server from a
//! 401's `resource_metadata` parameter (RFC 9728 §5.1), so every unauthenticated `/mcp` answer
//! carries it, with the scope the tools need.

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
    let body = json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": -32001, "message": message },
    });
    HttpReply::json(401, &body).with_header("www-authenticate", challenge)
}

/// RFC 9728 protected-resource metadata for `{base_url}/mcp`.
pub fn resource_metadata(base_url: &str) -> Value {
    json!({
        "resource": format!("{base_url}/mcp"),
        "authorization_servers": [base_url],
        "scopes_supported": [SCOPE],
        "bearer_methods_supported": ["header"],
        "resource_name": "LogiKFlow",
        "resource_documentation": format!("{base_url}/"),
    })
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
    fn metadata_names_the_resource() {
        let metadata = resource_metadata("http://127.0.0.1:8787");
        assert_eq!(metadata["resource"], "http://127.0.0.1:8787/mcp");
        assert_eq!(metadata["scopes_supported"][0], "reviews");
    }
}
