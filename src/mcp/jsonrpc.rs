//! JSON-RPC 2.0 framing for MCP's Streamable HTTP transport: one message per POST body.
//!
//! Parsing is strict where the transport needs it (a single object, `"jsonrpc": "2.0"`, an id that
//! is a string or a number) and keeps the request id whenever it can be read, so that every error
//! answer carries the id of the request it answers. Batches are refused: MCP dropped them in
//! 2025-06-18 and a stateless server gains nothing from them.
//! This module knows nothing of MCP methods; `dispatch` does.

use serde_json::{json, Map, Value};

/// JSON-RPC error codes used by this server (JSON-RPC 2.0 §5.1 and the MCP specification).
pub mod code {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// MCP 2026-07-28: a transport header disagrees with the message body.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// MCP 2026-07-28: the requested protocol version is not supported.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
    /// Used for HTTP-level refusals that still carry a JSON-RPC body (auth, rate limit, origin).
    pub const SERVER_ERROR: i64 = -32000;
}

/// A message read from a request body.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A request expecting an answer.
    Request {
        id: Value,
        method: String,
        params: Map<String, Value>,
    },
    /// A notification: no id, no answer beyond HTTP 202.
    Notification {
        method: String,
        params: Map<String, Value>,
    },
    /// A response or error sent to us; the server sends no requests, so it only acknowledges them.
    Response,
}

/// Why a body could not be read as one JSON-RPC message.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The request id when it could be read, else `null`.
    pub id: Value,
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub fn new(id: Value, code: i64, message: impl Into<String>) -> Self {
        RpcError {
            id,
            code,
            message: message.into(),
            data: None,
        }
    }

    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The JSON-RPC error object as sent on the wire.
    pub fn to_json(&self) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some(data) = &self.data {
            error["data"] = data.clone();
        }
        json!({ "jsonrpc": "2.0", "id": self.id, "error": error })
    }
}

/// Reads one JSON-RPC message from a POST body.
pub fn parse_message(body: &[u8]) -> Result<Incoming, RpcError> {
    let parse_error = |reason: String| {
        RpcError::new(
            Value::Null,
            code::PARSE_ERROR,
            format!("Parse error: the body is not valid JSON ({reason})"),
        )
    };
    // Text first, then one JSON reader for every body the server parses (see `crate::json`).
    let text = std::str::from_utf8(body)
        .map_err(|e| parse_error(format!("not UTF-8 at byte {}", e.valid_up_to())))?;
    let value: Value = serde_json::from_str(text).map_err(|e| parse_error(e.to_string()))?;
    let object =
        match value {
            Value::Object(object) => object,
            Value::Array(_) => return Err(RpcError::new(
                Value::Null,
                code::INVALID_REQUEST,
                "Invalid Request: batches are not supported; send one JSON-RPC message per request",
            )),
            _ => {
                return Err(RpcError::new(
                    Value::Null,
                    code::INVALID_REQUEST,
                    "Invalid Request: the body must be a JSON-RPC object",
                ))
            }
        };
    let id = object.get("id").cloned();
    let reply_id = match &id {
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        _ => Value::Null,
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(RpcError::new(
            reply_id,
            code::INVALID_REQUEST,
            "Invalid Request: \"jsonrpc\" must be \"2.0\"",
        ));
    }
    if object.contains_key("result") || object.contains_key("error") {
        return Ok(Incoming::Response);
    }
    let method = match object.get("method") {
        Some(Value::String(method)) => method.clone(),
        _ => {
            return Err(RpcError::new(
                reply_id,
                code::INVALID_REQUEST,
                "Invalid Request: \"method\" must be a string",
            ))
        }
    };
    let params = match object.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params.clone(),
        Some(_) => {
            return Err(RpcError::new(
                reply_id,
                code::INVALID_PARAMS,
                "Invalid params: \"params\" must be an object",
            ))
        }
    };
    match id {
        None => Ok(Incoming::Notification { method, params }),
        Some(Value::String(_) | Value::Number(_)) => Ok(Incoming::Request {
            id: reply_id,
            method,
            params,
        }),
        Some(_) => Err(RpcError::new(
            Value::Null,
            code::INVALID_REQUEST,
            "Invalid Request: \"id\" must be a string or a number",
        )),
    }
}

/// A successful JSON-RPC response.
pub fn result(id: &Value, result: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "result": result })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(body: &str, expected: Result<&str, i64>) {
        let got = parse_message(body.as_bytes());
        match (got, expected) {
            (Ok(Incoming::Request { method, .. }), Ok(want)) => assert_eq!(method, want),
            (Ok(Incoming::Notification { method, .. }), Ok(want)) => {
                assert_eq!(format!("notification {method}"), want)
            }
            (Ok(Incoming::Response), Ok(want)) => assert_eq!("response", want),
            (Err(e), Err(code)) => assert_eq!(e.code, code, "{}", e.message),
            (got, want) => panic!("{body}: got {got:?}, want {want:?}"),
        }
    }

    #[test]
    fn messages() {
        check(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, Ok("ping"));
        check(
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}"#,
            Ok("tools/list"),
        );
        check(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            Ok("notification notifications/initialized"),
        );
        check(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, Ok("response"));
        check(
            r#"{"jsonrpc":"2.0","id":1,"method":"x""#,
            Err(code::PARSE_ERROR),
        );
        check(
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            Err(code::INVALID_REQUEST),
        );
        check(r#""hello""#, Err(code::INVALID_REQUEST));
        check(
            r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
            Err(code::INVALID_REQUEST),
        );
        check(r#"{"jsonrpc":"2.0","id":1}"#, Err(code::INVALID_REQUEST));
        check(
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}"#,
            Err(code::INVALID_PARAMS),
        );
        check(
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            Err(code::INVALID_REQUEST),
        );
        check(
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            Err(code::INVALID_REQUEST),
        );
    }

    #[test]
    fn errors_keep_the_request_id() {
        let err =
            parse_message(br#"{"jsonrpc":"2.0","id":7,"method":"x","params":3}"#).unwrap_err();
        assert_eq!(err.to_json()["id"], 7);
        let err = parse_message(br#"{"jsonrpc":"1","id":"k","method":"x"}"#).unwrap_err();
        assert_eq!(err.to_json()["id"], "k");
    }
}
