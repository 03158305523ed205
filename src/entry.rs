//! The Worker's entry point (wasm only): converts `worker` requests into the pure core's values,
//! routes them, and converts the core's [`HttpReply`] back into a `worker::Response`.
//!
//! Routing and every decision live in the core; this file only moves bytes and reads bindings.

use worker::{event, Context, Env, Request, Response, Result};

use crate::config::Config;
use crate::http::HttpReply;
use crate::service;

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
pub async fn fetch(req: Request, env: Env, _ctx: Context) -> Result<Response> {
    let reply = match service::handle(req, &env, Config::for_isolate(&env)).await {
        Ok(reply) => reply,
        Err(error) => {
            worker::console_error!("unhandled error: {error}");
            HttpReply::json(
                500,
                &serde_json::json!({ "error": "internal_error", "message": "Something went wrong on our side; try again" }),
            )
        }
    };
    to_response(reply)
}

fn to_response(reply: HttpReply) -> Result<Response> {
    let response = if reply.body.is_empty() {
        Response::empty()?
    } else {
        Response::ok(reply.body)?
    };
    let headers = worker::Headers::new();
    for (name, value) in &reply.headers {
        headers.append(name, value)?;
    }
    if !reply
        .headers
        .iter()
        .any(|(name, _)| name == "cache-control")
    {
        headers.set("cache-control", "no-store")?;
    }
    headers.set("x-content-type-options", "nosniff")?;
    Ok(response.with_status(reply.status).with_headers(headers))
}
