//! Runs `show_reading_order` and the MCP Apps view's read-only tools (wasm only), all through one
//! reader (`tools::views` decides what each call needs and shapes the answer).
//!
//! Every call reads the pull request from GitHub with the caller's own token before anything
//! stored is returned, exactly like `get_pull_request`: a view can't show an order to someone
//! GitHub would not show the pull request to. The file snapshot comes from KV when this base and
//! head were read before (always, after a save), so a view's call costs two GitHub requests.

use worker::Env;

use super::{pull_request, saved_store};
use crate::errors;
use crate::github::client::GitHub;
use crate::mcp::dispatch::{ToolRequest, ToolResult};
use crate::tools::views::{answer, ViewCall, ViewData};

/// The message when the pull request's object can't be read.
fn storage_unavailable(error: &worker::Error) -> ToolResult {
    worker::console_error!("reading the pull request store failed: {error}");
    ToolResult::Error(
        "LogiKFlow could not read the saved order right now (storage unavailable). Retry in a minute."
            .into(),
    )
}

/// Runs one call of the family; `None` when the tool is not one of them.
pub async fn run(
    request: &ToolRequest,
    env: &Env,
    github: &GitHub<'_>,
    base_url: &str,
) -> Option<ToolResult> {
    let call = match ViewCall::parse(request.tool, &request.arguments)? {
        Ok(call) => call,
        Err(message) => return Some(ToolResult::Error(message)),
    };
    let target = call.target();
    let (owner, repo, number) = (target.owner.as_str(), target.repo.as_str(), target.number);
    let read = match pull_request::read_pull_with_files(
        env,
        github,
        owner,
        repo,
        number,
        pull_request::Files::Whole,
    )
    .await
    {
        Ok(read) => read,
        Err(error) => {
            return Some(ToolResult::Error(errors::github_failure(
                &error,
                &target.label(),
            )))
        }
    };
    let current = match saved_store::current(env, owner, repo, number).await {
        Ok(current) => current,
        Err(error) => return Some(storage_unavailable(&error)),
    };
    let older_order = match call.version_to_read(&current) {
        Err(message) => return Some(ToolResult::Error(message)),
        Ok(None) => None,
        Ok(Some(version)) => {
            match saved_store::order_version(env, owner, repo, number, version).await {
                Ok(record) => record,
                Err(error) => return Some(storage_unavailable(&error)),
            }
        }
    };
    let data = ViewData {
        base_url,
        pull: &read.pull,
        snapshot: &read.snapshot,
        current: &current,
        older_order: older_order.as_ref(),
    };
    Some(match answer(&call, &data) {
        Ok(result) => ToolResult::Json(result),
        Err(message) => ToolResult::Error(message),
    })
}
