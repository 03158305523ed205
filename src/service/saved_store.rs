//! Talks to a pull request's Durable Object (wasm only): one object per `owner/repo#number`,
//! lower-cased, because GitHub names are case-insensitive.

use crate::subrequest as wire;
use worker::{Env, Result};

use crate::mcp::dispatch::ToolResult;
use crate::tools::relay::reviewer::{
    read_results, ReviewerCall, Route, TickResult, CSRF_COOKIE_HEADER,
};
use crate::tools::relay::{self, RelayedCall, LOG_HEADER};
use crate::tools::saved::{CurrentState, SaveOutcome, SaveRequest};

/// The object's name for a pull request.
pub fn object_name(owner: &str, repo: &str, number: u64) -> String {
    format!(
        "{}/{}#{number}",
        owner.to_ascii_lowercase(),
        repo.to_ascii_lowercase()
    )
}

const BINDING: &str = "PULL_REQUESTS";

async fn get_json<T: serde::de::DeserializeOwned>(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    path: &str,
) -> Result<Option<T>> {
    let name = object_name(owner, repo, number);
    let reply = wire::get_from_object(env, BINDING, &name, path).await?;
    match reply.status {
        200 => Ok(Some(crate::json::decode(&reply.body)?)),
        404 => Ok(None),
        status => Err(store_failed(status)),
    }
}

/// POSTs a JSON body to the pull request's object and decodes its 200 reply.
async fn post_json<T: serde::de::DeserializeOwned>(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    path: &str,
    body: &str,
) -> Result<T> {
    let name = object_name(owner, repo, number);
    wire::post_json(env, BINDING, &name, path, body).await
}

fn store_failed(status: u16) -> worker::Error {
    worker::Error::RustError(format!("pull request store answered {status}"))
}

/// Has the pull request's object run `get_pull_request` (`tools::relay`), and adds what its run
/// did to this request's log line.
pub async fn run_get_pull_request(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    call: &RelayedCall,
) -> Result<ToolResult> {
    let name = object_name(owner, repo, number);
    let reply = wire::post_to_object(env, BINDING, &name, "/read", &call.to_json()).await?;
    if let Some(carried) = reply.header(LOG_HEADER) {
        crate::log::note(|record| record.absorb(&carried));
    }
    let kind = reply.header(relay::RESULT_HEADER);
    match reply.status {
        200 => relay::result_of(kind.as_deref(), reply.body).ok_or_else(|| store_failed(200)),
        status => Err(store_failed(status)),
    }
}

/// A reviewer route's answer from the pull request's object (`tools::relay::reviewer`).
pub struct ReviewerAnswer {
    pub status: u16,
    pub content_type: String,
    pub body: String,
    /// The answer is a page whose forms carry the call's CSRF token: set its cookie.
    pub csrf_cookie: bool,
}

/// Has the pull request's object run a reviewer route, and adds what its run did to this
/// request's log line. A reply without the run's log header is the object failing, not an
/// answer.
pub async fn run_reviewer(env: &Env, route: Route, call: &ReviewerCall) -> Result<ReviewerAnswer> {
    let name = object_name(&call.owner, &call.repo, call.number);
    let reply = wire::post_to_object(env, BINDING, &name, route.path(), &call.to_json()).await?;
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
        body: reply.body,
    })
}

/// Has the pull request's object store the call's ticks: one result per tick, in order.
pub async fn run_ticks(env: &Env, call: &ReviewerCall) -> Result<Vec<TickResult>> {
    let answer = run_reviewer(env, Route::Ticks, call).await?;
    match answer.status {
        200 => read_results(&answer.body, call.ticks.len()).ok_or_else(|| store_failed(200)),
        status => Err(store_failed(status)),
    }
}

/// The latest order and diagram.
pub async fn current(env: &Env, owner: &str, repo: &str, number: u64) -> Result<CurrentState> {
    Ok(get_json(env, owner, repo, number, "/state")
        .await?
        .unwrap_or_default())
}

/// Saves a new version, or reports the conflicting latest one.
pub async fn save(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    request: &SaveRequest,
) -> Result<SaveOutcome> {
    let body = serde_json::to_string(request)?;
    post_json(env, owner, repo, number, "/save", &body).await
}

/// One version of the order.
pub async fn order_version(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    version: u64,
) -> Result<Option<crate::tools::saved::SavedRecord>> {
    get_json(
        env,
        owner,
        repo,
        number,
        &format!("/version?kind=order&v={version}"),
    )
    .await
}

/// Deletes every tick `person` (the login ticks are written under) has on this pull request, for
/// "Delete my data".
pub async fn delete_person_ticks(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    person: &str,
) -> Result<()> {
    let name = object_name(owner, repo, number);
    let body = serde_json::json!({ "person": person }).to_string();
    let reply = wire::post_to_object(env, BINDING, &name, "/ticks/forget", &body).await?;
    match reply.status {
        200 => Ok(()),
        status => Err(store_failed(status)),
    }
}

/// A reviewer's draft comments on a pull request, oldest first (issue 29).
pub async fn drafts(
    env: &Env,
    (owner, repo, number): (&str, &str, u64),
    person: &str,
) -> Result<Vec<crate::review::drafts::Draft>> {
    let name = object_name(owner, repo, number);
    let person: String = url::form_urlencoded::byte_serialize(person.as_bytes()).collect();
    let reply =
        wire::get_from_object(env, BINDING, &name, &format!("/drafts?person={person}")).await?;
    match reply.status {
        200 => Ok(serde_json::from_str(&reply.body)?),
        status => Err(store_failed(status)),
    }
}

/// Stores a new draft or changes one of the reviewer's own.
pub async fn put_draft(
    env: &Env,
    (owner, repo, number): (&str, &str, u64),
    put: &crate::review::drafts::DraftPut,
) -> Result<crate::review::drafts::PutOutcome> {
    let name = object_name(owner, repo, number);
    let body = serde_json::to_string(put)?;
    let reply = wire::post_to_object(env, BINDING, &name, "/drafts/put", &body).await?;
    match reply.status {
        200 => Ok(serde_json::from_str(&reply.body)?),
        status => Err(store_failed(status)),
    }
}

/// Deletes some of the reviewer's drafts.
pub async fn delete_drafts(
    env: &Env,
    (owner, repo, number): (&str, &str, u64),
    delete: &crate::review::drafts::DraftDelete,
) -> Result<()> {
    let name = object_name(owner, repo, number);
    let body = serde_json::to_string(delete)?;
    let reply = wire::post_to_object(env, BINDING, &name, "/drafts/delete", &body).await?;
    match reply.status {
        200 => Ok(()),
        status => Err(store_failed(status)),
    }
}
