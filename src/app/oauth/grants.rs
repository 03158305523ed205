//! Tokens: `POST /oauth/token` (a code exchange or a refresh, OAuth 2.1 §4.1.3, §4.3) and
//! `POST /oauth/revoke` (RFC 7009). The person's object named by the presented token decides
//! everything about the grant (`app::person::grants`); the Worker reads the request and carries
//! the answer.

use super::{access_ttl_seconds, Incoming, Server, WorkerPorts};
use crate::http::HttpReply;
use crate::oauth::error::{self, Error};
use crate::oauth::form::Params;
use crate::oauth::grants;
use crate::oauth::person_api as api;
use crate::oauth::token_request::{IssuedTokens, TokenRequest};
use crate::oauth::tokens::TokenKind;

impl<P: WorkerPorts> Server<'_, P> {
    /// `POST /oauth/token`: the per-address limit, the form, then the grant.
    pub(super) async fn token_endpoint(&self, incoming: Incoming) -> Result<HttpReply, Error> {
        self.address_limit(&incoming.address).await?;
        let params = self.form(incoming)?;
        let request = TokenRequest::from_form(&params, access_ttl_seconds(self.config))?;
        let issued = self.grant_tokens(&request).await?;
        Ok(HttpReply::json(
            200,
            &grants::token_response(
                &issued.access_token,
                &issued.refresh_token,
                issued.expires_in,
            ),
        )
        .with_header("cache-control", "no-store")
        .with_header("pragma", "no-cache"))
    }

    /// Issues tokens for a code exchange or a refresh. Shared by `/oauth/token` and the review
    /// pages' sign-in; each counts the per-address limit itself first.
    pub async fn grant_tokens(&self, request: &TokenRequest) -> Result<IssuedTokens, Error> {
        let object = request
            .person(self.config.token_tag_key().as_ref())?
            .object_name();
        let reply: api::TokenReply = match request {
            TokenRequest::Code(request) => self
                .call_person(&object, api::TOKEN, request)
                .await
                .map_err(|e| self.internal("person object token", e))?,
            TokenRequest::Refresh(request) => self
                .call_person(&object, api::REFRESH, request)
                .await
                .map_err(|e| self.internal("person object refresh", e))?,
        };
        match reply {
            api::TokenReply::Issued {
                access_token,
                refresh_token,
                expires_in,
            } => Ok(IssuedTokens {
                access_token,
                refresh_token,
                expires_in,
            }),
            api::TokenReply::Refused { error } => Err(Error::Grant(error)),
        }
    }

    /// `POST /oauth/revoke`: `token` (and `client_id`) from the form, whatever its type.
    pub(super) async fn revoke_endpoint(&self, incoming: Incoming) -> HttpReply {
        let body = incoming
            .body
            .and_then(|b| String::from_utf8(b).ok())
            .unwrap_or_default();
        let params = Params::parse(&body);
        let revoked = match params.require("token") {
            Ok(token) => {
                let client_id = params.get("client_id").ok().flatten();
                self.revoke(token, client_id).await
            }
            Err(error) => Err(error),
        };
        match revoked {
            Ok(()) => HttpReply::empty(200).with_header("cache-control", "no-store"),
            Err(error) => error::json_reply(&error),
        }
    }

    /// Revokes an access, refresh or API token (RFC 7009 §2.1); an access or refresh token
    /// ends its whole grant, unless `client_id` names another client. An unknown or invalid
    /// token is no error (§2.2). API tokens are revoked here too (holding one is the authority
    /// to end it), so a script can retire its own token. Shared by sign-out.
    pub async fn revoke(&self, token: &str, client_id: Option<&str>) -> Result<(), Error> {
        let Some((TokenKind::Access | TokenKind::Refresh | TokenKind::Api, person)) =
            self.ours(token)
        else {
            return Ok(());
        };
        let request = api::RevokeRequest {
            token: token.to_string(),
            client_id: client_id.map(str::to_string),
        };
        // The object's answer carries nothing; its status says whether the revocation happened.
        let object = person.object_name();
        let reply = self
            .post_person(&object, api::REVOKE, &request)
            .await
            .map_err(|e| self.internal("person object revoke", e))?;
        if reply.status != 200 {
            return Err(self.internal("person object revoke", reply.body));
        }
        Ok(())
    }
}
