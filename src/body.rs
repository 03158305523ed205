//! Request bodies read with a size cap (wasm only).
//!
//! Why not `Request::bytes` / `arrayBuffer()` alone: they buffer the whole body before we can
//! look at its size, so a chunked POST of many megabytes to an unauthenticated endpoint would
//! fill the isolate's memory, and every request sharing the isolate would fail with it. A body
//! that declares its length is bounded by HTTP framing, so it is refused up front when too
//! large and otherwise read in one promise (the hot path); a body without a declared length is
//! read chunk by chunk and abandoned as soon as it passes the cap.

use wasm_bindgen::{JsCast, JsValue};
use worker::js_sys::{Reflect, Uint8Array};
use worker::wasm_bindgen_futures::JsFuture;
use worker::{web_sys, Result};

/// A request body, or the fact that it was larger than the cap.
pub enum Capped {
    Body(Vec<u8>),
    TooLarge,
}

/// Reads `request`'s body if it is at most `limit` bytes.
pub async fn read(request: &web_sys::Request, limit: usize) -> Result<Capped> {
    let declared = request
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|length| length.trim().parse::<u64>().ok());
    match declared {
        Some(length) if length > limit as u64 => return Ok(Capped::TooLarge),
        Some(_) => {
            let buffer = JsFuture::from(request.array_buffer()?).await?;
            return Ok(within(Uint8Array::new(&buffer).to_vec(), limit));
        }
        None => {}
    }
    read_stream(request.body(), limit).await
}

/// Reads a body stream chunk by chunk (a request's, or a fetched response's), abandoning it as
/// soon as it passes `limit` bytes.
pub async fn read_stream(stream: Option<web_sys::ReadableStream>, limit: usize) -> Result<Capped> {
    let Some(stream) = stream else {
        return Ok(Capped::Body(Vec::new()));
    };
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut body = Vec::new();
    loop {
        let step = JsFuture::from(reader.read()).await?;
        if Reflect::get(&step, &JsValue::from_str("done"))?.is_truthy() {
            return Ok(Capped::Body(body));
        }
        let chunk: Uint8Array = Reflect::get(&step, &JsValue::from_str("value"))?.unchecked_into();
        let start = body.len();
        let end = start.saturating_add(chunk.length() as usize);
        if end > limit {
            // Stop the upload; the refusal does not wait for the cancel to settle.
            let _ = reader.cancel();
            return Ok(Capped::TooLarge);
        }
        body.resize(end, 0);
        chunk.copy_to(&mut body[start..]);
    }
}

/// A body read whole is still checked: the declared length is the client's word.
fn within(body: Vec<u8>, limit: usize) -> Capped {
    if body.len() > limit {
        Capped::TooLarge
    } else {
        Capped::Body(body)
    }
}

#[cfg(test)]
mod tests;
