//! The GitHub transport on Workers (wasm only): one exchange over the Worker's fetch, its answer
//! read whole within the time limit (`subrequest`), and the client the Worker and its objects
//! use, built from the configuration (`client::GitHub::new`).
//!
//! What not: no retries, classification or decoding; those are the core's (`github::client`).

use futures_util::future::{select, Either};
use worker::{web_sys, Delay};

use super::client::HEADERS_READ;
use crate::config::Config;
use crate::ports::github::{Answer, Exchange, GitHubTransport, Method, NoAnswer};
use crate::subrequest as wire;

/// The client as the Worker and its objects use it: over [`FetchTransport`], on the Worker's
/// clock.
pub type GitHub<'a> = super::client::GitHub<'a, FetchTransport>;

/// A client acting for `token`, as `config` says.
pub fn github<'a>(config: &'a Config, token: &'a str) -> GitHub<'a> {
    GitHub::new(
        config,
        token,
        &FetchTransport,
        &crate::bindings::WorkerClock,
    )
}

/// Sends exchanges over the Worker's fetch.
pub struct FetchTransport;

impl GitHubTransport for FetchTransport {
    async fn exchange(&self, exchange: Exchange, timeout_ms: u64) -> Result<Answer, NoAnswer> {
        let network = |e: worker::wasm_bindgen::JsValue| NoAnswer::Network(format!("{e:?}"));
        let headers = web_sys::Headers::new().map_err(network)?;
        for (name, value) in &exchange.headers {
            headers.set(name, value).map_err(network)?;
        }
        let init = web_sys::RequestInit::new();
        init.set_method(match exchange.method {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        });
        if let Some(body) = &exchange.body {
            init.set_body(&worker::wasm_bindgen::JsValue::from_str(body));
        }
        init.set_headers(&headers);
        let request =
            web_sys::Request::new_with_str_and_init(&exchange.url, &init).map_err(network)?;
        // The time limit covers the whole exchange, body included: a server that sends headers
        // and then stalls must not hold the request open.
        let sent = Box::pin(async move {
            wire::fetch(&request)
                .await
                .map_err(|e| NoAnswer::Network(e.to_string()))
        });
        let timer = Box::pin(Delay::from(std::time::Duration::from_millis(timeout_ms)));
        match select(sent, timer).await {
            Either::Left((Ok(reply), _)) => Ok(Answer {
                status: reply.status,
                headers: HEADERS_READ
                    .iter()
                    .filter_map(|name| Some((name.to_string(), reply.header(name)?)))
                    .collect(),
                body: reply.body,
            }),
            Either::Left((Err(error), _)) => Err(error),
            Either::Right(_) => Err(NoAnswer::Timeout),
        }
    }
}
