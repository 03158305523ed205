//! Finishing the review from the review page (issue 29), run in the pull request's object
//! (moved from `store` to the application layer, issue #37): line
//! comments as drafts or sent at once, editing and deleting drafts, replies, resolving threads,
//! the review with its verdict, and the Markdown preview.
//!
//! The Worker checked the form's size, the checks of every browser POST and the fields
//! (`web::review_write::check`, in `calls::WriteCall::read`) before this runs, and sends them
//! decoded; here, in this order, so a refused request touches nothing: the read-only rule
//! again, the viewer's own GitHub read of the pull request (the snapshot's patches say which
//! lines are in the diff), the head the page was loaded at, then the action, with the viewer's
//! own token for GitHub and this object's storage for the drafts. A review sent sets the
//! `LogiKFlow` commit status again (`commit_status`: one write more, never failing the review).
//! Nothing typed is
//! lost: a refused draft is not stored but its text stays in the box (the script keeps it;
//! without it the refusal page shows it again), and a single comment GitHub refuses without the
//! script is kept as a draft.
//!
//! What not: no GitHub pending reviews (drafts live here until the review is sent whole), no
//! rendering beyond the answers' small fragments, no platform names (the shell hands in the
//! object and the viewer's GitHub client).

use super::calls::WriteCall;
use super::commit_status::{self, Described};
use super::coverage;
use super::object::{Object, Storage, Viewer};
use super::read::PullRead;
use super::records::ReceiptRow;
use super::review_reads::try_threads;
use crate::github::api::RepoPath;
use crate::github::reviews::{self as gh, graphql, Anchor, Event, Refusal};
use crate::http::HttpReply;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::SqlError;
use crate::review::drafts::{self, Draft, DraftDelete, DraftPut, PutOutcome};
use crate::review::order::Order;
use crate::review::receipt::{self, Receipt};
use crate::tools::get_pull_request::review_url;
use crate::web::comment_markdown;
use crate::web::review_page::{discussion, pull_path};
use crate::web::review_write::{Answer, Checked, READ_ONLY};

/// The message when the drafts' storage or the person's index fails.
const DRAFTS_UNAVAILABLE: &str =
    "Drafts are unavailable right now; try again (your text is still in the box).";

/// Deleting a draft id that isn't one of the viewer's drafts here (issue 36).
const DRAFT_NOT_YOURS: &str = "Nothing was deleted: you hold no draft with this id on this pull request (it may have been sent or deleted meanwhile). Reload the page.";

/// Resolving a thread id that isn't one of this pull request's threads (issue 36).
const THREADS_UNREAD: &str = "Nothing was sent: GitHub didn't list this pull request's review threads just now, so LogiKFlow couldn't check the thread is one of them. Try again in a moment.";
const THREAD_NOT_HERE: &str = "Nothing was sent: this thread is not one of this pull request's review threads as GitHub lists them. Reload the page and use the thread's own Resolve button.";

/// Runs a review write the Worker read and checked (`calls::WriteCall::read`).
pub async fn write<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    viewer: &Viewer<'_, T>,
    write: &WriteCall,
) -> Result<HttpReply, SqlError> {
    let (call, pull) = (viewer.call, viewer.pull);
    let answer = Answer {
        json: write.json,
        base_url: &call.base_url,
        back: pull_path(&pull.owner, &pull.repo, pull.number),
    };
    let body = write.body.clone();
    // The Worker refused this for a read-only sign-in already; the object holds the rule too.
    if !call.may_write && write.sends_to_github() {
        return Ok(answer.refuse(403, READ_ONLY, Some(&body)));
    }
    let read = match object.viewer_read(viewer).await? {
        Ok(read) => read,
        Err(message) => return Ok(answer.refuse(404, &message, Some(&body))),
    };
    let Some(repo) = RepoPath::new(&pull.owner, &pull.repo) else {
        return Ok(answer.refuse(404, "No such repository.", None));
    };
    let ctx = Ctx {
        object,
        viewer,
        csrf: &write.csrf,
        repo: &repo,
        read: &read,
        answer: &answer,
    };
    let head = write.head.as_str();
    if matches!(write.checked, Checked::Comment(_))
        && !head.is_empty()
        && head != read.pull.head.sha
    {
        return Ok(answer.refuse(409, "New commits were pushed since this page loaded, so its line numbers may have moved. Reload the page and comment again (copy your text first: it is still in the box).", Some(&body)));
    }
    match &write.checked {
        Checked::Comment(new) => ctx.comment(new.clone(), write.single).await,
        Checked::EditDraft(id) => ctx.edit_draft(*id, body).await,
        Checked::DeleteDraft(id) => ctx.delete_draft(*id),
        Checked::Submit(event) => ctx.submit(*event, &body, write.receipt).await,
        Checked::Reply(id) => ctx.reply(*id, &body).await,
        Checked::Thread(thread, resolve) => ctx.thread(thread, *resolve).await,
        Checked::Preview => {
            let commented = write
                .anchor
                .as_ref()
                .map(|a| drafts::commented_lines(ctx.patch(&a.path), a));
            let html = comment_markdown::render(&discussion::shown(&body), commented.as_deref());
            Ok(HttpReply::json(200, &serde_json::json!({ "html": html })))
        }
    }
}

struct Ctx<'a, St: Storage, P: Surroundings, T: GitHubTransport> {
    object: &'a Object<'a, St, P>,
    viewer: &'a Viewer<'a, T>,
    /// The form's CSRF token (the Worker matched it to the cookie): the forms of a fragment sent
    /// back carry it.
    csrf: &'a str,
    repo: &'a RepoPath,
    read: &'a PullRead,
    answer: &'a Answer<'a>,
}

impl<St: Storage, P: Surroundings, T: GitHubTransport> Ctx<'_, St, P, T> {
    /// The viewer's GitHub login, shown with what they send.
    fn login(&self) -> &str {
        &self.viewer.call.login
    }

    /// The key the viewer's drafts are stored under: their person id, not their login, which
    /// another account may hold later (issue 36).
    fn key(&self) -> &str {
        &self.viewer.call.person
    }

    fn number(&self) -> u64 {
        self.viewer.pull.number
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

    /// Sends `body` to GitHub's REST `path` as the viewer; what GitHub made (its id and link)
    /// or why it refused.
    async fn create(
        &self,
        path: &str,
        body: &impl serde::Serialize,
    ) -> Result<gh::Created, Refusal> {
        let text = serde_json::to_string(body).map_err(|error| Refusal {
            status: 500,
            message: format!("The request to GitHub could not be written: {error}"),
            errors: Vec::new(),
        })?;
        self.viewer
            .github
            .write(path, &text)
            .await
            .map(|answer| serde_json::from_str(&answer).unwrap_or_default())
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

    /// The viewer's drafts here, oldest first.
    fn drafts(&self) -> Result<Vec<Draft>, SqlError> {
        self.object.records().drafts(self.key())
    }

    async fn store_draft(&self, put: &DraftPut) -> Result<u64, HttpReply> {
        // The person's index of pull requests with their data ("Delete my data" walks it) is
        // written first, as for ticks, so no draft is stored that the index does not list.
        if let Err(error) = self.object.note_ticked(self.viewer).await {
            self.object.platform.error(&format!(
                "noting a pull request with drafts failed: {error}"
            ));
            return Err(self
                .answer
                .refuse(503, DRAFTS_UNAVAILABLE, Some(&put.draft.body)));
        }
        match self.object.records().put_draft(put) {
            Ok(PutOutcome::Stored(id)) => Ok(id),
            Ok(PutOutcome::Full) => Err(self.answer.refuse(409, &format!("You already hold {} draft comments on this pull request; send the review or delete some first.", drafts::MAX_DRAFTS_PER_PERSON), Some(&put.draft.body))),
            Ok(PutOutcome::Missing) => Err(self.answer.refuse(404, "This draft is gone (sent or deleted meanwhile); reload the page.", Some(&put.draft.body))),
            Err(error) => {
                self.object
                    .platform
                    .error(&format!("storing a draft failed: {error}"));
                Err(self.answer.refuse(503, DRAFTS_UNAVAILABLE, Some(&put.draft.body)))
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
            updated_at: crate::time::rfc3339(self.object.clock.now_ms()),
        }
    }

    /// A new comment: kept as a draft, or sent at once (`mode=single`).
    async fn comment(&self, new: drafts::NewDraft, single: bool) -> Result<HttpReply, SqlError> {
        if !drafts::in_diff(self.patch(&new.anchor.path), &new.anchor) {
            return Ok(self.answer.refuse(422, "This line is not part of the pull request's diff at its head (it may have changed since the page loaded); reload the page and comment on a line that is shown.", Some(&new.body)));
        }
        let draft = self.draft_of(new.anchor, new.body);
        if !single {
            let put = DraftPut {
                person: self.key().to_string(),
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
                serde_json::json!({ "id": id, "html": html, "drafts": self.count() }),
            ));
        }
        let request = gh::NewComment {
            commit_id: self.head(),
            anchor: &draft.anchor,
            body: &draft.body,
        };
        match self
            .create(&gh::path::comments(self.repo, self.number()), &request)
            .await
        {
            Ok(created) => Ok(self.answer.done(
                &format!("#comment-{}", created.id),
                serde_json::json!({
                    "id": created.id,
                    "html_url": created.html_url,
                    "html": discussion::sent_html(self.login(), &draft.body, &created.html_url),
                }),
            )),
            Err(refusal) if !self.answer.json => {
                // Without the script the box is gone once the form is sent: keep the text as a
                // draft, and say so.
                let put = DraftPut {
                    person: self.key().to_string(),
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
        let forms = discussion::Forms::new(&self.answer.back, self.csrf, self.head())
            .may_write(self.viewer.call.may_write);
        let gone = !draft.is_on(patch, self.head());
        let commented = drafts::commented_lines(patch, &draft.anchor);
        let mut out = String::new();
        discussion::draft_html(&mut out, draft, gone, &commented, &forms);
        out
    }

    fn count(&self) -> usize {
        self.drafts().map_or(0, |d| d.len())
    }

    async fn edit_draft(&self, id: u64, body: String) -> Result<HttpReply, SqlError> {
        let existing = self.drafts()?;
        let Some(mut draft) = existing.into_iter().find(|d| d.id == id) else {
            return Ok(self.answer.refuse(
                404,
                "This draft is gone (sent or deleted meanwhile); reload the page.",
                Some(&body),
            ));
        };
        draft.body = body;
        draft.updated_at = crate::time::rfc3339(self.object.clock.now_ms());
        let put = DraftPut {
            person: self.key().to_string(),
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

    fn delete_draft(&self, id: u64) -> Result<HttpReply, SqlError> {
        let delete = DraftDelete {
            person: self.key().to_string(),
            ids: vec![id],
        };
        // Only the viewer's own drafts are deleted; say so when nothing was (issue 36).
        if self.object.records().delete_drafts(&delete)? == 0 {
            return Ok(self.answer.refuse(404, DRAFT_NOT_YOURS, None));
        }
        Ok(self.answer.done(
            "#finish-review",
            serde_json::json!({ "deleted": id, "drafts": self.count() }),
        ))
    }

    /// Sends every draft as one review with the verdict; deletes them only once GitHub took it.
    /// With `add_receipt`, the summary ends with what the reviewer read (issue #47); either way
    /// the object records what they had read under GitHub's id of the review.
    async fn submit(
        &self,
        event: Event,
        summary: &str,
        add_receipt: bool,
    ) -> Result<HttpReply, SqlError> {
        let all = self.drafts()?;
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
        let receipt = self.receipt()?;
        let url = review_url(
            &self.viewer.call.base_url,
            &self.viewer.pull.owner,
            &self.viewer.pull.repo,
            self.number(),
        );
        let with = add_receipt
            .then(|| {
                let text = receipt::markdown(&receipt, &url);
                receipt::with_receipt(summary, &text, drafts::MAX_BODY_CHARS)
            })
            .flatten();
        let review = gh::NewReview {
            commit_id: self.head(),
            body: with.as_deref().unwrap_or(summary),
            event,
            comments: all
                .iter()
                .map(|d| gh::ReviewLineComment {
                    anchor: &d.anchor,
                    body: &d.body,
                })
                .collect(),
        };
        match self
            .create(&gh::path::reviews(self.repo, self.number()), &review)
            .await
        {
            Ok(created) => {
                self.record_receipt(created.id, &receipt);
                let delete = DraftDelete {
                    person: self.key().to_string(),
                    ids: all.iter().map(|d| d.id).collect(),
                };
                if let Err(error) = self.object.records().delete_drafts(&delete) {
                    self.object
                        .platform
                        .error(&format!("deleting sent drafts failed: {error}"));
                }
                let mut done = serde_json::json!({
                    "message": event.done(),
                    "html_url": created.html_url,
                    "sent": all.len(),
                });
                if let Some(status) = self.refresh_status().await {
                    done["commitStatus"] = status.json();
                }
                Ok(self.answer.done("", done))
            }
            Err(refusal) => Ok(self.refusal(&refusal, Some(summary))),
        }
    }

    /// After a review was sent: the commit status again, so it counts what was read now and
    /// follows the head after a push (one write; `None` when no order is saved to describe).
    /// The review was sent either way: a storage failure here is logged, and sets none.
    async fn refresh_status(&self) -> Option<commit_status::Outcome> {
        let record = match self.object.records().current() {
            Ok(current) => current.order?,
            Err(error) => {
                let line = format!("reading the order for the commit status failed: {error}");
                self.object.platform.error(&line);
                return None;
            }
        };
        let pull = self.viewer.pull;
        let review_url = review_url(
            &self.viewer.call.base_url,
            &pull.owner,
            &pull.repo,
            pull.number,
        );
        let sections = record
            .body
            .get("sections")
            .and_then(|s| s.as_array())
            .map_or(0, Vec::len);
        let order = crate::json::read::<Order>(&record.body).ok();
        let described = Described {
            version: record.version,
            sections,
            order: order.as_ref(),
            review_url: &review_url,
        };
        let names = (pull.owner.as_str(), pull.repo.as_str());
        let status = commit_status::set(
            self.object,
            self.viewer.github,
            self.viewer.call.may_write,
            self.read,
            names,
            &described,
        )
        .await;
        Some(status)
    }

    /// What the viewer has read of the latest order at the head, now.
    fn receipt(&self) -> Result<Receipt, SqlError> {
        let records = self.object.records();
        let latest = records.current()?.order;
        let order: Option<Order> = latest
            .as_ref()
            .and_then(|record| crate::json::read(&record.body).ok());
        let files = &self.read.snapshot.files;
        let coverage = coverage::coverage(&records, order.as_ref(), files, self.head())?;
        let at = crate::time::rfc3339(self.object.clock.now_ms());
        Ok(receipt::receipt(
            &coverage,
            self.login(),
            latest.map_or(0, |record| record.version),
            self.head(),
            &at,
        ))
    }

    /// Keeps `receipt` under GitHub's id of the review it went with; a failure costs only the
    /// agent's view of it, never the review, which GitHub already holds.
    fn record_receipt(&self, review: u64, receipt: &Receipt) {
        if review == 0 {
            return;
        }
        let row = ReceiptRow {
            review_id: review.to_string(),
            person: self.key().to_string(),
            receipt: serde_json::to_string(receipt).unwrap_or_default(),
            sent_at: receipt.sent_at.clone(),
        };
        if let Err(error) = self.object.records().put_receipt(&row) {
            self.object
                .platform
                .error(&format!("recording a review's receipt failed: {error}"));
        }
    }

    async fn reply(&self, comment: u64, body: &str) -> Result<HttpReply, SqlError> {
        let path = gh::path::replies(self.repo, self.number(), comment);
        match self.create(&path, &gh::NewReply { body }).await {
            Ok(created) => Ok(self.answer.done(
                &format!("#comment-{}", created.id),
                serde_json::json!({
                    "id": created.id,
                    "html": discussion::sent_html(self.login(), body, &created.html_url),
                }),
            )),
            Err(refusal) => Ok(self.refusal(&refusal, Some(body))),
        }
    }

    async fn thread(&self, thread: &str, resolve: bool) -> Result<HttpReply, SqlError> {
        // Only a thread of this pull request, as GitHub lists them to the viewer (the first
        // `graphql::MAX_THREADS`, the ones the page offers Resolve on); nothing is sent
        // otherwise (issue 36).
        let comments = self.read.pull.review_comments.map_or(1, |n| n as usize);
        let threads = if comments == 0 {
            Vec::new()
        } else {
            match try_threads(self.viewer.github, self.viewer.pull).await {
                Ok(threads) => threads,
                Err(error) => {
                    let line = format!("reading review threads failed: {error}");
                    self.object.platform.warn(&line);
                    return Ok(self.answer.refuse(503, THREADS_UNREAD, None));
                }
            }
        };
        if !threads.iter().any(|t| t.id == thread) {
            return Ok(self.answer.refuse(404, THREAD_NOT_HERE, None));
        }
        let text = graphql::resolve_request(thread, resolve);
        let result = self
            .viewer
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
