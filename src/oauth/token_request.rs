//! A token request (OAuth 2.1 §3.2), typed: a code exchange (§4.1.3) or a refresh (§4.3), as
//! `/oauth/token` reads it from its form and as the review pages' own sign-in builds it
//! (`web_client`).
//!
//! Why: both go to the same person's-object operation through one function
//! (`app::oauth::Server::grant_tokens`), so the web sign-in is held to every check an agent's
//! request meets: PKCE, client, redirect URI, resource, single-use codes and refresh rotation are
//! decided in the person's object by `grants`, whichever door the request came through.
//! What not: no decisions about the grant (`grants`), no token formats (`tokens`), no HTTP.

use super::authorize::check_scope;
use super::error::{Error, GrantError};
use super::form::Params;
use super::person_api::{CodeTokenRequest, RefreshTokenRequest};
use super::tokens::{self, PersonId, TagKey, TokenKind};

/// A token request, ready for the person's object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenRequest {
    /// `grant_type=authorization_code`.
    Code(CodeTokenRequest),
    /// `grant_type=refresh_token`.
    Refresh(RefreshTokenRequest),
}

/// What a granted token request returns (RFC 6749 §5.1); the endpoint adds `token_type` and
/// `scope`, the review pages keep the two tokens in cookies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedTokens {
    pub access_token: String,
    pub refresh_token: String,
    pub expires_in: u64,
}

impl TokenRequest {
    /// Reads the token endpoint's form, each grant's parameters in the order the endpoint has
    /// always checked them, so a request missing several hears about the same one first. (Every
    /// parameter is read before any is copied: copies made before a refusal would each need
    /// their own clean-up code.)
    pub fn from_form(params: &Params, access_ttl_seconds: u64) -> Result<TokenRequest, Error> {
        match params.require("grant_type")? {
            "authorization_code" => {
                let code = params.require("code")?;
                let client_id = params.require("client_id")?;
                let redirect_uri = params.get("redirect_uri")?;
                let code_verifier = params.require("code_verifier")?;
                let resource = params.get("resource")?;
                Ok(TokenRequest::Code(CodeTokenRequest {
                    code: code.to_string(),
                    client_id: client_id.to_string(),
                    redirect_uri: redirect_uri.map(str::to_string),
                    code_verifier: code_verifier.to_string(),
                    resource: resource.map(str::to_string),
                    access_ttl_seconds,
                }))
            }
            "refresh_token" => {
                let refresh_token = params.require("refresh_token")?;
                check_scope(params.get("scope")?)?;
                // OAuth 2.1 section 4.3.1: a public client identifies itself on refresh too.
                let client_id = params.require("client_id")?;
                let resource = params.get("resource")?;
                Ok(TokenRequest::Refresh(RefreshTokenRequest {
                    refresh_token: refresh_token.to_string(),
                    client_id: Some(client_id.to_string()),
                    resource: resource.map(str::to_string),
                    access_ttl_seconds,
                }))
            }
            _ => Err(Error::UnsupportedGrantType),
        }
    }

    /// The person whose object decides the request, read from the code or refresh token it
    /// presents. A token we did not mint (its tag does not check out under `key`), or one of
    /// another kind, is refused here, so a made-up string never reaches anyone's object.
    pub fn person(&self, key: Option<&TagKey>) -> Result<PersonId, Error> {
        let (token, kind, unknown) = match self {
            TokenRequest::Code(request) => {
                (&request.code, TokenKind::Code, GrantError::CodeUnknown)
            }
            TokenRequest::Refresh(request) => (
                &request.refresh_token,
                TokenKind::Refresh,
                GrantError::RefreshUnknown,
            ),
        };
        match key.and_then(|key| tokens::verify(token, key)) {
            Some((found, person)) if found == kind => Ok(person),
            _ => Err(Error::Grant(unknown)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(form: &str, expected: Result<TokenRequest, Error>) {
        assert_eq!(
            TokenRequest::from_form(&Params::parse(form), 60),
            expected,
            "{form}"
        );
    }

    #[test]
    fn forms() {
        check(
            "grant_type=authorization_code&code=lfc_x&client_id=lfd_a&code_verifier=v&resource=r",
            Ok(TokenRequest::Code(CodeTokenRequest {
                code: "lfc_x".into(),
                client_id: "lfd_a".into(),
                redirect_uri: None,
                code_verifier: "v".into(),
                resource: Some("r".into()),
                access_ttl_seconds: 60,
            })),
        );
        check(
            "grant_type=refresh_token&refresh_token=lfr_x&client_id=lfd_a",
            Ok(TokenRequest::Refresh(RefreshTokenRequest {
                refresh_token: "lfr_x".into(),
                client_id: Some("lfd_a".into()),
                resource: None,
                access_ttl_seconds: 60,
            })),
        );
        check("", Err(Error::MissingParameter("grant_type")));
        check("grant_type=password", Err(Error::UnsupportedGrantType));
        // The code comes before the client: a form missing both names the code.
        check(
            "grant_type=authorization_code",
            Err(Error::MissingParameter("code")),
        );
        check(
            "grant_type=authorization_code&code=lfc_x&client_id=lfd_a",
            Err(Error::MissingParameter("code_verifier")),
        );
        // A public client names itself on refresh; an unknown scope is refused before that.
        check(
            "grant_type=refresh_token&refresh_token=lfr_x",
            Err(Error::MissingParameter("client_id")),
        );
        check(
            "grant_type=refresh_token&refresh_token=lfr_x&scope=admin&client_id=lfd_a",
            Err(Error::UnknownScope),
        );
        check(
            "grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=lfd_a",
            Err(Error::DuplicateParameter("refresh_token")),
        );
    }

    #[test]
    fn only_our_tokens_of_the_right_kind_name_a_person() {
        let key = TagKey::derive("secret");
        let person = PersonId::from_github_id(7);
        let code = tokens::mint(TokenKind::Code, &person, &[1; tokens::RANDOM_BYTES], &key);
        let refresh = tokens::mint(
            TokenKind::Refresh,
            &person,
            &[2; tokens::RANDOM_BYTES],
            &key,
        );
        let exchange = |code: &str| {
            TokenRequest::from_form(
                &Params::parse(&format!(
                    "grant_type=authorization_code&code={code}&client_id=a&code_verifier=v"
                )),
                1,
            )
        };
        let rotate = |token: &str| {
            TokenRequest::from_form(
                &Params::parse(&format!(
                    "grant_type=refresh_token&refresh_token={token}&client_id=a"
                )),
                1,
            )
        };
        let unknown_code = Err(Error::Grant(GrantError::CodeUnknown));
        let unknown_refresh = Err(Error::Grant(GrantError::RefreshUnknown));
        assert_eq!(
            exchange(&code).and_then(|r| r.person(Some(&key))),
            Ok(person.clone())
        );
        assert_eq!(
            rotate(&refresh).and_then(|r| r.person(Some(&key))),
            Ok(person)
        );
        // A refresh token offered as a code, and the other way round.
        assert_eq!(
            exchange(&refresh).and_then(|r| r.person(Some(&key))),
            unknown_code
        );
        assert_eq!(
            rotate(&code).and_then(|r| r.person(Some(&key))),
            unknown_refresh
        );
        // Another deployment's key, no key configured, a made-up string.
        let other = TagKey::derive("other");
        assert_eq!(
            exchange(&code).and_then(|r| r.person(Some(&other))),
            unknown_code
        );
        assert_eq!(exchange(&code).and_then(|r| r.person(None)), unknown_code);
        assert_eq!(
            exchange("lfc_7_x").and_then(|r| r.person(Some(&key))),
            unknown_code
        );
    }
}
