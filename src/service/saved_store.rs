//! Talks to a pull request's Durable Object (wasm only): one object per `owner/repo#number`,
//! lower-cased, because GitHub names are case-insensitive.

use crate::subrequest as wire;
use worker::{Env, Result};

use crate::mcp::dispatch::ToolResult;
use crate::tools::relay::{self, RelayedCall, LOG_HEADER};
use crate::tools::saved::{CurrentState, ReviewerState, SaveOutcome, SaveRequest, TickReply};
use crate::web::review_state::Migration;

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

/// Every version of a document, newest first, without bodies.
pub async fn history(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    kind: crate::tools::saved::DocumentKind,
) -> Result<Vec<crate::tools::saved::VersionSummary>> {
    let kind = match kind {
        crate::tools::saved::DocumentKind::Order => "order",
        crate::tools::saved::DocumentKind::Diagram => "diagram",
    };
    Ok(
        get_json(env, owner, repo, number, &format!("/history?kind={kind}"))
            .await?
            .unwrap_or_default(),
    )
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

/// A person's stored review state on this pull request: their ticks and the recorded heads.
pub async fn reviewer_state(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    person: &str,
) -> Result<ReviewerState> {
    let person: String = url::form_urlencoded::byte_serialize(person.as_bytes()).collect();
    Ok(
        get_json(env, owner, repo, number, &format!("/ticks?person={person}"))
            .await?
            .unwrap_or_default(),
    )
}

/// Ticks or unticks content items for a person at `head_sha`. The caller has checked that the
/// person can read the pull request and that the items are ones its page offers.
pub async fn tick(
    env: &Env,
    target: (&str, &str, u64),
    person: &str,
    items: &[String],
    done: bool,
    head_sha: &str,
) -> Result<TickReply> {
    let (owner, repo, number) = target;
    let body = serde_json::json!({
        "person": person,
        "items": items,
        "done": done,
        "head_sha": head_sha,
        "at": crate::time::rfc3339(worker::Date::now().as_millis()),
    });
    post_json(env, owner, repo, number, "/tick", &body.to_string()).await
}

/// Records the content keys of every file at a head (once per head; the object keeps 20).
pub async fn record_head(
    env: &Env,
    target: (&str, &str, u64),
    head_sha: &str,
    files: &serde_json::Value,
) -> Result<()> {
    let (owner, repo, number) = target;
    let body = serde_json::json!({
        "head_sha": head_sha,
        "files": files,
        "at": crate::time::rfc3339(worker::Date::now().as_millis()),
    });
    let _: bool = post_json(env, owner, repo, number, "/head", &body.to_string()).await?;
    Ok(())
}

/// Replaces a person's path-keyed ticks with their content items.
pub async fn migrate_ticks(
    env: &Env,
    target: (&str, &str, u64),
    person: &str,
    migration: &Migration,
) -> Result<()> {
    let (owner, repo, number) = target;
    let body = serde_json::json!({
        "person": person,
        "add": migration.add,
        "remove": migration.remove,
    });
    let _: bool = post_json(
        env,
        owner,
        repo,
        number,
        "/ticks/migrate",
        &body.to_string(),
    )
    .await?;
    Ok(())
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
