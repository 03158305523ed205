//! The review pages as a client of this server's own authorization server: the registration, the
//! authorization request and the two token requests `service::web_session` makes, as values.
//!
//! Why: the pages are a first-party client, but an ordinary one (DESIGN.md §5): the same
//! registration rules, PKCE, client, redirect URI and resource bindings as an agent's. Building
//! the requests here, pure, lets the tests below run them through those rules; the service hands
//! them to the same functions `/oauth/register` and `/oauth/token` use, with no HTTP in between.
//! What not: no cookies, no randomness (the verifier and `state` are passed in), no storage.

use super::authorize::canonical_resource;
use super::challenge::SCOPE;
use super::clients::Registration;
use super::error::Error;
use super::person_api::{CodeTokenRequest, RefreshTokenRequest};
use super::redirect_uri::RedirectUri;
use super::token_request::TokenRequest;
use crate::security::form::append_query;
use crate::security::pkce;

/// The name people see for the review pages at consent and in `/settings`.
pub const CLIENT_NAME: &str = "LogiKFlow review pages";

/// Where the authorization server sends the browser back: `/signin/callback`.
pub fn redirect_uri(base_url: &str) -> String {
    format!("{base_url}/signin/callback")
}

/// The pages' registration on the host at `base_url` (a public client, one redirect URI).
pub fn registration(base_url: &str) -> Result<Registration, Error> {
    Ok(Registration {
        client_name: CLIENT_NAME.to_string(),
        redirect_uris: vec![
            RedirectUri::parse(&redirect_uri(base_url)).map_err(Error::InvalidRedirectUri)?
        ],
    })
}

/// The authorization request (RFC 6749 §4.1.1 with an S256 challenge of `verifier`, RFC 7636),
/// as the URL the browser is sent to.
///
/// `ask_again` adds `prompt=consent`: the person asked to choose their access again ("Change
/// access" in Settings), so a remembered consent doesn't skip the page.
pub fn authorize_url(
    base_url: &str,
    client_id: &str,
    verifier: &str,
    state: &str,
    ask_again: bool,
) -> String {
    let redirect = redirect_uri(base_url);
    let challenge = pkce::s256(verifier);
    let resource = canonical_resource(base_url);
    let mut pairs = vec![
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", redirect.as_str()),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("state", state),
        ("scope", SCOPE),
        ("resource", resource.as_str()),
    ];
    if ask_again {
        pairs.push(("prompt", "consent"));
    }
    append_query(&format!("{base_url}/authorize"), &pairs)
}

/// The code exchange at `/signin/callback`: the code, with the verifier kept in the browser's
/// sign-in cookie and every binding the authorization request made.
pub fn code_grant(
    base_url: &str,
    client_id: &str,
    code: &str,
    verifier: &str,
    access_ttl_seconds: u64,
) -> TokenRequest {
    TokenRequest::Code(CodeTokenRequest {
        code: code.to_string(),
        client_id: client_id.to_string(),
        redirect_uri: Some(redirect_uri(base_url)),
        code_verifier: verifier.to_string(),
        resource: Some(canonical_resource(base_url)),
        access_ttl_seconds,
    })
}

/// The refresh of an expired session (the refresh token from its cookie), naming the client and
/// resource as any public client must.
pub fn refresh_grant(
    base_url: &str,
    client_id: &str,
    refresh_token: &str,
    access_ttl_seconds: u64,
) -> TokenRequest {
    TokenRequest::Refresh(RefreshTokenRequest {
        refresh_token: refresh_token.to_string(),
        client_id: Some(client_id.to_string()),
        resource: Some(canonical_resource(base_url)),
        access_ttl_seconds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::authorize::{self, AuthorizationRequest};
    use crate::oauth::error::GrantError;
    use crate::oauth::form::Params;
    use crate::oauth::grants::{
        self, CodeDecision, CodeExchange, CodeRecord, GrantRecord, RefreshDecision, RefreshState,
    };

    const BASE: &str = "https://logikflow.dev";
    const VERIFIER: &str = "dBjftJeZ4CK-P-9-the-verifier-kept-in-the-sign-in-cookie";

    /// The authorization request the pages send, validated as `/authorize` validates any.
    fn authorized() -> AuthorizationRequest {
        authorized_asking(false)
    }

    fn authorized_asking(ask_again: bool) -> AuthorizationRequest {
        let client = registration(BASE)
            .unwrap_or_else(|e| panic!("{e:?}"))
            .record("lfd_web".into(), 1);
        let url = authorize_url(BASE, &client.client_id, VERIFIER, "st", ask_again);
        let query = url
            .strip_prefix("https://logikflow.dev/authorize?")
            .unwrap_or_else(|| panic!("{url}"));
        authorize::validate(&Params::parse(query), &client, BASE)
            .unwrap_or_else(|refusal| panic!("{refusal:?}"))
    }

    /// Issue #36: "Change access" signs in again with `prompt=consent`, which `/authorize` reads
    /// as asking for the consent page; a plain sign-in doesn't.
    #[test]
    fn change_access_asks_for_the_consent_page() {
        assert!(authorized_asking(true).ask_again);
        assert!(!authorized().ask_again);
    }

    /// The code record the person's object keeps for that request (`app::person`).
    fn code_record(request: &AuthorizationRequest) -> CodeRecord {
        request.code_record(false, 100)
    }

    /// The decision on the pages' code exchange, as the person's object asks for it.
    fn check_exchange(client_id: &str, verifier: &str, expected: CodeDecision) {
        let record = code_record(&authorized());
        let TokenRequest::Code(request) = code_grant(BASE, client_id, "lfc_x", verifier, 60) else {
            panic!("a code grant is a code exchange");
        };
        let exchange = CodeExchange {
            client_id: &request.client_id,
            redirect_uri: request.redirect_uri.as_deref(),
            code_verifier: &request.code_verifier,
            resource: request.resource.as_deref(),
        };
        assert_eq!(
            grants::exchange_code(Some(&record), &exchange, 100),
            expected,
            "{client_id} {verifier}"
        );
    }

    #[test]
    fn the_authorization_request_passes_the_rules_every_client_meets() {
        let request = authorized();
        assert_eq!(request.client_name, CLIENT_NAME);
        assert_eq!(
            request.redirect_uri,
            "https://logikflow.dev/signin/callback"
        );
        assert!(request.redirect_uri_sent);
        assert_eq!(request.state.as_deref(), Some("st"));
        assert_eq!(request.resource, "https://logikflow.dev/mcp");
        assert_eq!(
            request.code_challenge.as_str(),
            crate::security::pkce::s256(VERIFIER)
        );
    }

    #[test]
    fn the_callback_grant_is_refused_with_a_wrong_verifier_or_client() {
        // Each refusal spends the code, as for any client (issue #31).
        check_exchange("lfd_web", VERIFIER, CodeDecision::Issue);
        let other = "another-verifier-of-forty-three-or-more-characters";
        check_exchange(
            "lfd_web",
            other,
            CodeDecision::Consume(GrantError::PkceMismatch),
        );
        check_exchange(
            "lfd_web",
            "short",
            CodeDecision::Consume(GrantError::PkceVerifierMalformed),
        );
        check_exchange(
            "lfd_other",
            VERIFIER,
            CodeDecision::Consume(GrantError::ClientMismatch),
        );
    }

    #[test]
    fn a_session_refresh_names_its_client_and_resource() {
        let grant = GrantRecord {
            id: "g".into(),
            client_id: "lfd_web".into(),
            client_name: CLIENT_NAME.into(),
            redirect_uri: redirect_uri(BASE),
            resource: canonical_resource(BASE),
            may_write: false,
            created_at: 0,
            last_used_at: 0,
        };
        let decide = |base: &str, client_id: &str| {
            let TokenRequest::Refresh(request) = refresh_grant(base, client_id, "lfr_x", 60) else {
                panic!("a refresh grant is a refresh");
            };
            let token = RefreshState {
                expires_at: 1_000,
                spent: false,
            };
            grants::refresh(
                Some(token),
                Some(&grant),
                request.client_id.as_deref(),
                request.resource.as_deref(),
                10,
            )
        };
        assert!(matches!(
            decide(BASE, "lfd_web"),
            RefreshDecision::Rotate { .. }
        ));
        assert_eq!(
            decide(BASE, "lfd_other"),
            RefreshDecision::Refuse(GrantError::ClientMismatch)
        );
        // The same Worker under another host name is another resource (RFC 8707).
        assert_eq!(
            decide("https://other.example", "lfd_web"),
            RefreshDecision::Refuse(GrantError::WrongResource)
        );
    }
}
