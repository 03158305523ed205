//! `get_review_feedback` in the pull request's object (issue #38): the reads the tool's body
//! (`tools::get_review_feedback::answer`) takes, made as the caller, over the ports.
//!
//! The reads, in order: the caller's own read of the repository and pull request with the file
//! snapshot (`read::read_in_object`, as every relayed tool starts, so a pull request the caller
//! can't see is GitHub's 404 and the same message as elsewhere), then one GraphQL request for the
//! review threads and reviews ([`read_review`], `github::review_threads`), then the
//! latest saved order, which the shell reads from its records and hands in. GitHub requests per
//! call: 3 with the snapshot cached (repository, pull request, GraphQL), ceil(files/100) + 5 on a
//! head never read before. [`read_review`] is also `view_reading_order`'s, for the open threads
//! beside each section.
//!
//! What not: no decisions and no shaping (`review::feedback`, `tools::get_review_feedback`);
//! nothing is written.

use super::read::{self, Files, ReadMemo};
use crate::errors;
use crate::github::api::GitHubError;
use crate::github::client::GitHub;
use crate::github::review_threads::{self, Review};
use crate::mcp::dispatch::ToolResult;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::review::model::saved::CurrentState;
use crate::tools::get_review_feedback::{answer, Args, Sources};
use crate::tools::relay::RelayedCall;

/// Runs a relayed `get_review_feedback` with its arguments `args` read once
/// (`app::pull_request::tools`); `current` is the object's saved state, read after GitHub's
/// answers (a read failure there is the storage message).
pub async fn review_feedback<T: GitHubTransport, P: Surroundings>(
    env: &P,
    memo: &ReadMemo,
    github: &GitHub<'_, T>,
    (args, call): (&Args, &RelayedCall),
    current: impl FnOnce() -> Result<CurrentState, ToolResult>,
) -> ToolResult {
    let failed = |error| ToolResult::Error(errors::github_failure(&error, &args.label()));
    let pull = (args.owner.as_str(), args.repo.as_str(), args.number);
    let read = match read::read_in_object(env, memo, github, pull, Files::Whole).await {
        Ok(read) => read,
        Err(error) => return failed(error),
    };
    let review = match read_review(github, pull).await {
        Ok(review) => review,
        Err(error) => return failed(error),
    };
    let current = match current() {
        Ok(current) => current,
        Err(refusal) => return refusal,
    };
    ToolResult::Json(answer(&Sources {
        args,
        base_url: &call.base_url,
        pull: &read.pull,
        snapshot: &read.snapshot,
        order: current.order.as_ref(),
        review: &review,
    }))
}

/// The pull request's review threads and reviews: the one GraphQL request, as the caller. Also
/// the MCP Apps view's open threads per section (`view_reading_order`), so both read GitHub the
/// same way.
pub async fn read_review<T: GitHubTransport>(
    github: &GitHub<'_, T>,
    (owner, repo, number): (&str, &str, u64),
) -> Result<Review, GitHubError> {
    let body = review_threads::review_request(owner, repo, number);
    let text = github.post(crate::github::graphql::PATH, &body).await?;
    review_threads::review(&text)
}
