//! The Worker's entry point (wasm only): hands requests to `service` and converts the core's
//! [`HttpReply`] into the runtime's response.
//!
//! Routing and every decision live in the core; this file only moves bytes and reads bindings.
//! It takes the raw `web_sys::Request`: `/mcp`, the hot path, is served from the request's
//! parts, because building a `worker::Request` reads the request's `cf` object, which the
//! runtime builds on demand and which cost ~5% of an `/mcp` request's CPU in
//! `tests/bench/profile.mjs`. Every other route gets a `worker::Request` as before.
//!
//! Each request runs inside a `log::Scoped` record, written as one JSON `console.log` line once
//! the reply is known (see `log`).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsValue;
use worker::js_sys::Uint8Array;
use worker::{event, web_sys, Context, Env, Result};

use crate::config::Config;
use crate::http::{Headers, HttpReply};
use crate::log;
use crate::router::{route, Route};
use crate::service;

#[event(start)]
fn start() {
    console_error_panic_hook::set_once();
}

#[event(fetch)]
pub async fn fetch(req: web_sys::Request, env: Env, _ctx: Context) -> Result<web_sys::Response> {
    let started = worker::Date::now().as_millis();
    let config = crate::bindings::config(&env);
    let record = Rc::new(RefCell::new(log::Record::default()));
    let served = log::Scoped::new(serve(req, &env, config), record.clone()).await;
    let reply = match served {
        Ok(reply) => reply,
        Err(error) => {
            worker::console_error!("unhandled error: {error}");
            record.borrow_mut().error.get_or_insert("internal");
            HttpReply::json(
                500,
                &serde_json::json!({ "error": "internal_error", "message": "Something went wrong on our side; try again" }),
            )
        }
    };
    let line = {
        let mut record = record.borrow_mut();
        record.status = reply.status;
        record.ms = worker::Date::now().as_millis().saturating_sub(started);
        record.to_json()
    };
    web_sys::console::log_1(&JsValue::from_str(&line));
    to_response(reply)
}

async fn serve(req: web_sys::Request, env: &Env, config: &Config) -> Result<HttpReply> {
    let url = url::Url::parse(&req.url())?;
    let method = req.method();
    let route = route(&method, url.path());
    log::note(|record| record.route = route.log_label(url.path()));
    if url.path() == CRASH_PATH && config.local_dev && config.crash_test {
        panic!("a deliberate panic: CRASH_TEST is set and {CRASH_PATH} was requested");
    }
    if matches!(route, Route::Mcp) {
        let headers = Headers::new(worker::Headers(req.headers()).entries());
        let body = crate::body::read(&req, crate::mcp::transport::MAX_BODY_BYTES);
        return service::mcp(&method, &url, &headers, body, env, config).await;
    }
    service::handle(worker::Request::from(req), route, env, config).await
}

/// Panics on purpose, so `tests/e2e/recovery.test.mjs` can show that `src/worker.mjs` resets the
/// wasm instance and the Durable Objects rebuild their Rust half. Only in local development with
/// the `CRASH_TEST` var set; anywhere else the path is an ordinary 404.
const CRASH_PATH: &str = "/__crash";

fn to_response(reply: HttpReply) -> Result<web_sys::Response> {
    let headers = web_sys::Headers::new()?;
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
    let init = web_sys::ResponseInit::new();
    init.set_status(reply.status);
    init.set_headers(&JsValue::from(headers));
    let response = if reply.body.is_empty() {
        web_sys::Response::new_with_opt_str_and_init(None, &init)?
    } else {
        let body = Uint8Array::from(reply.body.as_bytes());
        web_sys::Response::new_with_opt_buffer_source_and_init(Some(&body), &init)?
    };
    Ok(response)
}

#[cfg(test)]
mod tests;
