//! The MCP tools a pull request's object runs (the Worker relays every tool that reads or saves a
//! pull request, `tools::relay` says why): one dispatch, where each tool's arguments are read
//! once into its typed arguments and the tool runs over the ports. The Worker routes a call by
//! its target alone (`tools::pull_target`) and, when that is wrong, answers with [`refusal`], the
//! same reading as here, so a bad target costs no object request and reads the same.
//!
//! A tool is a `relayed::RelayedTool`: how it reads its arguments and how it runs. The table at the
//! bottom (`relayed!`) names each tool's once; the compiler asks for a line there for every tool
//! in the catalog. The tools here: `get_pull_request` (`read`), `get_review_feedback`
//! (`feedback`), the two saves (`saves`), and `show_reading_order` with the MCP Apps view's
//! read-only tools, all through one reader ([`Views`]; `tools::views` decides what each call
//! needs and shapes the answer).
//!
//! Every view reads the pull request from GitHub with the caller's own token before anything
//! stored is returned, exactly like `get_pull_request`: a view can't show an order to someone
//! GitHub would not show the pull request to. The file snapshot comes from KV when this base and
//! head were read before (always, after a save), else it is built here once per head
//! (`read::read_in_object`); the saved order is this object's own. `view_reading_order` also
//! reads the review threads (`feedback::read_review`, one GraphQL request) after that read.
//!
//! What not: no platform names; the shell decodes the wire and encodes the answer.

use serde_json::{Map, Value};

use super::feedback;
use super::object::Storage;
use super::read::{self as pull_read, Files};
use super::relayed::{RelayedTool, Run};
use super::saves::Save;
use crate::errors;
use crate::mcp::catalog::ToolName;
use crate::mcp::dispatch::ToolResult;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::SqlError;
use crate::review::model::saved::{DocumentKind, SavedRecord};
use crate::tools::views::{answer, ViewCall, ViewData};
use crate::tools::{get_pull_request as gpr, get_review_feedback as gfb};

/// Reads a call's arguments with the tool's own reader and runs it.
async fn parse_and_run<R: RelayedTool, St: Storage, P: Surroundings, T: GitHubTransport>(
    tool: ToolName,
    run: &Run<'_, St, P, T>,
) -> Result<ToolResult, SqlError> {
    match R::parse(tool, &run.call.arguments) {
        Ok(args) => R::run(run, args).await,
        Err(message) => Ok(ToolResult::Error(message)),
    }
}

/// `get_ordering_guide`, and any tool that reads nothing of a pull request: the Worker answers
/// it, so the object refuses it.
pub struct InWorker;

impl RelayedTool for InWorker {
    type Args = ();
    const IN_WORKER: bool = true;

    fn parse(tool: ToolName, _: &Map<String, Value>) -> Result<(), String> {
        Err(format!(
            "{} reads nothing of a pull request; the Worker answers it.",
            tool.as_str()
        ))
    }

    async fn run<St: Storage, P: Surroundings, T: GitHubTransport>(
        _: &Run<'_, St, P, T>,
        (): (),
    ) -> Result<ToolResult, SqlError> {
        Ok(ToolResult::Error("The Worker answers this tool.".into()))
    }
}

/// `get_pull_request` (`read::get_pull_request_in_object`).
pub struct GetPullRequest;

impl RelayedTool for GetPullRequest {
    type Args = gpr::Args;

    fn parse(_: ToolName, args: &Map<String, Value>) -> Result<gpr::Args, String> {
        gpr::parse_args(args)
    }

    async fn run<St: Storage, P: Surroundings, T: GitHubTransport>(
        run: &Run<'_, St, P, T>,
        args: gpr::Args,
    ) -> Result<ToolResult, SqlError> {
        let object = run.object;
        let current = object.records().current()?;
        let call = (&args, run.call);
        Ok(pull_read::get_pull_request_in_object(
            &object.platform,
            object.memo,
            run.github,
            call,
            current,
        )
        .await)
    }
}

/// `get_review_feedback` (`feedback::review_feedback`).
pub struct GetReviewFeedback;

impl RelayedTool for GetReviewFeedback {
    type Args = gfb::Args;

    fn parse(_: ToolName, args: &Map<String, Value>) -> Result<gfb::Args, String> {
        gfb::parse_args(args)
    }

    async fn run<St: Storage, P: Surroundings, T: GitHubTransport>(
        run: &Run<'_, St, P, T>,
        args: gfb::Args,
    ) -> Result<ToolResult, SqlError> {
        let object = run.object;
        let current = |files: &[_], head: &str| {
            feedback::team(&object.records(), files, head).map_err(|e| run.storage_unavailable(&e))
        };
        let call = (&args, run.call);
        let memo = object.memo;
        Ok(feedback::review_feedback(&object.platform, memo, run.github, call, current).await)
    }
}

/// `show_reading_order`, `view_reading_order`, `view_diagram` and `view_change`: one reader.
pub struct Views;

impl RelayedTool for Views {
    type Args = ViewCall;

    fn parse(tool: ToolName, args: &Map<String, Value>) -> Result<ViewCall, String> {
        ViewCall::parse(tool, args).unwrap_or_else(|| Err("Unknown view tool".into()))
    }

    async fn run<St: Storage, P: Surroundings, T: GitHubTransport>(
        run: &Run<'_, St, P, T>,
        view: ViewCall,
    ) -> Result<ToolResult, SqlError> {
        Ok(show(run, &view).await)
    }
}

/// Reads what `view` shows, as the caller, and shapes it.
async fn show<St: Storage, P: Surroundings, T: GitHubTransport>(
    run: &Run<'_, St, P, T>,
    view: &ViewCall,
) -> ToolResult {
    let object = run.object;
    let target = view.target();
    let pull = (target.owner.as_str(), target.repo.as_str(), target.number);
    let read = pull_read::read_in_object(
        &object.platform,
        object.memo,
        run.github,
        pull,
        Files::Whole,
    )
    .await;
    let read = match read {
        Ok(read) => read,
        Err(error) => return ToolResult::Error(errors::github_failure(&error, &target.label())),
    };
    let current = match object.records().current() {
        Ok(current) => current,
        Err(error) => return run.storage_unavailable(&error),
    };
    let older_order: Option<SavedRecord> = match view.version_to_read(&current) {
        Err(message) => return ToolResult::Error(message),
        Ok(None) => None,
        Ok(Some(version)) => {
            match object
                .records()
                .version(DocumentKind::Order, version as i64)
            {
                Ok(record) => record,
                Err(error) => return run.storage_unavailable(&error),
            }
        }
    };
    // The open threads beside the order: when GitHub's read fails, the order shows without.
    let review = if view.wants_threads() {
        feedback::read_review(run.github, pull)
            .await
            .map_err(|error| {
                object
                    .platform
                    .error(&format!("reading the review threads failed: {error}"))
            })
            .ok()
    } else {
        None
    };
    let data = ViewData {
        base_url: &run.call.base_url,
        pull: &read.pull,
        snapshot: &read.snapshot,
        current: &current,
        older_order: older_order.as_ref(),
        review: review.as_ref(),
    };
    match answer(view, &data) {
        Ok(result) => ToolResult::Json(result),
        Err(message) => ToolResult::Error(message),
    }
}

/// The table: which [`RelayedTool`] runs each tool of the catalog, one line a tool. Makes
/// [`refusal`] (the Worker's) and [`run`] (the object's) from the same lines, so both read a
/// call's arguments with the same reader.
macro_rules! relayed {
    ($($tool:ident => $runs:ty,)*) => {
        /// Whether the table says the Worker answers `tool` (its line is `InWorker`).
        pub fn runs_in_worker(tool: ToolName) -> bool {
            match tool {
                $(ToolName::$tool => <$runs>::IN_WORKER,)*
            }
        }

        /// The message about the arguments of a call of `tool`, when its reader refuses them:
        /// what the Worker answers, without an object request, for a call whose target is wrong.
        pub fn refusal(tool: ToolName, args: &Map<String, Value>) -> Option<String> {
            match tool {
                $(ToolName::$tool => <$runs>::parse(tool, args).err(),)*
            }
        }

        /// Runs the call the Worker relayed: its arguments read once, then the tool.
        pub async fn run<St: Storage, P: Surroundings, T: GitHubTransport>(
            run: &Run<'_, St, P, T>,
        ) -> Result<ToolResult, SqlError> {
            let Some(tool) = ToolName::parse(&run.call.tool) else {
                return Ok(ToolResult::Error(format!(
                    "Unknown tool {:?}: the tools are {}",
                    run.call.tool,
                    ToolName::list()
                )));
            };
            match tool {
                $(ToolName::$tool => parse_and_run::<$runs, St, P, T>(tool, run).await,)*
            }
        }
    };
}

relayed! {
    GetOrderingGuide => InWorker,
    GetPullRequest => GetPullRequest,
    SaveReadingOrder => Save,
    SaveDiagram => Save,
    GetReviewFeedback => GetReviewFeedback,
    ShowReadingOrder => Views,
    ViewReadingOrder => Views,
    ViewDiagram => Views,
    ViewChange => Views,
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod fault_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
