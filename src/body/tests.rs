//! `body::read` in the wasm (on Node, whose `Request` and streams are the web's): a declared
//! length over the cap is refused before any byte is read, a declared length that lies is still
//! checked, and a body without one is read chunk by chunk and abandoned once over the cap.

use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;
use worker::js_sys::{Array, Function, Uint8Array};
use worker::web_sys;

use super::{read, read_stream, Capped};

/// A POST with `body`; `length` is its `content-length` header, when given.
fn request(body: &[u8], length: Option<&str>) -> web_sys::Request {
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_body(&Uint8Array::from(body).into());
    if let Some(length) = length {
        let headers = web_sys::Headers::new().ok();
        if let Some(headers) = headers {
            let _ = headers.set("content-length", length);
            init.set_headers(&headers);
        }
    }
    match web_sys::Request::new_with_str_and_init("https://example.test/mcp", &init) {
        Ok(request) => request,
        Err(error) => panic!("Request: {error:?}"),
    }
}

/// A stream that yields `chunks` and counts how many were pulled (`pulled()`), as a chunked
/// upload arrives.
fn stream(chunks: &[&[u8]]) -> (web_sys::ReadableStream, Function) {
    let list = Array::new();
    for chunk in chunks {
        list.push(&Uint8Array::from(*chunk));
    }
    let make = Function::new_with_args(
        "chunks",
        "let pulled = 0; let cancelled = false;
         const stream = new ReadableStream({
           pull(controller) {
             if (pulled < chunks.length) controller.enqueue(chunks[pulled++]);
             else controller.close();
           },
           cancel() { cancelled = true; },
         }, { highWaterMark: 0 });
         return [stream, () => [pulled, cancelled]];",
    );
    let made = make.call1(&JsValue::NULL, &list).unwrap_or(JsValue::NULL);
    let made = Array::from(&made);
    (made.get(0).into(), made.get(1).into())
}

fn body_of(capped: worker::Result<Capped>) -> Option<Vec<u8>> {
    match capped {
        Ok(Capped::Body(body)) => Some(body),
        Ok(Capped::TooLarge) => None,
        Err(error) => panic!("read: {error}"),
    }
}

#[wasm_bindgen_test]
async fn a_declared_body_within_the_cap_is_read_whole() {
    let body = body_of(read(&request(b"{\"jsonrpc\":\"2.0\"}", Some("17")), 17).await);
    assert_eq!(body.as_deref(), Some(&b"{\"jsonrpc\":\"2.0\"}"[..]));
    let empty = body_of(read(&request(b"", Some("0")), 10).await);
    assert_eq!(empty, Some(Vec::new()));
}

#[wasm_bindgen_test]
async fn a_declared_length_over_the_cap_is_refused_unread() {
    let request = request(&[7u8; 64], Some("64"));
    assert_eq!(body_of(read(&request, 63).await), None);
    assert!(!request.body_used(), "nothing was read");
}

#[wasm_bindgen_test]
async fn a_body_longer_than_declared_is_still_capped() {
    // A client that declares 10 bytes and sends 100 (Node sends the header as given).
    let capped = body_of(read(&request(&[1u8; 100], Some("10")), 50).await);
    assert_eq!(capped, None);
}

#[wasm_bindgen_test]
async fn an_undeclared_stream_is_abandoned_past_the_cap() {
    let chunks: [&[u8]; 5] = [&[1; 40], &[2; 40], &[3; 40], &[4; 40], &[5; 40]];
    let (body, progress) = stream(&chunks);
    assert_eq!(body_of(read_stream(Some(body), 100).await), None);
    let progress = Array::from(&progress.call0(&JsValue::NULL).unwrap_or(JsValue::NULL));
    let pulled = progress.get(0).as_f64().unwrap_or(-1.0);
    assert!(pulled <= 3.0, "read {pulled} chunks of 40 for a cap of 100");
    assert_eq!(
        progress.get(1).as_bool(),
        Some(true),
        "the upload was cancelled"
    );
}

#[wasm_bindgen_test]
async fn an_undeclared_stream_within_the_cap_is_joined() {
    let chunks: [&[u8]; 3] = [b"ab", b"", b"cde"];
    let (body, _) = stream(&chunks);
    assert_eq!(
        body_of(read_stream(Some(body), 5).await).as_deref(),
        Some(&b"abcde"[..])
    );
    assert_eq!(
        body_of(read_stream(None, 5).await),
        Some(Vec::new()),
        "no body"
    );
}
