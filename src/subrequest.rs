//! Subrequests that read their whole reply in one promise (wasm only): to GitHub, to other
//! sites, and to Durable Objects. An adapter beside `store` and `github::fetch`, which use it.
//!
//! Why not `worker::Fetch` and `worker::Stub`: their `Response` reads a fetched body chunk by
//! chunk through a stream reader, one JS round trip per chunk, and converting the raw response
//! reads its `cf` and WebSocket properties first. On the token path (one Durable Object hop per
//! `/mcp` request) that was about a tenth of the Worker's CPU time in `tests/bench/profile.mjs
//! token`. Here the reply's `text()` is one promise, and nothing else is touched.

use wasm_bindgen::{JsCast, JsValue};
use worker::wasm_bindgen_futures::JsFuture;
use worker::{web_sys, Env, Error, Result};

/// A reply read whole: its status, headers, and body as text.
pub struct Reply {
    pub status: u16,
    pub headers: web_sys::Headers,
    pub body: String,
}

impl Reply {
    /// A response header, or `None` when absent or unreadable.
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers.get(name).ok().flatten()
    }
}

/// Sends `request` to the internet (or the local stand-in) and reads the reply whole.
pub async fn fetch(request: &web_sys::Request) -> Result<Reply> {
    read(send_promise(request)).await
}

/// Sends `request` and returns the response without reading its body.
pub async fn send(request: &web_sys::Request) -> Result<web_sys::Response> {
    Ok(JsFuture::from(send_promise(request)).await?.dyn_into()?)
}

fn send_promise(request: &web_sys::Request) -> worker::js_sys::Promise {
    let global: web_sys::WorkerGlobalScope = worker::js_sys::global().unchecked_into();
    global.fetch_with_request(request)
}

/// POSTs a form to GitHub's OAuth token endpoint at `url` and reads the reply whole, or fails
/// when no reply comes within `timeout_ms`.
pub async fn post_github_form(url: &str, form: &str, timeout_ms: u64) -> Result<Reply> {
    use futures_util::future::{select, Either};
    let headers = web_sys::Headers::new()?;
    headers.set("accept", "application/json")?;
    headers.set("content-type", "application/x-www-form-urlencoded")?;
    headers.set("user-agent", "logikflow")?;
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(form));
    let request = web_sys::Request::new_with_str_and_init(url, &init)?;
    let timer = worker::Delay::from(std::time::Duration::from_millis(timeout_ms));
    let answer = match select(Box::pin(fetch(&request)), Box::pin(timer)).await {
        Either::Left((reply, _)) => reply,
        Either::Right(_) => Err(Error::RustError(format!(
            "GitHub did not answer within {timeout_ms} ms"
        ))),
    };
    crate::log::github(answer.as_ref().map_or(0, |reply| reply.status));
    answer
}

/// POSTs `body` to `path` on the Durable Object `name` of the namespace bound as `binding`, and
/// reads the reply whole. The host part of the URL means nothing to the object. A redirect is
/// the object's answer (a 303 for the browser), never followed.
pub async fn post_to_object(
    env: &Env,
    binding: &str,
    name: &str,
    path: &str,
    body: &str,
) -> Result<Reply> {
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&JsValue::from_str(body));
    init.set_redirect(web_sys::RequestRedirect::Manual);
    let request = web_sys::Request::new_with_str_and_init(&format!("https://object{path}"), &init)?;
    call_object(env, binding, name, &request).await
}

async fn call_object(
    env: &Env,
    binding: &str,
    name: &str,
    request: &web_sys::Request,
) -> Result<Reply> {
    let namespace: JsValue = env.durable_object(binding)?.into();
    let namespace: worker::worker_sys::DurableObjectNamespace = namespace.unchecked_into();
    let stub = namespace.get_by_name(name)?;
    crate::log::object();
    read(stub.fetch_with_request(request)?).await
}

async fn read(promise: worker::js_sys::Promise) -> Result<Reply> {
    let response: web_sys::Response = JsFuture::from(promise).await?.dyn_into()?;
    // As bytes, not `text()`: a string enters the wasm through the bindings' JavaScript loop
    // over its characters, bytes through one copy (GitHub's file pages run to megabytes, #19).
    // `text()` decodes invalid UTF-8 as U+FFFD, and so does this.
    let buffer = JsFuture::from(response.array_buffer()?).await?;
    let bytes = worker::js_sys::Uint8Array::new(&buffer).to_vec();
    let body = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(invalid) => String::from_utf8_lossy(invalid.as_bytes()).into_owned(),
    };
    Ok(Reply {
        status: response.status(),
        headers: response.headers(),
        body,
    })
}
