//! The review pages (wasm only): the reading order for reviewers, ticks, and arranging on the web.
//!
//! Every page reads the pull request from GitHub with the viewer's own token, so a reviewer sees
//! exactly what GitHub lets them see. The review page, its diffs and context, ticks, the review
//! writes (`review_write`) and arranging run in the pull request's object
//! (`app::pull_request::calls`), so the Worker's part is the viewer's session, the CSRF checks,
//! the requests' shape, decoding the query or form into the route's typed call, and framing the
//! object's answer.

use worker::{Env, Request};

use super::{forms, saved_store};
use crate::app::pull_request::calls::{ReviewerCall, Route, RouteCall, ViewerCall};
use crate::app::pull_request::reply;
use crate::config::Config;
use crate::http::HttpReply;
use crate::review::model::ticks::TickResult;
use crate::router::PullPath;
use crate::security::form;
use crate::tools::caller::Caller;
use crate::web::csrf::BodyKind;
use crate::web::{arrange_page, review_page, tick_batch};

/// Who is looking at a page.
pub enum Viewer {
    Known(Caller),
    /// Not signed in: where to send the browser.
    SignIn(HttpReply),
}

/// A page saying what went wrong (`app::pull_request::reply::message_page`), with the pages'
/// headers.
fn message_page(status: u16, title: &str, message: &str, base_url: &str) -> HttpReply {
    framed_page(reply::message_page(status, title, message, base_url))
}

/// A reply made in the core as this Worker's: a page gets the pages' headers
/// (`service::html`); anything else is sent as it is.
pub(super) fn framed_page(reply: HttpReply) -> HttpReply {
    if reply.header("content-type") == Some("text/html; charset=utf-8") {
        super::html(reply.status, reply.body)
    } else {
        reply
    }
}

/// `GET /r/{owner}/{repo}/pull/{n}` (with `version`, `view`, `from`, `fragment`), `GET …/diff`,
/// `GET …/context` and `GET …/arrange`: run in the pull request's object
/// (`app::pull_request::calls` says why), which reads GitHub as the viewer and answers the page;
/// here the viewer is known already, the query is decoded into the route's call, the page's
/// CSRF token is made (it needs the session key and the browser's cookie), and the answer is
/// framed with the pages' headers and, for a page with forms, the token's cookie.
pub async fn reviewer_route(
    req: &Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    (pull, route): (&PullPath, Route),
    base_url: &str,
) -> worker::Result<HttpReply> {
    let csrf = match route {
        Route::Page | Route::Diff | Route::Arrange => {
            Some(forms::page_token(req, config, &caller.person)?)
        }
        _ => None,
    };
    let url = req.url()?;
    let Some(route) = RouteCall::of_get(route, url.query().unwrap_or_default()) else {
        // The POST routes have their own handlers (`tick`, `arrange`, `review_write`).
        return Err(worker::Error::RustError(format!(
            "{route:?} is not a GET route"
        )));
    };
    let mut call = call_for(caller, pull, base_url, route);
    call.viewer.csrf = csrf.as_ref().map(|c| c.token.clone()).unwrap_or_default();
    let answer = saved_store::run_reviewer(env, &call).await?;
    let csrf_cookie = answer.csrf_cookie;
    let reply = frame(answer);
    Ok(match csrf {
        Some(csrf) if csrf_cookie => csrf.with_cookie(reply),
        _ => reply,
    })
}

/// Has the pull request's object run `call` and frames its answer (a route whose page sets no
/// CSRF cookie).
pub(super) async fn run_framed(env: &Env, call: &ReviewerCall) -> worker::Result<HttpReply> {
    Ok(frame(saved_store::run_reviewer(env, call).await?))
}

/// The object's answer as this Worker's reply: a page gets the pages' headers, a 303 its
/// `location`.
fn frame(answer: saved_store::ReviewerAnswer) -> HttpReply {
    let reply = if answer.content_type.starts_with("text/html") {
        super::html(answer.status, answer.body)
    } else {
        HttpReply::new(answer.status, &answer.content_type, answer.body)
    };
    match answer.location {
        Some(location) => reply.with_header("location", location),
        None => reply,
    }
}

/// The call the object runs `route` for, acting as `caller` (without the page's CSRF token).
pub(super) fn call_for(
    caller: &Caller,
    pull: &PullPath,
    base_url: &str,
    route: RouteCall,
) -> ReviewerCall {
    ReviewerCall {
        viewer: ViewerCall {
            owner: pull.owner.clone(),
            repo: pull.repo.clone(),
            number: pull.number,
            github_token: caller.github_token.clone(),
            login: caller.login.clone(),
            person: caller.person.clone(),
            csrf: String::new(),
            base_url: base_url.to_string(),
            may_write: caller.may_write,
        },
        route,
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
    let refuse = |status: u16, message: &str| tick_refused(wants_json, status, message, base_url);
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
    let ticks: Vec<_> = form
        .ticks
        .iter()
        .filter_map(|(_, tick)| tick.as_ref().ok().cloned())
        .collect();
    let stored = !ticks.is_empty();
    let call = call_for(caller, pull, base_url, RouteCall::Ticks(ticks));
    if !form.batch {
        return one_tick(env, &form, &call, pull, wants_json, base_url).await;
    }
    let results = if !stored {
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

/// A refused tick: `{error}` for a script, else a page saying so.
fn tick_refused(wants_json: bool, status: u16, message: &str, base_url: &str) -> HttpReply {
    if wants_json {
        HttpReply::json(status, &serde_json::json!({ "error": message }))
    } else {
        message_page(status, "Tick not saved", message, base_url)
    }
}

/// One tick (not a batch): `{item, done}`, or a 303 back to the page for a form without the
/// script, or `{error}` with its status.
async fn one_tick(
    env: &Env,
    form: &tick_batch::TickForm,
    call: &ReviewerCall,
    pull: &PullPath,
    wants_json: bool,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let refuse = |status: u16, message: &str| tick_refused(wants_json, status, message, base_url);
    let Some((item, tick)) = form.ticks.first() else {
        return Ok(refuse(400, &tick_batch::bad_item().message));
    };
    let done = match tick {
        Ok(tick) => tick.done,
        Err(refused) => return Ok(refuse(refused.status, &refused.message)),
    };
    let results = saved_store::run_ticks(env, call).await?;
    Ok(match results.first() {
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
    })
}

/// `GET`/`POST …/arrange`: the editor's page shell, and saving what it posts with source `web`.
///
/// Here, so a refused save costs no object request, in this order: the session's grant (saving
/// allowed, as `/mcp` saves require `reviews:write`: push access on GitHub alone doesn't widen a
/// read-only consent); for a POST, the checks of every browser POST (`forms::verified_post`: a
/// JSON body, same origin, this session's token in the `X-CSRF-Token` header) and the JSON's
/// shape. Then the pull request's object reads the pull request as the viewer, checks their
/// write access on GitHub and the saved order, and answers the page, or validates and saves the
/// order (`app::pull_request::arrange` says in what order). Every POST answers JSON:
/// `{location}` on success, `{error}` otherwise.
pub async fn arrange(
    req: &mut Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let post = req.method() == worker::Method::Post;
    if !caller.may_write {
        let message = "This browser signed in to LogiKFlow with read access only, so it can't save an order. Sign in again with \"Change access\" in Settings (/settings) and allow saving reading orders.";
        // A POST answers JSON like every arrange POST (issue 36).
        return Ok(if post {
            HttpReply::json(403, &serde_json::json!({ "error": message }))
        } else {
            message_page(403, "Read-only sign-in", message, base_url)
        });
    }
    if !post {
        return reviewer_route(req, env, config, caller, (pull, Route::Arrange), base_url).await;
    }
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
        Err(message) => {
            return Ok(HttpReply::json(
                400,
                &serde_json::json!({ "error": message }),
            ))
        }
    };
    let call = call_for(caller, pull, base_url, RouteCall::ArrangeSave(submitted));
    run_framed(env, &call).await
}
