//! The grant and token state machine: what an authorization code, a refresh token or an access
//! token may do at a given moment, and what happens to the grant when one is misused.
//!
//! Why: these are the rules an attacker probes, so they live in one pure place with the clock
//! passed in. The person's Durable Object loads the records, asks here, and carries out the
//! answer in one synchronous step, so rotation and revocation are atomic (DESIGN.md §3).
//!
//! * A code lives ten minutes, is bound to client, redirect URI, PKCE challenge and resource
//!   (RFC 6749 §4.1.3, RFC 7636 §4.6, RFC 8707 §2.2), and is single use: a second exchange
//!   revokes the grant the first one created (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3). Single use
//!   counts every attempt, not only successful ones (issue #31): our clients are all public, so
//!   any exchange that names a code we minted is a redemption attempt, and one that fails (a
//!   wrong verifier, another client, redirect URI or resource, or too late) spends the code. A
//!   failed PKCE check or a code shown by the wrong client is the mark of a stolen code; the
//!   rightful client then starts its authorization again.
//! * Access tokens last an hour by default (configurable for tests).
//! * Refresh tokens rotate on every use; each lives 30 days from its issue and never past 180
//!   days from the grant. Presenting an already rotated one revokes the grant (OAuth 2.1 §4.3.1,
//!   RFC 9700 §4.14.2).
//!
//! What not: no storage, no randomness, no token formats (`tokens`), no HTTP.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::challenge::SCOPE;
use super::error::GrantError;
use super::pkce::CodeChallenge;

/// How long an authorization code may wait for its exchange.
pub const CODE_TTL_SECONDS: u64 = 10 * 60;
/// Default access token lifetime.
pub const ACCESS_TTL_SECONDS: u64 = 60 * 60;
/// A refresh token's lifetime from its issue (each rotation starts a new one).
pub const REFRESH_IDLE_SECONDS: u64 = 30 * 24 * 60 * 60;
/// No refresh token outlives its grant's 180th day.
pub const GRANT_MAX_SECONDS: u64 = 180 * 24 * 60 * 60;
/// How long a consent form stays valid.
pub const CONSENT_TTL_SECONDS: u64 = 10 * 60;

/// An authorization code's bindings, stored under the code's hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeRecord {
    pub client_id: String,
    pub client_name: String,
    /// The redirect URI the authorization request named (or the only registered one).
    pub redirect_uri: String,
    /// Whether the authorization request named it (then the token request must repeat it).
    pub redirect_uri_sent: bool,
    pub code_challenge: CodeChallenge,
    pub resource: String,
    pub may_write: bool,
    pub expires_at: u64,
    /// The grant the first exchange created; `Some` means the code is spent.
    pub grant_id: Option<String>,
}

/// A grant: one client's access for one person, from consent until revoked or expired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrantRecord {
    pub id: String,
    pub client_id: String,
    pub client_name: String,
    pub redirect_uri: String,
    pub resource: String,
    pub may_write: bool,
    pub created_at: u64,
    pub last_used_at: u64,
}

/// A refresh token's row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefreshState {
    pub expires_at: u64,
    /// Already rotated: presenting it again is a replay.
    pub spent: bool,
}

/// The token request's parameters for a code exchange (RFC 6749 §4.1.3).
#[derive(Debug, Clone, Copy)]
pub struct CodeExchange<'a> {
    pub client_id: &'a str,
    pub redirect_uri: Option<&'a str>,
    pub code_verifier: &'a str,
    pub resource: Option<&'a str>,
}

/// What to do with a code exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeDecision {
    /// Create a grant from the code and issue tokens.
    Issue,
    /// No such code: refuse; there is nothing to change.
    Refuse(GrantError),
    /// A failed attempt on an unspent code: delete the code, then refuse.
    Consume(GrantError),
    /// The code was used before: revoke the grant it created, then refuse.
    RevokeGrant { grant_id: String },
}

/// Decides a code exchange. `code` is the record stored under the code's hash, if any. Every
/// refusal of a stored code spends it ([`CodeDecision::Consume`] or, when it already made a
/// grant, [`CodeDecision::RevokeGrant`]), whichever check failed.
pub fn exchange_code(code: Option<&CodeRecord>, request: &CodeExchange, now: u64) -> CodeDecision {
    let Some(code) = code else {
        return CodeDecision::Refuse(GrantError::CodeUnknown);
    };
    let refuse = CodeDecision::Consume;
    if let Some(grant_id) = &code.grant_id {
        return CodeDecision::RevokeGrant {
            grant_id: grant_id.clone(),
        };
    }
    if now >= code.expires_at {
        return refuse(GrantError::CodeExpired);
    }
    if request.client_id != code.client_id {
        return refuse(GrantError::ClientMismatch);
    }
    match request.redirect_uri {
        Some(uri) if uri != code.redirect_uri => return refuse(GrantError::RedirectMismatch),
        None if code.redirect_uri_sent => return refuse(GrantError::RedirectMismatch),
        _ => {}
    }
    if let Some(resource) = request.resource {
        if !resource_matches(&code.resource, resource) {
            return refuse(GrantError::WrongResource);
        }
    }
    match code.code_challenge.verify(request.code_verifier) {
        Ok(()) => CodeDecision::Issue,
        Err(error) => refuse(error),
    }
}

/// The grant a successful exchange creates.
pub fn grant_from_code(code: &CodeRecord, grant_id: String, now: u64) -> GrantRecord {
    GrantRecord {
        id: grant_id,
        client_id: code.client_id.clone(),
        client_name: code.client_name.clone(),
        redirect_uri: code.redirect_uri.clone(),
        resource: code.resource.clone(),
        may_write: code.may_write,
        created_at: now,
        last_used_at: now,
    }
}

/// What to do with a refresh request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefreshDecision {
    /// Spend this refresh token and issue a new pair; the new refresh token expires then.
    Rotate { refresh_expires_at: u64 },
    /// Refuse; nothing changes.
    Refuse(GrantError),
    /// A replayed refresh token: revoke the whole grant, then refuse.
    RevokeGrant,
}

/// Decides a refresh (RFC 6749 §6). `token` and `grant` are the stored rows, if any;
/// `client_id` and `resource` come from the request when it sent them.
pub fn refresh(
    token: Option<RefreshState>,
    grant: Option<&GrantRecord>,
    client_id: Option<&str>,
    resource: Option<&str>,
    now: u64,
) -> RefreshDecision {
    let (Some(token), Some(grant)) = (token, grant) else {
        return RefreshDecision::Refuse(GrantError::RefreshUnknown);
    };
    if token.spent {
        return RefreshDecision::RevokeGrant;
    }
    if now >= token.expires_at {
        return RefreshDecision::Refuse(GrantError::RefreshExpired);
    }
    if client_id.is_some_and(|id| id != grant.client_id) {
        return RefreshDecision::Refuse(GrantError::ClientMismatch);
    }
    if resource.is_some_and(|r| !resource_matches(&grant.resource, r)) {
        return RefreshDecision::Refuse(GrantError::WrongResource);
    }
    let refresh_expires_at = refresh_expiry(grant.created_at, now);
    if refresh_expires_at <= now {
        return RefreshDecision::Refuse(GrantError::RefreshExpired);
    }
    RefreshDecision::Rotate { refresh_expires_at }
}

/// When a refresh token issued `now` for a grant created at `grant_created_at` expires.
pub fn refresh_expiry(grant_created_at: u64, now: u64) -> u64 {
    (now + REFRESH_IDLE_SECONDS).min(grant_created_at + GRANT_MAX_SECONDS)
}

/// Whether an access token is usable: it exists, its grant exists, and it has not expired.
pub fn access_is_valid(expires_at: Option<u64>, grant: Option<&GrantRecord>, now: u64) -> bool {
    matches!((expires_at, grant), (Some(expires_at), Some(_)) if now < expires_at)
}

/// `resource` as a request sent it equals the bound one, tolerating one trailing slash.
pub fn resource_matches(bound: &str, given: &str) -> bool {
    given == bound || given.strip_suffix('/') == Some(bound)
}

/// The successful token response (RFC 6749 §5.1).
pub fn token_response(access_token: &str, refresh_token: &str, expires_in: u64) -> Value {
    json!({
        "access_token": access_token,
        "token_type": "Bearer",
        "expires_in": expires_in,
        "refresh_token": refresh_token,
        "scope": SCOPE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    const RESOURCE: &str = "https://logikflow.dev/mcp";

    fn code() -> CodeRecord {
        CodeRecord {
            client_id: "lfd_app".into(),
            client_name: "App".into(),
            redirect_uri: "http://127.0.0.1:5000/cb".into(),
            redirect_uri_sent: true,
            code_challenge: CodeChallenge::parse(Some(CHALLENGE), Some("S256"))
                .unwrap_or_else(|e| panic!("{e:?}")),
            resource: RESOURCE.into(),
            may_write: true,
            expires_at: 1_000 + CODE_TTL_SECONDS,
            grant_id: None,
        }
    }

    fn exchange() -> CodeExchange<'static> {
        CodeExchange {
            client_id: "lfd_app",
            redirect_uri: Some("http://127.0.0.1:5000/cb"),
            code_verifier: VERIFIER,
            resource: Some(RESOURCE),
        }
    }

    fn check_code(
        record: Option<CodeRecord>,
        request: CodeExchange,
        now: u64,
        expected: CodeDecision,
    ) {
        assert_eq!(
            exchange_code(record.as_ref(), &request, now),
            expected,
            "{request:?}"
        );
    }

    #[test]
    fn code_exchanges() {
        use GrantError::*;
        // Every refusal of a stored code spends it (issue #31); only an unknown one is left as is.
        let refuse = CodeDecision::Consume;
        check_code(Some(code()), exchange(), 1_000, CodeDecision::Issue);
        check_code(None, exchange(), 1_000, CodeDecision::Refuse(CodeUnknown));
        check_code(
            Some(code()),
            exchange(),
            1_000 + CODE_TTL_SECONDS,
            refuse(CodeExpired),
        );
        let spent = CodeRecord {
            grant_id: Some("g1".into()),
            ..code()
        };
        check_code(
            Some(spent.clone()),
            exchange(),
            1_000,
            CodeDecision::RevokeGrant {
                grant_id: "g1".into(),
            },
        );
        // A spent code revokes its grant whatever else is wrong with the attempt, and after
        // its ten minutes too (the row is swept only then).
        for attempt in [
            CodeExchange {
                code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK",
                ..exchange()
            },
            CodeExchange {
                client_id: "lfd_other",
                ..exchange()
            },
            CodeExchange {
                resource: Some("https://other.example/mcp"),
                ..exchange()
            },
        ] {
            check_code(
                Some(spent.clone()),
                attempt,
                1_000 + CODE_TTL_SECONDS,
                CodeDecision::RevokeGrant {
                    grant_id: "g1".into(),
                },
            );
        }
        check_code(
            Some(code()),
            CodeExchange {
                client_id: "lfd_other",
                ..exchange()
            },
            1_000,
            refuse(ClientMismatch),
        );
        check_code(
            Some(code()),
            CodeExchange {
                redirect_uri: Some("http://127.0.0.1:5001/cb"),
                ..exchange()
            },
            1_000,
            refuse(RedirectMismatch),
        );
        check_code(
            Some(code()),
            CodeExchange {
                redirect_uri: None,
                ..exchange()
            },
            1_000,
            refuse(RedirectMismatch),
        );
        check_code(
            Some(CodeRecord {
                redirect_uri_sent: false,
                ..code()
            }),
            CodeExchange {
                redirect_uri: None,
                ..exchange()
            },
            1_000,
            CodeDecision::Issue,
        );
        check_code(
            Some(code()),
            CodeExchange {
                resource: Some("https://other.example/mcp"),
                ..exchange()
            },
            1_000,
            refuse(WrongResource),
        );
        check_code(
            Some(code()),
            CodeExchange {
                resource: Some("https://logikflow.dev/mcp/"),
                ..exchange()
            },
            1_000,
            CodeDecision::Issue,
        );
        check_code(
            Some(code()),
            CodeExchange {
                resource: None,
                ..exchange()
            },
            1_000,
            CodeDecision::Issue,
        );
        check_code(
            Some(code()),
            CodeExchange {
                code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXK",
                ..exchange()
            },
            1_000,
            refuse(PkceMismatch),
        );
        check_code(
            Some(code()),
            CodeExchange {
                code_verifier: "",
                ..exchange()
            },
            1_000,
            refuse(PkceVerifierMalformed),
        );
    }

    fn grant(created_at: u64) -> GrantRecord {
        grant_from_code(&code(), "g1".into(), created_at)
    }

    fn check_refresh(
        token: Option<RefreshState>,
        grant: Option<GrantRecord>,
        client_id: Option<&str>,
        now: u64,
        expected: RefreshDecision,
    ) {
        assert_eq!(
            refresh(token, grant.as_ref(), client_id, None, now),
            expected,
            "{token:?} at {now}"
        );
    }

    #[test]
    fn refreshes() {
        use GrantError::*;
        let live = RefreshState {
            expires_at: 10_000,
            spent: false,
        };
        check_refresh(
            Some(live),
            Some(grant(0)),
            Some("lfd_app"),
            5_000,
            RefreshDecision::Rotate {
                refresh_expires_at: 5_000 + REFRESH_IDLE_SECONDS,
            },
        );
        check_refresh(
            Some(live),
            Some(grant(0)),
            None,
            5_000,
            RefreshDecision::Rotate {
                refresh_expires_at: 5_000 + REFRESH_IDLE_SECONDS,
            },
        );
        check_refresh(
            None,
            Some(grant(0)),
            None,
            5_000,
            RefreshDecision::Refuse(RefreshUnknown),
        );
        check_refresh(
            Some(live),
            None,
            None,
            5_000,
            RefreshDecision::Refuse(RefreshUnknown),
        );
        check_refresh(
            Some(RefreshState {
                spent: true,
                ..live
            }),
            Some(grant(0)),
            None,
            5_000,
            RefreshDecision::RevokeGrant,
        );
        check_refresh(
            Some(live),
            Some(grant(0)),
            None,
            10_000,
            RefreshDecision::Refuse(RefreshExpired),
        );
        check_refresh(
            Some(live),
            Some(grant(0)),
            Some("lfd_other"),
            5_000,
            RefreshDecision::Refuse(ClientMismatch),
        );
        assert_eq!(
            refresh(
                Some(live),
                Some(&grant(0)),
                None,
                Some("https://x.example/mcp"),
                5_000
            ),
            RefreshDecision::Refuse(WrongResource)
        );
    }

    #[test]
    fn refresh_lifetimes() {
        // 30 days from each use…
        assert_eq!(refresh_expiry(0, 100), 100 + REFRESH_IDLE_SECONDS);
        // …but never past the grant's 180th day.
        let late = GRANT_MAX_SECONDS - 10;
        assert_eq!(refresh_expiry(0, late), GRANT_MAX_SECONDS);
        let past = RefreshState {
            expires_at: GRANT_MAX_SECONDS + 5,
            spent: false,
        };
        assert_eq!(
            refresh(Some(past), Some(&grant(0)), None, None, GRANT_MAX_SECONDS),
            RefreshDecision::Refuse(GrantError::RefreshExpired)
        );
    }

    #[test]
    fn access_tokens() {
        assert!(access_is_valid(Some(10), Some(&grant(0)), 9));
        assert!(!access_is_valid(Some(10), Some(&grant(0)), 10));
        assert!(!access_is_valid(Some(10), None, 9));
        assert!(!access_is_valid(None, Some(&grant(0)), 9));
    }

    #[test]
    fn token_response_shape() {
        let body = token_response("lfa_1_x", "lfr_1_y", 3600);
        assert_eq!(body["token_type"], "Bearer");
        assert_eq!(body["expires_in"], 3600);
        assert_eq!(body["scope"], "reviews");
    }
}
