//! Finishing the review from the review page (wasm only, issue 29): line comments as drafts or
//! sent at once, editing and deleting drafts, replies, resolving threads, the review with its
//! verdict, and the Markdown preview.
//!
//! Every POST is checked like a tick, in this order, so a refused one touches nothing: the form
//! size, the checks of every browser POST (`forms::verified_post`: a form body, same origin, this
//! browser session's token, the tick's own check); the fields;
//! the viewer's own GitHub read of the pull request; then the action, with the viewer's own token.
//! A browser with the page's script asks for JSON (`Accept: application/json`) and shows the
//! answer next to the box; a plain form gets a 303 back to the place on the page, or a page
//! saying what went wrong. Nothing typed is lost: a refused draft is not stored but its text stays
//! in the box (the script keeps it; without it the refusal page shows it again), and a single
//! comment GitHub refuses without the script is kept as a draft.
//!
//! What not: no GitHub pending reviews (drafts live in the pull request's object until the review
//! is sent whole), no rendering beyond the answers' small fragments.

use worker::{Env, Request};

use super::{pull_request, saved_store};
use crate::config::Config;
use crate::github::api::RepoPath;
use crate::github::client::GitHub;
use crate::github::reviews::{self as gh, graphql, Anchor, Event, Refusal};
use crate::http::HttpReply;
use crate::review::drafts::{self, Draft, DraftDelete, DraftPut, PutOutcome};
use crate::router::{PullPath, ReviewWrite};
use crate::security::form;
use crate::tools::caller::Caller;
use crate::web::comment_markdown;
use crate::web::csrf::BodyKind;
use crate::web::review_page::{discussion, pull_path};

/// The largest form accepted: a body of GitHub's 65,536 characters, each up to four bytes of
/// UTF-8 and each byte percent-encoded as three (786,432 bytes), with the other fields beside it.
/// Larger than the other forms' cap (`forms::MAX_FORM_BYTES`), which holds only ASCII comments.
const MAX_FORM_BYTES: usize = 1024 * 1024;

/// How a request wants its answer.
struct Answer<'a> {
    json: bool,
    base_url: &'a str,
    back: String,
}

impl Answer<'_> {
    fn refuse(&self, status: u16, message: &str, kept: Option<&str>) -> HttpReply {
        if self.json {
            return HttpReply::json(status, &serde_json::json!({ "error": message }));
        }
        let mut body = format!(
            "<h1>Not sent</h1><p role=\"alert\">{}</p>",
            crate::web::html::escape(message)
        );
        if let Some(text) = kept.filter(|t| !t.is_empty()) {
            body.push_str(&format!(
                "<p>Your text, to copy:</p><textarea readonly rows=\"8\" aria-label=\"Your text\">{}</textarea>",
                crate::web::html::escape(text)
            ));
        }
        body.push_str(&format!(
            "<p><a href=\"{}\">Back to the review</a></p>",
            crate::web::html::escape(&self.back)
        ));
        super::html(
            status,
            crate::web::html::page("Not sent", &body, self.base_url),
        )
    }

    fn done(&self, anchor: &str, json: serde_json::Value) -> HttpReply {
        if self.json {
            return HttpReply::json(200, &json);
        }
        HttpReply::empty(303).with_header("location", format!("{}{anchor}", self.back))
    }
}

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
    let declared: Option<u64> = req
        .headers()
        .get("content-length")?
        .and_then(|v| v.parse().ok());
    if declared.is_some_and(|n| n > MAX_FORM_BYTES as u64) {
        return Ok(answer.refuse(413, &format!("The form is larger than GitHub takes: a comment holds at most {} characters. Shorten it and send again (your text is still in the box).", drafts::MAX_BODY_CHARS), None));
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
        Err(refusal) => return Ok(answer.refuse(refusal.status(), &refusal.message(), None)),
    };
    let fields = form::pairs(&body);
    let field = |name: &str| form::value(&fields, name).map(str::to_string);
    let body = field("body").unwrap_or_default();
    // Fields first: a bad request costs no GitHub read.
    let checked = match action {
        ReviewWrite::Comment => drafts::parse(&field).map(Checked::Comment),
        ReviewWrite::Draft => match (
            field("id").and_then(|v| v.parse().ok()),
            field("action").as_deref(),
        ) {
            (Some(id), Some("delete")) => Ok(Checked::DeleteDraft(id)),
            (Some(id), _) => drafts::check_body(&body, "comment").map(|()| Checked::EditDraft(id)),
            (None, _) => Err("id is required: the draft to change or delete.".into()),
        },
        ReviewWrite::Submit => match Event::parse(&field("event").unwrap_or_default()) {
            None => Err("event must be comment, approve or request_changes.".into()),
            Some(_) if body.chars().count() > drafts::MAX_BODY_CHARS => Err(format!(
                "The summary is longer than GitHub's {} characters; shorten it and send again.",
                drafts::MAX_BODY_CHARS
            )),
            Some(event) => Ok(Checked::Submit(event)),
        },
        ReviewWrite::Reply => match field("comment").and_then(|v| v.parse::<u64>().ok()) {
            None => Err("comment is required: the id of the thread's first comment.".into()),
            Some(id) => drafts::check_body(&body, "reply").map(|()| Checked::Reply(id)),
        },
        ReviewWrite::Thread => match (field("thread"), field("resolve").as_deref()) {
            (Some(thread), Some(flag @ ("1" | "0")))
                if !thread.is_empty() && thread.len() <= 200 =>
            {
                Ok(Checked::Thread(thread, flag == "1"))
            }
            _ => Err("thread (a thread id) and resolve (1 or 0) are required.".into()),
        },
        ReviewWrite::Preview => {
            if body.chars().count() > drafts::MAX_BODY_CHARS {
                Err(format!(
                    "The comment is longer than GitHub's {} characters.",
                    drafts::MAX_BODY_CHARS
                ))
            } else {
                Ok(Checked::Preview)
            }
        }
    };
    let checked = match checked {
        Ok(checked) => checked,
        Err(message) => return Ok(answer.refuse(400, &message, Some(&body))),
    };
    let github = super::github_for(config, caller);
    let read = match pull_request::read_as_viewer(env, &github, pull).await {
        Ok(read) => read,
        Err(message) => return Ok(answer.refuse(404, &message, Some(&body))),
    };
    let Some(repo) = RepoPath::new(&pull.owner, &pull.repo) else {
        return Ok(answer.refuse(404, "No such repository.", None));
    };
    let csrf = field("csrf").unwrap_or_default();
    let ctx = Ctx {
        csrf: &csrf,
        env,
        github: &github,
        caller,
        pull,
        repo: &repo,
        read: &read,
        answer: &answer,
    };
    let head = field("head").unwrap_or_default();
    if matches!(checked, Checked::Comment(_)) && !head.is_empty() && head != read.pull.head.sha {
        return Ok(answer.refuse(409, "New commits were pushed since this page loaded, so its line numbers may have moved. Reload the page and comment again (copy your text first: it is still in the box).", Some(&body)));
    }
    match checked {
        Checked::Comment(new) => {
            ctx.comment(new, field("mode").as_deref() == Some("single"))
                .await
        }
        Checked::EditDraft(id) => ctx.edit_draft(id, body).await,
        Checked::DeleteDraft(id) => ctx.delete_draft(id).await,
        Checked::Submit(event) => ctx.submit(event, &body).await,
        Checked::Reply(id) => ctx.reply(id, &body).await,
        Checked::Thread(thread, resolve) => ctx.thread(&thread, resolve).await,
        Checked::Preview => {
            let anchor = drafts::parse(&|name| {
                if name == "body" {
                    Some("x".into())
                } else {
                    field(name)
                }
            })
            .ok()
            .map(|d| d.anchor);
            let commented = anchor.map(|a| {
                let patch = ctx.patch(&a.path);
                drafts::commented_lines(patch, &a)
            });
            let html = comment_markdown::render(&body, commented.as_deref());
            Ok(HttpReply::json(200, &serde_json::json!({ "html": html })))
        }
    }
}

/// A request's fields, checked.
enum Checked {
    Comment(drafts::NewDraft),
    EditDraft(u64),
    DeleteDraft(u64),
    Submit(Event),
    Reply(u64),
    Thread(String, bool),
    Preview,
}

struct Ctx<'a> {
    /// The form's CSRF token (it matched the cookie): the forms of a fragment sent back carry it.
    csrf: &'a str,
    env: &'a Env,
    github: &'a GitHub<'a>,
    caller: &'a Caller,
    pull: &'a PullPath,
    repo: &'a RepoPath,
    read: &'a pull_request::PullRead,
    answer: &'a Answer<'a>,
}

impl Ctx<'_> {
    fn target(&self) -> (&str, &str, u64) {
        (&self.pull.owner, &self.pull.repo, self.pull.number)
    }

    fn head(&self) -> &str {
        &self.read.pull.head.sha
    }

    /// The patch of a changed file at the head, if the pull request changes it.
    fn patch(&self, path: &str) -> Option<&str> {
        self.read
            .snapshot
            .files
            .iter()
            .find(|f| f.path == path)
            .and_then(|f| f.patch.as_deref())
    }

    fn refusal(&self, refusal: &Refusal, kept: Option<&str>) -> HttpReply {
        let status = if refusal.status >= 400 {
            refusal.status
        } else {
            502
        };
        if self.answer.json {
            return HttpReply::json(
                status,
                &serde_json::json!({
                    "error": refusal.sentence(),
                    "no_access": refusal.is_no_write_access(),
                }),
            );
        }
        self.answer.refuse(status, &refusal.sentence(), kept)
    }

    async fn store_draft(&self, put: &DraftPut) -> Result<u64, HttpReply> {
        // The person's index of pull requests with their data ("Delete my data" walks it) is
        // written first, as for ticks, so no draft is stored that the index does not list.
        if let Err(error) = super::person_data::note_ticked(self.env, self.caller, self.pull).await
        {
            worker::console_error!("noting a pull request with drafts failed: {error}");
            return Err(self.answer.refuse(
                503,
                "Drafts are unavailable right now; try again (your text is still in the box).",
                Some(&put.draft.body),
            ));
        }
        match saved_store::put_draft(self.env, self.target(), put).await {
            Ok(PutOutcome::Stored(id)) => Ok(id),
            Ok(PutOutcome::Full) => Err(self.answer.refuse(409, &format!("You already hold {} draft comments on this pull request; send the review or delete some first.", drafts::MAX_DRAFTS_PER_PERSON), Some(&put.draft.body))),
            Ok(PutOutcome::Missing) => Err(self.answer.refuse(404, "This draft is gone (sent or deleted meanwhile); reload the page.", Some(&put.draft.body))),
            Err(error) => {
                worker::console_error!("storing a draft failed: {error}");
                Err(self.answer.refuse(503, "Drafts are unavailable right now; try again (your text is still in the box).", Some(&put.draft.body)))
            }
        }
    }

    fn draft_of(&self, anchor: Anchor, body: String) -> Draft {
        let lines = drafts::commented_lines(self.patch(&anchor.path), &anchor);
        Draft {
            id: 0,
            anchor,
            head_sha: self.head().to_string(),
            lines,
            body,
            updated_at: crate::time::rfc3339(worker::Date::now().as_millis()),
        }
    }

    /// A new comment: kept as a draft, or sent at once (`mode=single`).
    async fn comment(&self, new: drafts::NewDraft, single: bool) -> worker::Result<HttpReply> {
        if !drafts::in_diff(self.patch(&new.anchor.path), &new.anchor) {
            return Ok(self.answer.refuse(422, "This line is not part of the pull request's diff at its head (it may have changed since the page loaded); reload the page and comment on a line that is shown.", Some(&new.body)));
        }
        let draft = self.draft_of(new.anchor, new.body);
        if !single {
            let put = DraftPut {
                person: self.caller.login.clone(),
                id: None,
                draft,
            };
            let id = match self.store_draft(&put).await {
                Ok(id) => id,
                Err(reply) => return Ok(reply),
            };
            let mut stored = put.draft;
            stored.id = id;
            let html = self.draft_html(&stored);
            return Ok(self.answer.done(
                &format!("#draft-{id}"),
                serde_json::json!({ "id": id, "html": html, "drafts": self.count().await }),
            ));
        }
        let request = gh::NewComment {
            commit_id: self.head(),
            anchor: &draft.anchor,
            body: &draft.body,
        };
        let text = serde_json::to_string(&request)?;
        match self
            .github
            .write(&gh::path::comments(self.repo, self.pull.number), &text)
            .await
        {
            Ok(answer) => {
                let created: gh::Created = serde_json::from_str(&answer).unwrap_or_default();
                Ok(self.answer.done(
                    &format!("#comment-{}", created.id),
                    serde_json::json!({
                        "id": created.id,
                        "html_url": created.html_url,
                        "html": discussion::sent_html(self.caller.login.as_str(), &draft.body, &created.html_url),
                    }),
                ))
            }
            Err(refusal) if !self.answer.json => {
                // Without the script the box is gone once the form is sent: keep the text as a
                // draft, and say so.
                let put = DraftPut {
                    person: self.caller.login.clone(),
                    id: None,
                    draft,
                };
                let kept = self.store_draft(&put).await.is_ok();
                let message = if kept {
                    format!("{} Your comment was kept as a draft.", refusal.sentence())
                } else {
                    refusal.sentence()
                };
                Ok(self
                    .answer
                    .refuse(refusal.status.max(400), &message, Some(&put.draft.body)))
            }
            Err(refusal) => Ok(self.refusal(&refusal, Some(&draft.body))),
        }
    }

    fn draft_html(&self, draft: &Draft) -> String {
        let patch = self.patch(&draft.anchor.path);
        let forms = discussion::Forms::new(
            &pull_path(&self.pull.owner, &self.pull.repo, self.pull.number),
            self.csrf,
            self.head(),
        );
        let gone = !draft.is_on(patch, self.head());
        let commented = drafts::commented_lines(patch, &draft.anchor);
        let mut out = String::new();
        discussion::draft_html(&mut out, draft, gone, &commented, &forms);
        out
    }

    async fn count(&self) -> usize {
        saved_store::drafts(self.env, self.target(), &self.caller.login)
            .await
            .map_or(0, |d| d.len())
    }

    async fn edit_draft(&self, id: u64, body: String) -> worker::Result<HttpReply> {
        let existing = saved_store::drafts(self.env, self.target(), &self.caller.login).await?;
        let Some(mut draft) = existing.into_iter().find(|d| d.id == id) else {
            return Ok(self.answer.refuse(
                404,
                "This draft is gone (sent or deleted meanwhile); reload the page.",
                Some(&body),
            ));
        };
        draft.body = body;
        draft.updated_at = crate::time::rfc3339(worker::Date::now().as_millis());
        let put = DraftPut {
            person: self.caller.login.clone(),
            id: Some(id),
            draft,
        };
        if let Err(reply) = self.store_draft(&put).await {
            return Ok(reply);
        }
        let html = self.draft_html(&put.draft);
        Ok(self.answer.done(
            &format!("#draft-{id}"),
            serde_json::json!({ "id": id, "html": html }),
        ))
    }

    async fn delete_draft(&self, id: u64) -> worker::Result<HttpReply> {
        let delete = DraftDelete {
            person: self.caller.login.clone(),
            ids: vec![id],
        };
        saved_store::delete_drafts(self.env, self.target(), &delete).await?;
        let count = self.count().await;
        Ok(self.answer.done(
            "#finish-review",
            serde_json::json!({ "deleted": id, "drafts": count }),
        ))
    }

    /// Sends every draft as one review with the verdict; deletes them only once GitHub took it.
    async fn submit(&self, event: Event, summary: &str) -> worker::Result<HttpReply> {
        let all = saved_store::drafts(self.env, self.target(), &self.caller.login).await?;
        let gone: Vec<&Draft> = all
            .iter()
            .filter(|d| !d.is_on(self.patch(&d.anchor.path), self.head()))
            .collect();
        if !gone.is_empty() {
            let names: Vec<String> = gone
                .iter()
                .take(5)
                .map(|d| format!("{} line {}", d.anchor.path, d.anchor.line))
                .collect();
            return Ok(self.answer.refuse(409, &format!("{} of your draft comments {} on lines no longer in the diff ({}); they keep their text. Copy and delete them, then send the review.", gone.len(), if gone.len() == 1 { "is" } else { "are" }, names.join(", ")), Some(summary)));
        }
        if summary.trim().is_empty() && (event == Event::RequestChanges || all.is_empty()) {
            let message = if event == Event::RequestChanges {
                "Write a summary saying what to change: GitHub needs one to request changes."
            } else if event == Event::Approve {
                ""
            } else {
                "Write a summary or add comments to lines first: the review would be empty."
            };
            if !message.is_empty() {
                return Ok(self.answer.refuse(400, message, None));
            }
        }
        let review = gh::NewReview {
            commit_id: self.head(),
            body: summary,
            event,
            comments: all
                .iter()
                .map(|d| gh::ReviewLineComment {
                    anchor: &d.anchor,
                    body: &d.body,
                })
                .collect(),
        };
        let text = serde_json::to_string(&review)?;
        match self
            .github
            .write(&gh::path::reviews(self.repo, self.pull.number), &text)
            .await
        {
            Ok(answer) => {
                let created: gh::Created = serde_json::from_str(&answer).unwrap_or_default();
                let delete = DraftDelete {
                    person: self.caller.login.clone(),
                    ids: all.iter().map(|d| d.id).collect(),
                };
                if let Err(error) =
                    saved_store::delete_drafts(self.env, self.target(), &delete).await
                {
                    worker::console_error!("deleting sent drafts failed: {error}");
                }
                Ok(self.answer.done(
                    "",
                    serde_json::json!({
                        "message": event.done(),
                        "html_url": created.html_url,
                        "sent": all.len(),
                    }),
                ))
            }
            Err(refusal) => Ok(self.refusal(&refusal, Some(summary))),
        }
    }

    async fn reply(&self, comment: u64, body: &str) -> worker::Result<HttpReply> {
        let text = serde_json::to_string(&gh::NewReply { body })?;
        match self
            .github
            .write(
                &gh::path::replies(self.repo, self.pull.number, comment),
                &text,
            )
            .await
        {
            Ok(answer) => {
                let created: gh::Created = serde_json::from_str(&answer).unwrap_or_default();
                Ok(self.answer.done(
                    &format!("#comment-{}", created.id),
                    serde_json::json!({
                        "id": created.id,
                        "html": discussion::sent_html(self.caller.login.as_str(), body, &created.html_url),
                    }),
                ))
            }
            Err(refusal) => Ok(self.refusal(&refusal, Some(body))),
        }
    }

    async fn thread(&self, thread: &str, resolve: bool) -> worker::Result<HttpReply> {
        let text = graphql::resolve_request(thread, resolve);
        let result = self
            .github
            .write(crate::github::graphql::PATH, &text)
            .await
            .and_then(|answer| graphql::resolved(&answer));
        match result {
            Ok(resolved) => Ok(self.answer.done(
                "",
                serde_json::json!({ "thread": thread, "resolved": resolved }),
            )),
            Err(refusal) => Ok(self.refusal(&refusal, None)),
        }
    }
}
