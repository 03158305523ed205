//! The authorization operations: after GitHub sign-in (`/begin`), the consent form's answer,
//! the token endpoint's code exchange and refresh, and revocation (RFC 6749, RFC 7009).
//!
//! Why each is one synchronous stretch from its first read to its last write: a code is spent by
//! the first attempt, successful or not (issue #31), and a refresh token by its first rotation,
//! so no other request may present the same one in between. Only `/begin` awaits (sealing the
//! GitHub token), before it reads anything.
//! What not: the rules are `oauth::grants`'; the statements are `records`'.

use super::records::TokenKind as Row;
use super::{new_id, Person, PersonError, Result};
use crate::oauth::authorize::AuthorizationRequest;
use crate::oauth::error::GrantError;
use crate::oauth::grants::{self, CodeDecision, CodeExchange, RefreshDecision, RefreshState};
use crate::oauth::person_api as api;
use crate::oauth::redirect_uri::consent_key;
use crate::oauth::tokens::{self, PersonId, TokenKind};
use crate::ports::clock::Clock;
use crate::ports::github::GitHubTransport;
use crate::ports::person::Sealer;
use crate::ports::sql::Sql;
use crate::security::compare::constant_time_eq;

impl<S: Sql, C: Clock, K: Sealer, G: GitHubTransport> Person<'_, S, C, K, G> {
    /// Stores the GitHub token, then issues a code at once when consent covering everything the
    /// app can get was remembered, or holds a pending consent for the consent page.
    pub async fn begin(&self, request: &api::BeginRequest) -> Result<api::BeginReply> {
        let records = self.records()?;
        let now = self.now();
        self.store_github(&request.person, &request.login, &request.github, now)
            .await?;
        records.sweep(now)?;
        let auth = &request.request;
        let remembered = records.consent(&auth.client_id, &consent_key(&auth.redirect_uri))?;
        // Remembered consent skips the page only when it already covers everything the app can
        // get; a read-only consent is asked again, so the app can ask for more. A request that
        // asks for the page (`prompt=consent`) gets it, so the person can also choose less.
        if remembered == Some(true) && !auth.ask_again {
            let code = self.issue_code(&request.person, auth, true, now)?;
            return Ok(api::BeginReply::Code { code });
        }
        let consent_id = self.mint(TokenKind::Consent, &request.person)?;
        records.insert_pending(
            &tokens::hash(&consent_id),
            &request.csrf_hash,
            &request.login,
            &serde_json::to_string(auth)?,
            now + grants::CONSENT_TTL_SECONDS,
        )?;
        Ok(api::BeginReply::Consent { consent_id })
    }

    /// The consent form's answer: single use whatever it says, and only with the CSRF token the
    /// consent was issued with, before it expires.
    pub fn consent(&self, request: &api::ConsentRequest) -> Result<api::ConsentReply> {
        let records = self.records()?;
        let Some((TokenKind::Consent, person)) = tokens::parse(&request.consent_id) else {
            return Ok(api::ConsentReply::Expired);
        };
        let now = self.now();
        let Some(pending) = records.take_pending(&tokens::hash(&request.consent_id))? else {
            return Ok(api::ConsentReply::Expired);
        };
        let csrf_ok = constant_time_eq(
            tokens::hash(&request.csrf).as_bytes(),
            pending.csrf_hash.as_bytes(),
        );
        if !csrf_ok || now >= pending.expires_at {
            return Ok(api::ConsentReply::Expired);
        }
        let auth: AuthorizationRequest = crate::json::decode(&pending.request)?;
        if !request.approve {
            return Ok(api::ConsentReply::Denied { request: auth });
        }
        records.remember_consent(
            &auth.client_id,
            &consent_key(&auth.redirect_uri),
            request.may_write,
            now,
        )?;
        let code = self.issue_code(&person, &auth, request.may_write, now)?;
        Ok(api::ConsentReply::Approved {
            code,
            request: auth,
        })
    }

    /// `grant_type=authorization_code`: the first attempt spends the code, successful or not;
    /// a second use revokes the grant the first made.
    pub fn exchange(&self, request: &api::CodeTokenRequest) -> Result<api::TokenReply> {
        let records = self.records()?;
        let refused = |error| Ok(api::TokenReply::Refused { error });
        let Some((TokenKind::Code, person)) = tokens::parse(&request.code) else {
            return refused(GrantError::CodeUnknown);
        };
        let now = self.now();
        let hash = tokens::hash(&request.code);
        let record = records.code(&hash)?;
        let exchange = CodeExchange {
            client_id: &request.client_id,
            redirect_uri: request.redirect_uri.as_deref(),
            code_verifier: &request.code_verifier,
            resource: request.resource.as_deref(),
        };
        match grants::exchange_code(record.as_ref(), &exchange, now) {
            CodeDecision::Refuse(error) => refused(error),
            CodeDecision::Consume(error) => {
                records.delete_code(&hash)?;
                refused(error)
            }
            CodeDecision::RevokeGrant { grant_id } => {
                records.revoke_grant(&grant_id)?;
                refused(GrantError::CodeReused)
            }
            CodeDecision::Issue => {
                let Some(code) = record else {
                    return refused(GrantError::CodeUnknown);
                };
                records.sweep(now)?;
                let grant = grants::grant_from_code(&code, new_id()?, now);
                records.insert_grant(&grant, now)?;
                records.code_made_grant(&hash, &grant.id)?;
                self.issue_pair(
                    &person,
                    &grant.id,
                    grants::refresh_expiry(now, now),
                    request.access_ttl_seconds,
                    now,
                )
            }
        }
    }

    /// `grant_type=refresh_token`: rotation; a replayed refresh token revokes the grant.
    pub fn refresh(&self, request: &api::RefreshTokenRequest) -> Result<api::TokenReply> {
        let records = self.records()?;
        let refused = |error| Ok(api::TokenReply::Refused { error });
        let Some((TokenKind::Refresh, person)) = tokens::parse(&request.refresh_token) else {
            return refused(GrantError::RefreshUnknown);
        };
        let now = self.now();
        let hash = tokens::hash(&request.refresh_token);
        let row = records.token(&hash, Row::Refresh)?;
        let grant = match &row {
            Some(row) => records.grant(&row.grant_id)?,
            None => None,
        };
        let state = row.as_ref().map(|row| RefreshState {
            expires_at: row.expires_at,
            spent: row.spent,
        });
        match grants::refresh(
            state,
            grant.as_ref(),
            request.client_id.as_deref(),
            request.resource.as_deref(),
            now,
        ) {
            RefreshDecision::Refuse(error) => refused(error),
            RefreshDecision::RevokeGrant => {
                if let Some(row) = &row {
                    records.revoke_grant(&row.grant_id)?;
                }
                refused(GrantError::RefreshReplayed)
            }
            RefreshDecision::Rotate { refresh_expires_at } => {
                let (Some(row), Some(grant)) = (row, grant) else {
                    return refused(GrantError::RefreshUnknown);
                };
                records.spend_token(&hash)?;
                records.touch(false, &grant.id, now)?;
                records.sweep(now)?;
                self.issue_pair(
                    &person,
                    &row.grant_id,
                    refresh_expires_at,
                    request.access_ttl_seconds,
                    now,
                )
            }
        }
    }

    /// RFC 7009: an access or refresh token ends its grant (unless another client presents
    /// it); an API token ends itself; anything else changes nothing.
    pub fn revoke(&self, request: &api::RevokeRequest) -> Result<()> {
        let records = self.records()?;
        let hash = tokens::hash(&request.token);
        let kind = match tokens::parse(&request.token) {
            Some((TokenKind::Access, _)) => Row::Access,
            Some((TokenKind::Refresh, _)) => Row::Refresh,
            // Not bound to a client: whoever holds it may end it.
            Some((TokenKind::Api, _)) => return Ok(records.delete_api_token_by_hash(&hash)?),
            _ => return Ok(()),
        };
        let Some(row) = records.token(&hash, kind)? else {
            return Ok(());
        };
        let grant = records.grant(&row.grant_id)?;
        let same_client = match (&request.client_id, &grant) {
            (Some(client_id), Some(grant)) => *client_id == grant.client_id,
            _ => true,
        };
        if same_client {
            records.revoke_grant(&row.grant_id)?;
        }
        Ok(())
    }

    /// Mints an access and a refresh token for a grant and stores their hashes.
    fn issue_pair(
        &self,
        person: &PersonId,
        grant_id: &str,
        refresh_expires_at: u64,
        access_ttl: u64,
        now: u64,
    ) -> Result<api::TokenReply> {
        let records = self.records()?;
        let access = self.mint(TokenKind::Access, person)?;
        let refresh = self.mint(TokenKind::Refresh, person)?;
        records.insert_token(
            &tokens::hash(&access),
            Row::Access,
            grant_id,
            now + access_ttl,
        )?;
        records.insert_token(
            &tokens::hash(&refresh),
            Row::Refresh,
            grant_id,
            refresh_expires_at,
        )?;
        Ok(api::TokenReply::Issued {
            access_token: access,
            refresh_token: refresh,
            expires_in: access_ttl,
        })
    }

    /// Issues an authorization code for an approved request.
    fn issue_code(
        &self,
        person: &PersonId,
        request: &AuthorizationRequest,
        may_write: bool,
        now: u64,
    ) -> Result<String> {
        let code = self.mint(TokenKind::Code, person)?;
        let record = request.code_record(may_write, now);
        self.records()?
            .insert_code(&tokens::hash(&code), &record)
            .map_err(|e: PersonError| e)?;
        Ok(code)
    }
}
