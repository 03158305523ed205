//! What a tool the pull request's object runs is ([`RelayedTool`]: how it reads its arguments,
//! once, and how it runs) and what it runs with ([`Run`]: the object, GitHub as the caller, the
//! call). The dispatch that names each tool's is `tools`; a tool's run is its own module's.
//!
//! What not: no tool of its own.

use serde_json::{Map, Value};

use super::object::{Object, Storage};
use crate::github::client::GitHub;
use crate::mcp::catalog::{ToolName, Unanswered};
use crate::mcp::dispatch::ToolResult;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::SqlError;
use crate::tools::relay::RelayedCall;

/// What a relayed tool runs with: the object, GitHub as the caller, and the call.
pub struct Run<'a, St: Storage, P: Surroundings, T: GitHubTransport> {
    pub object: &'a Object<'a, St, P>,
    pub github: &'a GitHub<'a, T>,
    pub call: &'a RelayedCall,
}

impl<St: Storage, P: Surroundings, T: GitHubTransport> Run<'_, St, P, T> {
    /// The message when this object's storage can't be read, logged with its cause.
    pub fn storage_unavailable(&self, error: &impl std::fmt::Display) -> ToolResult {
        self.object
            .platform
            .error(&format!("reading the pull request store failed: {error}"));
        ToolResult::Error(Unanswered::View.message().into())
    }
}

/// A tool the object runs: its arguments read once, then its run. A storage failure the agent
/// can't be told about in the tool's own words is an `Err`, which the Worker answers with the
/// catalog's [`Unanswered`] message.
#[allow(async_fn_in_trait)] // The object is single-threaded: no `Send` bound is wanted.
pub trait RelayedTool {
    type Args;

    /// Whether the Worker answers the tool itself (`InWorker`): what the catalog's `runs` says
    /// too, held to it by `tools::tests::the_table_and_the_catalog_agree_on_where_each_tool_runs`.
    const IN_WORKER: bool = false;

    /// The typed arguments of `tool`'s call, or the message about them (every problem at once).
    fn parse(tool: ToolName, args: &Map<String, Value>) -> Result<Self::Args, String>;

    async fn run<St: Storage, P: Surroundings, T: GitHubTransport>(
        run: &Run<'_, St, P, T>,
        args: Self::Args,
    ) -> Result<ToolResult, SqlError>;
}
