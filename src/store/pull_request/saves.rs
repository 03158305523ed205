//! The two save tools as the pull request's object runs them (`tools::relay`), along one path:
//! read the document's shape and the target, read the pull request as the caller (which also
//! proves they can see it), check write access, validate against the pull request's files, then
//! write in this object's storage, which refuses stale base versions. Any failure returns before
//! the write, so a failed save leaves nothing behind.
//!
//! Why one path: the steps, their order and the storage failure are the same for both tools;
//! what differs is the document and the words of its messages (`tools::save_document`, chosen
//! by the [`DocumentKind`]) and the result's shape. The pure halves (target, facts, messages,
//! result shapes) are `tools::save_reading_order`'s; validation is `review::order`'s and
//! `review::diagram`'s.

use super::PullRequestStore;
use crate::app::pull_request::read::{self as pull_read, Files, PullRead};
use crate::errors;
use crate::mcp::dispatch::ToolResult;
use crate::review::diagram::diagram_counts;
use crate::review::model::saved::{DocumentKind, SaveOutcome, SaveRequest};
use crate::review::order::{next_step, order_counts, suggest};
use crate::tools::relay::RelayedCall;
use crate::tools::save_document::{checked, Document, Words};
use crate::tools::save_reading_order::{self as save, SaveTarget};

/// The message when the write's outcome is unknown.
const STORE_FAILED: &str = "LogiKFlow could not confirm the save (storage unavailable). In a minute, call get_pull_request: if the version moved past your base_version, this save went through; otherwise retry it.";

fn now() -> String {
    crate::time::rfc3339(worker::Date::now().as_millis())
}

impl PullRequestStore {
    /// `save_reading_order` or `save_diagram`, in order: the document's shape and the target
    /// (one message with every problem), the pull request read as the caller, write access,
    /// validation against the pull request, the write (refused when `base_version` is stale),
    /// then the tool's result.
    pub(super) async fn save_document(&self, call: RelayedCall, kind: DocumentKind) -> ToolResult {
        let words = Words::of(kind);
        let (document, target) = match checked(kind, &call.arguments) {
            Ok(checked) => checked,
            Err(message) => return ToolResult::Error(message),
        };
        let read = match self.read_for_save(&call, &target, words.what).await {
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
            saved_at: now(),
        };
        let (version, has_diagram) = match self.records().save(&save_request) {
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
                worker::console_error!("saving to the pull request store failed: {error}");
                return ToolResult::Error(STORE_FAILED.into());
            }
        };
        match document {
            Document::Order(order) => {
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
                    order_counts(&order),
                    suggestions,
                    next,
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
    async fn read_for_save(
        &self,
        call: &RelayedCall,
        target: &SaveTarget,
        what: &str,
    ) -> Result<PullRead, String> {
        let config = crate::bindings::config(&self.env);
        let github = crate::github::fetch::github(config, &call.github_token);
        let pull = (target.owner.as_str(), target.repo.as_str(), target.number);
        let read = pull_read::read_in_object(
            &self.platform(),
            &self.read_memo,
            &github,
            pull,
            Files::ForChecks,
        )
        .await
        .map_err(|error| errors::github_failure(&error, &target.label()))?;
        if !read.repository.can_arrange() {
            return Err(save::no_write_access(
                &call.login,
                &target.owner,
                &target.repo,
                what,
            ));
        }
        Ok(read)
    }
}
