//! The OAuth endpoints (wasm only): they read the request, ask the pure modules, and carry the
//! answer out against KV (`CLIENTS`), GitHub, and the person's Durable Object (`PERSONS`).
//!
//! * `GET /.well-known/oauth-authorization-server` — RFC 8414 metadata.
//! * `GET /authorize` — validates the request (`authorize`), keeps it in KV under the hash of a
//!   fresh `state` (10 minutes) bound to this browser by a `__Host-` cookie, and sends the browser
//!   to GitHub with our own PKCE challenge.
//! * `GET /oauth/callback` — single-use `state` check, GitHub code exchange and `/user`, then the
//!   person's object stores the sealed GitHub token and either issues a code (remembered consent)
//!   or holds a pending consent shown on the consent page.
//! * `POST /authorize/consent` — the answer, held to the rules of every state-changing browser
//!   request (a form body, same origin, the token bound to its pending consent:
//!   `authorize::parse_consent_form`); redirects to the client with `code`, `state` and `iss` (or
//!   `error=access_denied`).
//! * `POST /oauth/token`, `POST /oauth/register`, `POST /oauth/revoke`. What they do past
//!   reading the request is a function of its own, typed values in and out (`grant_tokens`,
//!   `register_client`, `revoke`), which the review pages' sign-in (`web_session`) calls too.
//!
//! Per-address limits for `/authorize`, `/oauth/token` and `/oauth/register` are counted in a
//! `PersonStore` object named `ip:<address>` (in memory, one window per address): strongly
//! consistent, unlike KV, and with no new class to deploy. They fail open if that object cannot be
//! reached, so an outage there never locks everyone out. The address is `cf-connecting-ip` on a
//! deployed Worker, where only Cloudflare's edge sets it; under `wrangler dev`, which passes on a
//! client's own header, it is the loopback socket's (`config.client_address`).
//!
//! KV keys (`CLIENTS`): `client:<client_id>` (registered clients, 180 days, renewed on use),
//! `cimd:<sha256(url)>` (metadata documents, 24 hours; failures 60 seconds), `flow:<sha256(state)>`
//! (GitHub round trips, 10 minutes, deleted on use).

use futures_util::future::{select, Either};
use serde::{Deserialize, Serialize};
use worker::{web_sys, Delay, Env, Request};

use crate::config::Config;
use crate::github::api::{path, Account};
use crate::http::HttpReply;
use crate::oauth::authorize::{
    self, csrf_cookie_name, flow_cookie_name, AuthorizationRequest, Refusal, SignInFlow,
};
use crate::oauth::clients::{self, ClientRecord, Registration};
use crate::oauth::error::{self, DocumentProblem, Error};
use crate::oauth::form::Params;
use crate::oauth::github_flow::{self, GitHubTokens};
use crate::oauth::grants;
use crate::oauth::metadata::{self, authorization_server_metadata};
use crate::oauth::person_api as api;
use crate::oauth::redirect_uri::RedirectUri;
use crate::oauth::token_request::{IssuedTokens, TokenRequest};
use crate::oauth::tokens::{self, PersonId, TokenKind};
use crate::router::OAuthEndpoint;
use crate::security::compare::constant_time_eq;
use crate::security::cookie::{self, SameSite};
use crate::security::{pkce, random};
use crate::tools::caller::Caller;
use crate::web;

const CLIENTS_KV: &str = "CLIENTS";
const PERSONS: &str = "PERSONS";
const FLOW_TTL_SECONDS: u64 = 600;
const CLIENT_TTL_SECONDS: u64 = 180 * 24 * 60 * 60;
const DOCUMENT_TTL_SECONDS: u64 = 24 * 60 * 60;
const DOCUMENT_FAILURE_TTL_SECONDS: u64 = 60;
const DOCUMENT_TIMEOUT_MS: u64 = 3_000;
const MAX_FORM_BYTES: usize = 16 * 1024;

/// Serves an OAuth endpoint the route table (`router::route`) matched with a method it takes;
/// the table answers the preflight and 405s.
pub async fn handle(
    req: &mut Request,
    endpoint: OAuthEndpoint,
    query: &str,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> HttpReply {
    match endpoint {
        OAuthEndpoint::Metadata => cors(HttpReply::json(
            200,
            &authorization_server_metadata(base_url),
        ))
        .with_header("cache-control", "public, max-age=3600"),
        OAuthEndpoint::Authorize => authorize_endpoint(req, env, config, base_url, query).await,
        OAuthEndpoint::Callback => callback_endpoint(req, env, config, base_url, query).await,
        OAuthEndpoint::Consent => {
            let body = read_body(req).await;
            consent_endpoint(req, env, config, base_url, body).await
        }
        OAuthEndpoint::Token => {
            let body = read_body(req).await;
            cors(json_errors(token(req, env, config, body).await))
        }
        OAuthEndpoint::Register => {
            let body = read_body(req).await;
            cors(json_errors(register(req, env, config, body).await))
        }
        OAuthEndpoint::Revoke => {
            let body = read_body(req).await;
            cors(revoke_endpoint(env, config, body).await)
        }
    }
}

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

/// Checks a bearer token and counts the request against its person's limit, in one hop to the
/// person's object. The token carries the person id, so no lookup comes first.
///
/// Every request makes the hop; the Worker remembers no checked token. A Worker isolate cannot
/// be told that a token was revoked (Disconnect, `/oauth/revoke`, Delete my data, a replayed
/// refresh token), so a remembered check would keep a revoked token working there for as long as
/// it is remembered, where revocation must hold from the very next request; and a request served
/// from memory would not be counted against the person's limit. The object remembers checks
/// itself (`app::person`), where revocation clears them. Issue #19 measured what the hop costs:
/// about what the benchmark's one-hop JavaScript reference costs; a Durable Object RPC call costs
/// the same there as this `fetch`.
pub async fn authenticate_bearer(
    env: &Env,
    config: &Config,
    base_url: &str,
    token: &str,
) -> Result<Caller, BearerRefusal> {
    let limit = config.rate_limit_per_minute.max(1);
    check_token(env, config, (base_url, token), (limit, false)).await
}

/// [`authenticate_bearer`] for a review page's session cookie (issue 36): a post spends the
/// person's web budget, a read none (`rate_limit::web_limit`), never MCP's.
pub async fn authenticate_web(
    env: &Env,
    config: &Config,
    base_url: &str,
    token: &str,
    post: bool,
) -> Result<Caller, BearerRefusal> {
    let limit = crate::oauth::rate_limit::web_limit(post).unwrap_or(0);
    check_token(env, config, (base_url, token), (limit, true)).await
}

async fn check_token(
    env: &Env,
    config: &Config,
    (base_url, token): (&str, &str),
    (limit_per_minute, web): (u32, bool),
) -> Result<Caller, BearerRefusal> {
    let Some((kind, person)) = ours(config, token) else {
        return Err(BearerRefusal::Invalid);
    };
    if !kind.is_bearer() {
        return Err(BearerRefusal::Invalid);
    }
    let request = api::CheckRequest {
        token: token.to_string(),
        limit_per_minute,
        web,
        resource: crate::oauth::authorize::canonical_resource(base_url),
    };
    let reply: api::CheckReply = call_person(env, &person.object_name(), api::CHECK, &request)
        .await
        .map_err(|error| {
            worker::console_error!("person object check failed: {error}");
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

// ---- small helpers ----------------------------------------------------------------------

fn now() -> u64 {
    worker::Date::now().as_millis() / 1000
}

fn random_text() -> Result<String, Error> {
    random::token().map_err(|e| internal("randomness", e))
}

/// A `__Host-` cookie for the OAuth flow's own pages (always https outside local tests).
fn host_cookie(name: &str, value: &str, max_age_seconds: u64, same_site: SameSite) -> String {
    cookie::set(name, value, Some(max_age_seconds), same_site, true)
}

fn internal(what: &str, error: impl std::fmt::Display) -> Error {
    worker::console_error!("oauth: {what} failed: {error}");
    Error::Unavailable
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

fn header(req: &Request, name: &str) -> Option<String> {
    req.headers().get(name).ok().flatten()
}

/// The body, or `None` when it is unreadable or over the size we accept.
async fn read_body(req: &mut Request) -> Option<Vec<u8>> {
    match crate::body::read(req.inner(), MAX_FORM_BYTES).await {
        Ok(crate::body::Capped::Body(body)) => Some(body),
        _ => None,
    }
}

fn form(req: &Request, body: Option<Vec<u8>>) -> Result<Params, Error> {
    let content_type = header(req, "content-type").unwrap_or_default();
    if !content_type
        .to_ascii_lowercase()
        .starts_with("application/x-www-form-urlencoded")
    {
        return Err(Error::MalformedBody);
    }
    let body = body.ok_or(Error::MalformedBody)?;
    let text = String::from_utf8(body).map_err(|_| Error::MalformedBody)?;
    Ok(Params::parse(&text))
}

/// The kind and person of a token we minted, its tag checked: a made-up string never reaches
/// anyone's object (see `oauth::tokens`).
fn ours(config: &Config, token: &str) -> Option<(TokenKind, tokens::PersonId)> {
    tokens::verify(token, &config.token_tag_key()?)
}

/// One POST to a person's (or an address's) object.
pub(crate) async fn call_person<Q: Serialize, A: serde::de::DeserializeOwned>(
    env: &Env,
    object_name: &str,
    op: &str,
    body: &Q,
) -> worker::Result<A> {
    let body = serde_json::to_string(body)?;
    crate::subrequest::post_json(env, PERSONS, object_name, op, &body).await
}

/// A KV value decoded with `json::decode`, as every stored value is. Unreadable values count
/// as absent.
async fn kv_json<T: serde::de::DeserializeOwned>(
    kv: &worker::KvStore,
    key: &str,
) -> Result<Option<T>, Error> {
    let text = kv
        .get(key)
        .text()
        .await
        .map_err(|e| internal("KV read", e))?;
    Ok(text.and_then(|text| crate::json::decode(&text).ok()))
}

/// The per-address limit for the endpoints that create state (and the review pages' doors to
/// the token endpoint, see `web_session`), keyed on `req`'s address. Fails open.
pub(crate) async fn address_limit(req: &Request, env: &Env, config: &Config) -> Result<(), Error> {
    let address = config
        .client_address
        .of(header(req, "cf-connecting-ip").as_deref());
    let request = api::AddressRequest {
        limit_per_minute: config.address_rate_limit_per_minute.max(1),
    };
    match call_person::<_, api::AddressReply>(env, &format!("ip:{address}"), api::ADDRESS, &request)
        .await
    {
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
            worker::console_error!("oauth: address limit unavailable: {error}");
            Ok(())
        }
    }
}

// ---- clients ----------------------------------------------------------------------------

/// A cached Client ID Metadata Document outcome.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CachedDocument {
    Client { client: ClientRecord },
    Failed,
}

async fn load_client(env: &Env, config: &Config, client_id: &str) -> Result<ClientRecord, Error> {
    let kv = env.kv(CLIENTS_KV).map_err(|e| internal("KV binding", e))?;
    if clients::is_metadata_document_url(client_id, config.allow_loopback_client_metadata) {
        let key = format!("cimd:{}", tokens::hash(client_id));
        let cached: Option<CachedDocument> = kv_json(&kv, &key).await?;
        return match cached {
            Some(CachedDocument::Client { client }) => Ok(client),
            Some(CachedDocument::Failed) => {
                Err(Error::MetadataDocument(DocumentProblem::RecentlyFailed))
            }
            None => {
                let fetched = fetch_metadata_document(client_id).await;
                let (entry, ttl) = match &fetched {
                    Ok(client) => (
                        CachedDocument::Client {
                            client: client.clone(),
                        },
                        DOCUMENT_TTL_SECONDS,
                    ),
                    Err(_) => (CachedDocument::Failed, DOCUMENT_FAILURE_TTL_SECONDS),
                };
                if let Ok(text) = serde_json::to_string(&entry) {
                    let put = kv
                        .put(&key, crate::store::KvText(&text))
                        .map(|p| p.expiration_ttl(ttl));
                    if let Ok(put) = put {
                        if let Err(error) = put.execute().await {
                            worker::console_error!(
                                "oauth: caching a metadata document failed: {error}"
                            );
                        }
                    }
                }
                fetched.map_err(Error::MetadataDocument)
            }
        };
    }
    if client_id.contains("://") {
        return Err(Error::MetadataDocument(DocumentProblem::UnacceptableUrl));
    }
    if !client_id.starts_with(clients::REGISTERED_PREFIX) {
        return Err(Error::UnknownClient);
    }
    kv_json::<ClientRecord>(&kv, &format!("client:{client_id}"))
        .await?
        .ok_or(Error::UnknownClient)
}

/// Fetches a Client ID Metadata Document: no redirects followed, at most 5 KB, 3 seconds.
async fn fetch_metadata_document(url: &str) -> Result<ClientRecord, DocumentProblem> {
    let fetch = async {
        let unreachable = |_| DocumentProblem::Unreachable;
        let headers = web_sys::Headers::new().map_err(unreachable)?;
        headers
            .set("accept", "application/json")
            .map_err(unreachable)?;
        headers
            .set("user-agent", "logikflow")
            .map_err(unreachable)?;
        let init = web_sys::RequestInit::new();
        init.set_method("GET");
        init.set_headers(&headers);
        init.set_redirect(web_sys::RequestRedirect::Manual);
        let request = web_sys::Request::new_with_str_and_init(url, &init).map_err(unreachable)?;
        let response = crate::subrequest::send(&request)
            .await
            .map_err(|_| DocumentProblem::Unreachable)?;
        match response.status() {
            200 => {}
            300..=399 => return Err(DocumentProblem::Redirected),
            status => return Err(DocumentProblem::Status(status)),
        }
        let declared = response
            .headers()
            .get("content-length")
            .ok()
            .flatten()
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|len| len > clients::MAX_DOCUMENT_BYTES) {
            return Err(DocumentProblem::TooLarge);
        }
        match crate::body::read_stream(response.body(), clients::MAX_DOCUMENT_BYTES).await {
            Ok(crate::body::Capped::Body(body)) => {
                clients::parse_metadata_document(url, &body, now())
            }
            Ok(crate::body::Capped::TooLarge) => Err(DocumentProblem::TooLarge),
            Err(_) => Err(DocumentProblem::Unreachable),
        }
    };
    let timer = Delay::from(std::time::Duration::from_millis(DOCUMENT_TIMEOUT_MS));
    match select(Box::pin(fetch), Box::pin(timer)).await {
        Either::Left((result, _)) => result,
        Either::Right(_) => Err(DocumentProblem::Unreachable),
    }
}

/// A JSON endpoint's answer: the reply, or its error rendered as RFC 6749 JSON.
fn json_errors(result: Result<HttpReply, Error>) -> HttpReply {
    result.unwrap_or_else(|error| error::json_reply(&error))
}

// ---- /oauth/register --------------------------------------------------------------------

async fn register(
    req: &Request,
    env: &Env,
    config: &Config,
    body: Option<Vec<u8>>,
) -> Result<HttpReply, Error> {
    address_limit(req, env, config).await?;
    let body = body.ok_or(Error::MalformedBody)?;
    let client = register_client(env, clients::read_registration(&body)?).await?;
    Ok(
        HttpReply::json(201, &clients::registration_response(&client))
            .with_header("cache-control", "no-store")
            .with_header("pragma", "no-cache"),
    )
}

/// Registers a client (RFC 7591 §3.2.1): mints its id and keeps its record. Shared by
/// `/oauth/register`, which reads the registration from JSON and counts the per-address limit
/// first, and the review pages' own client (`web_session`), registered once per host.
pub(crate) async fn register_client(
    env: &Env,
    registration: Registration,
) -> Result<ClientRecord, Error> {
    let client_id = format!("{}{}", clients::REGISTERED_PREFIX, &random_text()?[..22]);
    let client = registration.record(client_id, now());
    store_client(env, &client).await?;
    Ok(client)
}

async fn store_client(env: &Env, client: &ClientRecord) -> Result<(), Error> {
    let kv = env.kv(CLIENTS_KV).map_err(|e| internal("KV binding", e))?;
    let text = serde_json::to_string(client).map_err(|e| internal("encoding a client", e))?;
    kv.put(
        &format!("client:{}", client.client_id),
        crate::store::KvText(&text),
    )
    .map_err(|e| internal("KV write", e))?
    .expiration_ttl(CLIENT_TTL_SECONDS)
    .execute()
    .await
    .map_err(|e| internal("KV write", e))
}

// ---- /authorize -------------------------------------------------------------------------

async fn authorize_endpoint(
    req: &Request,
    env: &Env,
    config: &Config,
    base_url: &str,
    query: &str,
) -> HttpReply {
    if let Err(error) = address_limit(req, env, config).await {
        return web::consent::error_reply(&error, base_url);
    }
    let params = Params::parse(query);
    let client = match authorize::client_id(&params) {
        Ok(client_id) => load_client(env, config, &client_id).await,
        Err(error) => Err(error),
    };
    let client = match client {
        Ok(client) => client,
        Err(error) => return web::consent::error_reply(&error, base_url),
    };
    let request = match authorize::validate(&params, &client, base_url) {
        Ok(request) => request,
        Err(Refusal::Page(error)) => return web::consent::error_reply(&error, base_url),
        Err(Refusal::Redirect {
            redirect_uri,
            state,
            error,
        }) => return error::redirect_reply(&redirect_uri, &error, state.as_deref(), base_url),
    };
    match start_sign_in(env, config, base_url, &client, request.clone()).await {
        Ok(reply) => reply,
        Err(error) => error::redirect_reply(
            &request.redirect_uri,
            &error,
            request.state.as_deref(),
            base_url,
        ),
    }
}

/// Keeps the validated request server-side and sends the browser to GitHub.
async fn start_sign_in(
    env: &Env,
    config: &Config,
    base_url: &str,
    client: &ClientRecord,
    request: AuthorizationRequest,
) -> Result<HttpReply, Error> {
    let client_id = config
        .github_client_id
        .as_deref()
        .ok_or(Error::NotConfigured("GITHUB_CLIENT_ID"))?;
    config
        .github_client_secret
        .as_deref()
        .ok_or(Error::NotConfigured("GITHUB_CLIENT_SECRET"))?;
    config
        .token_encryption_key
        .as_deref()
        .ok_or(Error::NotConfigured("TOKEN_ENCRYPTION_KEY"))?;
    // Registered clients stay registered while they are in use.
    if client.verified_domain().is_none() {
        store_client(env, client).await?;
    }
    let state = random_text()?;
    let verifier = random_text()?;
    let flow = SignInFlow {
        request,
        github_verifier: verifier.clone(),
        created_at: now(),
    };
    let kv = env.kv(CLIENTS_KV).map_err(|e| internal("KV binding", e))?;
    let text = serde_json::to_string(&flow).map_err(|e| internal("encoding a flow", e))?;
    kv.put(
        &format!("flow:{}", tokens::hash(&state)),
        crate::store::KvText(&text),
    )
    .map_err(|e| internal("KV write", e))?
    .expiration_ttl(FLOW_TTL_SECONDS)
    .execute()
    .await
    .map_err(|e| internal("KV write", e))?;
    let location = github_flow::authorize_url(
        &config.github_oauth_url,
        client_id,
        &format!("{base_url}{}", metadata::CALLBACK_PATH),
        &state,
        &pkce::s256(&verifier),
    );
    Ok(redirect(302, &location).with_header(
        "set-cookie",
        host_cookie(
            &flow_cookie_name(&state),
            &state,
            FLOW_TTL_SECONDS,
            SameSite::Lax,
        ),
    ))
}

// ---- /oauth/callback --------------------------------------------------------------------

async fn callback_endpoint(
    req: &Request,
    env: &Env,
    config: &Config,
    base_url: &str,
    query: &str,
) -> HttpReply {
    let params = Params::parse(query);
    let flow_cookie = flow_cookie_name(params.get("state").ok().flatten().unwrap_or_default());
    let clear_flow = host_cookie(&flow_cookie, "", 0, SameSite::Lax);
    let flow = match take_flow(req, env, &params).await {
        Ok(flow) => flow,
        Err(error) => {
            return web::consent::error_reply(&error, base_url)
                .with_header("set-cookie", clear_flow)
        }
    };
    let request = flow.request.clone();
    let back = |error: Error| {
        error::redirect_reply(
            &request.redirect_uri,
            &error,
            request.state.as_deref(),
            base_url,
        )
        .with_header(
            "set-cookie",
            host_cookie(&flow_cookie, "", 0, SameSite::Lax),
        )
    };
    if params.get("error").ok().flatten().is_some() {
        // The person declined at GitHub.
        return back(Error::AccessDenied);
    }
    let signed_in = match sign_in_with_github(config, base_url, &params, &flow).await {
        Ok(signed_in) => signed_in,
        Err(error) => return back(error),
    };
    let csrf = match random_text() {
        Ok(csrf) => csrf,
        Err(error) => return back(error),
    };
    let begin = api::BeginRequest {
        person: signed_in.person.clone(),
        login: signed_in.login.clone(),
        github: signed_in.github,
        request: request.clone(),
        csrf_hash: tokens::hash(&csrf),
    };
    let reply: api::BeginReply =
        match call_person(env, &signed_in.person.object_name(), api::BEGIN, &begin).await {
            Ok(reply) => reply,
            Err(error) => return back(internal("person object begin", error)),
        };
    match reply {
        api::BeginReply::Code { code } => {
            redirect(302, &authorize::success_location(&request, &code, base_url))
                .with_header("set-cookie", clear_flow)
        }
        api::BeginReply::Consent { consent_id } => {
            let redirect_uri = RedirectUri::parse(&request.redirect_uri).ok();
            let display = redirect_uri
                .as_ref()
                .map(RedirectUri::display)
                .unwrap_or_else(|| request.redirect_uri.clone());
            let view = web::consent::ConsentView {
                client_name: &request.client_name,
                verified_domain: request.verified_domain.as_deref(),
                redirect_display: &display,
                login: &signed_in.login,
                consent_id: &consent_id,
                csrf: &csrf,
                base_url,
            };
            let csp = web::consent::consent_csp(
                redirect_uri
                    .as_ref()
                    .and_then(RedirectUri::csp_source)
                    .as_deref(),
            );
            HttpReply::new(
                200,
                "text/html; charset=utf-8",
                web::consent::consent_page(&view),
            )
            .with_header("content-security-policy", csp)
            .with_header("x-frame-options", "DENY")
            .with_header("referrer-policy", "no-referrer")
            .with_header("cache-control", "no-store")
            .with_header("set-cookie", clear_flow)
            .with_header(
                "set-cookie",
                host_cookie(
                    &csrf_cookie_name(&consent_id),
                    &csrf,
                    grants::CONSENT_TTL_SECONDS,
                    SameSite::Strict,
                ),
            )
        }
    }
}

/// The pending sign-in named by `state`, if this browser started it; used up on the way.
async fn take_flow(req: &Request, env: &Env, params: &Params) -> Result<SignInFlow, Error> {
    let state = params
        .get("state")
        .ok()
        .flatten()
        .ok_or(Error::SignInExpired)?;
    let cookie_header = header(req, "cookie");
    let bound = cookie::read(cookie_header.as_deref(), &flow_cookie_name(state))
        .is_some_and(|value| constant_time_eq(value.as_bytes(), state.as_bytes()));
    if !bound {
        return Err(Error::SignInExpired);
    }
    let kv = env.kv(CLIENTS_KV).map_err(|e| internal("KV binding", e))?;
    let key = format!("flow:{}", tokens::hash(state));
    let flow: Option<SignInFlow> = kv_json(&kv, &key).await?;
    let flow = flow.ok_or(Error::SignInExpired)?;
    kv.delete(&key)
        .await
        .map_err(|e| internal("KV delete", e))?;
    if now() >= flow.created_at + FLOW_TTL_SECONDS {
        return Err(Error::SignInExpired);
    }
    Ok(flow)
}

struct SignedIn {
    person: PersonId,
    login: String,
    github: GitHubTokens,
}

/// Exchanges GitHub's code (with our PKCE verifier) and asks GitHub who signed in.
async fn sign_in_with_github(
    config: &Config,
    base_url: &str,
    params: &Params,
    flow: &SignInFlow,
) -> Result<SignedIn, Error> {
    let code = params.get("code")?.ok_or(Error::GitHubRefused)?;
    let (Some(client_id), Some(secret)) = (
        config.github_client_id.as_deref(),
        config.github_client_secret.as_deref(),
    ) else {
        return Err(Error::NotConfigured("GITHUB_CLIENT_ID"));
    };
    let body = github_flow::code_exchange_body(
        client_id,
        secret,
        code,
        &format!("{base_url}{}", metadata::CALLBACK_PATH),
        &flow.github_verifier,
    );
    let text = post_github_form(
        &format!("{}/login/oauth/access_token", config.github_oauth_url),
        body,
        config.github_timeout_ms,
    )
    .await?;
    let github = github_flow::parse_token_response(&text, now()).map_err(|failure| {
        worker::console_error!("oauth: GitHub code exchange refused: {failure}");
        Error::GitHubRefused
    })?;
    let client = crate::github::fetch::github(config, &github.access_token);
    let account: Account = client.get(&path::user()).await.map_err(|failure| {
        worker::console_error!("oauth: GitHub /user failed: {failure}");
        Error::GitHubUnavailable
    })?;
    if account.id == 0 {
        return Err(Error::GitHubUnavailable);
    }
    Ok(SignedIn {
        person: PersonId::from_github_id(account.id),
        login: account.login,
        github,
    })
}

async fn post_github_form(url: &str, body: String, timeout_ms: u64) -> Result<String, Error> {
    match crate::subrequest::post_github_form(url, &body, timeout_ms).await {
        Ok(reply) if reply.status == 200 => Ok(reply.body),
        Ok(reply) => {
            worker::console_error!(
                "oauth: GitHub token endpoint answered HTTP {}",
                reply.status
            );
            Err(Error::GitHubUnavailable)
        }
        Err(error) => {
            worker::console_error!("oauth: GitHub token endpoint failed: {error}");
            Err(Error::GitHubUnavailable)
        }
    }
}

// ---- /authorize/consent -----------------------------------------------------------------

async fn consent_endpoint(
    req: &Request,
    env: &Env,
    config: &Config,
    base_url: &str,
    body: Option<Vec<u8>>,
) -> HttpReply {
    let body = body
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default();
    let consent_param = Params::parse(&body)
        .get("consent")
        .ok()
        .flatten()
        .unwrap_or_default()
        .to_string();
    let clear_csrf = host_cookie(&csrf_cookie_name(&consent_param), "", 0, SameSite::Strict);
    let cookie_header = header(req, "cookie");
    let origin = header(req, "origin");
    let fetch_site = header(req, "sec-fetch-site");
    let content_type = header(req, "content-type");
    let headers = authorize::ConsentHeaders {
        content_type: content_type.as_deref(),
        cookie: cookie_header.as_deref(),
        origin: origin.as_deref(),
        sec_fetch_site: fetch_site.as_deref(),
    };
    let form = match authorize::parse_consent_form(&body, headers, base_url) {
        Ok(form) => form,
        Err(error) => return web::consent::error_reply(&error, base_url),
    };
    let Some((TokenKind::Consent, person)) = ours(config, &form.consent_id) else {
        return web::consent::error_reply(&Error::ConsentExpired, base_url);
    };
    let request = api::ConsentRequest {
        consent_id: form.consent_id.clone(),
        csrf: form.csrf.clone(),
        approve: form.approve,
        may_write: form.may_write,
    };
    let reply: api::ConsentReply =
        match call_person(env, &person.object_name(), api::CONSENT, &request).await {
            Ok(reply) => reply,
            Err(error) => {
                return web::consent::error_reply(
                    &internal("person object consent", error),
                    base_url,
                )
            }
        };
    match reply {
        api::ConsentReply::Approved { code, request } => {
            redirect(303, &authorize::success_location(&request, &code, base_url))
                .with_header("set-cookie", clear_csrf)
        }
        api::ConsentReply::Denied { request } => {
            let mut reply = error::redirect_reply(
                &request.redirect_uri,
                &Error::AccessDenied,
                request.state.as_deref(),
                base_url,
            );
            reply.status = 303;
            reply.with_header("set-cookie", clear_csrf)
        }
        api::ConsentReply::Expired => web::consent::error_reply(&Error::ConsentExpired, base_url)
            .with_header("set-cookie", clear_csrf),
    }
}

// ---- /oauth/token -----------------------------------------------------------------------

async fn token(
    req: &Request,
    env: &Env,
    config: &Config,
    body: Option<Vec<u8>>,
) -> Result<HttpReply, Error> {
    address_limit(req, env, config).await?;
    let params = form(req, body)?;
    let request = TokenRequest::from_form(&params, access_ttl_seconds(config))?;
    let issued = grant_tokens(env, config, &request).await?;
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

/// How long the access tokens we issue live (`ACCESS_TOKEN_TTL_SECONDS`, at least a second).
pub(crate) fn access_ttl_seconds(config: &Config) -> u64 {
    config.access_token_ttl_seconds.max(1)
}

/// Issues tokens for a code exchange or a refresh (OAuth 2.1 §4.1.3, §4.3). The object of the
/// person the presented token names decides everything about the grant (`grants`: PKCE, client,
/// redirect URI, resource, single-use codes, refresh rotation and replay). Shared by
/// `/oauth/token` and the review pages' sign-in (`web_session`); each counts the per-address
/// limit itself first.
pub(crate) async fn grant_tokens(
    env: &Env,
    config: &Config,
    request: &TokenRequest,
) -> Result<IssuedTokens, Error> {
    let object = request
        .person(config.token_tag_key().as_ref())?
        .object_name();
    let reply: api::TokenReply = match request {
        TokenRequest::Code(request) => call_person(env, &object, api::TOKEN, request)
            .await
            .map_err(|e| internal("person object token", e))?,
        TokenRequest::Refresh(request) => call_person(env, &object, api::REFRESH, request)
            .await
            .map_err(|e| internal("person object refresh", e))?,
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

// ---- /oauth/revoke ----------------------------------------------------------------------

async fn revoke_endpoint(env: &Env, config: &Config, body: Option<Vec<u8>>) -> HttpReply {
    let params = Params::parse(
        &body
            .and_then(|b| String::from_utf8(b).ok())
            .unwrap_or_default(),
    );
    let revoked = match params.require("token") {
        Ok(token) => revoke(env, config, token, params.get("client_id").ok().flatten()).await,
        Err(error) => Err(error),
    };
    match revoked {
        Ok(()) => HttpReply::empty(200).with_header("cache-control", "no-store"),
        Err(error) => error::json_reply(&error),
    }
}

/// Revokes an access, refresh or API token (RFC 7009 §2.1); an access or refresh token ends its
/// whole grant, unless `client_id` names another client. An unknown or invalid token is no
/// error (§2.2). API tokens are revoked here too (holding one is the authority to end it), so a
/// script can retire its own token. Shared by `/oauth/revoke` and sign-out (`web_session`).
pub(crate) async fn revoke(
    env: &Env,
    config: &Config,
    token: &str,
    client_id: Option<&str>,
) -> Result<(), Error> {
    if let Some((TokenKind::Access | TokenKind::Refresh | TokenKind::Api, person)) =
        ours(config, token)
    {
        let request = api::RevokeRequest {
            token: token.to_string(),
            client_id: client_id.map(str::to_string),
        };
        // The object's answer carries nothing; its status says whether the revocation happened.
        let body = serde_json::to_string(&request).map_err(|e| internal("encoding", e))?;
        let object = person.object_name();
        let reply = crate::subrequest::post_to_object(env, PERSONS, &object, api::REVOKE, &body)
            .await
            .map_err(|e| internal("person object revoke", e))?;
        if reply.status != 200 {
            let refusal = worker::Error::RustError(reply.body);
            return Err(internal("person object revoke", refusal));
        }
    }
    Ok(())
}
