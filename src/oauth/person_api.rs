//! The JSON messages between the Worker and a person's Durable Object (`store::PersonStore`).
//!
//! Why: one typed definition used on both sides of the `fetch` keeps them from drifting, and
//! round-trip tests catch a renamed field natively. Enums use serde's default external tagging.
//! Each operation is one POST to `https://person/<op>` with one of these bodies.
//! What not: no behaviour; `grants` decides, `store::person` carries it out.

use serde::{Deserialize, Serialize};

use super::authorize::AuthorizationRequest;
use super::error::GrantError;
use super::github_flow::GitHubTokens;
use super::tokens::PersonId;

pub const BEGIN: &str = "/begin";
pub const CONSENT: &str = "/consent";
pub const TOKEN: &str = "/token";
pub const REFRESH: &str = "/refresh";
pub const REVOKE: &str = "/revoke";
pub const CHECK: &str = "/check";
pub const ADDRESS: &str = "/address";
pub const SETTINGS: &str = "/settings";
pub const DISCONNECT: &str = "/disconnect";
pub const CREATE_API_TOKEN: &str = "/api-token/create";
pub const REVOKE_API_TOKEN: &str = "/api-token/revoke";

/// After GitHub sign-in: store the GitHub token, then either issue a code at once (consent was
/// given before for this client and redirect URI) or hold a pending consent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BeginRequest {
    pub person: PersonId,
    pub login: String,
    pub github: GitHubTokens,
    pub request: AuthorizationRequest,
    /// SHA-256 of the consent form's CSRF token.
    pub csrf_hash: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BeginReply {
    /// Remembered consent: redirect with this code.
    Code { code: String },
    /// Show the consent page for this pending consent.
    Consent { consent_id: String },
}

/// The consent form's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsentRequest {
    pub consent_id: String,
    pub csrf: String,
    pub approve: bool,
    pub may_write: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConsentReply {
    Approved {
        code: String,
        request: AuthorizationRequest,
    },
    Denied {
        request: AuthorizationRequest,
    },
    /// No such pending consent, too old, or the CSRF token is not the one it was issued with.
    Expired,
}

/// `grant_type=authorization_code`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeTokenRequest {
    pub code: String,
    pub client_id: String,
    pub redirect_uri: Option<String>,
    pub code_verifier: String,
    pub resource: Option<String>,
    pub access_ttl_seconds: u64,
}

/// `grant_type=refresh_token`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefreshTokenRequest {
    pub refresh_token: String,
    pub client_id: Option<String>,
    pub resource: Option<String>,
    pub access_ttl_seconds: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenReply {
    Issued {
        access_token: String,
        refresh_token: String,
        expires_in: u64,
    },
    Refused {
        error: GrantError,
    },
}

/// RFC 7009 revocation of an access or refresh token (either ends its grant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevokeRequest {
    pub token: String,
    pub client_id: Option<String>,
}

/// A bearer token on `/mcp`: check it and count it against the person's limit in one hop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckRequest {
    pub token: String,
    pub limit_per_minute: u32,
    /// A review page's request (issue 36): counted in the person's web window, apart from
    /// MCP's, and not at all when `limit_per_minute` is 0 (a read; `rate_limit::web_limit`).
    #[serde(default)]
    pub web: bool,
    /// The resource this request was sent to (`{base_url}/mcp`): an OAuth token is accepted
    /// only there, the resource it was issued for (RFC 8707).
    pub resource: String,
}

#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckReply {
    Allowed {
        person: String,
        login: String,
        github_token: String,
        may_write: bool,
        client_name: String,
    },
    Invalid,
    Limited {
        retry_after_seconds: u64,
    },
}

impl std::fmt::Debug for CheckReply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckReply::Allowed {
                person, may_write, ..
            } => f
                .debug_struct("Allowed")
                .field("person", person)
                .field("may_write", may_write)
                .finish_non_exhaustive(),
            CheckReply::Invalid => f.write_str("Invalid"),
            CheckReply::Limited {
                retry_after_seconds,
            } => f
                .debug_struct("Limited")
                .field("retry_after_seconds", retry_after_seconds)
                .finish(),
        }
    }
}

/// One request to a rate-limited OAuth endpoint from the address this object is named after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressRequest {
    pub limit_per_minute: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AddressReply {
    Allowed,
    Limited { retry_after_seconds: u64 },
}

/// What `/settings` lists. `current_token` is the web session's access token, so its grant is
/// marked as this browser's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsRequest {
    pub current_token: Option<String>,
}

/// One connected app (a grant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectedApp {
    pub grant_id: String,
    pub client_name: String,
    pub may_write: bool,
    pub created_at: u64,
    pub last_used_at: u64,
    /// The grant behind the browser session that asked.
    pub current: bool,
}

/// One API token, without its secret (only its hash is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiTokenInfo {
    pub id: String,
    pub name: String,
    pub may_write: bool,
    pub created_at: u64,
    /// 0 when never used.
    pub last_used_at: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SettingsReply {
    pub apps: Vec<ConnectedApp>,
    pub tokens: Vec<ApiTokenInfo>,
}

/// Disconnect: revoke one grant at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisconnectRequest {
    pub grant_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateApiTokenRequest {
    pub person: PersonId,
    pub name: String,
    pub may_write: bool,
}

/// The new token, shown once; only its hash is kept.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateApiTokenReply {
    pub id: String,
    pub token: String,
}

impl std::fmt::Debug for CreateApiTokenReply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateApiTokenReply")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevokeApiTokenRequest {
    pub id: String,
}

/// Whether a `Disconnect` or revoke found what it named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Removed {
    pub removed: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Serialize + serde::de::DeserializeOwned>(value: &T) -> T {
        let text = serde_json::to_string(value).unwrap_or_default();
        crate::json::decode(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    #[test]
    fn replies_round_trip() {
        for reply in [
            TokenReply::Issued {
                access_token: "a".into(),
                refresh_token: "r".into(),
                expires_in: 3600,
            },
            TokenReply::Refused {
                error: GrantError::RefreshReplayed,
            },
        ] {
            assert_eq!(round_trip(&reply), reply);
        }
        assert_eq!(
            serde_json::to_value(TokenReply::Refused {
                error: GrantError::CodeReused
            })
            .unwrap_or_default(),
            serde_json::json!({ "refused": { "error": "code_reused" } })
        );
        for reply in [
            CheckReply::Invalid,
            CheckReply::Limited {
                retry_after_seconds: 5,
            },
            CheckReply::Allowed {
                person: "gh:1".into(),
                login: "octo".into(),
                github_token: "gho_secret".into(),
                may_write: false,
                client_name: "App".into(),
            },
        ] {
            assert_eq!(round_trip(&reply), reply);
            assert!(!format!("{reply:?}").contains("gho_secret"));
        }
        assert_eq!(
            round_trip(&BeginReply::Code { code: "c".into() }),
            BeginReply::Code { code: "c".into() }
        );
        assert_eq!(round_trip(&ConsentReply::Expired), ConsentReply::Expired);
        let settings = SettingsReply {
            apps: vec![ConnectedApp {
                grant_id: "g".into(),
                client_name: "App".into(),
                may_write: true,
                created_at: 1,
                last_used_at: 2,
                current: false,
            }],
            tokens: vec![ApiTokenInfo {
                id: "t".into(),
                name: "CI".into(),
                may_write: false,
                created_at: 1,
                last_used_at: 0,
            }],
        };
        assert_eq!(round_trip(&settings), settings);
        let created = CreateApiTokenReply {
            id: "t".into(),
            token: "lfk_1_secret".into(),
        };
        assert_eq!(round_trip(&created), created);
        assert!(!format!("{created:?}").contains("secret"));
        assert_eq!(
            round_trip(&AddressReply::Limited {
                retry_after_seconds: 2
            }),
            AddressReply::Limited {
                retry_after_seconds: 2
            }
        );
    }
}
