//! `get_review_feedback` in the pull request's object (issue #38): the one adapter that reads
//! what the tool's body (`tools::get_review_feedback::answer`) takes, as the caller.
//!
//! The reads, in order: the caller's own read of the repository and pull request with the file
//! snapshot (`pull_read::read_in_object`, as every relayed tool starts, so a pull request the
//! caller can't see is GitHub's 404 and the same message as elsewhere), then one GraphQL request
//! for the review threads and reviews (`tools::get_review_feedback::graphql`), then the latest saved order from this
//! object's storage. GitHub requests per call: 3 with the snapshot cached (repository, pull
//! request, GraphQL), ceil(files/100) + 5 on a head never read before. The GraphQL read
//! ([`read_review`]) is also `view_reading_order`'s, for the open threads beside each section.
//!
//! What not: no decisions, no shaping; nothing is written.

use super::PullRequestStore;
use crate::errors;
use crate::github::api::GitHubError;
use crate::github::client::GitHub;
use crate::mcp::dispatch::ToolResult;
use crate::store::pull_read::{self, Files};
use crate::tools::get_review_feedback::graphql as feedback;
use crate::tools::get_review_feedback::{answer, parse_args, Sources};
use crate::tools::relay::RelayedCall;

impl PullRequestStore {
    /// Runs a relayed `get_review_feedback`.
    pub(super) async fn review_feedback(&self, call: RelayedCall) -> ToolResult {
        let args = match parse_args(&call.arguments) {
            Ok(args) => args,
            Err(message) => return ToolResult::Error(message),
        };
        let config = crate::bindings::config(&self.env);
        let github = GitHub {
            base_url: &config.github_api_url,
            token: &call.github_token,
            timeout_ms: config.github_timeout_ms,
        };
        let failed = |error| ToolResult::Error(errors::github_failure(&error, &args.label()));
        let pull = (args.owner.as_str(), args.repo.as_str(), args.number);
        let read = match pull_read::read_in_object(
            &self.env,
            &self.read_memo,
            &github,
            pull,
            Files::Whole,
        )
        .await
        {
            Ok(read) => read,
            Err(error) => return failed(error),
        };
        let review = match read_review(&github, pull).await {
            Ok(review) => review,
            Err(error) => return failed(error),
        };
        let current = match self.current() {
            Ok(current) => current,
            Err(error) => {
                worker::console_error!("reading the pull request store failed: {error}");
                return ToolResult::Error(
                    "LogiKFlow could not read the saved order right now (storage unavailable). Retry in a minute."
                        .into(),
                );
            }
        };
        ToolResult::Json(answer(&Sources {
            args: &args,
            base_url: &call.base_url,
            pull: &read.pull,
            snapshot: &read.snapshot,
            order: current.order.as_ref(),
            review: &review,
        }))
    }
}

/// The pull request's review threads and reviews: the one GraphQL request, as the caller. Also
/// the MCP Apps view's open threads per section (`view_reading_order`, in `tools`), so both read
/// GitHub the same way.
pub(super) async fn read_review(
    github: &GitHub<'_>,
    (owner, repo, number): (&str, &str, u64),
) -> Result<feedback::Review, GitHubError> {
    let body = feedback::request(owner, repo, number);
    let text = github.post(crate::github::graphql::PATH, &body).await?;
    feedback::read(&text)
}
