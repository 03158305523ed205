//! Finishing the review from the review page (wasm only, issue 29): line comments as drafts or
//! sent at once, editing and deleting drafts, replies, resolving threads, the review with its
//! verdict, and the Markdown preview.
//!
//! Here, so a refused request costs no object request, in this order: the form's size, the
//! checks of every browser POST (`forms::verified_post`: a form body, same origin, this browser
//! session's token), the fields (`web::review_write::check`, read into the route's typed call by
//! `app::pull_request::calls::WriteCall::read`), and for a read-only sign-in anything that would
//! send to GitHub (`WriteCall::sends_to_github`). Then the pull request's object reads the pull
//! request as the viewer, checks the line against the diff at the head, and acts with the
//! viewer's own token and its own drafts (`app::pull_request::writes` says in what order); this
//! frames its answer. A browser with the page's script asks for JSON
//! (`Accept: application/json`); a plain form gets a 303 back to the place on the page, or a
//! page saying what went wrong with the text typed to copy.

use worker::{Env, Request};

use super::review::{call_for, framed_page, run_framed};
use crate::app::pull_request::calls::{RouteCall, WriteCall};
use crate::config::Config;
use crate::http::HttpReply;
use crate::review::drafts;
use crate::router::{PullPath, ReviewWrite};
use crate::tools::caller::Caller;
use crate::web::csrf::BodyKind;
use crate::web::review_page::pull_path;
use crate::web::review_write::{Answer, MAX_FORM_BYTES, READ_ONLY};

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
        framed_page(answer.refuse(status, message, kept))
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
    let write = match WriteCall::read(action, &body, answer.json) {
        Ok(write) => write,
        Err(refused) => return Ok(refuse(400, &refused.message, Some(&refused.kept))),
    };
    // A read-only sign-in writes nothing to GitHub (issue 36), as `/mcp` requires
    // `reviews:write` and `/arrange` refuses it: refused before any object request.
    if !caller.may_write && write.sends_to_github() {
        return Ok(refuse(403, READ_ONLY, Some(&write.body)));
    }
    let call = call_for(caller, pull, base_url, RouteCall::Write(write));
    run_framed(env, &call).await
}
