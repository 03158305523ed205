//! The bearer check on `/mcp` and the session check on the review pages: one hop to the person's
//! object, which checks the token and counts the request against the person's limit.
//!
//! Every request makes the hop; the Worker remembers no checked token. A Worker isolate cannot
//! be told that a token was revoked (Disconnect, `/oauth/revoke`, Delete my data, a replayed
//! refresh token), so a remembered check would keep a revoked token working there for as long
//! as it is remembered, where revocation must hold from the very next request; and a request
//! served from memory would not be counted against the person's limit. The object remembers
//! checks itself (`app::person`), where revocation clears them. Issue #19 measured what the hop
//! costs: about what the benchmark's one-hop JavaScript reference costs.

use super::{Server, WorkerPorts};
use crate::oauth::person_api as api;
use crate::ports::pull_request::Console;
use crate::tools::caller::Caller;

/// Why a bearer token on `/mcp` was not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BearerRefusal {
    /// Not ours, expired, or its grant was revoked: 401 `invalid_token`.
    Invalid,
    /// The person is over their per-minute limit: 429 with `Retry-After`.
    RateLimited { retry_after_seconds: u64 },
    /// The person's object could not be reached: 503.
    Unavailable,
}

impl<P: WorkerPorts> Server<'_, P> {
    /// Checks a bearer token and counts the request against its person's MCP limit. The token
    /// carries the person id, so no lookup comes first.
    pub async fn authenticate_bearer(&self, token: &str) -> Result<Caller, BearerRefusal> {
        let limit = self.config.rate_limit_per_minute.max(1);
        self.check_token(token, limit, false).await
    }

    /// [`Server::authenticate_bearer`] for a review page's session cookie (issue 36): a post
    /// spends the person's web budget, a read none (`rate_limit::web_limit`), never MCP's.
    pub async fn authenticate_web(&self, token: &str, post: bool) -> Result<Caller, BearerRefusal> {
        let limit = crate::oauth::rate_limit::web_limit(post).unwrap_or(0);
        self.check_token(token, limit, true).await
    }

    async fn check_token(
        &self,
        token: &str,
        limit_per_minute: u32,
        web: bool,
    ) -> Result<Caller, BearerRefusal> {
        let Some((kind, person)) = self.ours(token) else {
            return Err(BearerRefusal::Invalid);
        };
        if !kind.is_bearer() {
            return Err(BearerRefusal::Invalid);
        }
        let request = api::CheckRequest {
            token: token.to_string(),
            limit_per_minute,
            web,
            resource: crate::oauth::authorize::canonical_resource(self.base_url),
        };
        let reply: api::CheckReply = self
            .call_person(&person.object_name(), api::CHECK, &request)
            .await
            .map_err(|error| {
                self.ports
                    .console()
                    .error(&format!("person object check failed: {error}"));
                BearerRefusal::Unavailable
            })?;
        match reply {
            api::CheckReply::Allowed {
                person,
                login,
                github_token,
                may_write,
                client_name,
            } => Ok(Caller {
                person,
                login,
                github_token,
                may_write,
                client_name: Some(client_name),
            }),
            api::CheckReply::Invalid => Err(BearerRefusal::Invalid),
            api::CheckReply::Limited {
                retry_after_seconds,
            } => Err(BearerRefusal::RateLimited {
                retry_after_seconds,
            }),
        }
    }
}
