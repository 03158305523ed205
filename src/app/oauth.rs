//! The Worker's OAuth server as an application (issue #45): the endpoints' flows and refusals,
//! the bearer and session checks, the per-address limit, over the Worker's ports
//! (`ports::edge`, the clock, the GitHub transport, the console). `service::oauth_server` is
//! its shell: it reads the request into an [`Incoming`], calls [`Server::handle`], and sends the
//! reply.
//!
//! * `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata.
//! * `GET /authorize` ([`flow`]): validates the request (`oauth::authorize`), keeps it in KV under
//!   the hash of a fresh `state` (10 minutes) bound to this browser by a `__Host-` cookie, and
//!   sends the browser to GitHub with our own PKCE challenge.
//! * `GET /oauth/callback` ([`flow`]): single-use `state` check, GitHub code exchange and
//!   `/user`, then the person's object stores the sealed GitHub token and either issues a code
//!   (remembered consent) or holds a pending consent shown on the consent page.
//! * `POST /authorize/consent` ([`flow`]): the answer, held to the rules of every state-changing
//!   browser request (`authorize::parse_consent_form`); redirects to the client with `code`,
//!   `state` and `iss` (or `error=access_denied`).
//! * `POST /oauth/token`, `POST /oauth/revoke` ([`grants`]), `POST /oauth/register` ([`clients`]).
//!   What they do past reading the request is a method of its own, typed values in and out
//!   (`grant_tokens`, `register_client`, `revoke`), which the review pages' sign-in calls too.
//!
//! Per-address limits for `/authorize`, `/oauth/token` and `/oauth/register` are counted in a
//! `PersonStore` object named `ip:<address>` (in memory, one window per address): strongly
//! consistent, unlike KV, and with no new class to deploy. They fail open if that object cannot be
//! reached, so an outage there never locks everyone out. The address is the shell's to read
//! (`cf-connecting-ip` on a deployed Worker, the loopback socket's under `wrangler dev`).
//!
//! KV keys (`CLIENTS`): `client:<client_id>` (registered clients, 180 days, renewed on use),
//! `cimd:<sha256(url)>` (metadata documents, 24 hours; failures 60 seconds), `flow:<sha256(state)>`
//! (GitHub round trips, 10 minutes, deleted on use).
//!
//! What not: no platform code (the shell owns the platform's request), no rule of OAuth itself (those
//! are `oauth::*`'s, pure); this module orders the steps and carries their answers out.

pub mod check;
pub mod clients;
pub mod flow;
pub mod grants;
pub mod session;
pub mod settings;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use serde::Serialize;

use crate::config::Config;
use crate::http::HttpReply;
use crate::oauth::error::{self, Error};
use crate::oauth::form::Params;
use crate::oauth::metadata::authorization_server_metadata;
use crate::oauth::person_api as api;
use crate::oauth::tokens::{self, PersonId, TokenKind};
use crate::ports::clock::Clock;
use crate::ports::edge::{DocumentFetch, Kv, Objects, PlatformError, Random};
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Console;
use crate::router::OAuthEndpoint;
use crate::security::cookie::{self, SameSite};

pub use check::BearerRefusal;

/// The Worker's ports, as one bundle: each endpoint needs a different few of them.
pub trait WorkerPorts {
    type Kv: Kv;
    type Objects: Objects;
    type Pulls: Objects;
    type Clock: Clock;
    type Random: Random;
    type TokenEndpoint: GitHubTransport;
    type GitHubApi: GitHubTransport;
    type Fetch: DocumentFetch;
    type Console: Console;
    /// The `CLIENTS` namespace.
    fn clients(&self) -> &Self::Kv;
    /// The `PERSONS` namespace (people's objects and the per-address windows).
    fn persons(&self) -> &Self::Objects;
    /// The `PULL_REQUESTS` namespace (a pull request's object, by `owner/repo#number`).
    fn pulls(&self) -> &Self::Pulls;
    fn clock(&self) -> &Self::Clock;
    fn random(&self) -> &Self::Random;
    /// GitHub's OAuth token endpoint: a form posted, its answer read whole.
    fn token_endpoint(&self) -> &Self::TokenEndpoint;
    /// GitHub's REST API.
    fn github_api(&self) -> &Self::GitHubApi;
    /// The outbound fetch of client ID metadata documents.
    fn fetch(&self) -> &Self::Fetch;
    fn console(&self) -> &Self::Console;
}

/// What the endpoints read from a request: its query, its body (`None` when unreadable or over
/// the size accepted) and a few headers. The shell fills it in.
#[derive(Debug, Clone, Default)]
pub struct Incoming {
    pub query: String,
    pub body: Option<Vec<u8>>,
    pub content_type: Option<String>,
    pub cookie: Option<String>,
    pub origin: Option<String>,
    pub sec_fetch_site: Option<String>,
    /// The caller's address, as the per-address limit keys it.
    pub address: String,
}

/// The Worker's OAuth server for one request.
pub struct Server<'a, P> {
    pub ports: &'a P,
    pub config: &'a Config,
    /// This deployment's origin (`https://host`), the issuer.
    pub base_url: &'a str,
}

impl<P: WorkerPorts> Server<'_, P> {
    /// Serves an OAuth endpoint the route table (`router::route`) matched with a method it
    /// takes; the table answers the preflight and 405s.
    pub async fn handle(&self, endpoint: OAuthEndpoint, incoming: Incoming) -> HttpReply {
        match endpoint {
            OAuthEndpoint::Metadata => cors(HttpReply::json(
                200,
                &authorization_server_metadata(self.base_url),
            ))
            .with_header("cache-control", "public, max-age=3600"),
            OAuthEndpoint::Authorize => self.authorize_endpoint(&incoming).await,
            OAuthEndpoint::Callback => self.callback_endpoint(&incoming).await,
            OAuthEndpoint::Consent => self.consent_endpoint(incoming).await,
            OAuthEndpoint::Token => cors(json_errors(self.token_endpoint(incoming).await)),
            OAuthEndpoint::Register => cors(json_errors(self.register_endpoint(incoming).await)),
            OAuthEndpoint::Revoke => cors(self.revoke_endpoint(incoming).await),
        }
    }

    fn now(&self) -> u64 {
        self.ports.clock().now_seconds()
    }

    fn random_text(&self) -> Result<String, Error> {
        self.ports
            .random()
            .token()
            .map_err(|e| self.internal("randomness", e))
    }

    /// A fault of ours or the platform's: logged, and answered as `temporarily_unavailable`.
    fn internal(&self, what: &str, error: impl std::fmt::Display) -> Error {
        self.ports
            .console()
            .error(&format!("oauth: {what} failed: {error}"));
        Error::Unavailable
    }

    /// The kind and person of a token we minted, its tag checked: a made-up string never
    /// reaches anyone's object (see `oauth::tokens`).
    fn ours(&self, token: &str) -> Option<(TokenKind, PersonId)> {
        tokens::verify(token, &self.config.token_tag_key()?)
    }

    /// One typed call to a person's (or an address's) object: its 200 reply decoded as `A`;
    /// any other status is an error naming the operation and the object's answer.
    pub(crate) async fn call_person<Q: Serialize, A: serde::de::DeserializeOwned>(
        &self,
        object_name: &str,
        op: &str,
        body: &Q,
    ) -> Result<A, PlatformError> {
        let reply = self.post_person(object_name, op, body).await?;
        if reply.status != 200 {
            return Err(PlatformError(format!(
                "PERSONS {op} answered {}: {}",
                reply.status, reply.body
            )));
        }
        crate::json::decode(&reply.body).map_err(|e| PlatformError(e.to_string()))
    }

    async fn post_person<Q: Serialize>(
        &self,
        object_name: &str,
        op: &str,
        body: &Q,
    ) -> Result<crate::ports::edge::ObjectReply, PlatformError> {
        let body = serde_json::to_string(body).map_err(|e| PlatformError(e.to_string()))?;
        self.ports.persons().post(object_name, op, &body).await
    }

    /// A KV value decoded with `json::decode`, as every stored value is. Unreadable values
    /// count as absent.
    async fn kv_json<T: serde::de::DeserializeOwned>(&self, key: &str) -> Result<Option<T>, Error> {
        let text = self
            .ports
            .clients()
            .get(key)
            .await
            .map_err(|e| self.internal("KV read", e))?;
        Ok(text.and_then(|text| crate::json::decode(&text).ok()))
    }

    /// Stores `value` as JSON under `key` for `ttl_seconds`.
    async fn kv_put_json<T: Serialize>(
        &self,
        key: &str,
        value: &T,
        ttl_seconds: u64,
        what: &str,
    ) -> Result<(), Error> {
        let text = serde_json::to_string(value).map_err(|e| self.internal(what, e))?;
        self.ports
            .clients()
            .put(key, &text, Some(ttl_seconds))
            .await
            .map_err(|e| self.internal("KV write", e))
    }

    /// The per-address limit for the endpoints that create state (and the review pages' doors
    /// to the token endpoint), keyed on `address`. Fails open.
    pub async fn address_limit(&self, address: &str) -> Result<(), Error> {
        let request = api::AddressRequest {
            limit_per_minute: self.config.address_rate_limit_per_minute.max(1),
        };
        let object = format!("ip:{address}");
        let reply = self.call_person(&object, api::ADDRESS, &request).await;
        match reply {
            Ok(api::AddressReply::Allowed) => {
                crate::log::rate_limit(true);
                Ok(())
            }
            Ok(api::AddressReply::Limited {
                retry_after_seconds,
            }) => {
                crate::log::rate_limit(false);
                Err(Error::TooManyRequests {
                    retry_after_seconds,
                })
            }
            Err(error) => {
                self.ports
                    .console()
                    .error(&format!("oauth: address limit unavailable: {error}"));
                Ok(())
            }
        }
    }

    /// The body of a form endpoint: `application/x-www-form-urlencoded`, UTF-8.
    fn form(&self, incoming: Incoming) -> Result<Params, Error> {
        let content_type = incoming.content_type.unwrap_or_default();
        if !content_type
            .to_ascii_lowercase()
            .starts_with("application/x-www-form-urlencoded")
        {
            return Err(Error::MalformedBody);
        }
        let body = incoming.body.ok_or(Error::MalformedBody)?;
        let text = String::from_utf8(body).map_err(|_| Error::MalformedBody)?;
        Ok(Params::parse(&text))
    }
}

/// How long the access tokens we issue live (`ACCESS_TOKEN_TTL_SECONDS`, at least a second).
pub fn access_ttl_seconds(config: &Config) -> u64 {
    config.access_token_ttl_seconds.max(1)
}

/// A `__Host-` cookie for the OAuth flow's own pages (always https outside local tests).
fn host_cookie(name: &str, value: &str, max_age_seconds: u64, same_site: SameSite) -> String {
    cookie::set(name, value, Some(max_age_seconds), same_site, true)
}

fn cors(reply: HttpReply) -> HttpReply {
    reply.with_header("access-control-allow-origin", "*")
}

/// The CORS preflight of every OAuth endpoint (`OPTIONS`).
pub fn preflight() -> HttpReply {
    cors(HttpReply::empty(204))
        .with_header("access-control-allow-methods", "GET, POST, OPTIONS")
        .with_header(
            "access-control-allow-headers",
            "authorization, content-type, mcp-protocol-version",
        )
        .with_header("access-control-max-age", "86400")
}

fn redirect(status: u16, location: &str) -> HttpReply {
    HttpReply::empty(status)
        .with_header("location", location)
        .with_header("cache-control", "no-store")
        .with_header("referrer-policy", "no-referrer")
}

/// A JSON endpoint's answer: the reply, or its error rendered as RFC 6749 JSON.
fn json_errors(result: Result<HttpReply, Error>) -> HttpReply {
    result.unwrap_or_else(|error| error::json_reply(&error))
}
