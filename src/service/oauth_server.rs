//! The OAuth endpoints' shell (wasm only): reads the request into an `app::oauth::Incoming`,
//! calls `app::oauth::Server` over the Worker's ports (`store::WorkerPlatform`), and sends the
//! reply. The flows, refusals, limits and KV keys are `app::oauth`'s, tested natively there.
//!
//! The caller's address is read here: `cf-connecting-ip` on a deployed Worker, where only
//! Cloudflare's edge sets it; under `wrangler dev`, which passes on a client's own header, it is
//! the loopback socket's (`config.client_address`).

use worker::{Env, Request};

use crate::app::oauth::{Incoming, Server};
use crate::config::Config;
use crate::http::HttpReply;
use crate::router::OAuthEndpoint;
use crate::store::WorkerPlatform;
use crate::tools::caller::Caller;

pub use crate::app::oauth::{preflight, BearerRefusal};

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
    let body = match endpoint {
        OAuthEndpoint::Metadata | OAuthEndpoint::Authorize | OAuthEndpoint::Callback => None,
        _ => read_body(req).await,
    };
    let incoming = Incoming {
        query: query.to_string(),
        body,
        content_type: header(req, "content-type"),
        cookie: header(req, "cookie"),
        origin: header(req, "origin"),
        sec_fetch_site: header(req, "sec-fetch-site"),
        address: address(req, config),
    };
    let ports = WorkerPlatform::new(env);
    server(&ports, config, base_url)
        .handle(endpoint, incoming)
        .await
}

/// `app::oauth::Server` on the Worker's ports for one request.
fn server<'a>(
    ports: &'a WorkerPlatform<'a>,
    config: &'a Config,
    base_url: &'a str,
) -> Server<'a, WorkerPlatform<'a>> {
    Server {
        ports,
        config,
        base_url,
    }
}

fn header(req: &Request, name: &str) -> Option<String> {
    req.headers().get(name).ok().flatten()
}

/// The caller's address, as the per-address limits key it.
fn address(req: &Request, config: &Config) -> String {
    config
        .client_address
        .of(header(req, "cf-connecting-ip").as_deref())
}

/// The body, or `None` when it is unreadable or over the size we accept.
async fn read_body(req: &mut Request) -> Option<Vec<u8>> {
    match crate::body::read(req.inner(), MAX_FORM_BYTES).await {
        Ok(crate::body::Capped::Body(body)) => Some(body),
        _ => None,
    }
}

/// `app::oauth::Server::authenticate_bearer` on the Worker's ports.
pub async fn authenticate_bearer(
    env: &Env,
    config: &Config,
    base_url: &str,
    token: &str,
) -> Result<Caller, BearerRefusal> {
    let ports = WorkerPlatform::new(env);
    server(&ports, config, base_url)
        .authenticate_bearer(token)
        .await
}
