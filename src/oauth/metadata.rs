//! Authorization server metadata (RFC 8414), served at `/.well-known/oauth-authorization-server`.
//!
//! Why: MCP clients find every endpoint here after the protected-resource metadata points them
//! at this server. `issuer` is the base URL exactly (RFC 8414 §3.3: equal to the URL the document
//! was fetched from, minus the well-known suffix), and it is the `iss` of every authorization
//! response (RFC 9207).
//! What not: the protected-resource metadata lives in `challenge`.

use serde_json::Value;

/// Paths of the authorization server's endpoints (routed by `router::OAuthEndpoint`).
pub const AUTHORIZE_PATH: &str = "/authorize";
pub const CONSENT_PATH: &str = "/authorize/consent";
pub const CALLBACK_PATH: &str = "/oauth/callback";
pub const TOKEN_PATH: &str = "/oauth/token";
pub const REGISTER_PATH: &str = "/oauth/register";
pub const REVOKE_PATH: &str = "/oauth/revoke";
pub const METADATA_PATH: &str = "/.well-known/oauth-authorization-server";

/// The RFC 8414 document for the server at `base_url` (no trailing slash), from
/// `oauth/server-metadata.json` with `{origin}` filled in; the tests check every endpoint against
/// the path constants above.
pub fn authorization_server_metadata(base_url: &str) -> Value {
    crate::json::with_origin(include_str!("server-metadata.json"), base_url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::challenge::SCOPE;
    use serde_json::json;

    #[test]
    fn metadata() {
        let m = authorization_server_metadata("https://logikflow.dev");
        assert_eq!(m["issuer"], "https://logikflow.dev");
        assert_eq!(
            m["authorization_endpoint"],
            "https://logikflow.dev/authorize"
        );
        assert_eq!(m["token_endpoint"], "https://logikflow.dev/oauth/token");
        assert_eq!(
            m["registration_endpoint"],
            "https://logikflow.dev/oauth/register"
        );
        assert_eq!(
            m["revocation_endpoint"],
            "https://logikflow.dev/oauth/revoke"
        );
        assert_eq!(m["code_challenge_methods_supported"], json!(["S256"]));
        assert_eq!(m["scopes_supported"], json!(["reviews"]));
        assert_eq!(m["response_types_supported"], json!(["code"]));
        assert_eq!(m["token_endpoint_auth_methods_supported"], json!(["none"]));
        assert_eq!(m["client_id_metadata_document_supported"], true);
        assert_eq!(m["authorization_response_iss_parameter_supported"], true);
        let base = "https://logikflow.dev";
        for (key, path) in [
            ("authorization_endpoint", AUTHORIZE_PATH),
            ("token_endpoint", TOKEN_PATH),
            ("registration_endpoint", REGISTER_PATH),
            ("revocation_endpoint", REVOKE_PATH),
        ] {
            assert_eq!(m[key], format!("{base}{path}"), "{key}");
        }
        assert_eq!(m["scopes_supported"], json!([SCOPE]));
        assert_eq!(m["service_documentation"], "https://logikflow.dev/");
        assert_eq!(m.as_object().map(|o| o.len()), Some(15));
    }
}
