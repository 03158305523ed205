//! The pure half of signing a person in with GitHub's OAuth web flow: the URLs and bodies we
//! send, and reading GitHub's token responses.
//!
//! Why: GitHub is the identity underneath our own OAuth server. We use PKCE and a single-use
//! `state` toward GitHub too, and support both kinds of GitHub tokens: OAuth App tokens that never
//! expire, and GitHub App user tokens that expire after eight hours and come with a refresh token
//! (which we use before they expire). The token never leaves the server.
//! What not: no sending (the endpoints and the person's object do that), no storage.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::security::form::encode;

/// The GitHub scope we ask an OAuth App for: reading private repositories needs `repo`.
/// (A GitHub App ignores scopes; its permissions are set on the app.)
pub const GITHUB_SCOPE: &str = "repo";
/// Refresh an expiring GitHub token this long before it expires.
pub const REFRESH_MARGIN_SECONDS: u64 = 10 * 60;

/// A person's GitHub credentials. `Debug` never shows them.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GitHubTokens {
    pub access_token: String,
    /// GitHub App user tokens only.
    pub refresh_token: Option<String>,
    /// Epoch seconds; `None` for tokens that do not expire.
    pub expires_at: Option<u64>,
    pub refresh_expires_at: Option<u64>,
}

impl fmt::Debug for GitHubTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GitHubTokens")
            .field("access_token", &"[redacted]")
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "[redacted]"),
            )
            .field("expires_at", &self.expires_at)
            .field("refresh_expires_at", &self.refresh_expires_at)
            .finish()
    }
}

impl GitHubTokens {
    /// Whether to refresh now: the token expires within the margin and a live refresh token
    /// exists.
    pub fn needs_refresh(&self, now: u64) -> bool {
        let expiring = self
            .expires_at
            .is_some_and(|at| now + REFRESH_MARGIN_SECONDS >= at);
        let refreshable =
            self.refresh_token.is_some() && self.refresh_expires_at.is_none_or(|at| now < at);
        expiring && refreshable
    }
}

/// `{oauth_base}/login/oauth/authorize?…` for the person's browser.
pub fn authorize_url(
    oauth_base: &str,
    client_id: &str,
    callback: &str,
    state: &str,
    code_challenge: &str,
) -> String {
    format!(
        "{oauth_base}/login/oauth/authorize?{}",
        encode(&[
            ("client_id", client_id),
            ("redirect_uri", callback),
            ("state", state),
            ("scope", GITHUB_SCOPE),
            ("code_challenge", code_challenge),
            ("code_challenge_method", "S256"),
            ("allow_signup", "false"),
        ])
    )
}

/// The body of the code exchange at `{oauth_base}/login/oauth/access_token`.
pub fn code_exchange_body(
    client_id: &str,
    client_secret: &str,
    code: &str,
    callback: &str,
    verifier: &str,
) -> String {
    encode(&[
        ("client_id", client_id),
        ("client_secret", client_secret),
        ("code", code),
        ("redirect_uri", callback),
        ("code_verifier", verifier),
    ])
}

/// The body of a GitHub App token refresh at the same endpoint.
pub fn refresh_body(client_id: &str, client_secret: &str, refresh_token: &str) -> String {
    encode(&[
        ("client_id", client_id),
        ("client_secret", client_secret),
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh_token),
    ])
}

/// Why GitHub's token endpoint gave us no token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenFailure {
    /// GitHub's `error` code (`bad_verification_code`, `bad_refresh_token`, …).
    Refused(String),
    /// Not the JSON we expect.
    Malformed,
}

/// For logs: the release wasm's derived `Debug` prints only type names (`tests/scripts/build.sh`).
impl std::fmt::Display for TokenFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenFailure::Refused(code) => write!(f, "refused ({code})"),
            TokenFailure::Malformed => f.write_str("an answer that is not GitHub's token JSON"),
        }
    }
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: Option<String>,
    refresh_token: Option<String>,
    expires_in: Option<u64>,
    refresh_token_expires_in: Option<u64>,
    error: Option<String>,
}

/// Reads the JSON answer of GitHub's token endpoint (errors come with HTTP 200 there).
pub fn parse_token_response(body: &str, now: u64) -> Result<GitHubTokens, TokenFailure> {
    let response: TokenResponse = crate::json::decode(body).map_err(|_| TokenFailure::Malformed)?;
    if let Some(error) = response.error {
        return Err(TokenFailure::Refused(error));
    }
    let access_token = response
        .access_token
        .filter(|t| !t.is_empty())
        .ok_or(TokenFailure::Malformed)?;
    Ok(GitHubTokens {
        access_token,
        refresh_token: response.refresh_token.filter(|t| !t.is_empty()),
        expires_at: response.expires_in.map(|s| now + s),
        refresh_expires_at: response.refresh_token_expires_in.map(|s| now + s),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authorize_url_has_pkce_and_state() {
        let url = authorize_url(
            "http://127.0.0.1:8788",
            "Iv1.standin",
            "https://logikflow.dev/oauth/callback",
            "st",
            "ch",
        );
        assert_eq!(
            url,
            "http://127.0.0.1:8788/login/oauth/authorize?client_id=Iv1.standin&redirect_uri=https%3A%2F%2Flogikflow.dev%2Foauth%2Fcallback&state=st&scope=repo&code_challenge=ch&code_challenge_method=S256&allow_signup=false"
        );
    }

    fn check(body: &str, expected: Result<GitHubTokens, TokenFailure>) {
        assert_eq!(parse_token_response(body, 1_000), expected, "{body}");
    }

    #[test]
    fn token_responses() {
        check(
            r#"{"access_token":"gho_x","token_type":"bearer","scope":"repo"}"#,
            Ok(GitHubTokens {
                access_token: "gho_x".into(),
                refresh_token: None,
                expires_at: None,
                refresh_expires_at: None,
            }),
        );
        check(
            r#"{"access_token":"ghu_x","expires_in":28800,"refresh_token":"ghr_y","refresh_token_expires_in":15897600,"scope":""}"#,
            Ok(GitHubTokens {
                access_token: "ghu_x".into(),
                refresh_token: Some("ghr_y".into()),
                expires_at: Some(29_800),
                refresh_expires_at: Some(15_898_600),
            }),
        );
        check(
            r#"{"error":"bad_verification_code","error_description":"x"}"#,
            Err(TokenFailure::Refused("bad_verification_code".into())),
        );
        check("access_token=gho_x", Err(TokenFailure::Malformed));
        check(r#"{"access_token":""}"#, Err(TokenFailure::Malformed));
    }

    #[test]
    fn refresh_timing() {
        let tokens = GitHubTokens {
            access_token: "ghu_x".into(),
            refresh_token: Some("ghr_y".into()),
            expires_at: Some(10_000),
            refresh_expires_at: Some(100_000),
        };
        assert!(!tokens.needs_refresh(10_000 - REFRESH_MARGIN_SECONDS - 1));
        assert!(tokens.needs_refresh(10_000 - REFRESH_MARGIN_SECONDS));
        assert!(tokens.needs_refresh(20_000));
        assert!(!tokens.needs_refresh(100_000));
        let oauth_app = GitHubTokens {
            expires_at: None,
            refresh_token: None,
            ..tokens.clone()
        };
        assert!(!oauth_app.needs_refresh(u64::MAX / 2));
        assert!(!format!("{tokens:?}").contains("ghu_x"));
        assert!(!format!("{tokens:?}").contains("ghr_y"));
    }
}
