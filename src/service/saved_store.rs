//! Talks to a pull request's Durable Object (wasm only): one object per `owner/repo#number`,
//! lower-cased, because GitHub names are case-insensitive.

use worker::{Env, Method, Request, RequestInit, Result};

use crate::tools::saved::{CurrentState, SaveOutcome, SaveRequest};

/// The object's name for a pull request.
pub fn object_name(owner: &str, repo: &str, number: u64) -> String {
    format!(
        "{}/{}#{number}",
        owner.to_ascii_lowercase(),
        repo.to_ascii_lowercase()
    )
}

fn stub(env: &Env, owner: &str, repo: &str, number: u64) -> Result<worker::Stub> {
    env.durable_object("PULL_REQUESTS")?
        .id_from_name(&object_name(owner, repo, number))?
        .get_stub()
}

async fn get_json<T: serde::de::DeserializeOwned>(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    path: &str,
) -> Result<Option<T>> {
    let mut response = stub(env, owner, repo, number)?
        .fetch_with_str(&format!("https://pull-request{path}"))
        .await?;
    match response.status_code() {
        200 => Ok(Some(response.json().await?)),
        404 => Ok(None),
        status => Err(worker::Error::RustError(format!(
            "pull request store answered {status}"
        ))),
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
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_body(Some(serde_json::to_string(request)?.into()));
    let req = Request::new_with_init("https://pull-request/save", &init)?;
    let mut response = stub(env, owner, repo, number)?
        .fetch_with_request(req)
        .await?;
    if response.status_code() != 200 {
        return Err(worker::Error::RustError(format!(
            "pull request store answered {}",
            response.status_code()
        )));
    }
    response.json().await
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

/// The item ids a person has ticked on this pull request.
pub async fn ticks(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    person: &str,
) -> Result<Vec<String>> {
    let person: String = url::form_urlencoded::byte_serialize(person.as_bytes()).collect();
    Ok(
        get_json(env, owner, repo, number, &format!("/ticks?person={person}"))
            .await?
            .unwrap_or_default(),
    )
}

/// Ticks or unticks one item for a person; returns their ticks after the change.
pub async fn tick(
    env: &Env,
    owner: &str,
    repo: &str,
    number: u64,
    person: &str,
    item: &str,
    done: bool,
) -> Result<Vec<String>> {
    let body = serde_json::json!({
        "person": person,
        "item": item,
        "done": done,
        "at": crate::time::rfc3339(worker::Date::now().as_millis()),
    });
    let mut init = RequestInit::new();
    init.with_method(Method::Post)
        .with_body(Some(body.to_string().into()));
    let req = Request::new_with_init("https://pull-request/tick", &init)?;
    let mut response = stub(env, owner, repo, number)?
        .fetch_with_request(req)
        .await?;
    response.json().await
}
