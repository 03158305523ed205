//! The review pages' web session's shell (wasm only): reads the request into an
//! `app::oauth::session::WebRequest` and calls `app::oauth` (sign-in, its callback, the viewer
//! with its refresh, sign-out). Sign-out's form is checked here first, as every browser POST is
//! (`forms::verified_post`).

use worker::{Env, Method, Request};

use super::forms;
use crate::app::oauth::session::{self, WebRequest};
use crate::app::oauth::Server;
use crate::config::Config;
use crate::http::HttpReply;
use crate::store::WorkerPlatform;
use crate::tools::caller::Caller;
use crate::web::csrf::BodyKind;

/// The sign-out form holds its token alone.
const SIGN_OUT_FORM_BYTES: usize = 16 * 1024;

/// What the session's routes read from `req`.
fn web_request(req: &Request, config: &Config) -> worker::Result<WebRequest> {
    let address = config.client_address.of(req
        .headers()
        .get("cf-connecting-ip")
        .ok()
        .flatten()
        .as_deref());
    Ok(WebRequest {
        url: req.url()?,
        method: req.method().to_string(),
        cookie: req.headers().get("cookie").ok().flatten(),
        address,
    })
}

/// An application error as the entry's 500 (logged there), as when the sign-in called the
/// endpoints' functions directly.
fn fault(error: crate::oauth::error::Error) -> worker::Error {
    worker::Error::RustError(error.description())
}

/// `GET /signin?next=…[&access=change]`.
pub async fn sign_in(req: &Request, env: &Env, base_url: &str) -> worker::Result<HttpReply> {
    let config = crate::bindings::config(env);
    let request = web_request(req, config)?;
    let ports = WorkerPlatform::new(env);
    let server = Server {
        ports: &ports,
        config,
        base_url,
    };
    server.web_sign_in(&request).await.map_err(fault)
}

/// `GET /signin/callback?code=…&state=…`.
pub async fn callback(
    req: &Request,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let request = web_request(req, config)?;
    let ports = WorkerPlatform::new(env);
    let server = Server {
        ports: &ports,
        config,
        base_url,
    };
    server.web_callback(&request).await.map_err(fault)
}

/// `/signout`. `GET` shows a button; a `POST` that passes the checks of every browser POST
/// (a form body, same origin, this session's token) revokes the session's grant and clears the
/// cookies. Any other POST gets 403 (or 415) and changes nothing.
pub async fn sign_out(
    req: &mut Request,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let request = web_request(req, config)?;
    let person = session::session_person(&request, config);
    if req.method() != Method::Post {
        let token = forms::page_token(req, config, &person)?;
        let page = crate::web::pages::sign_out(&token.token, base_url);
        let reply = super::html(200, page).with_header("cache-control", "no-store");
        return Ok(token.with_cookie(reply));
    }
    let kind = BodyKind::Form;
    let verified =
        forms::verified_post(req, config, base_url, &person, kind, SIGN_OUT_FORM_BYTES).await?;
    if let Err(refusal) = verified {
        return Ok(forms::refusal_page(refusal, base_url));
    }
    let ports = WorkerPlatform::new(env);
    let server = Server {
        ports: &ports,
        config,
        base_url,
    };
    Ok(server.web_sign_out(&request).await)
}

/// The signed-in person, or the reply that gets them signed in (a refresh, else sign-in).
pub async fn viewer(
    req: &Request,
    env: &Env,
    config: &Config,
    base_url: &str,
) -> worker::Result<Result<Caller, HttpReply>> {
    let request = web_request(req, config)?;
    let ports = WorkerPlatform::new(env);
    let server = Server {
        ports: &ports,
        config,
        base_url,
    };
    server.viewer(&request).await.map_err(fault)
}
