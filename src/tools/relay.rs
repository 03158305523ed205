//! `get_pull_request` run in the pull request's Durable Object: what the Worker sends it and how
//! the tool's answer comes back.
//!
//! Why the object runs it: a first read builds the pull request's snapshot (every file page
//! decoded, every hunk hashed, hints worked out, the snapshot and its listing cached), which
//! costs about 3 ms plus 0.06 ms a file of CPU: past the Workers free plan's 10 ms per invocation
//! from about a hundred files, and 100–140 ms at 3,000 (issue #19). Work done through a service
//! binding counts against the calling request's CPU, but a Durable Object request is an
//! invocation of its own with its own CPU limit (30 s by default). The read already asked the
//! object for the saved order (`/state`); now it asks the object to run the whole tool instead,
//! so a read is still one object request, the object reads its saved order without one, and the
//! Worker only checks the caller, forwards and frames the answer.
//!
//! The wire, internal to the deployment (the object is reached only through the Worker's
//! binding): `POST /read` with [`RelayedCall`] as JSON; the reply's body is the answer and its
//! `x-result` header says which kind ([`reply_of`], [`result_of`]); its `x-log` header carries
//! what the object's run did for the Worker's log line (`log::Record::carried`).

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::mcp::dispatch::ToolResult;

pub mod reviewer;

/// The header naming the kind of answer.
pub const RESULT_HEADER: &str = "x-result";

/// The header carrying what the object's run did, for the Worker's log line.
pub const LOG_HEADER: &str = "x-log";

/// A `get_pull_request` call for the object to run, with what it needs of the caller. The
/// caller was authenticated and rate-limited by the Worker; the object only acts as them.
#[derive(Deserialize)]
pub struct RelayedCall {
    /// The tool's arguments as the agent sent them (checked again by the object: same code).
    pub arguments: Map<String, Value>,
    /// The caller's GitHub token: the object reads GitHub as the caller, never stores it.
    pub github_token: String,
    /// The grant includes saving (the result's `canSave`).
    pub may_write: bool,
    /// The public origin links in the result start with.
    pub base_url: String,
}

impl RelayedCall {
    /// The request body.
    pub fn to_json(&self) -> String {
        let mut object = Map::new();
        object.insert("arguments".into(), Value::Object(self.arguments.clone()));
        object.insert("github_token".into(), self.github_token.clone().into());
        object.insert("may_write".into(), self.may_write.into());
        object.insert("base_url".into(), self.base_url.clone().into());
        Value::Object(object).to_string()
    }
}

/// The `x-result` header and the body that carry `result` back to the Worker. A result with its
/// text already quoted travels as the text then the quoted text, the header giving the text's
/// length in bytes; the Worker splits them without reading either.
pub fn reply_of(result: ToolResult) -> (String, String) {
    match result {
        ToolResult::Error(message) => ("error".into(), message),
        ToolResult::JsonQuoted { mut text, quoted } => {
            let split = text.len().to_string();
            text.push_str(&quoted);
            (split, text)
        }
        ToolResult::Json(text) => ("json".into(), text),
        // `get_pull_request` answers in neither form; carried as their JSON all the same.
        ToolResult::Structured(structured) | ToolResult::TextAndStructured { structured, .. } => {
            ("json".into(), structured.to_string())
        }
    }
}

/// The tool result the object's reply carries (see [`reply_of`]); `None` for a reply that is
/// not one (a header missing or out of range): the Worker then says storage failed.
pub fn result_of(kind: Option<&str>, mut body: String) -> Option<ToolResult> {
    match kind? {
        "error" => Some(ToolResult::Error(body)),
        "json" => Some(ToolResult::Json(body)),
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
