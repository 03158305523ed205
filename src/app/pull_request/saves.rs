//! The two save tools as the pull request's object runs them (`tools::relay`), along one path:
//! read the document's shape and the target, read the pull request as the caller (which also
//! proves they can see it), check write access, validate against the pull request's files, then
//! write in this object's records, which refuse stale base versions. Any failure returns before
//! the write, so a failed save leaves nothing behind. After an order's save, the `LogiKFlow`
//! commit status is set on the head (`commit_status`): one GitHub write more, whose refusal the
//! answer reports (`commitStatus`) and never fails the save. A diagram's save sets none.
//!
//! Why one path: the steps, their order and the storage failure are the same for both tools;
//! what differs is the document and the words of its messages (`tools::save_document`, chosen
//! by the [`DocumentKind`]) and the result's shape. The pure halves (target, facts, messages,
//! result shapes) are `tools::save_reading_order`'s; validation is `review::order`'s and
//! `review::diagram`'s.
//!
//! What not: no platform names (the shell hands in the object, GitHub as the caller, the clock).

use serde_json::{Map, Value};

use super::commit_status::{self, Described};
use super::object::Storage;
use super::read::{self as pull_read, Files, PullRead};
use super::relayed::{RelayedTool, Run};
use crate::errors;
use crate::mcp::catalog::{ToolName, Unanswered};
use crate::mcp::dispatch::ToolResult;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::SqlError;
use crate::review::diagram::diagram_counts;
use crate::review::model::saved::{DocumentKind, SaveOutcome, SaveRequest};
use crate::review::order::{next_step, order_counts, suggest};
use crate::tools::get_pull_request::review_url;
use crate::tools::save_document::{checked, Document, Words};
use crate::tools::save_reading_order::{self as save, SaveTarget};

/// `save_reading_order` and `save_diagram`.
pub struct Save;

/// A save's arguments, read once: which document, the document's shape and the target.
pub struct SaveArgs {
    pub kind: DocumentKind,
    pub document: Document,
    pub target: SaveTarget,
}

impl RelayedTool for Save {
    type Args = SaveArgs;

    /// The document's shape and the target: one message with every problem.
    fn parse(tool: ToolName, args: &Map<String, Value>) -> Result<SaveArgs, String> {
        let kind = match tool {
            ToolName::SaveDiagram => DocumentKind::Diagram,
            _ => DocumentKind::Order,
        };
        let (document, target) = checked(kind, args)?;
        Ok(SaveArgs {
            kind,
            document,
            target,
        })
    }

    async fn run<St: Storage, P: Surroundings, T: GitHubTransport>(
        run: &Run<'_, St, P, T>,
        args: SaveArgs,
    ) -> Result<ToolResult, SqlError> {
        Ok(save_document(run, args).await)
    }
}

/// In order: the pull request read as the caller, write access, validation against the pull
/// request, the write (refused when `base_version` is stale), then the tool's result.
async fn save_document<St: Storage, P: Surroundings, T: GitHubTransport>(
    run: &Run<'_, St, P, T>,
    SaveArgs {
        kind,
        document,
        target,
    }: SaveArgs,
) -> ToolResult {
    let (object, call) = (run.object, run.call);
    let words = Words::of(kind);
    let read = match read_for_save(run, &target, words.what).await {
        Ok(read) => read,
        Err(message) => return ToolResult::Error(message),
    };
    let facts = save::facts_from_snapshot(&read.snapshot);
    let document = match document.check(&facts) {
        Ok(document) => document,
        Err(message) => return ToolResult::Error(message),
    };
    let save_request = SaveRequest {
        kind,
        base_version: target.base_version,
        body: document.body(),
        person: call.login.clone(),
        client: call.client.clone(),
        source: "agent".into(),
        head_sha: read.pull.head.sha.clone(),
        saved_at: crate::time::rfc3339(object.clock.now_ms()),
    };
    let (version, has_diagram) = match object.records().save(&save_request) {
        Ok(SaveOutcome::Saved {
            version,
            has_diagram,
        }) => (version, has_diagram),
        Ok(SaveOutcome::Conflict { latest }) => {
            return ToolResult::Error(save::conflict(
                &latest,
                target.base_version,
                words.conflict_document,
                words.base_field,
            ))
        }
        Err(error) => {
            let line = format!("saving to the pull request store failed: {error}");
            object.platform.error(&line);
            return ToolResult::Error(Unanswered::Save.message().into());
        }
    };
    match document {
        Document::Order(order) => {
            let counts = order_counts(&order);
            let review_url = review_url(&call.base_url, &target.owner, &target.repo, target.number);
            let described = Described {
                version,
                sections: counts.sections,
                order: Some(&order),
                review_url: &review_url,
            };
            let pull = (target.owner.as_str(), target.repo.as_str());
            let status =
                commit_status::set(object, run.github, call.may_write, &read, pull, &described)
                    .await;
            let suggestions = suggest(&order, &facts);
            let next = next_step(
                &suggestions,
                version,
                &read.snapshot.diagram_preference,
                read.snapshot.changed_files as usize,
                has_diagram,
            );
            ToolResult::Structured(save::order_result(
                &target,
                &call.base_url,
                version,
                counts,
                suggestions,
                next,
                status.json(),
            ))
        }
        Document::Diagram(diagram) => ToolResult::Structured(save::diagram_result(
            &target,
            &call.base_url,
            version,
            diagram_counts(&diagram),
        )),
    }
}

/// Reads the pull request as the caller (the lean snapshot validation needs) and checks they
/// may arrange it; `what` names the document in the refusal ("an order", "a diagram").
async fn read_for_save<St: Storage, P: Surroundings, T: GitHubTransport>(
    run: &Run<'_, St, P, T>,
    target: &SaveTarget,
    what: &str,
) -> Result<PullRead, String> {
    let object = run.object;
    let pull = (target.owner.as_str(), target.repo.as_str(), target.number);
    let read = pull_read::read_in_object(
        &object.platform,
        object.memo,
        run.github,
        pull,
        Files::ForChecks,
    )
    .await
    .map_err(|error| errors::github_failure(&error, &target.label()))?;
    if !read.repository.can_arrange() {
        return Err(save::no_write_access(
            &run.call.login,
            &target.owner,
            &target.repo,
            what,
        ));
    }
    Ok(read)
}
