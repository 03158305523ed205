//! Finishing the review from the review page (wasm only, issue 29): line comments as drafts or
//! sent at once, editing and deleting drafts, replies, resolving threads, the review with its
//! verdict, and the Markdown preview.
//!
//! Here, so a refused request costs no object request, in this order: the form's size, the
//! checks of every browser POST (`forms::verified_post`: a form body, same origin, this browser
//! session's token), the fields (`web::review_write::check`), and for a read-only sign-in
//! anything that would send to GitHub (`web::review_write::sends_to_github`). Then the pull request's object
//! reads the pull request as the viewer, checks the line against the diff at the head, and acts
//! with the viewer's own token and its own drafts (`store::pull_request::writes` says in what
//! order); this frames its answer. A browser with the page's script asks for JSON
//! (`Accept: application/json`); a plain form gets a 303 back to the place on the page, or a
//! page saying what went wrong with the text typed to copy.

use worker::{Env, Request};

use super::review::{call_for, run_framed};
use crate::config::Config;
use crate::http::HttpReply;
use crate::review::drafts;
use crate::router::{PullPath, ReviewWrite};
use crate::tools::caller::Caller;
use crate::tools::relay::reviewer::Route;
use crate::web::csrf::BodyKind;
use crate::web::review_page::pull_path;
use crate::web::review_write::{check, sends_to_github, Answer, Fields, MAX_FORM_BYTES, READ_ONLY};

/// `POST /r/{owner}/{repo}/pull/{n}/{comments|drafts|review|replies|threads|preview}`.
pub async fn handle(
    req: &mut Request,
    env: &Env,
    config: &Config,
    caller: &Caller,
    pull: &PullPath,
    action: ReviewWrite,
    base_url: &str,
) -> worker::Result<HttpReply> {
    let answer = Answer {
        json: req
            .headers()
            .get("accept")?
            .is_some_and(|accept| accept.contains("application/json")),
        base_url,
        back: pull_path(&pull.owner, &pull.repo, pull.number),
    };
    let refuse = |status: u16, message: &str, kept: Option<&str>| {
        frame(answer.refuse(status, message, kept))
    };
    let declared: Option<u64> = req
        .headers()
        .get("content-length")?
        .and_then(|v| v.parse().ok());
    if declared.is_some_and(|n| n > MAX_FORM_BYTES as u64) {
        return Ok(refuse(413, &format!("The form is larger than GitHub takes: a comment holds at most {} characters. Shorten it and send again (your text is still in the box).", drafts::MAX_BODY_CHARS), None));
    }
    let body = match super::forms::verified_post(
        req,
        config,
        base_url,
        &caller.person,
        BodyKind::Form,
        MAX_FORM_BYTES,
    )
    .await?
    {
        Ok(body) => body,
        Err(refusal) => return Ok(refuse(refusal.status(), &refusal.message(), None)),
    };
    // Fields first: a bad request costs no object request and no GitHub read.
    let fields = Fields::read(&body);
    if let Err(message) = check(action, &fields) {
        return Ok(refuse(400, &message, Some(&fields.body())));
    }
    // A read-only sign-in writes nothing to GitHub (issue 36), as `/mcp` requires
    // `reviews:write` and `/arrange` refuses it: refused before any object request.
    if !caller.may_write && sends_to_github(action, &fields) {
        return Ok(refuse(403, READ_ONLY, Some(&fields.body())));
    }
    let mut call = call_for(caller, pull, base_url);
    call.form = String::from_utf8_lossy(&body).into_owned();
    call.json = answer.json;
    run_framed(env, Route::Write(action), &call).await
}

/// A refusal made here, framed as the object's answers are.
fn frame(reply: HttpReply) -> HttpReply {
    if reply.header("content-type") == Some("text/html; charset=utf-8") {
        super::html(reply.status, reply.body)
    } else {
        reply
    }
}
