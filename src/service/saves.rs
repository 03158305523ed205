//! Runs the two save tools (wasm only) along one path, [`save`]: read the document's shape and
//! the target, read the pull request as the caller (which also proves they can see it), check
//! write access, validate against the pull request's files, then write through the pull
//! request's Durable Object, which refuses stale base versions. Any failure returns before the
//! write, so a failed save leaves nothing behind.
//!
//! Why one path: the steps, their order and the storage failure are the same for both tools;
//! what differs is the document ([`Document`]: how it is read, checked and stored), the words
//! of its messages ([`Words`]) and the result's shape. Both are values chosen by the
//! [`DocumentKind`], not type parameters, so the path is written once.
//! What not: the pure halves (target, facts, messages, result shapes) are
//! `tools::save_reading_order`'s; validation is `review::order`'s and `review::diagram`'s.

use serde_json::{Map, Value};
use worker::Env;

use super::{pull_request, saved_store};
use crate::errors;
use crate::github::client::GitHub;
use crate::mcp::dispatch::{Era, ToolRequest, ToolResult};
use crate::review::diagram::{check_diagram, diagram_counts, diagram_shape, Diagram};
use crate::review::order::{
    check_order, next_step, order_counts, order_shape, suggest, Order, PullFacts,
};
use crate::tools::caller::Caller;
use crate::tools::save_reading_order::{self as save, SaveTarget};
use crate::tools::saved::{DocumentKind, SaveOutcome, SaveRequest};

/// The app in `updatedBy` (DESIGN.md section 4): on 2026-07-28 requests the name the client
/// reports in `_meta` clientInfo, else the credential's own name (the OAuth client's registered
/// name or the API token's name); 2025 requests (whose clientInfo belongs to `initialize`) the
/// other way round. The person's login is shown beside it either way.
fn client_name(request: &ToolRequest, caller: &Caller) -> Option<String> {
    let (first, second) = match request.era {
        Era::Modern => (&request.client_name, &caller.client_name),
        Era::Legacy => (&caller.client_name, &request.client_name),
    };
    first.clone().or_else(|| second.clone())
}

fn now() -> String {
    crate::time::rfc3339(worker::Date::now().as_millis())
}

pub async fn save_reading_order(
    request: &ToolRequest,
    caller: &Caller,
    env: &Env,
    github: &GitHub<'_>,
    base_url: &str,
) -> ToolResult {
    save(request, caller, env, github, base_url, DocumentKind::Order).await
}

pub async fn save_diagram(
    request: &ToolRequest,
    caller: &Caller,
    env: &Env,
    github: &GitHub<'_>,
    base_url: &str,
) -> ToolResult {
    save(
        request,
        caller,
        env,
        github,
        base_url,
        DocumentKind::Diagram,
    )
    .await
}

/// How a save's messages name its document (the MCP reference's Errors table).
struct Words {
    /// Starts the message for problems found before the pull request is read.
    invalid: &'static str,
    /// The message for a document that is missing although no problem was found (not reached).
    missing: &'static str,
    /// The document in the write-access refusal.
    what: &'static str,
    /// Before "version" in a conflict ("saved diagram version 2"), and the result field whose
    /// version to build on.
    conflict_document: &'static str,
    base_field: &'static str,
}

impl Words {
    fn of(kind: DocumentKind) -> Words {
        match kind {
            DocumentKind::Order => Words {
                invalid: "The order is invalid",
                missing: "The order is invalid: sections is required",
                what: "an order",
                conflict_document: "",
                base_field: "baseVersion",
            },
            DocumentKind::Diagram => Words {
                invalid: "The diagram is invalid",
                missing: "The diagram is invalid: diagram is required",
                what: "a diagram",
                conflict_document: "diagram ",
                base_field: "diagramBaseVersion",
            },
        }
    }
}

/// The document a save carries.
enum Document {
    Order(Order),
    Diagram(Diagram),
}

impl Document {
    /// Reads the document's shape from the arguments, once, before any GitHub request: the
    /// document, or every problem that needs no pull request (for a diagram, unknown keys first).
    fn read(kind: DocumentKind, args: &Map<String, Value>) -> Result<Document, Vec<String>> {
        match kind {
            DocumentKind::Order => {
                order_shape(&save::document_arguments(args)).map(Document::Order)
            }
            DocumentKind::Diagram => {
                let mut problems = save::unknown_diagram_keys(args);
                match save::diagram_argument(args) {
                    Ok(input) => match diagram_shape(input) {
                        Ok(diagram) if problems.is_empty() => Ok(Document::Diagram(diagram)),
                        Ok(_) => Err(problems),
                        Err(shape) => {
                            problems.extend(shape);
                            Err(problems)
                        }
                    },
                    Err(problem) => {
                        problems.push(problem);
                        Err(problems)
                    }
                }
            }
        }
    }

    /// Checks the document against the pull request's files: the message when it does not fit.
    fn check(self, facts: &PullFacts) -> Result<Document, String> {
        match self {
            Document::Order(order) => check_order(order, facts)
                .map(Document::Order)
                .map_err(|rejection| rejection.message()),
            Document::Diagram(diagram) => check_diagram(diagram, facts)
                .map(Document::Diagram)
                .map_err(|rejection| rejection.message()),
        }
    }

    /// The stored form: an order with its checklist identities, a diagram as it is.
    fn body(&self) -> Value {
        match self {
            Document::Order(order) => save::stored_order(order),
            Document::Diagram(diagram) => serde_json::to_value(diagram).unwrap_or_default(),
        }
    }
}

/// The path both saves share, in order: the document's shape and the target (one message with
/// every problem), the pull request read as the caller, write access, validation against the
/// pull request, the write (refused when `base_version` is stale), then the tool's result.
async fn save(
    request: &ToolRequest,
    caller: &Caller,
    env: &Env,
    github: &GitHub<'_>,
    base_url: &str,
    kind: DocumentKind,
) -> ToolResult {
    let words = Words::of(kind);
    let (document, problems) = match Document::read(kind, &request.arguments) {
        Ok(document) => (Some(document), Vec::new()),
        Err(problems) => (None, problems),
    };
    let target = match save::checked_target(&request.arguments, problems, words.invalid) {
        Ok(target) => target,
        Err(message) => return ToolResult::Error(message),
    };
    let Some(document) = document else {
        // Not reached: a shape problem is reported with the target's above.
        return ToolResult::Error(words.missing.into());
    };
    let read = match read_for_save(env, github, caller, &target, words.what).await {
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
        person: caller.login.clone(),
        client: client_name(request, caller),
        source: "agent".into(),
        head_sha: read.pull.head.sha.clone(),
        saved_at: now(),
    };
    let (version, has_diagram) = match store(env, &target, &save_request).await {
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
        Err(message) => return ToolResult::Error(message),
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
                base_url,
                version,
                order_counts(&order),
                suggestions,
                next,
            ))
        }
        Document::Diagram(diagram) => ToolResult::Structured(save::diagram_result(
            &target,
            base_url,
            version,
            diagram_counts(&diagram),
        )),
    }
}

/// Reads the pull request as the caller and checks they may arrange it; `what` names the
/// document in the refusal ("an order", "a diagram").
async fn read_for_save(
    env: &Env,
    github: &GitHub<'_>,
    caller: &Caller,
    target: &SaveTarget,
    what: &str,
) -> Result<pull_request::PullRead, String> {
    let read = pull_request::read_pull_with_files(
        env,
        github,
        &target.owner,
        &target.repo,
        target.number,
        pull_request::Files::ForChecks,
    )
    .await
    .map_err(|error| errors::github_failure(&error, &target.label()))?;
    if !read.repository.can_arrange() {
        return Err(save::no_write_access(
            &caller.login,
            &target.owner,
            &target.repo,
            what,
        ));
    }
    Ok(read)
}

async fn store(
    env: &Env,
    target: &SaveTarget,
    request: &SaveRequest,
) -> Result<SaveOutcome, String> {
    saved_store::save(env, &target.owner, &target.repo, target.number, request)
        .await
        .map_err(|error| {
            worker::console_error!("saving to the pull request store failed: {error}");
            "LogiKFlow could not confirm the save (storage unavailable). In a minute, call get_pull_request: if the version moved past your base_version, this save went through; otherwise retry it.".to_string()
        })
}
