//! `get_review_feedback`: its arguments, and its answer from plain inputs (issue #38).
//!
//! The tool's body is [`answer`]: the pull request as read, its file snapshot, the latest saved
//! order and the review GitHub gave (`github::review_threads` reads it) in, the result's JSON out. The reads are
//! the adapter's (`store::pull_request::feedback`), so the body can be moved onto another
//! dispatch without change; the rules are the review core's (`review::feedback`).
//!
//! What not: no GitHub requests, no storage.

use serde::Serialize;
use serde_json::{Map, Value};

use super::get_pull_request::review_url;
use super::pull_target::{self, PullTarget};
use crate::github::api::PullRequest;
use crate::github::review_threads::Review;
use crate::review::coverage::{self, Coverage};
use crate::review::feedback::{feedback, next_step, Feedback, FileAtHead, Inputs};
use crate::review::model::saved::SavedRecord;
use crate::review::model::snapshot::file_at_head;
use crate::review::model::snapshot::Snapshot;
use crate::review::order::Order;
use crate::review::receipt::Receipt;

/// The tool's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    pub owner: String,
    pub repo: String,
    pub number: u64,
    pub include_resolved: bool,
}

impl Args {
    /// `owner/repo#number`, as messages name the pull request.
    pub fn label(&self) -> String {
        pull_target::label(&self.owner, &self.repo, self.number)
    }
}

pub fn parse_args(args: &Map<String, Value>) -> Result<Args, String> {
    let (target, include_resolved) = PullTarget::with_flag(args, "include_resolved")?;
    Ok(Args {
        owner: target.owner,
        repo: target.repo,
        number: target.number,
        include_resolved,
    })
}

/// Everything the answer is built from.
pub struct Sources<'a> {
    pub args: &'a Args,
    pub base_url: &'a str,
    pub pull: &'a PullRequest,
    pub snapshot: &'a Snapshot,
    /// The latest saved order, when one is.
    pub order: Option<&'a SavedRecord>,
    pub review: &'a Review,
    /// Who has reviewed what of the latest order at the head, from the object's ticks.
    pub coverage: &'a Coverage,
    /// What reviews sent from the review page had read, by GitHub's review id (the object's
    /// record, never a review's text).
    pub receipts: &'a [(u64, Receipt)],
}

/// The result as JSON text.
pub fn answer(sources: &Sources<'_>) -> String {
    let Sources {
        args,
        base_url,
        pull,
        snapshot,
        order,
        review,
        coverage,
        receipts,
    } = sources;
    let files: Vec<FileAtHead<'_>> = snapshot.files.iter().map(file_at_head).collect();
    // A stored order always reads (it was validated when saved); one that doesn't places nothing.
    let parsed: Option<Order> = order.and_then(|record| crate::json::read(&record.body).ok());
    let decided = feedback(&Inputs {
        head_sha: &pull.head.sha,
        author: pull.user.as_ref().map(|user| user.login.as_str()),
        files: &files,
        order: parsed.as_ref(),
        threads: &review.threads,
        reviews: &review.reviews,
        include_resolved: args.include_resolved,
        truncated: review.truncated,
    });
    let mut decided = decided;
    for verdict in &mut decided.verdicts {
        verdict.read = verdict.id.and_then(|id| {
            receipts
                .iter()
                .find(|(review, _)| *review == id)
                .map(|(_, receipt)| receipt.clone())
        });
    }
    let coverage = coverage::report(coverage);
    if let Some(sentence) = next_step::for_coverage(&coverage) {
        decided.next_step.push(' ');
        decided.next_step.push_str(&sentence);
    }
    let result = Answer {
        review_url: review_url(base_url, &args.owner, &args.repo, args.number),
        repository: format!("{}/{}", args.owner, args.repo),
        number: pull.number,
        url: &pull.html_url,
        head_sha: &pull.head.sha,
        order_version: parsed.as_ref().and(order.map(|record| record.version)),
        feedback: decided,
        coverage,
    };
    serde_json::to_string(&result).unwrap_or_default()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Answer<'a> {
    review_url: String,
    repository: String,
    number: u64,
    url: &'a str,
    head_sha: &'a str,
    order_version: Option<u64>,
    #[serde(flatten)]
    feedback: Feedback,
    coverage: coverage::Report,
}

#[cfg(test)]
mod tests;
