//! `/settings`: the connected apps and API tokens a person sees, disconnecting an app, and
//! making or revoking an API token.
//!
//! Why API tokens live beside grants: they are checked on the same path (`check`) and counted
//! against the same window; they do not expire, so revoking deletes the row.
//! What not: the page is `web`'s; the secret of a new token is shown once and only its hash kept.

use super::records::TokenKind as Row;
use super::{new_id, Person, Result};
use crate::oauth::person_api as api;
use crate::oauth::tokens::{self, TokenKind};
use crate::ports::clock::Clock;
use crate::ports::github::GitHubTransport;
use crate::ports::person::Sealer;
use crate::ports::sql::Sql;

impl<S: Sql, C: Clock, K: Sealer, G: GitHubTransport> Person<'_, S, C, K, G> {
    /// What `/settings` lists; the grant behind `current_token` is marked as this browser's.
    pub fn settings(&self, request: &api::SettingsRequest) -> Result<api::SettingsReply> {
        let records = self.records()?;
        records.sweep(self.now())?;
        let current = match &request.current_token {
            Some(token) => records
                .token(&tokens::hash(token), Row::Access)?
                .map(|row| row.grant_id),
            None => None,
        };
        let apps = records
            .grants()?
            .into_iter()
            .map(|grant| api::ConnectedApp {
                current: current.as_deref() == Some(grant.id.as_str()),
                grant_id: grant.id,
                client_name: grant.client_name,
                may_write: grant.may_write,
                created_at: grant.created_at,
                last_used_at: grant.last_used_at,
            })
            .collect();
        let tokens = records
            .api_tokens()?
            .into_iter()
            .map(|row| api::ApiTokenInfo {
                id: row.id,
                name: row.name,
                may_write: row.may_write,
                created_at: row.created_at,
                last_used_at: row.last_used_at,
            })
            .collect();
        Ok(api::SettingsReply { apps, tokens })
    }

    /// Revokes one grant at once.
    pub fn disconnect(&self, request: &api::DisconnectRequest) -> Result<api::Removed> {
        let records = self.records()?;
        let removed = records.grant(&request.grant_id)?.is_some();
        if removed {
            records.revoke_grant(&request.grant_id)?;
        }
        Ok(api::Removed { removed })
    }

    /// Makes an API token; its text is in the reply only.
    pub fn create_api_token(
        &self,
        request: &api::CreateApiTokenRequest,
    ) -> Result<api::CreateApiTokenReply> {
        let records = self.records()?;
        let token = self.mint(TokenKind::Api, &request.person)?;
        let id = new_id()?;
        records.insert_api_token(
            &id,
            &tokens::hash(&token),
            &request.name,
            request.may_write,
            self.now(),
        )?;
        Ok(api::CreateApiTokenReply { id, token })
    }

    /// Revokes an API token by its id.
    pub fn revoke_api_token(&self, request: &api::RevokeApiTokenRequest) -> Result<api::Removed> {
        let removed = self.records()?.delete_api_token(&request.id)?;
        Ok(api::Removed { removed })
    }
}
