//! The JSON messages between the Worker and a person's Durable Object (`store::PersonStore`).
//!
//! Why: one typed definition used on both sides of the `fetch` keeps them from drifting, and
//! round-trip tests catch a renamed field natively. Enums use serde's default external tagging:
//! internally tagged enums buffer through `Content` and cost ~30 KB of wasm. Each operation is one POST to
//! `https://person/<op>` with one of these bodies.
//! What not: no behaviour; `grants` decides, `store::person` carries it out.

use serde::Serialize;
use serde_json::Value;

use crate::json::{unknown_variant, variant, DecodeError, Fields, FromJson};

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BeginRequest {
    pub person: PersonId,
    pub login: String,
    pub github: GitHubTokens,
    pub request: AuthorizationRequest,
    /// SHA-256 of the consent form's CSRF token.
    pub csrf_hash: String,
}

impl FromJson for BeginRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(BeginRequest {
            person: f.required("person")?,
            login: f.required("login")?,
            github: f.required("github")?,
            request: f.required("request")?,
            csrf_hash: f.required("csrf_hash")?,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BeginReply {
    /// Remembered consent: redirect with this code.
    Code { code: String },
    /// Show the consent page for this pending consent.
    Consent { consent_id: String },
}

impl FromJson for BeginReply {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let (name, content) = variant(value)?;
        match name.as_str() {
            "code" => Ok(BeginReply::Code {
                code: Fields::of(content)?.required("code")?,
            }),
            "consent" => Ok(BeginReply::Consent {
                consent_id: Fields::of(content)?.required("consent_id")?,
            }),
            other => Err(unknown_variant(other)),
        }
    }
}

/// The consent form's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConsentRequest {
    pub consent_id: String,
    pub csrf: String,
    pub approve: bool,
    pub may_write: bool,
}

impl FromJson for ConsentRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(ConsentRequest {
            consent_id: f.required("consent_id")?,
            csrf: f.required("csrf")?,
            approve: f.required("approve")?,
            may_write: f.required("may_write")?,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

impl FromJson for ConsentReply {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let (name, content) = variant(value)?;
        match name.as_str() {
            "approved" => {
                let mut f = Fields::of(content)?;
                Ok(ConsentReply::Approved {
                    code: f.required("code")?,
                    request: f.required("request")?,
                })
            }
            "denied" => Ok(ConsentReply::Denied {
                request: Fields::of(content)?.required("request")?,
            }),
            "expired" => Ok(ConsentReply::Expired),
            other => Err(unknown_variant(other)),
        }
    }
}

/// `grant_type=authorization_code`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CodeTokenRequest {
    pub code: String,
    pub client_id: String,
    pub redirect_uri: Option<String>,
    pub code_verifier: String,
    pub resource: Option<String>,
    pub access_ttl_seconds: u64,
}

impl FromJson for CodeTokenRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(CodeTokenRequest {
            code: f.required("code")?,
            client_id: f.required("client_id")?,
            redirect_uri: f.optional("redirect_uri")?,
            code_verifier: f.required("code_verifier")?,
            resource: f.optional("resource")?,
            access_ttl_seconds: f.required("access_ttl_seconds")?,
        })
    }
}

/// `grant_type=refresh_token`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RefreshTokenRequest {
    pub refresh_token: String,
    pub client_id: Option<String>,
    pub resource: Option<String>,
    pub access_ttl_seconds: u64,
}

impl FromJson for RefreshTokenRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(RefreshTokenRequest {
            refresh_token: f.required("refresh_token")?,
            client_id: f.optional("client_id")?,
            resource: f.optional("resource")?,
            access_ttl_seconds: f.required("access_ttl_seconds")?,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

impl FromJson for TokenReply {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let (name, content) = variant(value)?;
        match name.as_str() {
            "issued" => {
                let mut f = Fields::of(content)?;
                Ok(TokenReply::Issued {
                    access_token: f.required("access_token")?,
                    refresh_token: f.required("refresh_token")?,
                    expires_in: f.required("expires_in")?,
                })
            }
            "refused" => Ok(TokenReply::Refused {
                error: Fields::of(content)?.required("error")?,
            }),
            other => Err(unknown_variant(other)),
        }
    }
}

/// RFC 7009 revocation of an access or refresh token (either ends its grant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RevokeRequest {
    pub token: String,
    pub client_id: Option<String>,
}

impl FromJson for RevokeRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(RevokeRequest {
            token: f.required("token")?,
            client_id: f.optional("client_id")?,
        })
    }
}

/// A bearer token on `/mcp`: check it and count it against the person's limit in one hop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckRequest {
    pub token: String,
    pub limit_per_minute: u32,
    /// The resource this request was sent to (`{base_url}/mcp`): an OAuth token is accepted
    /// only there, the resource it was issued for (RFC 8707).
    pub resource: String,
}

impl FromJson for CheckRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(CheckRequest {
            token: f.required("token")?,
            limit_per_minute: f.required("limit_per_minute")?,
            resource: f.required("resource")?,
        })
    }
}

#[derive(Clone, PartialEq, Eq, Serialize)]
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

impl FromJson for CheckReply {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let (name, content) = variant(value)?;
        match name.as_str() {
            "allowed" => {
                let mut f = Fields::of(content)?;
                Ok(CheckReply::Allowed {
                    person: f.required("person")?,
                    login: f.required("login")?,
                    github_token: f.required("github_token")?,
                    may_write: f.required("may_write")?,
                    client_name: f.required("client_name")?,
                })
            }
            "invalid" => Ok(CheckReply::Invalid),
            "limited" => Ok(CheckReply::Limited {
                retry_after_seconds: Fields::of(content)?.required("retry_after_seconds")?,
            }),
            other => Err(unknown_variant(other)),
        }
    }
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AddressRequest {
    pub limit_per_minute: u32,
}

impl FromJson for AddressRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(AddressRequest {
            limit_per_minute: f.required("limit_per_minute")?,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AddressReply {
    Allowed,
    Limited { retry_after_seconds: u64 },
}

impl FromJson for AddressReply {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let (name, content) = variant(value)?;
        match name.as_str() {
            "allowed" => Ok(AddressReply::Allowed),
            "limited" => Ok(AddressReply::Limited {
                retry_after_seconds: Fields::of(content)?.required("retry_after_seconds")?,
            }),
            other => Err(unknown_variant(other)),
        }
    }
}

/// What `/settings` lists. `current_token` is the web session's access token, so its grant is
/// marked as this browser's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettingsRequest {
    pub current_token: Option<String>,
}

impl FromJson for SettingsRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(SettingsRequest {
            current_token: f.optional("current_token")?,
        })
    }
}

/// One connected app (a grant).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConnectedApp {
    pub grant_id: String,
    pub client_name: String,
    pub may_write: bool,
    pub created_at: u64,
    pub last_used_at: u64,
    /// The grant behind the browser session that asked.
    pub current: bool,
}

impl FromJson for ConnectedApp {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(ConnectedApp {
            grant_id: f.required("grant_id")?,
            client_name: f.required("client_name")?,
            may_write: f.required("may_write")?,
            created_at: f.required("created_at")?,
            last_used_at: f.required("last_used_at")?,
            current: f.required("current")?,
        })
    }
}

/// One API token, without its secret (only its hash is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiTokenInfo {
    pub id: String,
    pub name: String,
    pub may_write: bool,
    pub created_at: u64,
    /// 0 when never used.
    pub last_used_at: u64,
}

impl FromJson for ApiTokenInfo {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(ApiTokenInfo {
            id: f.required("id")?,
            name: f.required("name")?,
            may_write: f.required("may_write")?,
            created_at: f.required("created_at")?,
            last_used_at: f.required("last_used_at")?,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SettingsReply {
    pub apps: Vec<ConnectedApp>,
    pub tokens: Vec<ApiTokenInfo>,
}

impl FromJson for SettingsReply {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(SettingsReply {
            apps: f.required("apps")?,
            tokens: f.required("tokens")?,
        })
    }
}

/// Disconnect: revoke one grant at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DisconnectRequest {
    pub grant_id: String,
}

impl FromJson for DisconnectRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(DisconnectRequest {
            grant_id: f.required("grant_id")?,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CreateApiTokenRequest {
    pub person: PersonId,
    pub name: String,
    pub may_write: bool,
}

impl FromJson for CreateApiTokenRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(CreateApiTokenRequest {
            person: f.required("person")?,
            name: f.required("name")?,
            may_write: f.required("may_write")?,
        })
    }
}

/// The new token, shown once; only its hash is kept.
#[derive(Clone, PartialEq, Eq, Serialize)]
pub struct CreateApiTokenReply {
    pub id: String,
    pub token: String,
}

impl FromJson for CreateApiTokenReply {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(CreateApiTokenReply {
            id: f.required("id")?,
            token: f.required("token")?,
        })
    }
}

impl std::fmt::Debug for CreateApiTokenReply {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateApiTokenReply")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RevokeApiTokenRequest {
    pub id: String,
}

impl FromJson for RevokeApiTokenRequest {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(RevokeApiTokenRequest {
            id: f.required("id")?,
        })
    }
}

/// Whether a `Disconnect` or revoke found what it named.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Removed {
    pub removed: bool,
}

impl FromJson for Removed {
    fn from_json(value: Value) -> Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(Removed {
            removed: f.required("removed")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Serialize + FromJson>(value: &T) -> T {
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
