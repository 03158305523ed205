//! Finishing the review from the review page (issue 29): how a form's fields are checked and how
//! an answer is shaped, shared by the Worker (which checks the fields before anything is read,
//! `service::review_write`, and sends them checked: `app::pull_request::calls::WriteCall`) and
//! the pull request's object (which reads the pull request as the viewer and acts,
//! `app::pull_request::writes`).
//!
//! Why the Worker checks: a bad request is refused without an object request. A browser with the page's script asks for JSON (`Accept: application/json`) and shows the
//! answer next to the box; a plain form gets a 303 back to the place on the page, or a page
//! saying what went wrong, with the text typed to copy.
//!
//! What not: no I/O, no GitHub, no storage.

use crate::github::reviews::Event;
use crate::http::HttpReply;
use crate::review::drafts::{self, NewDraft};
use crate::router::ReviewWrite;
use crate::security::form;

/// The largest form accepted: a body of GitHub's 65,536 characters, each up to four bytes of
/// UTF-8 and each byte percent-encoded as three (786,432 bytes), with the other fields beside it.
/// Larger than the other forms' cap (`forms::MAX_FORM_BYTES`), which holds only ASCII comments.
pub const MAX_FORM_BYTES: usize = 1024 * 1024;

/// Why a read-only sign-in sends nothing to GitHub, and how to get write access (issue 36): the
/// one home of the words, for the Worker's refusal, the object's, and the page's notice.
pub const READ_ONLY: &str = "This browser signed in to LogiKFlow with read access only (\"Save reading orders and diagrams\" was unticked), so LogiKFlow sends no reviews, comments, replies or resolved threads to GitHub as you from it. Drafts and previews still work. To send, sign in again with \"Change access\" in Settings (/settings) and keep that box ticked.";

/// How a request wants its answer.
pub struct Answer<'a> {
    /// The page's script asked for JSON.
    pub json: bool,
    pub base_url: &'a str,
    /// The review page's path, where a plain form goes back to.
    pub back: String,
}

impl Answer<'_> {
    /// A refusal: `{error}` as JSON, or a page saying what went wrong with the text `kept` to
    /// copy. The page is bare HTML; the Worker adds the pages' headers when it frames it.
    pub fn refuse(&self, status: u16, message: &str, kept: Option<&str>) -> HttpReply {
        if self.json {
            return HttpReply::json(status, &serde_json::json!({ "error": message }));
        }
        let mut body = format!(
            "<h1>Not sent</h1><p role=\"alert\">{}</p>",
            super::html::escape(message)
        );
        if let Some(text) = kept.filter(|t| !t.is_empty()) {
            body.push_str(&format!(
                "<p>Your text, to copy:</p><textarea readonly rows=\"8\" aria-label=\"Your text\">{}</textarea>",
                super::html::escape(text)
            ));
        }
        body.push_str(&format!(
            "<p><a href=\"{}\">Back to the review</a></p>",
            super::html::escape(&self.back)
        ));
        HttpReply::new(
            status,
            "text/html; charset=utf-8",
            super::html::page("Not sent", &body, self.base_url),
        )
    }

    /// Done: `json` for the script, or a 303 back to `anchor` on the page.
    pub fn done(&self, anchor: &str, json: serde_json::Value) -> HttpReply {
        if self.json {
            return HttpReply::json(200, &json);
        }
        HttpReply::empty(303).with_header("location", format!("{}{anchor}", self.back))
    }
}

/// A request's fields, checked.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Checked {
    Comment(NewDraft),
    EditDraft(u64),
    DeleteDraft(u64),
    Submit(Event),
    Reply(u64),
    Thread(String, bool),
    Preview,
}

/// The form's fields, read once.
pub struct Fields(Vec<(String, String)>);

impl Fields {
    /// Reads a form body (`application/x-www-form-urlencoded`).
    pub fn read(body: &[u8]) -> Fields {
        Fields(form::pairs(body))
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<String> {
        form::value(&self.0, name).map(str::to_string)
    }

    /// The comment's or summary's text (`body`), or nothing.
    pub fn body(&self) -> String {
        self.get("body").unwrap_or_default()
    }
}

/// Checks the fields of `action` before anything is read; the message says what to fix.
pub fn check(action: ReviewWrite, fields: &Fields) -> Result<Checked, String> {
    let field = |name: &str| fields.get(name);
    let body = fields.body();
    match action {
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
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;
