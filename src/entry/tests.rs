//! `to_response` in the wasm (on Node, whose `Response` and `Headers` are the web's): the core's
//! `HttpReply` becomes the runtime's response with its status, headers and body, `no-store`
//! unless the reply chose its own caching, and `nosniff` always.

use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::wasm_bindgen_test;
use worker::js_sys::Uint8Array;
use worker::web_sys;

use super::to_response;
use crate::http::HttpReply;

fn response(reply: HttpReply) -> web_sys::Response {
    match to_response(reply) {
        Ok(response) => response,
        Err(error) => panic!("to_response: {error}"),
    }
}

fn header(response: &web_sys::Response, name: &str) -> Option<String> {
    response.headers().get(name).ok().flatten()
}

async fn body(response: &web_sys::Response) -> Vec<u8> {
    let promise = response.array_buffer().ok();
    let buffer = match promise {
        Some(promise) => JsFuture::from(promise).await.ok(),
        None => None,
    };
    buffer.map_or_else(Vec::new, |buffer| Uint8Array::new(&buffer).to_vec())
}

#[wasm_bindgen_test]
async fn a_reply_keeps_status_headers_and_body() {
    let reply = HttpReply::new(201, "text/html; charset=utf-8", "<p>é日🦀</p>")
        .with_header("set-cookie", "a=1")
        .with_header("set-cookie", "b=2")
        .with_header("location", "/r/o/r/pull/1");
    let response = response(reply);
    assert_eq!(response.status(), 201);
    assert_eq!(
        header(&response, "content-type").as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        header(&response, "location").as_deref(),
        Some("/r/o/r/pull/1")
    );
    assert_eq!(
        header(&response, "set-cookie").as_deref(),
        Some("a=1, b=2"),
        "both cookies"
    );
    assert_eq!(
        header(&response, "cache-control").as_deref(),
        Some("no-store")
    );
    assert_eq!(
        header(&response, "x-content-type-options").as_deref(),
        Some("nosniff")
    );
    assert_eq!(body(&response).await, "<p>é日🦀</p>".as_bytes());
}

#[wasm_bindgen_test]
async fn a_reply_may_choose_its_caching() {
    let reply = HttpReply::new(200, "text/css", "a{}").with_header("cache-control", "max-age=60");
    let response = response(reply);
    assert_eq!(
        header(&response, "cache-control").as_deref(),
        Some("max-age=60")
    );
    assert_eq!(
        header(&response, "x-content-type-options").as_deref(),
        Some("nosniff")
    );
}

#[wasm_bindgen_test]
async fn an_empty_reply_has_no_body() {
    let response = response(HttpReply::empty(204));
    assert_eq!(response.status(), 204);
    assert!(response.body().is_none(), "a 204 must not carry a body");
    let response = to_response(HttpReply::new(200, "text/plain", "x"));
    assert!(response.is_ok_and(|r| r.body().is_some()));
}
