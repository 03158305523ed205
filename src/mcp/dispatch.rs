//! MCP method dispatch for all three protocol versions served on one stateless endpoint.
//!
//! * 2026-07-28 (stateless): every request carries its version and client capabilities in
//!   `_meta`, mirrored by `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers; there is no
//!   `initialize`; `server/discover` describes the server; results carry `resultType`, and cacheable
//!   results carry `ttlMs` and `cacheScope`.
//! * 2025-11-25 and 2025-06-18: `initialize` negotiates the version, later requests carry it in
//!   `MCP-Protocol-Version`; notifications get 202. No session id is issued, so every request
//!   stands alone whether or not this instance saw the `initialize`.
//!
//! Dispatch is pure: it answers everything except `tools/call`, which it hands back as a
//! [`ToolRequest`] for the adapter to run (tools need GitHub and storage), then
//! [`tool_reply`] shapes the answer.

use std::sync::OnceLock;

use serde_json::{json, Map, Value};

use super::apps;
use super::catalog::{self, ToolName};
use super::jsonrpc::{self, code, Incoming, RpcError};
use crate::http::{Headers, HttpReply};

/// The stateless protocol version.
pub const MODERN: &str = "2026-07-28";
/// Handshake versions, newest first.
pub const LEGACY: [&str; 2] = ["2025-11-25", "2025-06-18"];

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// How long clients may cache lists and the guide: they change only with a deploy.
const LIST_TTL_MS: u64 = 60 * 60 * 1000;

/// Which wire a request speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    Modern,
    Legacy,
}

/// A `tools/call` the adapter must run.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolRequest {
    pub id: Value,
    pub era: Era,
    pub tool: ToolName,
    pub arguments: Map<String, Value>,
    /// The client's self-reported name (2026 `_meta` clientInfo), for `updatedBy`.
    pub client_name: Option<String>,
}

/// What dispatch decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Reply(HttpReply),
    Tool(ToolRequest),
}

/// A tool's answer, before it is framed as a JSON-RPC result.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolResult {
    /// Success: `structuredContent` plus the same JSON as text. The value is an object, as
    /// `structuredContent` must be (MCP 2025-06-18, "Structured Content").
    Structured(Value),
    /// Success whose text is not the JSON (the guide's Markdown), with its structured form.
    TextAndStructured { text: String, structured: Value },
    /// Success as JSON text already written (the MCP Apps view tools): it becomes both the text
    /// and `structuredContent` without being parsed and written again. The text must be one JSON
    /// object; `serde_json::to_string` of a struct is.
    Json(String),
    /// [`ToolResult::Json`] with the text's JSON string literal written too (`quoted`, quotes
    /// included): a repeat `get_pull_request` keeps its file list quoted in the cache, since
    /// quoting 400 KB of JSON was a quarter of the request's CPU (issue #19).
    JsonQuoted { text: String, quoted: String },
    /// A tool error the agent can act on: `isError: true`, text only.
    Error(String),
}

/// Server identity for `serverInfo`.
pub struct ServerInfo {
    pub name: &'static str,
    pub version: &'static str,
}

pub const SERVER: ServerInfo = ServerInfo {
    name: "logikflow",
    version: env!("CARGO_PKG_VERSION"),
};

fn server_info() -> Value {
    crate::json::literal(concat!(
        r#"{"name":"logikflow","title":"LogiKFlow","version":""#,
        env!("CARGO_PKG_VERSION"),
        r#""}"#
    ))
}

/// The same in every era: the MCP Apps extension is declared to every client, since hosts that
/// don't render views ignore it (see `apps`).
fn capabilities() -> Value {
    crate::json::literal(
        r#"{"tools":{},"resources":{},"prompts":{},"completions":{},
            "extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}"#,
    )
}

/// Handles one POST body that passed the transport checks.
pub fn dispatch(headers: &Headers, body: &[u8]) -> Outcome {
    let message = match jsonrpc::parse_message(body) {
        Ok(message) => message,
        Err(error) => return Outcome::Reply(rpc_error(400, &error)),
    };
    let (id, method, params) = match message {
        Incoming::Request { id, method, params } => (Some(id), method, params),
        Incoming::Notification { method, params } => (None, method, params),
        Incoming::Response => return Outcome::Reply(HttpReply::empty(202)),
    };
    crate::log::note(|record| record.mcp_method = Some(crate::log::mcp_method_label(&method)));
    let header_version = headers.get("mcp-protocol-version").map(str::trim);
    let meta_version = params
        .get("_meta")
        .and_then(|meta| meta.get(META_VERSION))
        .and_then(Value::as_str);
    let modern = match header_version {
        Some(version) => !LEGACY.contains(&version) && !is_known_legacy(version),
        None => meta_version.is_some(),
    };
    if modern {
        // A header naming a version we don't speak, on a body that names none: say so, rather
        // than complain that the body lacks 2026-07-28's `_meta`.
        if let Some(version) = header_version.filter(|&v| v != MODERN && meta_version.is_none()) {
            let error = unsupported_version(id.unwrap_or(Value::Null), version);
            return Outcome::Reply(rpc_error(400, &error));
        }
        return modern_request(headers, id, &method, params);
    }
    if let Some(version) = header_version {
        if !LEGACY.contains(&version) {
            let error = unsupported_version(id.unwrap_or(Value::Null), version);
            return Outcome::Reply(rpc_error(400, &error));
        }
        if let Some(meta_version) = meta_version.filter(|&meta| meta != version) {
            let error = RpcError::new(
                id.unwrap_or(Value::Null),
                code::HEADER_MISMATCH,
                format!("Header mismatch: MCP-Protocol-Version is {version} but _meta says {meta_version}"),
            );
            return Outcome::Reply(rpc_error(400, &error));
        }
    }
    legacy_request(id, &method, params)
}

/// Versions that are 2025-era or older: they take the handshake path (and are refused there when
/// this server does not speak them).
fn is_known_legacy(version: &str) -> bool {
    matches!(version, "2025-03-26" | "2024-11-05" | "2024-10-07")
}

fn unsupported_version(id: Value, requested: &str) -> RpcError {
    RpcError::new(
        id,
        code::UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version",
    )
    .with_data(json!({
        "supported": supported_versions(),
        "requested": requested,
    }))
}

fn supported_versions() -> Vec<&'static str> {
    let mut versions = vec![MODERN];
    versions.extend(LEGACY);
    versions
}

fn modern_request(
    headers: &Headers,
    id: Option<Value>,
    method: &str,
    params: Map<String, Value>,
) -> Outcome {
    let Some(id) = id else {
        // Notifications carry nothing this server acts on.
        return Outcome::Reply(HttpReply::empty(202));
    };
    let meta = params.get("_meta").and_then(Value::as_object);
    let meta_version = meta
        .and_then(|m| m.get(META_VERSION))
        .and_then(Value::as_str);
    let has_capabilities = meta
        .and_then(|m| m.get(META_CAPABILITIES))
        .is_some_and(Value::is_object);
    let (Some(meta_version), true) = (meta_version, has_capabilities) else {
        let error = RpcError::new(
            id,
            code::INVALID_PARAMS,
            format!("Invalid params: protocol {MODERN} requests must carry _meta[\"{META_VERSION}\"] and _meta[\"{META_CAPABILITIES}\"]"),
        );
        return Outcome::Reply(rpc_error(400, &error));
    };
    let header_version = headers.get("mcp-protocol-version").map(str::trim);
    if header_version != Some(meta_version) {
        let error = RpcError::new(
            id,
            code::HEADER_MISMATCH,
            format!(
                "Header mismatch: MCP-Protocol-Version is {} but _meta says {meta_version}",
                header_version.unwrap_or("missing")
            ),
        );
        return Outcome::Reply(rpc_error(400, &error));
    }
    if meta_version != MODERN {
        return Outcome::Reply(rpc_error(400, &unsupported_version(id, meta_version)));
    }
    if let Err(message) = check_method_headers(headers, method, &params) {
        let error = RpcError::new(id, code::HEADER_MISMATCH, message);
        return Outcome::Reply(rpc_error(400, &error));
    }
    let client_name = reported_client_name(&params);
    if method == "tools/list" && !declares_apps(meta) {
        return Outcome::Reply(constant_reply(&id, tools_without_app_only()));
    }
    if let Some(result) = constant_result(Era::Modern, method) {
        return Outcome::Reply(constant_reply(&id, result));
    }
    let answer = match method {
        "server/discover" => Ok(with_cache(discover())),
        "tools/call" => return tool_call(id, Era::Modern, params, client_name),
        "tools/list"
        | "resources/list"
        | "resources/templates/list"
        | "prompts/list"
        | "resources/read" => common_method(&id, method, &params).map(with_cache),
        "prompts/get" | "completion/complete" => common_method(&id, method, &params),
        _ => Err(method_not_found(&id, method)),
    };
    Outcome::Reply(match answer {
        Ok(mut result) => {
            result["resultType"] = json!("complete");
            HttpReply::json(200, &jsonrpc::result(&id, result))
        }
        Err(error) => rpc_error(status_of(&error), &error),
    })
}

/// 2026-07-28 routing headers must repeat the body: `Mcp-Method` always, `Mcp-Name` for the
/// methods that name a target. Values are compared exactly after trimming.
fn check_method_headers(
    headers: &Headers,
    method: &str,
    params: &Map<String, Value>,
) -> Result<(), String> {
    let header_method = headers.get("mcp-method").map(str::trim);
    if header_method != Some(method) {
        return Err(format!(
            "Header mismatch: Mcp-Method is {} but the body's method is {method}",
            header_method.unwrap_or("missing")
        ));
    }
    let target_key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return Ok(()),
    };
    let target = params.get(target_key).and_then(Value::as_str);
    let header_name = headers.get("mcp-name").map(str::trim);
    if target.is_some() && header_name != target {
        return Err(format!(
            "Header mismatch: Mcp-Name is {} but the body's {target_key} is {}",
            header_name.unwrap_or("missing"),
            target.unwrap_or_default()
        ));
    }
    Ok(())
}

fn discover() -> Value {
    json!({
        "supportedVersions": supported_versions(),
        "capabilities": capabilities(),
        "instructions": catalog::instructions(),
        "_meta": { META_SERVER_INFO: server_info() },
    })
}

/// Methods whose result depends on nothing but the era, until the next deploy.
const CONSTANT_METHODS: [&str; 5] = [
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "server/discover",
];

/// The serialized results of [`CONSTANT_METHODS`], built once per isolate and era. `tools/list`
/// is what agents call most, and building its schemas per request was most of the request's CPU
/// time in the Worker (measured with `tests/bench/profile.mjs`).
static MODERN_CONSTANTS: [OnceLock<String>; 5] = [const { OnceLock::new() }; 5];
static LEGACY_CONSTANTS: [OnceLock<String>; 5] = [const { OnceLock::new() }; 5];

/// The serialized result of a constant method, or `None` when `method` is not one (or, like
/// `server/discover`, does not exist in the era).
fn constant_result(era: Era, method: &str) -> Option<&'static str> {
    let index = CONSTANT_METHODS.iter().position(|m| *m == method)?;
    let cell = match era {
        Era::Modern => &MODERN_CONSTANTS[index],
        Era::Legacy if method == "server/discover" => return None,
        Era::Legacy => &LEGACY_CONSTANTS[index],
    };
    Some(cell.get_or_init(|| {
        let result = match (era, method) {
            (_, "server/discover") => discover(),
            _ => common_method(&Value::Null, method, &Map::new())
                .unwrap_or_else(|error| json!({ "error": error.message })),
        };
        let result = match era {
            Era::Modern => {
                let mut result = with_cache(result);
                result["resultType"] = json!("complete");
                result
            }
            Era::Legacy => result,
        };
        result.to_string()
    }))
}

/// Whether a 2026-07-28 request's client capabilities declare the MCP Apps extension
/// (`extensions["io.modelcontextprotocol/ui"]`). That era sends the capabilities with every
/// request, so `tools/list` can answer each client for what it renders.
fn declares_apps(meta: Option<&Map<String, Value>>) -> bool {
    meta.and_then(|m| m.get(META_CAPABILITIES))
        .and_then(|capabilities| capabilities.get("extensions"))
        .and_then(|extensions| extensions.get(apps::EXTENSION))
        .is_some_and(|extension| !extension.is_null())
}

/// `tools/list` for a 2026-07-28 client that does not render MCP Apps: without the view's own
/// tools (`visibility: ["app"]`), which only a view can call and which such a client's model
/// would otherwise be offered as plain tools. Clients of the 2025 eras declare capabilities only
/// at `initialize`, which a stateless server never sees again, so they keep the full list with
/// each tool's `visibility`, as hosts that render apps expect. Built once per isolate.
fn tools_without_app_only() -> &'static str {
    static TOOLS: OnceLock<String> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let tools: Vec<Value> = ToolName::ALL
            .into_iter()
            .filter(|tool| tool.ui() != Some(apps::Visibility::App))
            .map(ToolName::definition)
            .collect();
        let mut result = with_cache(json!({ "tools": tools }));
        result["resultType"] = json!("complete");
        result.to_string()
    })
}

/// A JSON-RPC success around an already serialized result.
fn constant_reply(id: &Value, result: &str) -> HttpReply {
    HttpReply::new(
        200,
        "application/json",
        format!(r#"{{"id":{id},"jsonrpc":"2.0","result":{result}}}"#),
    )
}

fn with_cache(mut result: Value) -> Value {
    result["ttlMs"] = json!(LIST_TTL_MS);
    result["cacheScope"] = json!("public");
    result
}

fn legacy_request(id: Option<Value>, method: &str, params: Map<String, Value>) -> Outcome {
    let Some(id) = id else {
        return Outcome::Reply(HttpReply::empty(202));
    };
    let answer = match method {
        "initialize" => Ok(initialize(&params)),
        "ping" | "logging/setLevel" => Ok(json!({})),
        "tools/call" => {
            let client_name = reported_client_name(&params);
            return tool_call(id, Era::Legacy, params, client_name);
        }
        _ => {
            if let Some(result) = constant_result(Era::Legacy, method) {
                return Outcome::Reply(constant_reply(&id, result));
            }
            common_method(&id, method, &params)
        }
    };
    Outcome::Reply(match answer {
        Ok(result) => HttpReply::json(200, &jsonrpc::result(&id, result)),
        // Not `status_of`: in the 2025 transport a 404 means "session expired", and clients
        // would drop the JSON-RPC error to start a new session.
        Err(error) if error.code == code::INTERNAL_ERROR => rpc_error(500, &error),
        Err(error) => rpc_error(200, &error),
    })
}

/// `initialize`: answer with the client's version when we speak it, else our newest handshake
/// version (the client then decides whether to go on).
fn initialize(params: &Map<String, Value>) -> Value {
    let requested = params.get("protocolVersion").and_then(Value::as_str);
    let version = requested
        .filter(|version| LEGACY.contains(version))
        .unwrap_or(LEGACY[0]);
    json!({
        "protocolVersion": version,
        "capabilities": capabilities(),
        "serverInfo": server_info(),
        "instructions": catalog::instructions(),
    })
}

/// Methods with the same meaning in every era.
fn common_method(id: &Value, method: &str, params: &Map<String, Value>) -> Result<Value, RpcError> {
    match method {
        "tools/list" => Ok(json!({ "tools": catalog::tool_definitions() })),
        "resources/list" => Ok(json!({ "resources": catalog::resource_definitions() })),
        "resources/templates/list" => Ok(json!({ "resourceTemplates": [] })),
        "resources/read" => {
            let uri = params
                .get("uri")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if uri == catalog::GUIDE_RESOURCE_URI {
                Ok(json!({ "contents": [{
                    "uri": uri,
                    "mimeType": "text/markdown",
                    "text": catalog::ordering_guide(),
                }]}))
            } else if uri == apps::VIEW_URI {
                Ok(apps::read_view())
            } else {
                Err(RpcError::new(
                    id.clone(),
                    code::INVALID_PARAMS,
                    format!("Resource not found: {uri}"),
                )
                .with_data(json!({ "uri": uri })))
            }
        }
        "prompts/list" => Ok(json!({ "prompts": catalog::prompt_definitions() })),
        "prompts/get" => {
            let name = params
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if name != catalog::ARRANGE_PROMPT {
                return Err(RpcError::new(
                    id.clone(),
                    code::INVALID_PARAMS,
                    format!(
                        "Unknown prompt {name:?}: the only prompt is {}",
                        catalog::ARRANGE_PROMPT
                    ),
                ));
            }
            let argument = params
                .get("arguments")
                .and_then(|args| args.get("pull_request"))
                .and_then(Value::as_str)
                .unwrap_or_default();
            catalog::arrange_prompt(argument).ok_or_else(|| {
                RpcError::new(
                    id.clone(),
                    code::INVALID_PARAMS,
                    "Invalid params: pull_request must be a pull request link (https://github.com/OWNER/REPO/pull/N) or OWNER/REPO#N",
                )
            })
        }
        "completion/complete" => Ok(json!({ "completion": { "values": [], "hasMore": false } })),
        _ => Err(method_not_found(id, method)),
    }
}

/// The name a client reports in `_meta` clientInfo, without control and format characters and
/// cut to 100 characters: it is stored in every saved version and shown to reviewers.
fn reported_client_name(params: &Map<String, Value>) -> Option<String> {
    params
        .get("_meta")
        .and_then(|meta| meta.get(META_CLIENT_INFO))
        .and_then(|info| info.get("name"))
        .and_then(Value::as_str)
        .map(|name| crate::unicode::without_hidden(name.trim()))
        .map(|name| name.trim().chars().take(100).collect::<String>())
        .filter(|name| !name.is_empty())
}

fn method_not_found(id: &Value, method: &str) -> RpcError {
    RpcError::new(
        id.clone(),
        code::METHOD_NOT_FOUND,
        format!("Method not found: {method}"),
    )
}

/// 404 for unknown methods (2026-07-28 routes by method), 400 for bad input, 200 otherwise.
fn status_of(error: &RpcError) -> u16 {
    match error.code {
        code::METHOD_NOT_FOUND => 404,
        code::INTERNAL_ERROR => 500,
        _ => 200,
    }
}

fn tool_call(
    id: Value,
    era: Era,
    mut params: Map<String, Value>,
    client_name: Option<String>,
) -> Outcome {
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some(tool) = ToolName::parse(name) else {
        let error = RpcError::new(
            id,
            code::INVALID_PARAMS,
            format!("Unknown tool {name:?}: the tools are {}", ToolName::list()),
        );
        return Outcome::Reply(rpc_error(200, &error));
    };
    // Taken, not copied: a 3,000-file order's arguments are a large tree.
    let (arguments, shape_error) = match params.remove("arguments") {
        None | Some(Value::Null) => (Map::new(), None),
        Some(Value::Object(arguments)) => (arguments, None),
        Some(other) => (Map::new(), Some(other)),
    };
    let request = ToolRequest {
        id,
        era,
        tool,
        arguments,
        client_name,
    };
    match shape_error {
        // Bad tool input is the tool's answer, not a protocol error (DESIGN.md section 4).
        Some(other) => {
            let message = format!(
                "The request is invalid: arguments must be an object of {}'s arguments, got {}",
                tool.as_str(),
                crate::json::describe(&other)
            );
            Outcome::Reply(tool_reply(&request, ToolResult::Error(message)))
        }
        None => Outcome::Tool(request),
    }
}

/// Frames a tool's answer as the JSON-RPC result of its `tools/call`.
pub fn tool_reply(request: &ToolRequest, result: ToolResult) -> HttpReply {
    let mut body = match result {
        ToolResult::Json(text) => {
            return json_tool_reply(request, &text, &crate::json::string(&text))
        }
        ToolResult::JsonQuoted { text, quoted } => return json_tool_reply(request, &text, &quoted),
        // Written once and spliced in as both the text and `structuredContent`: writing the
        // value a second time inside the reply was a quarter of a repeat get_pull_request's CPU
        // on a 320-file pull request (`tests/bench/profile.mjs gpr-big`, issue #19).
        ToolResult::Structured(structured) => {
            let text = structured.to_string();
            return json_tool_reply(request, &text, &crate::json::string(&text));
        }
        ToolResult::TextAndStructured { text, structured } => json!({
            "content": [{ "type": "text", "text": text }],
            "structuredContent": structured,
            "isError": false,
        }),
        ToolResult::Error(message) => json!({
            "content": [{ "type": "text", "text": message }],
            "isError": true,
        }),
    };
    if request.era == Era::Modern {
        body["resultType"] = json!("complete");
    }
    HttpReply::json(200, &jsonrpc::result(&request.id, body))
}

/// The reply for [`ToolResult::Json`] and [`ToolResult::Structured`], written around the text
/// and its JSON string literal (as [`constant_reply`] is). Appended, not `format!`ted: the
/// formatter's padding checks ran over every byte of a large result.
fn json_tool_reply(request: &ToolRequest, text: &str, quoted: &str) -> HttpReply {
    let result_type = match request.era {
        Era::Modern => r#","resultType":"complete""#,
        Era::Legacy => "",
    };
    let id = request.id.to_string();
    let mut body = String::with_capacity(text.len() + quoted.len() + id.len() + 128);
    for part in [
        r#"{"id":"#,
        &id,
        r#","jsonrpc":"2.0","result":{"content":[{"type":"text","text":"#,
        quoted,
        r#"}],"structuredContent":"#,
        text,
        r#","isError":false"#,
        result_type,
        "}}",
    ] {
        body.push_str(part);
    }
    HttpReply::new(200, "application/json", body)
}

/// A JSON-RPC error reply with the given HTTP status.
pub fn rpc_error(status: u16, error: &RpcError) -> HttpReply {
    HttpReply::json(status, &error.to_json())
}

#[cfg(test)]
mod tests;
