//! Orchestration (wasm only): authenticates a request, runs the core's decisions against GitHub
//! and storage, and returns the reply. The pure modules decide; this module carries it out.

use worker::{Env, Request, Result};

mod forms;
mod oauth_server;
mod review;
mod review_write;
mod saved_store;
mod settings;
mod web_session;

use crate::app::pull_request::calls as reviewer;
use crate::app::pull_request::tools as relayed;
use crate::body::Capped;
use crate::config::Config;
use crate::http::{is_loopback_host, Headers, HttpReply};
use crate::log;
use crate::mcp::catalog::Runs;
use crate::mcp::dispatch::{self, Era, Outcome, ToolRequest, ToolResult};
use crate::mcp::transport::{self, RequestParts};
use crate::oauth::challenge::{self, Refusal};
use crate::router::Route;
use crate::tools::caller::Caller;
use crate::tools::pull_target::PullTarget;
use crate::tools::relay::RelayedCall;
use crate::tools::worker_side;
use crate::web;

/// Handles one request to the Worker, on the route the entry found for it (`router::route`).
pub async fn handle(
    mut req: Request,
    route: Route,
    env: &Env,
    config: &Config,
) -> Result<HttpReply> {
    let url = req.url()?;
    let base_url = config.base_url(&url);
    Ok(match route {
        Route::OAuth(endpoint) => {
            let query = url.query().unwrap_or_default();
            oauth_server::handle(&mut req, endpoint, query, env, config, &base_url).await
        }
        Route::OAuthPreflight(_) => oauth_server::preflight(),
        // The entry serves `/mcp` through [`mcp`] straight from the raw request; it never routes
        // it here, and a second call site would compile the whole MCP path into this future again.
        Route::Mcp => html(404, web::pages::not_found(&base_url)),
        Route::ResourceMetadata => HttpReply::json(200, &challenge::resource_metadata(&base_url))
            .with_header("cache-control", "public, max-age=3600")
            .with_header("access-control-allow-origin", "*"),
        Route::Home => html(200, web::pages::home(&base_url)),
        Route::GuideMarkdown => HttpReply::new(
            200,
            "text/markdown; charset=utf-8",
            crate::mcp::catalog::ordering_guide(),
        ),
        // One arm for every page and request of a pull request, so the viewer's sign-in is
        // checked in one place (and its future is compiled into the wasm once, not per route).
        pull_route @ (Route::Review(_)
        | Route::Tick(_)
        | Route::Arrange(_)
        | Route::ReviewDiff(_)
        | Route::ReviewWrite(..)
        | Route::ReviewContext(_)) => match viewer(&req, env, config, &base_url).await? {
            review::Viewer::SignIn(reply) => reply,
            review::Viewer::Known(caller) => {
                pull_request_route(&mut req, &pull_route, env, config, &caller, &base_url).await?
            }
        },
        Route::SignIn => web_session::sign_in(&req, env, &base_url).await?,
        Route::SignInCallback => web_session::callback(&req, env, config, &base_url).await?,
        Route::SignOut => web_session::sign_out(&mut req, env, config, &base_url).await?,
        settings_route @ (Route::Settings
        | Route::SettingsDisconnect
        | Route::SettingsCreateToken
        | Route::SettingsRevokeToken
        | Route::SettingsDeleteData) => {
            settings_route_of(&mut req, &settings_route, env, config, &base_url).await?
        }
        Route::Setup => setup(&req, config, &base_url),
        Route::NotFound => html(404, web::pages::not_found(&base_url)),
        Route::MethodNotAllowed(allow) => {
            HttpReply::new(405, "text/plain; charset=utf-8", "Method not allowed")
                .with_header("allow", allow)
        }
    })
}

/// A page or request of a pull request, for the signed-in `caller`.
async fn pull_request_route(
    req: &mut Request,
    route: &Route,
    env: &Env,
    config: &Config,
    caller: &Caller,
    base_url: &str,
) -> Result<HttpReply> {
    Ok(match route {
        Route::Review(pull) => {
            let route = (pull, reviewer::Route::Page);
            review::reviewer_route(req, env, config, caller, route, base_url).await?
        }
        Route::Tick(pull) => review::tick(req, env, config, caller, pull, base_url).await?,
        Route::Arrange(pull) => review::arrange(req, env, config, caller, pull, base_url).await?,
        Route::ReviewWrite(pull, write) => {
            review_write::handle(req, env, config, caller, pull, *write, base_url).await?
        }
        Route::ReviewDiff(pull) => {
            let route = (pull, reviewer::Route::Diff);
            review::reviewer_route(req, env, config, caller, route, base_url).await?
        }
        Route::ReviewContext(pull) => {
            let route = (pull, reviewer::Route::Context);
            review::reviewer_route(req, env, config, caller, route, base_url).await?
        }
        _ => html(404, web::pages::not_found(base_url)),
    })
}

/// The settings routes: in local development a notice (the local user has no person object),
/// else `settings`.
async fn settings_route_of(
    req: &mut Request,
    route: &Route,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> Result<HttpReply> {
    let url = req.url()?;
    let headers = Headers::new(req.headers().entries());
    if local_caller(&headers, url.host_str().unwrap_or_default(), config).is_some() {
        return Ok(html(200, web::settings_page::local_dev(base_url)));
    }
    settings::handle(req, route, env, config, base_url).await
}

/// `/mcp`: transport checks, authentication, then the body (read only once the caller is known,
/// through `body`) and dispatch. Takes the request's parts rather than a `worker::Request`, so the
/// entry can serve this hot path straight from the raw request (see `entry`).
pub async fn mcp(
    method: &str,
    url: &url::Url,
    headers: &Headers,
    body: impl std::future::Future<Output = Result<Capped>>,
    env: &Env,
    config: &Config,
) -> Result<HttpReply> {
    let base_url = config.base_url(url);
    let parts = RequestParts {
        method,
        headers,
        own_origin: &base_url,
        allowed_origins: &config.allowed_origins,
    };
    let cross_origin = match transport::check_origin(&parts) {
        Ok(cross_origin) => cross_origin,
        Err(reply) => return Ok(reply),
    };
    let reply = mcp_message(&parts, url, body, env, config).await?;
    Ok(match cross_origin {
        Some(origin) => transport::allow_cross_origin(reply, &origin),
        None => reply,
    })
}

/// The largest refused body read to echo its request id.
const ID_READ_LIMIT: usize = 64 * 1024;

/// `/mcp` after the origin check: who is calling, then the message itself.
async fn mcp_message(
    parts: &RequestParts<'_>,
    url: &url::Url,
    body: impl std::future::Future<Output = Result<Capped>>,
    env: &Env,
    config: &Config,
) -> Result<HttpReply> {
    let base_url = parts.own_origin;
    let host = url.host_str().unwrap_or_default();
    let caller = match authenticate(parts.headers, host, env, config, base_url).await {
        Ok(caller) => caller,
        // Refused before the body was read: a small declared body is read for the request's
        // id; a large or undeclared one is not worth reading for a refusal.
        Err(reply) => {
            let small = parts
                .headers
                .get("content-length")
                .and_then(|length| length.trim().parse::<usize>().ok())
                .is_some_and(|length| length <= ID_READ_LIMIT);
            if !small {
                return Ok(reply);
            }
            return Ok(match body.await {
                Ok(Capped::Body(body)) => transport::with_request_id(reply, &body),
                _ => reply,
            });
        }
    };
    if let Err(reply) = transport::check_message(parts) {
        return Ok(reply);
    }
    let Capped::Body(body) = body.await? else {
        return Ok(transport::too_large());
    };
    Ok(match dispatch::dispatch(parts.headers, &body) {
        Outcome::Reply(reply) => reply,
        Outcome::Tool(request) => {
            log::note(|record| record.tool = Some(request.tool.as_str()));
            if request.tool.writes() && !caller.may_write {
                log::error("insufficient_scope");
                return Ok(challenge::insufficient_scope_reply(base_url, &request.id));
            }
            let result = run_tool(&request, &body, &caller, env, base_url).await;
            if matches!(result, ToolResult::Error(_)) {
                log::error("tool_error");
            }
            dispatch::tool_reply(&request, result)
        }
    })
}

/// Who is viewing a review page: the local user in local development, else the person signed in
/// on the web (see `web_session`), else the reply that signs them in.
async fn viewer(
    req: &Request,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> Result<review::Viewer> {
    let url = req.url()?;
    let headers = Headers::new(req.headers().entries());
    if let Some(caller) = local_caller(&headers, url.host_str().unwrap_or_default(), config) {
        return Ok(review::Viewer::Known(caller));
    }
    Ok(
        match web_session::viewer(req, env, config, base_url).await? {
            Ok(caller) => review::Viewer::Known(caller),
            Err(reply) => review::Viewer::SignIn(reply),
        },
    )
}

/// `/setup` (`web::setup_page`): the page while the server has no GitHub client id, with its own
/// CSP; after that, and to any method but GET and HEAD, the 404 page, as for an unknown path.
fn setup(req: &Request, config: &Config, base_url: &str) -> HttpReply {
    let method = req.method();
    let read = matches!(method, worker::Method::Get | worker::Method::Head);
    if !read || config.github_client_id.is_some() {
        return html(404, web::pages::not_found(base_url));
    }
    let (web, api) = (&config.github_oauth_url, &config.github_api_url);
    let body = match method {
        worker::Method::Head => String::new(),
        _ => web::setup_page::page(web, api),
    };
    HttpReply::new(200, "text/html; charset=utf-8", body)
        .with_header("content-security-policy", web::setup_page::csp(web, api))
        .with_header("x-frame-options", "DENY")
        .with_header("referrer-policy", "no-referrer")
}

fn html(status: u16, page: String) -> HttpReply {
    web::pages::reply(status, page)
}

/// Resolves who is calling: a bearer token is checked against its person's grant and counted
/// against their rate limit in one hop to the person's object; in local development a loopback
/// request without one acts as the configured local user. A refusal is the reply to send.
async fn authenticate(
    headers: &Headers,
    host: &str,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> std::result::Result<Caller, HttpReply> {
    use oauth_server::{authenticate_bearer, BearerRefusal};
    let Some(authorization) = headers.get("authorization") else {
        return local_caller(headers, host, config).ok_or_else(|| {
            log::error("missing_token");
            challenge::unauthorized(base_url, Refusal::MissingToken)
        });
    };
    let Some(token) = challenge::bearer_token(authorization) else {
        log::error("invalid_token");
        return Err(challenge::unauthorized(base_url, Refusal::InvalidToken));
    };
    let checked = authenticate_bearer(env, config, base_url, token).await;
    match &checked {
        Ok(_) => log::rate_limit(true),
        Err(BearerRefusal::RateLimited { .. }) => log::rate_limit(false),
        Err(BearerRefusal::Invalid) => log::error("invalid_token"),
        Err(BearerRefusal::Unavailable) => log::error("unavailable"),
    }
    match checked {
        Ok(caller) => Ok(caller),
        Err(BearerRefusal::Invalid) => {
            Err(challenge::unauthorized(base_url, Refusal::InvalidToken))
        }
        Err(BearerRefusal::RateLimited {
            retry_after_seconds,
        }) => Err(challenge::rate_limited_reply(retry_after_seconds)),
        Err(BearerRefusal::Unavailable) => Err(challenge::unavailable_reply()),
    }
}

/// In local development, a loopback request without credentials acts as the configured user.
fn local_caller(headers: &Headers, host: &str, config: &Config) -> Option<Caller> {
    if !config.local_dev || !is_loopback_host(host) || headers.get("authorization").is_some() {
        return None;
    }
    let token = config.local_github_token.as_ref()?;
    let login = config
        .local_github_login
        .clone()
        .unwrap_or_else(|| "local".into());
    Some(Caller {
        person: format!("local:{login}"),
        login,
        github_token: token.clone(),
        may_write: true,
        client_name: None,
    })
}

/// Runs a tool. A tool that reads nothing of a pull request (the guide) runs here; every other
/// runs in its pull request's Durable Object (`tools::relay` says why), which this routes by the
/// call's target alone (`tools::pull_target`), whatever the tool: a call whose target is wrong is
/// answered here with the tool's own message (`app::pull_request::tools::refusal`), so it costs
/// no object request; the object reads the rest of the arguments, once, from `rpc_body` (the
/// `tools/call` as it came), runs the tool, and its answer is framed here.
async fn run_tool(
    request: &ToolRequest,
    rpc_body: &[u8],
    caller: &Caller,
    env: &Env,
    base_url: &str,
) -> ToolResult {
    let unanswered = match request.tool.runs() {
        Runs::Worker => {
            let answer = worker_side::run(request.tool, base_url);
            return answer.unwrap_or_else(|| ToolResult::Error(worker_side::NO_RUN.into()));
        }
        Runs::PullRequest(unanswered) => unanswered,
    };
    let Some(target) = PullTarget::of(&request.arguments) else {
        return ToolResult::Error(
            relayed::refusal(request.tool, &request.arguments)
                .unwrap_or_else(|| "The request is invalid".into()),
        );
    };
    // Parsed as UTF-8 by dispatch already; the object reads the arguments from it.
    let Ok(rpc_body) = std::str::from_utf8(rpc_body) else {
        return ToolResult::Error("The request is invalid: the body is not UTF-8".into());
    };
    let call = RelayedCall {
        tool: request.tool.as_str().to_string(),
        arguments: serde_json::Map::new(),
        github_token: caller.github_token.clone(),
        may_write: caller.may_write,
        base_url: base_url.to_string(),
        login: caller.login.clone(),
        client: client_name(request, caller),
    };
    match saved_store::run_tool(env, target.path(), &call, rpc_body).await {
        Ok(result) => result,
        Err(error) => {
            worker::console_error!("the pull request's object did not run the tool: {error}");
            ToolResult::Error(unanswered.message().into())
        }
    }
}

/// The app in `updatedBy` (DESIGN.md section 4): on 2026-07-28 requests the name the client
/// reports in `_meta` clientInfo, else the credential's own name (the OAuth client's registered
/// name or the API token's name); 2025 requests (whose clientInfo belongs to `initialize`) the
/// other way round. The person's login is shown beside it either way.
fn client_name(request: &ToolRequest, caller: &Caller) -> Option<String> {
    let (first, second) = match request.era {
        Era::Modern => (&request.client_name, &caller.client_name),
        Era::Legacy => (&caller.client_name, &request.client_name),
    };
    first.clone().or_else(|| second.clone())
}

#[cfg(test)]
mod tests;
