//! The review pages (wasm only): the reading order for reviewers, ticks, and arranging on the web.
//!
//! Every page reads the pull request from GitHub with the viewer's own token, so a reviewer sees
//! exactly what GitHub lets them see. The review page, its diffs and context, and ticks run in
//! the pull request's object (`tools::relay::reviewer`), so the Worker's part is the viewer's
//! session, the CSRF checks and framing; arranging still reads here, and saves go to the object.

use worker::{Env, Request};

use super::{forms, pull_request, saved_store};
use crate::config::Config;
use crate::github::client::GitHub;
use crate::http::HttpReply;
use crate::review::order::{validate_order, Order};
use crate::router::PullPath;
use crate::security::form;
use crate::tools::caller::Caller;
use crate::tools::relay::reviewer::{ReviewerCall, Route, TickResult};
use crate::tools::save_reading_order as save;
use crate::tools::saved::{DocumentKind, SaveOutcome, SaveRequest};
use crate::web::csrf::BodyKind;
use crate::web::{arrange_page, review_page, tick_batch};

/// Who is looking at a page.
pub enum Viewer {
    Known(Caller),
    /// Not signed in: where to send the browser.
    SignIn(HttpReply),
}

fn message_page(status: u16, title: &str, message: &str, base_url: &str) -> HttpReply {
    let body = format!(
        "<h1>{}</h1><p>{}</p>",
        crate::web::html::escape(title),
        crate::web::html::escape(message)
    );
    super::html(status, crate::web::html::page(title, &body, base_url))
}

/// Reads the pull request as the viewer, or the page saying why GitHub would not show it.
async fn read_for_page(
    env: &Env,
    github: &GitHub<'_>,
    pull: &PullPath,
    base_url: &str,
) -> Result<pull_request::PullRead, HttpReply> {
    pull_request::read_as_viewer(env, github, pull)
        .await
        .map_err(|message| message_page(404, "Can't open this pull request", &message, base_url))
}

/// `GET /r/{owner}/{repo}/pull/{n}` (with `version`, `view`, `from`, `fragment`), `GET …/diff`
/// and `GET …/context`: run in the pull request's object (`tools::relay::reviewer` says why),
/// which reads GitHub as the viewer and answers the page; here the viewer is known already, the
/// page's CSRF token is made (it needs the session key and the browser's cookie), and the
/// answer is framed with the pages' headers and, for a page with forms, the token's cookie.
pub async fn reviewer_route(
    req: &Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    (pull, route): (&PullPath, Route),
    base_url: &str,
) -> worker::Result<HttpReply> {
    let csrf = match route {
        Route::Page | Route::Diff => Some(forms::page_token(req, config, &caller.person)?),
        Route::Context | Route::Ticks => None,
    };
    let url = req.url()?;
    let mut call = call_for(caller, pull, base_url);
    call.query = url.query().unwrap_or_default().to_string();
    call.csrf = csrf.as_ref().map(|c| c.token.clone()).unwrap_or_default();
    let answer = saved_store::run_reviewer(env, route, &call).await?;
    let reply = if answer.content_type.starts_with("text/html") {
        super::html(answer.status, answer.body)
    } else {
        HttpReply::new(answer.status, &answer.content_type, answer.body)
    };
    Ok(match csrf {
        Some(csrf) if answer.csrf_cookie => csrf.with_cookie(reply),
        _ => reply,
    })
}

/// The call the object runs a reviewer route for, acting as `caller`.
fn call_for(caller: &Caller, pull: &PullPath, base_url: &str) -> ReviewerCall {
    ReviewerCall {
        owner: pull.owner.clone(),
        repo: pull.repo.clone(),
        number: pull.number,
        github_token: caller.github_token.clone(),
        login: caller.login.clone(),
        person: caller.person.clone(),
        query: String::new(),
        csrf: String::new(),
        base_url: base_url.to_string(),
        ticks: Vec::new(),
    }
}

/// `POST …/ticks`: ticks or unticks one item, or a batch (`web::tick_batch`), for the viewer.
///
/// Here, so a refused request costs no object request: the checks of every browser POST
/// (`forms::verified_post`: a form body, same origin, this session's token) and each tick's
/// shape. Then the pull request's object reads the pull request as the viewer, checks each item
/// against the page, notes the pull request in the person's index and stores the ticks
/// (`store::pull_request`, its `ticks` module says in what order, so a refused tick touches no
/// storage). One tick answers as it always did: `{item, done}` (or a 303 back to the page for a
/// form without the script), or `{error}` with its status. A batch answers 200 with one result
/// per tick (`tick_batch::batch_reply`), unless the request itself is refused. No reply names
/// the viewer's other ticks.
pub async fn tick(
    req: &mut Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let wants_json = req
        .headers()
        .get("accept")?
        .is_some_and(|accept| accept.contains("application/json"));
    let refuse = |status: u16, message: &str| {
        if wants_json {
            HttpReply::json(status, &serde_json::json!({ "error": message }))
        } else {
            message_page(status, "Tick not saved", message, base_url)
        }
    };
    let body = match forms::verified_post(
        req,
        config,
        base_url,
        &caller.person,
        BodyKind::Form,
        forms::MAX_FORM_BYTES,
    )
    .await?
    {
        Ok(body) => body,
        Err(refusal) if wants_json => return Ok(forms::refusal_json(refusal)),
        Err(refusal) => return Ok(forms::refusal_page(refusal, base_url)),
    };
    let form = match tick_batch::read_form(&form::pairs(&body)) {
        Ok(form) => form,
        Err(refused) => return Ok(refuse(refused.status, &refused.message)),
    };
    let mut call = call_for(caller, pull, base_url);
    call.ticks = form
        .ticks
        .iter()
        .filter_map(|(_, tick)| tick.as_ref().ok().cloned())
        .collect();
    if !form.batch {
        let Some((item, tick)) = form.ticks.first() else {
            return Ok(refuse(400, &tick_batch::bad_item().message));
        };
        let done = match tick {
            Ok(tick) => tick.done,
            Err(refused) => return Ok(refuse(refused.status, &refused.message)),
        };
        let results = saved_store::run_ticks(env, &call).await?;
        return Ok(match results.first() {
            Some(TickResult {
                status,
                error: Some(error),
            }) => refuse(*status, error),
            Some(_) if wants_json => {
                HttpReply::json(200, &serde_json::json!({ "item": item, "done": done }))
            }
            Some(_) => HttpReply::empty(303).with_header(
                "location",
                review_page::pull_path(&pull.owner, &pull.repo, pull.number),
            ),
            None => refuse(503, "Ticks are unavailable right now; try again."),
        });
    }
    let results = if call.ticks.is_empty() {
        Some(Vec::new())
    } else {
        match saved_store::run_ticks(env, &call).await {
            Ok(results) => Some(results),
            Err(error) => {
                worker::console_error!("storing ticks failed: {error}");
                None
            }
        }
    };
    Ok(HttpReply::json(
        200,
        &tick_batch::batch_reply(&form, results.as_deref()),
    ))
}

/// `GET`/`POST …/arrange`: the editor's page shell, and saving what it posts with source `web`.
///
/// In this order, so a refused save touches no storage: the viewer's GitHub write access and the
/// session's grant (both before the body is read); the saved order; for a POST, the checks of
/// every browser POST (`forms::verified_post`: a JSON body, same origin, this session's token in
/// the `X-CSRF-Token` header); the JSON body; `base_version`
/// against the latest; the order through the `save_reading_order` tool's validator; then the
/// object's save, which refuses a stale base version again. Every POST answers JSON:
/// `{location}` on success, `{error}` otherwise.
pub async fn arrange(
    req: &mut Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let github = super::github_for(config, caller);
    let read = match read_for_page(env, &github, pull, base_url).await {
        Ok(read) => read,
        Err(reply) => return Ok(reply),
    };
    if !read.repository.can_arrange() {
        let message = save::no_write_access(&caller.login, &pull.owner, &pull.repo, "an order");
        return Ok(message_page(403, "Read-only", &message, base_url));
    }
    // The grant behind this browser's session must allow saving too, as `/mcp` saves require
    // `reviews:write`: push access on GitHub alone doesn't widen a read-only consent.
    if !caller.may_write {
        return Ok(message_page(403, "Read-only sign-in", "This browser signed in to LogiKFlow with read access only, so it can't save an order. Sign out, then sign in again and allow saving reading orders.", base_url));
    }
    let current = saved_store::current(env, &pull.owner, &pull.repo, pull.number).await?;
    let Some(record) = current.order else {
        return Ok(message_page(404, "No order yet", "Ask an agent to arrange this pull request first (save_reading_order); then you can adjust it here.", base_url));
    };
    let Ok(order) = crate::json::read::<Order>(&record.body) else {
        return Ok(message_page(
            500,
            "Unreadable order",
            "The saved order could not be read.",
            base_url,
        ));
    };
    if req.method() != worker::Method::Post {
        let csrf = forms::page_token(req, config, &caller.person)?;
        let html = arrange_page::render(&arrange_page::ArrangePage {
            base_url,
            owner: &pull.owner,
            repo: &pull.repo,
            number: pull.number,
            title: &read.pull.title,
            order: &order,
            base_version: record.version,
            files: &read.snapshot.files,
            csrf: &csrf.token,
        });
        return Ok(csrf.with_cookie(super::html(200, html)));
    }
    let refuse = |status: u16, message: &str| {
        HttpReply::json(status, &serde_json::json!({ "error": message }))
    };
    let conflict = |person: &str, version: u64| {
        let who = if person.is_empty() { "someone" } else { person };
        refuse(409, &format!("Conflict: {who} saved version {version} after you opened this page. Reload to arrange the latest version."))
    };
    let body = match forms::verified_post(
        req,
        config,
        base_url,
        &caller.person,
        BodyKind::Json,
        crate::mcp::transport::MAX_BODY_BYTES,
    )
    .await?
    {
        Ok(body) => body,
        Err(refusal) => return Ok(forms::refusal_json(refusal)),
    };
    let submitted = match arrange_page::submission(&body) {
        Ok(submitted) => submitted,
        Err(message) => return Ok(refuse(400, &message)),
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
        person: caller.login.clone(),
        client: None,
        source: "web".into(),
        head_sha: read.pull.head.sha.clone(),
        saved_at: crate::time::rfc3339(worker::Date::now().as_millis()),
    };
    match saved_store::save(env, &pull.owner, &pull.repo, pull.number, &request).await? {
        SaveOutcome::Saved { version, .. } => Ok(HttpReply::json(
            200,
            &serde_json::json!({
                "version": version,
                "location": review_page::pull_path(&pull.owner, &pull.repo, pull.number),
            }),
        )),
        SaveOutcome::Conflict { latest } => Ok(conflict(&latest.person, latest.version)),
    }
}
