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
use super::records::Records;
use crate::errors;
use crate::github::api::GitHubError;
use crate::github::client::GitHub;
use crate::github::review_threads::{self, Review};
use crate::mcp::dispatch::ToolResult;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::{Sql, SqlError};
use crate::review::coverage::Coverage;
use crate::review::model::saved::CurrentState;
use crate::review::model::snapshot::SnapshotFile;
use crate::review::order::Order;
use crate::review::receipt::Receipt;
use crate::tools::get_review_feedback::{answer, Args, Sources};
use crate::tools::relay::RelayedCall;

/// What the object holds for the answer: the saved state, coverage of the latest order at the
/// head, and the receipts of reviews sent from the page (issue #47).
pub struct Team {
    pub current: CurrentState,
    pub coverage: Coverage,
    pub receipts: Vec<(u64, Receipt)>,
}

/// Reads [`Team`] from the object's records, over `files` at `head` (the caller's read).
pub fn team<S: Sql>(
    records: &Records<'_, S>,
    files: &[SnapshotFile],
    head: &str,
) -> Result<Team, SqlError> {
    let current = records.current()?;
    let order: Option<Order> = current
        .order
        .as_ref()
        .and_then(|record| crate::json::read(&record.body).ok());
    let coverage = super::coverage::coverage(records, order.as_ref(), files, head)?;
    let receipts = records
        .receipts()?
        .into_iter()
        .filter_map(|row| {
            let id = row.review_id.parse::<u64>().ok()?;
            let receipt = crate::json::decode::<Receipt>(&row.receipt).ok()?;
            Some((id, receipt))
        })
        .collect();
    Ok(Team {
        current,
        coverage,
        receipts,
    })
}

/// Runs a relayed `get_review_feedback` with its arguments `args` read once
/// (`app::pull_request::tools`); `current` is the object's saved state, read after GitHub's
/// answers (a read failure there is the storage message).
pub async fn review_feedback<T: GitHubTransport, P: Surroundings>(
    env: &P,
    memo: &ReadMemo,
    github: &GitHub<'_, T>,
    (args, call): (&Args, &RelayedCall),
    current: impl FnOnce(&[SnapshotFile], &str) -> Result<Team, ToolResult>,
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
    let team = match current(&read.snapshot.files, &read.pull.head.sha) {
        Ok(team) => team,
        Err(refusal) => return refusal,
    };
    ToolResult::Json(answer(&Sources {
        args,
        base_url: &call.base_url,
        pull: &read.pull,
        snapshot: &read.snapshot,
        order: team.current.order.as_ref(),
        review: &review,
        coverage: &team.coverage,
        receipts: &team.receipts,
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
