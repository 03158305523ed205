//! Runs the two save tools (wasm only): read the pull request as the caller (which also proves
//! they can see it), check write access, validate against the pull request's files, then write
//! through the pull request's Durable Object, which refuses stale base versions. Any failure
//! returns before the write, so a failed save leaves nothing behind.

use worker::Env;

use super::{pull_request, saved_store};
use crate::errors;
use crate::github::client::GitHub;
use crate::mcp::dispatch::{Era, ToolRequest, ToolResult};
use crate::review::diagram::{check_diagram, diagram_counts, diagram_shape};
use crate::review::order::{check_order, next_step, order_counts, order_shape, suggest};
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

/// Reads the pull request as the caller and checks they may arrange it; `what` names the
/// document in the refusal ("an order", "a diagram").
async fn read_for_save(
    env: &Env,
    github: &GitHub<'_>,
    caller: &Caller,
    target: &SaveTarget,
    what: &str,
) -> Result<pull_request::PullRead, String> {
    let read =
        pull_request::read_pull_with_files(env, github, &target.owner, &target.repo, target.number)
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

pub async fn save_reading_order(
    request: &ToolRequest,
    caller: &Caller,
    env: &Env,
    github: &GitHub<'_>,
    base_url: &str,
) -> ToolResult {
    // Parsed once, before any GitHub request; checked against the pull request after it.
    let (order, shape_problems) = match order_shape(&save::document_arguments(&request.arguments)) {
        Ok(order) => (Some(order), Vec::new()),
        Err(problems) => (None, problems),
    };
    let target =
        match save::checked_target(&request.arguments, shape_problems, "The order is invalid") {
            Ok(target) => target,
            Err(message) => return ToolResult::Error(message),
        };
    let Some(order) = order else {
        // Not reached: a shape problem is reported with the target's above.
        return ToolResult::Error("The order is invalid: sections is required".into());
    };
    let read = match read_for_save(env, github, caller, &target, "an order").await {
        Ok(read) => read,
        Err(message) => return ToolResult::Error(message),
    };
    let facts = save::facts_from_snapshot(&read.snapshot);
    let order = match check_order(order, &facts) {
        Ok(order) => order,
        Err(rejection) => return ToolResult::Error(rejection.message()),
    };
    let save_request = SaveRequest {
        kind: DocumentKind::Order,
        base_version: target.base_version,
        body: save::stored_order(&order),
        person: caller.login.clone(),
        client: client_name(request, caller),
        source: "agent".into(),
        head_sha: read.pull.head.sha.clone(),
        saved_at: now(),
    };
    let version = match store(env, &target, &save_request).await {
        Ok(SaveOutcome::Saved { version }) => version,
        Ok(SaveOutcome::Conflict { latest }) => {
            return ToolResult::Error(save::conflict(
                &latest,
                target.base_version,
                "",
                "baseVersion",
            ))
        }
        Err(message) => return ToolResult::Error(message),
    };
    let has_diagram = saved_store::current(env, &target.owner, &target.repo, target.number)
        .await
        .map(|state| state.diagram.is_some())
        .unwrap_or(false);
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

pub async fn save_diagram(
    request: &ToolRequest,
    caller: &Caller,
    env: &Env,
    github: &GitHub<'_>,
    base_url: &str,
) -> ToolResult {
    // Every problem that needs no pull request, in one message: the target, unknown keys, then
    // the diagram's shape.
    // The diagram is parsed once, here; it is checked against the pull request after the read.
    let mut problems = save::unknown_diagram_keys(&request.arguments);
    let diagram = match save::diagram_argument(&request.arguments) {
        Ok(input) => diagram_shape(input)
            .map_err(|shape| problems.extend(shape))
            .ok(),
        Err(problem) => {
            problems.push(problem);
            None
        }
    };
    let target = match save::checked_target(&request.arguments, problems, "The diagram is invalid")
    {
        Ok(target) => target,
        Err(message) => return ToolResult::Error(message),
    };
    let Some(diagram) = diagram else {
        // Not reached: a missing or malformed diagram is one of the problems above.
        return ToolResult::Error("The diagram is invalid: diagram is required".into());
    };
    let read = match read_for_save(env, github, caller, &target, "a diagram").await {
        Ok(read) => read,
        Err(message) => return ToolResult::Error(message),
    };
    let facts = save::facts_from_snapshot(&read.snapshot);
    let diagram = match check_diagram(diagram, &facts) {
        Ok(diagram) => diagram,
        Err(rejection) => return ToolResult::Error(rejection.message()),
    };
    let save_request = SaveRequest {
        kind: DocumentKind::Diagram,
        base_version: target.base_version,
        body: serde_json::to_value(&diagram).unwrap_or_default(),
        person: caller.login.clone(),
        client: client_name(request, caller),
        source: "agent".into(),
        head_sha: read.pull.head.sha.clone(),
        saved_at: now(),
    };
    match store(env, &target, &save_request).await {
        Ok(SaveOutcome::Saved { version }) => ToolResult::Structured(save::diagram_result(
            &target,
            base_url,
            version,
            diagram_counts(&diagram),
        )),
        Ok(SaveOutcome::Conflict { latest }) => ToolResult::Error(save::conflict(
            &latest,
            target.base_version,
            "diagram ",
            "diagramBaseVersion",
        )),
        Err(message) => ToolResult::Error(message),
    }
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
