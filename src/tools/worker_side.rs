//! The tools the Worker answers itself (`Runs::Worker` in `mcp::catalog`), dispatched by name.
//!
//! Why by name: a second Worker-side tool must get its own answer, never another tool's (issue
//! #45: the Worker mapped `Runs::Worker` straight to the ordering guide).
//! `app::pull_request::tools::tests::the_table_and_the_catalog_agree_on_where_each_tool_runs`
//! holds this match, the catalog's `runs` and the object's table to one another.
//! What not: no tool that reads a pull request; those run in its object.

use crate::mcp::catalog::ToolName;
use crate::mcp::dispatch::ToolResult;

/// What the agent is told if a tool the catalog says the Worker runs has no run here (a test
/// keeps this from happening).
pub const NO_RUN: &str = "This tool has no answer in the Worker; report it to the operator.";

/// The answer of a Worker-side `tool`, or `None` when the Worker does not run it.
pub fn run(tool: ToolName, base_url: &str) -> Option<ToolResult> {
    match tool {
        ToolName::GetOrderingGuide => Some(super::ordering_guide::get_ordering_guide(base_url)),
        _ => None,
    }
}
