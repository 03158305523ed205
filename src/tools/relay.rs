//! The agent-side MCP tools run in the pull request's Durable Object: what the Worker sends it
//! and how the tool's answer comes back. Every tool but `get_ordering_guide` (which reads
//! nothing) is relayed: `get_pull_request`, the two saves, `show_reading_order` and the MCP Apps
//! view's tools (`view_reading_order`, `view_diagram`, `view_change`).
//!
//! Why the object runs them: each reads the pull request's file snapshot (built from GitHub at
//! a new head, else decoded from KV) and the saved order, and a first read builds the snapshot
//! at about 3 ms plus 0.06 ms a file of CPU: past the Workers free plan's 10 ms per invocation
//! from about a hundred files, 100–140 ms at 3,000 (issue #19); even decoding the cached
//! snapshot to show or save an order cost the Worker 10–19 ms at 3,000 files (issue #30). Work
//! done through a service binding counts against the calling request's CPU, but a Durable
//! Object request is an invocation of its own with its own CPU limit (30 s by default). The
//! object holds the saved orders, so a call is one object request that reads them from its own
//! storage, builds a new head's snapshot once however many calls arrive together
//! (`app::pull_request::read::ReadMemo`), and writes a save with no request in between; the Worker
//! only checks the caller, their rate limit and the call's target (`tools::pull_target`: a wrong
//! one costs no object request), forwards, and frames the answer. The object reads the
//! arguments once and runs the tool (`app::pull_request::tools`, one dispatch).
//!
//! The wire, internal to the deployment (the object is reached only through the Worker's
//! binding): `POST` [`PATH`] with [`RelayedCall::to_wire`]'s body; the reply's body is the answer and its
//! `x-result` header says which kind ([`reply_of`], [`result_of`]); its `x-log` header carries
//! what the object's run did for the Worker's log line (`log::Record::carried`).

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::mcp::dispatch::ToolResult;

/// The header naming the kind of answer.
pub const RESULT_HEADER: &str = "x-result";

/// The header carrying what the object's run did, for the Worker's log line.
pub const LOG_HEADER: &str = "x-log";

/// The object's path that runs a tool.
pub const PATH: &str = "/tool";

/// A tool call for the object to run, with what it needs of the caller. The caller was
/// authenticated and rate-limited by the Worker, and a save's `reviews:write` grant checked
/// there; the object only acts as them.
#[derive(Deserialize)]
pub struct RelayedCall {
    /// The tool's name, as the agent called it.
    pub tool: String,
    /// The tool's arguments as the agent sent them, read into the tool's typed arguments once,
    /// by the object (`app::pull_request::tools`); the Worker read only their target.
    /// Not in the call's line of the wire: read from the `tools/call` body that follows it.
    #[serde(skip)]
    pub arguments: Map<String, Value>,
    /// The caller's GitHub token: the object reads GitHub as the caller, never stores it.
    pub github_token: String,
    /// The grant includes saving (the result's `canSave`).
    pub may_write: bool,
    /// The public origin links in the result start with.
    pub base_url: String,
    /// The caller's GitHub login: a save's `updatedBy`, and the write-access refusal's words.
    pub login: String,
    /// The app a save is recorded as made with (`updatedBy`), as the Worker chose it from the
    /// request's era, its client info and the credential.
    pub client: Option<String>,
}

impl RelayedCall {
    /// The request body: the call without its arguments as one line of JSON (compact JSON has
    /// no raw line break), then the agent's `tools/call` body as it came. Forwarded rather than
    /// written again: writing a 3,000-file order's arguments was milliseconds of the Worker's
    /// CPU, and the object reads them from the body with the same JSON reader.
    pub fn to_wire(&self, rpc_body: &str) -> String {
        let mut object = Map::new();
        object.insert("tool".into(), self.tool.clone().into());
        object.insert("github_token".into(), self.github_token.clone().into());
        object.insert("may_write".into(), self.may_write.into());
        object.insert("base_url".into(), self.base_url.clone().into());
        object.insert("login".into(), self.login.clone().into());
        object.insert("client".into(), self.client.clone().into());
        let mut text = Value::Object(object).to_string();
        text.reserve(rpc_body.len() + 1);
        text.push('\n');
        text.push_str(rpc_body);
        text
    }

    /// The call a [`to_wire`](Self::to_wire) body carries, its arguments read as dispatch
    /// reads them (`params.arguments`, none or `null` being no arguments); `None` for a body
    /// that is not one.
    pub fn from_wire(text: &str) -> Option<RelayedCall> {
        let (line, rpc_body) = text.split_once('\n')?;
        let mut call: RelayedCall = crate::json::decode(line).ok()?;
        let Ok(Value::Object(mut message)) = serde_json::from_str::<Value>(rpc_body) else {
            return None;
        };
        call.arguments = match message.remove("params") {
            Some(Value::Object(mut params)) => match params.remove("arguments") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(arguments)) => arguments,
                Some(_) => return None,
            },
            _ => return None,
        };
        Some(call)
    }
}

/// The `x-result` header and the body that carry `result` back to the Worker. A success travels
/// as its JSON text then that text quoted as a JSON string, the header giving the text's length
/// in bytes; the Worker splits them without reading either. The object quotes it, not the
/// Worker: quoting a 3,000-file view's answer is milliseconds of CPU.
pub fn reply_of(result: ToolResult) -> (String, String) {
    let (mut text, quoted) = match result {
        ToolResult::Error(message) => return ("error".into(), message),
        ToolResult::JsonQuoted { text, quoted } => (text, quoted),
        ToolResult::Json(text) => {
            let quoted = crate::json::string(&text);
            (text, quoted)
        }
        // No relayed tool answers with other text than its JSON; carried as its JSON.
        ToolResult::Structured(structured) | ToolResult::TextAndStructured { structured, .. } => {
            let text = structured.to_string();
            let quoted = crate::json::string(&text);
            (text, quoted)
        }
    };
    let split = text.len().to_string();
    text.push_str(&quoted);
    (split, text)
}

/// The tool result the object's reply carries (see [`reply_of`]); `None` for a reply that is
/// not one (a header missing or out of range): the Worker then says storage failed.
pub fn result_of(kind: Option<&str>, mut body: String) -> Option<ToolResult> {
    match kind? {
        "error" => Some(ToolResult::Error(body)),
        split => {
            let split: usize = split.parse().ok()?;
            if !body.is_char_boundary(split) {
                return None;
            }
            let quoted = body.split_off(split);
            Some(ToolResult::JsonQuoted { text: body, quoted })
        }
    }
}

#[cfg(test)]
mod tests;
