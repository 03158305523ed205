//! Talks to a pull request's Durable Object (wasm only): one object per `owner/repo#number`,
//! lower-cased, because GitHub names are case-insensitive.

use crate::subrequest as wire;
use worker::{Env, Result};

use crate::app::pull_request::calls::{read_results, ReviewerCall, RouteCall, CSRF_COOKIE_HEADER};
use crate::mcp::dispatch::ToolResult;
use crate::review::model::ticks::TickResult;
use crate::tools::relay::{self, RelayedCall, LOG_HEADER};

/// The object's name for a pull request.
pub fn object_name(owner: &str, repo: &str, number: u64) -> String {
    format!(
        "{}/{}#{number}",
        owner.to_ascii_lowercase(),
        repo.to_ascii_lowercase()
    )
}

const BINDING: &str = "PULL_REQUESTS";

fn store_failed(status: u16) -> worker::Error {
    worker::Error::RustError(format!("pull request store answered {status}"))
}

/// Has the pull request's object run an MCP tool (`tools::relay`), whose `tools/call` body was
/// `rpc_body`, and adds what its run did to this request's log line.
pub async fn run_tool(
    env: &Env,
    (owner, repo, number): (&str, &str, u64),
    call: &RelayedCall,
    rpc_body: &str,
) -> Result<ToolResult> {
    let name = object_name(owner, repo, number);
    let body = call.to_wire(rpc_body);
    let reply = wire::post_to_object(env, BINDING, &name, relay::PATH, &body).await?;
    if let Some(carried) = reply.header(LOG_HEADER) {
        crate::log::note(|record| record.absorb(&carried));
    }
    let kind = reply.header(relay::RESULT_HEADER);
    match reply.status {
        200 => relay::result_of(kind.as_deref(), reply.body).ok_or_else(|| store_failed(200)),
        status => Err(store_failed(status)),
    }
}

/// A reviewer route's answer from the pull request's object (`app::pull_request::calls`).
pub struct ReviewerAnswer {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    /// The answer is a page whose forms carry the call's CSRF token: set its cookie.
    pub csrf_cookie: bool,
    /// Where a 303 sends the browser (a review write's form without the script).
    pub location: Option<String>,
}

/// Has the pull request's object run a reviewer route, and adds what its run did to this
/// request's log line. A reply without the run's log header is the object failing, not an
/// answer.
pub async fn run_reviewer(env: &Env, call: &ReviewerCall) -> Result<ReviewerAnswer> {
    let viewer = &call.viewer;
    let name = object_name(&viewer.owner, &viewer.repo, viewer.number);
    let path = call.route.route().path();
    let reply = wire::post_to_object(env, BINDING, &name, path, &call.to_json()).await?;
    let Some(carried) = reply.header(LOG_HEADER) else {
        return Err(store_failed(reply.status));
    };
    crate::log::note(|record| record.absorb(&carried));
    Ok(ReviewerAnswer {
        status: reply.status,
        content_type: reply
            .header("content-type")
            .unwrap_or_else(|| "text/plain; charset=utf-8".into()),
        csrf_cookie: reply.header(CSRF_COOKIE_HEADER).is_some(),
        location: reply.header("location"),
        body: reply.body,
    })
}

/// Has the pull request's object store the call's ticks: one result per tick, in order.
pub async fn run_ticks(env: &Env, call: &ReviewerCall) -> Result<Vec<TickResult>> {
    let sent = match &call.route {
        RouteCall::Ticks(items) => items.len(),
        _ => 0,
    };
    let answer = run_reviewer(env, call).await?;
    match answer.status {
        200 => read_results(&answer.body, sent).ok_or_else(|| store_failed(200)),
        status => Err(store_failed(status)),
    }
}
