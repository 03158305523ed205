//! The agent-side MCP tools the Worker relays here (`tools::relay` says why): which tool a
//! call is, and `show_reading_order` and the MCP Apps view's read-only tools, all through one
//! reader (`tools::views` decides what each call needs and shapes the answer). The saves are
//! `saves`'s; `get_pull_request` is `pull_read`'s; `get_review_feedback` is `app::pull_request::feedback`'s.
//!
//! Every view reads the pull request from GitHub with the caller's own token before anything
//! stored is returned, exactly like `get_pull_request`: a view can't show an order to someone
//! GitHub would not show the pull request to. The file snapshot comes from KV when this base and
//! head were read before (always, after a save), else it is built here once per head
//! (`pull_read::read_in_object`); the saved order is this object's own. `view_reading_order`
//! also reads the review threads (`feedback::read_review`, one GraphQL request) after that read.

use worker::{Response, Result};

use super::PullRequestStore;
use crate::app::pull_request::feedback;
use crate::app::pull_request::read::{self as pull_read, Files};
use crate::errors;
use crate::mcp::catalog::ToolName;
use crate::mcp::dispatch::ToolResult;
use crate::review::model::saved::{DocumentKind, SavedRecord};
use crate::tools::relay::{self, RelayedCall};
use crate::tools::views::{answer, ViewCall, ViewData};

/// The message when this object's storage can't be read.
fn storage_unavailable(error: &impl std::fmt::Display) -> ToolResult {
    worker::console_error!("reading the pull request store failed: {error}");
    ToolResult::Error(
        "LogiKFlow could not read the saved order right now (storage unavailable). Retry in a minute."
            .into(),
    )
}

impl PullRequestStore {
    /// Runs a tool call the Worker relayed in its own log record, and answers with the result
    /// and what the run did.
    pub(super) async fn tool(&self, call: RelayedCall) -> Result<Response> {
        let record = std::rc::Rc::new(std::cell::RefCell::new(crate::log::Record::default()));
        let run = self.run_tool(call);
        let result = crate::log::Scoped::new(run, record.clone()).await?;
        let (kind, body) = relay::reply_of(result);
        let headers = worker::Headers::new();
        headers.set(relay::RESULT_HEADER, &kind)?;
        headers.set(relay::LOG_HEADER, &record.borrow().carried())?;
        Ok(Response::ok(body)?.with_headers(headers))
    }

    async fn run_tool(&self, call: RelayedCall) -> Result<ToolResult> {
        let Some(tool) = ToolName::parse(&call.tool) else {
            return Ok(ToolResult::Error(format!(
                "Unknown tool {:?}: the tools are {}",
                call.tool,
                ToolName::list()
            )));
        };
        Ok(match tool {
            ToolName::GetPullRequest => {
                let current = self.records().current()?;
                let token = call.github_token.clone();
                let github =
                    crate::github::fetch::github(crate::bindings::config(&self.env), &token);
                let (platform, memo) = (self.platform(), &self.read_memo);
                pull_read::get_pull_request_in_object(&platform, memo, &github, call, current).await
            }
            ToolName::SaveReadingOrder => self.save_document(call, DocumentKind::Order).await,
            ToolName::SaveDiagram => self.save_document(call, DocumentKind::Diagram).await,
            ToolName::GetReviewFeedback => {
                let config = crate::bindings::config(&self.env);
                let github = crate::github::fetch::github(config, &call.github_token);
                let current = || {
                    self.records()
                        .current()
                        .map_err(|e| storage_unavailable(&e))
                };
                let (platform, memo) = (self.platform(), &self.read_memo);
                feedback::review_feedback(&platform, memo, &github, &call, current).await
            }
            ToolName::ShowReadingOrder
            | ToolName::ViewReadingOrder
            | ToolName::ViewDiagram
            | ToolName::ViewChange => self.view(tool, call).await,
            ToolName::GetOrderingGuide => ToolResult::Error(
                "get_ordering_guide reads nothing of a pull request; the Worker answers it.".into(),
            ),
        })
    }

    /// `show_reading_order`, `view_reading_order`, `view_diagram` or `view_change`.
    async fn view(&self, tool: ToolName, call: RelayedCall) -> ToolResult {
        let view = match ViewCall::parse(tool, &call.arguments) {
            Some(Ok(view)) => view,
            Some(Err(message)) => return ToolResult::Error(message),
            None => return ToolResult::Error("Unknown view tool".into()),
        };
        let config = crate::bindings::config(&self.env);
        let github = crate::github::fetch::github(config, &call.github_token);
        let target = view.target();
        let pull = (target.owner.as_str(), target.repo.as_str(), target.number);
        let read = match pull_read::read_in_object(
            &self.platform(),
            &self.read_memo,
            &github,
            pull,
            Files::Whole,
        )
        .await
        {
            Ok(read) => read,
            Err(error) => {
                return ToolResult::Error(errors::github_failure(&error, &target.label()))
            }
        };
        let current = match self.records().current() {
            Ok(current) => current,
            Err(error) => return storage_unavailable(&error),
        };
        let older_order: Option<SavedRecord> = match view.version_to_read(&current) {
            Err(message) => return ToolResult::Error(message),
            Ok(None) => None,
            Ok(Some(version)) => {
                match self.records().version(DocumentKind::Order, version as i64) {
                    Ok(record) => record,
                    Err(error) => return storage_unavailable(&error),
                }
            }
        };
        // The open threads beside the order: when GitHub's read fails, the order shows without.
        let review = if view.wants_threads() {
            feedback::read_review(&github, pull)
                .await
                .map_err(|error| {
                    worker::console_error!("reading the review threads failed: {error}")
                })
                .ok()
        } else {
            None
        };
        let data = ViewData {
            base_url: &call.base_url,
            pull: &read.pull,
            snapshot: &read.snapshot,
            current: &current,
            older_order: older_order.as_ref(),
            review: review.as_ref(),
        };
        match answer(&view, &data) {
            Ok(result) => ToolResult::Json(result),
            Err(message) => ToolResult::Error(message),
        }
    }
}
