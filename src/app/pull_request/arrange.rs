//! Arranging on the web, run in the pull request's object: the arrange editor's page
//! (`GET …/arrange`) and saving what it posts with source `web` (`POST …/arrange`).
//!
//! The Worker checked the session's grant (saving allowed) and, for a save, the checks of every
//! browser POST and the JSON's shape (`web::arrange_page::submission`), and sends the order
//! decoded (`calls::RouteCall::ArrangeSave`). Here, in this order, so a
//! refused save stores nothing: the viewer's own GitHub read of the pull request with its
//! snapshot; the viewer's write access on GitHub; the saved order; for a save, `base_version`
//! against the latest, the order through the `save_reading_order` tool's validator, then the
//! save itself (`records::Records::save`, which checks the base version again with no await
//! before its write), and then the `LogiKFlow` commit status on the head with the viewer's own
//! token (`commit_status`, one write, whose refusal never fails the save). A save answers JSON:
//! `{version, location, commitStatus}`, or `{error}`.

use super::calls::CSRF_COOKIE_HEADER;
use super::commit_status::{self, Described};
use super::object::{Object, Storage, Viewer};
use super::reply::{html, message_page};
use crate::http::HttpReply;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::SqlError;
use crate::review::model::saved::{DocumentKind, SaveOutcome, SaveRequest};
use crate::review::order::{validate_order, Order};
use crate::tools::get_pull_request::review_url;
use crate::tools::save_reading_order as save;
use crate::web::arrange_page::{self, Submission};
use crate::web::review_page;

/// The editor's page (`submitted` none), or the save of the order submitted.
pub async fn arrange<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    viewer: &Viewer<'_, T>,
    submitted: Option<&Submission>,
) -> Result<HttpReply, SqlError> {
    let save = submitted.is_some();
    let (call, pull) = (viewer.call, viewer.pull);
    let base_url = call.base_url.as_str();
    // Every refusal of a save is JSON, as the editor's script reads it (issue 36); the
    // editor's page gets a page.
    let refuse = |status: u16, title: &str, message: &str| {
        if save {
            HttpReply::json(status, &serde_json::json!({ "error": message }))
        } else {
            message_page(status, title, message, base_url)
        }
    };
    let read = match object.viewer_read(viewer).await? {
        Ok(read) => read,
        Err(message) => return Ok(refuse(404, "Can't open this pull request", &message)),
    };
    if !read.repository.can_arrange() {
        let message = save::no_write_access(&call.login, &pull.owner, &pull.repo, "an order");
        return Ok(refuse(403, "Read-only", &message));
    }
    let Some(record) = object.records().current()?.order else {
        return Ok(refuse(404, "No order yet", "Ask an agent to arrange this pull request first (save_reading_order); then you can adjust it here."));
    };
    let Ok(order) = crate::json::read::<Order>(&record.body) else {
        return Ok(refuse(
            500,
            "Unreadable order",
            "The saved order could not be read.",
        ));
    };
    let Some(submitted) = submitted else {
        let page = arrange_page::render(&arrange_page::ArrangePage {
            base_url,
            owner: &pull.owner,
            repo: &pull.repo,
            number: pull.number,
            title: &read.pull.title,
            order: &order,
            base_version: record.version,
            files: &read.snapshot.files,
            csrf: &call.csrf,
        });
        return Ok(html(200, page).with_header(CSRF_COOKIE_HEADER, "1"));
    };
    let refuse = |status: u16, message: &str| {
        HttpReply::json(status, &serde_json::json!({ "error": message }))
    };
    let conflict = |person: &str, version: u64| {
        let who = if person.is_empty() { "someone" } else { person };
        refuse(409, &format!("Conflict: {who} saved version {version} after you opened this page. Reload to arrange the latest version."))
    };
    let base_version = submitted.base_version;
    if base_version != record.version {
        return Ok(conflict(&record.person, record.version));
    }
    let facts = save::facts_from_snapshot(&read.snapshot);
    let new_order = match validate_order(&submitted.order, &facts) {
        Ok(order) => order,
        Err(rejection) => return Ok(refuse(400, &rejection.message())),
    };
    let request = SaveRequest {
        kind: DocumentKind::Order,
        base_version,
        body: save::stored_order(&new_order),
        person: call.login.clone(),
        client: None,
        source: "web".into(),
        head_sha: read.pull.head.sha.clone(),
        saved_at: crate::time::rfc3339(object.clock.now_ms()),
    };
    let version = match object.records().save(&request)? {
        SaveOutcome::Saved { version, .. } => version,
        SaveOutcome::Conflict { latest } => return Ok(conflict(&latest.person, latest.version)),
    };
    let review_url = review_url(base_url, &pull.owner, &pull.repo, pull.number);
    let described = Described {
        version,
        sections: new_order.sections.len(),
        order: Some(&new_order),
        review_url: &review_url,
    };
    let names = (pull.owner.as_str(), pull.repo.as_str());
    let status = commit_status::set(
        object,
        viewer.github,
        call.may_write,
        &read,
        names,
        &described,
    )
    .await;
    Ok(HttpReply::json(
        200,
        &serde_json::json!({
            "version": version,
            "location": review_page::pull_path(&pull.owner, &pull.repo, pull.number),
            "commitStatus": status.json(),
        }),
    ))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
