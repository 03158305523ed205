//! The conversation on a diff (issue 29): GitHub's review comments grouped into threads, with a
//! reply box and Resolve where the viewer may, resolved threads folded; the viewer's draft
//! comments under their lines; a plain form per diff to comment on any of its lines; and the
//! "Finish review" panel with the drafts' count, the summary and the verdict.
//!
//! Why: the reviewer finishes the review where they read it. Every control is a plain form that
//! posts to `…/pull/{n}/{comments|drafts|review|replies|threads}` with the page's CSRF token and
//! works without the script; `/static/review-comments.js` adds a "Comment" button on each line, the
//! Write/Preview box and the keys, posting the same forms in the background.
//! Bodies are Markdown (`comment_markdown`), logins and paths escaped text.
//! After the author's push (issue #38), a thread whose lines changed since it was written says
//! so with the head ([`changed_since`], the rule of `review::feedback`), and the outline counts
//! each section's open threads ([`open_threads_by_section`]), so a reviewer re-reviewing goes
//! straight to the answers.
//!
//! What not: no GitHub requests, no storage; which comments exist and what the viewer may do is
//! the caller's.

use std::fmt::Write as _;

use crate::github::api::ReviewComment;
use crate::github::review_threads::Thread;
use crate::review::drafts::{self, Draft};
use crate::web::comment_markdown;
use crate::web::html::{escape, escape_into};

/// What every form of the page carries: where it posts, the CSRF token and the head the page
/// shows (all escaped).
#[derive(Debug, Clone)]
pub struct Forms {
    base: String,
    csrf: String,
    head: String,
    /// The head, as is (to tell whether a draft is still on its line).
    head_sha: String,
    /// The sign-in is read-only (issue 36): no form that sends to GitHub is offered (no single
    /// comment, reply, resolve or review); drafts and previews stay.
    read_only: bool,
}

impl Forms {
    pub fn new(pull_path: &str, csrf: &str, head: &str) -> Forms {
        Forms {
            base: escape(pull_path),
            csrf: escape(csrf),
            head: escape(head),
            head_sha: head.to_string(),
            read_only: false,
        }
    }

    /// The sign-in may not send to GitHub.
    pub fn is_read_only(&self) -> bool {
        self.read_only
    }

    /// The same forms for a sign-in that may (`true`) or may not send to GitHub.
    pub fn may_write(mut self, may_write: bool) -> Forms {
        self.read_only = !may_write;
        self
    }

    fn open(&self, out: &mut String, action: &str, class: &str) {
        let _ = write!(
            out,
            "<form method=\"post\" action=\"{}/{action}\" class=\"{class}\">\
             <input type=\"hidden\" name=\"csrf\" value=\"{}\">",
            self.base, self.csrf
        );
    }
}

/// The viewer's side of the conversation: their drafts, the threads with what they may do, and
/// the forms' common fields.
pub struct Discussion<'a> {
    pub forms: Forms,
    pub drafts: &'a [Draft],
    pub threads: &'a [Thread],
}

impl Discussion<'_> {
    /// Whether a draft is still on its line at the head the page shows (`patch`: its file's).
    pub fn is_on(&self, draft: &Draft, patch: Option<&str>) -> bool {
        draft.is_on(patch, &self.forms.head_sha)
    }

    /// [`Discussion::is_on`] for a draft on a line of these hunks (a diff being shown).
    pub fn is_on_hunks(&self, draft: &Draft, hunks: &[crate::review::patch::Hunk<'_>]) -> bool {
        draft.head_sha == self.forms.head_sha
            || draft.lines.is_empty()
            || drafts::commented_lines_in(hunks, &draft.anchor) == draft.lines
    }

    /// The head the page shows.
    pub fn head_sha(&self) -> &str {
        &self.forms.head_sha
    }

    fn thread_of(&self, root: u64) -> Option<&Thread> {
        self.threads.iter().find(|t| t.first_comment == root)
    }
}

/// The id of the comment a comment's thread starts with.
pub fn root_of(comment: &ReviewComment) -> u64 {
    comment.in_reply_to_id.unwrap_or(comment.id)
}

/// Whether the lines under the thread `root` starts changed after it was written, at the page's
/// `head` (issue #38, the rule of `review::feedback`): written at an earlier head, and GitHub
/// marks it outdated or the rows its `diff_hunk` kept differ from `hunks` ending at its line.
pub fn changed_since(
    root: &ReviewComment,
    head: &str,
    hunks: Option<&[crate::review::patch::Hunk<'_>]>,
) -> bool {
    use crate::review::feedback::{rows_changed, DiffSide};
    let written_before = root
        .original_commit_id
        .as_deref()
        .is_some_and(|original| original != head);
    if root.in_reply_to_id.is_some() || !written_before {
        return false;
    }
    if root.is_outdated() {
        return true;
    }
    let side = match root.side.as_str() {
        "LEFT" => DiffSide::Left,
        _ => DiffSide::Right,
    };
    match (hunks, root.line) {
        (Some(hunks), Some(line)) => rows_changed(hunks, side, line, &root.diff_hunk),
        _ => false,
    }
}

/// How many open review threads each section of `order` shows (by index), placed as
/// `get_review_feedback` places them (`review::feedback`): a thread is open unless GitHub's
/// GraphQL threads (`discussion`) say it is resolved.
pub fn open_threads_by_section(
    files: &[crate::review::model::snapshot::SnapshotFile],
    order: &crate::review::order::Order,
    comments: &[ReviewComment],
    discussion: Option<&Discussion<'_>>,
) -> Vec<usize> {
    use crate::review::feedback::{
        feedback, open_by_section, CommentInput, DiffSide, Inputs, ThreadInput,
    };
    let threads: Vec<ThreadInput> = comments
        .iter()
        .filter(|c| c.in_reply_to_id.is_none())
        .map(|root| ThreadInput {
            path: root.path.clone(),
            side: match root.side.as_str() {
                "LEFT" => DiffSide::Left,
                _ => DiffSide::Right,
            },
            line: root.line,
            start_line: root.start_line,
            original_line: root.original_line,
            original_start_line: None,
            outdated: root.is_outdated(),
            resolved: discussion
                .and_then(|d| d.thread_of(root.id))
                .is_some_and(|t| t.resolved),
            comments: vec![CommentInput {
                original_commit: root.original_commit_id.clone(),
                diff_hunk: root.diff_hunk.clone(),
                ..CommentInput::default()
            }],
        })
        .collect();
    if threads.is_empty() {
        return vec![0; order.sections.len()];
    }
    let files = crate::review::model::snapshot::files_named_by(files, &threads);
    let placed = feedback(&Inputs {
        head_sha: discussion.map_or("", |d| d.head_sha()),
        author: None,
        files: &files,
        order: Some(order),
        threads: &threads,
        reviews: &[],
        include_resolved: false,
        truncated: false,
    });
    open_by_section(&placed.threads, order.sections.len())
        .sections
        .iter()
        .map(Vec::len)
        .collect()
}

/// The outline's "N open threads" beside a section.
pub fn open_threads_html(out: &mut String, count: usize) {
    let _ = write!(
        out,
        " <span class=\"badge threads\">{count} open {}</span>",
        if count == 1 { "thread" } else { "threads" }
    );
}

/// "Changed since this comment", with the head the page shows.
pub fn changed_since_html(out: &mut String, head: &str) {
    let short = head.get(..7).unwrap_or(head);
    let _ = write!(
        out,
        "<p class=\"changed-since\"><span class=\"badge changed\">Changed since this comment</span> \
         <span class=\"muted\">the lines under it changed in a later push; now at <code>{}</code></span></p>",
        escape(short)
    );
}

/// One thread: its comments, then (with a discussion) the reply box and Resolve or Unresolve
/// where the viewer may. A resolved thread is folded, as on GitHub. `changed` is the head when
/// the lines under it changed since it was written ([`changed_since`]).
pub fn thread_html(
    out: &mut String,
    comments: &[&ReviewComment],
    discussion: Option<&Discussion<'_>>,
    commented: &dyn Fn(&ReviewComment) -> Vec<String>,
    changed: Option<&str>,
) {
    let Some(first) = comments.first() else {
        return;
    };
    let root = root_of(first);
    let thread = discussion.and_then(|d| d.thread_of(root));
    let resolved = thread.is_some_and(|t| t.resolved);
    let _ = write!(
        out,
        "<div class=\"thread\" id=\"thread-{root}\" data-root=\"{root}\""
    );
    if let Some(thread) = thread {
        let _ = write!(out, " data-thread=\"{}\"", escape(&thread.id));
    }
    out.push('>');
    if resolved {
        let _ = write!(
            out,
            "<details class=\"resolved\"><summary>Resolved thread · {} {} · {}</summary>",
            comments.len(),
            if comments.len() == 1 {
                "comment"
            } else {
                "comments"
            },
            escape(first.author())
        );
    }
    if let Some(head) = changed {
        changed_since_html(out, head);
    }
    for comment in comments {
        comment_html(out, comment, &commented(comment));
    }
    if let Some(discussion) = discussion {
        thread_controls(out, root, thread, &discussion.forms);
    }
    if resolved {
        out.push_str("</details>");
    }
    out.push_str("</div>\n");
}

fn thread_controls(out: &mut String, root: u64, thread: Option<&Thread>, forms: &Forms) {
    if forms.read_only {
        return;
    }
    out.push_str("<div class=\"thread-actions\">");
    if thread.is_none_or(|t| t.can_reply) {
        let _ = write!(
            out,
            "<details class=\"reply\"><summary class=\"button\">Reply</summary>"
        );
        forms.open(out, "replies", "cmt-form reply-form");
        let _ = write!(
            out,
            "<input type=\"hidden\" name=\"comment\" value=\"{root}\">\
             <label class=\"vh\" for=\"reply-{root}\">Reply</label>\
             <textarea id=\"reply-{root}\" name=\"body\" rows=\"3\" required maxlength=\"{max}\" placeholder=\"Reply…\"></textarea>\
             <p class=\"cmt-buttons\"><button class=\"button primary\" type=\"submit\">Reply</button></p>\
             <p class=\"cmt-status\" role=\"status\" aria-live=\"polite\"></p></form></details>",
            max = drafts::MAX_BODY_CHARS
        );
    }
    if let Some(thread) = thread {
        let (may, resolve, label) = if thread.resolved {
            (thread.can_unresolve, "0", "Unresolve")
        } else {
            (thread.can_resolve, "1", "Resolve conversation")
        };
        if may {
            forms.open(out, "threads", "thread-form");
            let _ = write!(
                out,
                "<input type=\"hidden\" name=\"thread\" value=\"{}\">\
                 <input type=\"hidden\" name=\"resolve\" value=\"{resolve}\">\
                 <button class=\"button\" type=\"submit\">{label}</button></form>",
                escape(&thread.id)
            );
        }
    }
    out.push_str("</div>");
}

/// One of GitHub's comments: author, time (linked to the comment on GitHub), "Outdated" as GitHub
/// marks it, and the body as Markdown (a suggestion shown against `commented`).
pub fn comment_html(out: &mut String, comment: &ReviewComment, commented: &[String]) {
    let _ = write!(
        out,
        "<div class=\"cmt\" id=\"comment-{}\"><p class=\"cmt-by\"><strong>{}</strong> ",
        comment.id,
        escape(comment.author())
    );
    let when = comment.created_at.get(..10).unwrap_or("comment");
    match super::safe_github(&comment.html_url) {
        Some(url) => {
            let _ = write!(
                out,
                "<a href=\"{}\">{} on GitHub</a>",
                escape(url),
                escape(when)
            );
        }
        None => escape_into(out, when),
    }
    if comment.is_outdated() {
        out.push_str(" <span class=\"badge outdated\">Outdated</span>");
        if let Some(line) = comment.original_line {
            let _ = write!(
                out,
                " <span class=\"muted\">was on line {line} of an earlier version</span>"
            );
        }
    }
    out.push_str("</p><div class=\"cmt-body\">");
    let lines = (!commented.is_empty()).then_some(commented);
    out.push_str(&comment_markdown::render_from(
        &shown(&comment.body),
        lines,
        super::safe_github(&comment.html_url),
    ));
    out.push_str("</div></div>\n");
}

/// A comment's body as the page renders it: trimmed, without bidirectional controls (issue 36:
/// they would reorder the text unseen; `unicode::without_bidi_controls`).
pub fn shown(body: &str) -> String {
    crate::unicode::without_bidi_controls(body.trim())
}

/// A comment the viewer just sent (the script puts it in place).
pub fn sent_html(login: &str, body: &str, html_url: &str) -> String {
    let mut out = String::new();
    out.push_str("<div class=\"cmt\"><p class=\"cmt-by\"><strong>");
    escape_into(&mut out, login);
    out.push_str("</strong> ");
    match super::safe_github(html_url) {
        Some(url) => {
            let _ = write!(out, "<a href=\"{}\">just now on GitHub</a>", escape(url));
        }
        None => out.push_str("just now"),
    }
    out.push_str("</p><div class=\"cmt-body\">");
    out.push_str(&comment_markdown::render_from(
        &shown(body),
        None,
        super::safe_github(html_url),
    ));
    out.push_str("</div></div>\n");
    out
}

/// Where a draft is, in words: "line 12" or "lines 10–12", and the side.
fn place(draft: &Draft) -> String {
    let side = match draft.anchor.side {
        crate::github::reviews::Side::Left => "old",
        crate::github::reviews::Side::Right => "new",
    };
    match draft.anchor.start_line {
        Some(start) => format!("lines {start}–{} ({side})", draft.anchor.line),
        None => format!("line {} ({side})", draft.anchor.line),
    }
}

/// One of the viewer's drafts: marked "Draft", its body (a suggestion shown against the
/// `commented` lines), and its Edit and Delete forms; `gone` says its line left the diff.
pub fn draft_html(
    out: &mut String,
    draft: &Draft,
    gone: bool,
    commented: &[String],
    forms: &Forms,
) {
    let id = draft.id;
    let _ = write!(
        out,
        "<div class=\"cmt draft\" id=\"draft-{id}\" data-draft=\"{id}\"><p class=\"cmt-by\"><span class=\"badge draft-badge\">Draft</span> \
         <span class=\"muted\">{}</span></p>",
        escape(&place(draft))
    );
    if gone {
        out.push_str("<p class=\"notice warn\" role=\"note\">This line is no longer in the diff (new commits changed it). Your text is kept: copy it, then delete this draft.</p>");
    }
    let lines = (!commented.is_empty()).then_some(commented);
    out.push_str("<div class=\"cmt-body\">");
    out.push_str(&comment_markdown::render(&shown(&draft.body), lines));
    out.push_str("</div><div class=\"thread-actions\">");
    out.push_str("<details class=\"edit\"><summary class=\"button\">Edit</summary>");
    forms.open(out, "drafts", "cmt-form draft-form");
    let _ = write!(
        out,
        "<input type=\"hidden\" name=\"id\" value=\"{id}\"><input type=\"hidden\" name=\"action\" value=\"save\">\
         <label class=\"vh\" for=\"draft-body-{id}\">Draft comment</label>\
         <textarea id=\"draft-body-{id}\" name=\"body\" rows=\"4\" required maxlength=\"{max}\">",
        max = drafts::MAX_BODY_CHARS
    );
    escape_into(out, &draft.body);
    out.push_str(
        "</textarea><p class=\"cmt-buttons\"><button class=\"button primary\" type=\"submit\">Save draft</button></p>\
         <p class=\"cmt-status\" role=\"status\" aria-live=\"polite\"></p></form></details>",
    );
    forms.open(out, "drafts", "draft-delete");
    let _ = writeln!(
        out,
        "<input type=\"hidden\" name=\"id\" value=\"{id}\"><input type=\"hidden\" name=\"action\" value=\"delete\">\
         <button class=\"button\" type=\"submit\">Delete<span class=\"vh\"> draft on {}</span></button></form></div></div>",
        escape(&place(draft))
    );
}

/// The comment box's fields and buttons, shared by the plain per-diff form and the script's box.
fn box_fields(out: &mut String, id: &str, read_only: bool) {
    let _ = write!(
        out,
        "<div class=\"cmt-tabs\" role=\"tablist\" hidden>\
         <button type=\"button\" role=\"tab\" aria-selected=\"true\" class=\"cmt-tab\" data-tab=\"write\">Write</button>\
         <button type=\"button\" role=\"tab\" aria-selected=\"false\" class=\"cmt-tab\" data-tab=\"preview\">Preview</button></div>\
         <label for=\"{id}\">Comment <span class=\"muted\">(Markdown; a <code>```suggestion</code> block proposes new lines)</span></label>\
         <textarea id=\"{id}\" name=\"body\" rows=\"5\" required maxlength=\"{max}\"></textarea>\
         <div class=\"cmt-preview md\" hidden></div>\
         <p class=\"cmt-buttons\"><button class=\"button primary\" type=\"submit\" name=\"mode\" value=\"draft\">Start a review</button>{single}</p>\
         <p class=\"cmt-status\" role=\"status\" aria-live=\"polite\"></p>",
        max = drafts::MAX_BODY_CHARS,
        single = if read_only {
            ""
        } else {
            " <button class=\"button\" type=\"submit\" name=\"mode\" value=\"single\">Add single comment</button>"
        }
    );
}

/// Below a diff: a plain form to comment on any of its lines (the script opens the same form
/// under the line clicked instead).
pub fn file_form(out: &mut String, path: &str, forms: &Forms, serial: usize) {
    let id = format!("cmt-{serial}-{}", short_hash(path));
    out.push_str("<details class=\"cmt-file\"><summary>Comment on a line of this file</summary>");
    forms.open(out, "comments", "cmt-form cmt-new");
    let _ = write!(
        out,
        "<input type=\"hidden\" name=\"path\" value=\"{}\"><input type=\"hidden\" name=\"head\" value=\"{}\">\
         <p class=\"cmt-where\"><label>Line <input type=\"number\" name=\"line\" min=\"1\" required inputmode=\"numeric\"></label> \
         <label>Side <select name=\"side\"><option value=\"RIGHT\">new (+ and unchanged)</option><option value=\"LEFT\">old (−)</option></select></label> \
         <label>From line <span class=\"muted\">(a range, optional)</span> <input type=\"number\" name=\"start_line\" min=\"1\" inputmode=\"numeric\"></label></p>",
        escape(path),
        forms.head
    );
    box_fields(out, &id, forms.read_only);
    out.push_str("</form></details>\n");
}

/// A short stable tag of a path for element ids (ids must be unique; paths make poor ids).
fn short_hash(path: &str) -> String {
    let digest = crate::security::sha256::sha256(&[path.as_bytes()]);
    crate::security::sha256::hex(&digest)
        .chars()
        .take(10)
        .collect()
}

/// The "Finish review" panel: how many drafts, drafts whose line left the diff (with their text),
/// the summary and the verdict. `patch_of` gives a changed file's patch at the head.
pub fn finish_panel(
    out: &mut String,
    discussion: &Discussion<'_>,
    patch_of: &dyn Fn(&str) -> Option<String>,
) {
    let count = discussion.drafts.len();
    let _ = write!(
        out,
        "<details class=\"finish\" id=\"finish-review\"><summary class=\"button primary\">Finish review \
         <span class=\"draft-count\" data-count=\"{count}\">{}</span></summary><div class=\"finish-body\">",
        draft_count(count)
    );
    let gone: Vec<&Draft> = discussion
        .drafts
        .iter()
        .filter(|d| !discussion.is_on(d, patch_of(&d.anchor.path).as_deref()))
        .collect();
    if !gone.is_empty() {
        let _ = write!(
            out,
            "<div class=\"gone-drafts\"><p class=\"notice warn\" role=\"note\">{} of your draft comments {} on lines no longer in the diff. They keep their text; copy and delete them before sending.</p>",
            gone.len(),
            if gone.len() == 1 { "is" } else { "are" }
        );
        for draft in gone {
            out.push_str("<p class=\"path\"><code>");
            escape_into(out, &draft.anchor.path);
            out.push_str("</code></p>");
            draft_html(out, draft, true, &[], &discussion.forms);
        }
        out.push_str("</div>");
    }
    if discussion.forms.read_only {
        // Nothing here sends to GitHub: say why, and how to get write access.
        out.push_str("<p class=\"notice\" role=\"note\">");
        escape_into(out, crate::web::review_write::READ_ONLY);
        out.push_str("</p></div></details>\n");
        return;
    }
    discussion.forms.open(out, "review", "cmt-form finish-form");
    let _ = writeln!(
        out,
        "<label for=\"review-summary\">Summary <span class=\"muted\">(Markdown, optional for Comment and Approve)</span></label>\
         <textarea id=\"review-summary\" name=\"body\" rows=\"4\" maxlength=\"{max}\"></textarea>\
         <fieldset class=\"verdict\"><legend>Verdict</legend>\
         <label><input type=\"radio\" name=\"event\" value=\"comment\" checked> Comment <span class=\"muted\">(feedback without a verdict)</span></label>\
         <label><input type=\"radio\" name=\"event\" value=\"approve\"> Approve</label>\
         <label><input type=\"radio\" name=\"event\" value=\"request_changes\"> Request changes</label></fieldset>\
         <p class=\"receipt-option\"><label><input type=\"checkbox\" name=\"receipt\" value=\"1\" checked> Add what I read to the summary <span class=\"muted\">(files and sections reviewed here, with the review link)</span></label></p>\
         <p class=\"cmt-buttons\"><button class=\"button primary\" type=\"submit\">Submit review</button></p>\
         <p class=\"cmt-status\" role=\"status\" aria-live=\"polite\"></p></form></div></details>",
        max = drafts::MAX_BODY_CHARS
    );
}

/// "No draft comments", "1 draft comment", "N draft comments".
pub fn draft_count(count: usize) -> String {
    match count {
        0 => "· no draft comments".into(),
        1 => "· 1 draft comment".into(),
        n => format!("· {n} draft comments"),
    }
}

/// The script's comment box, cloned under the line a reviewer comments on; a `<template>`, so
/// without the script it is never shown.
pub fn box_template(out: &mut String, read_only: bool) {
    out.push_str("<template id=\"cmt-box\"><tr class=\"cmt-row cmt-box-row\"><td colspan=\"3\"><div class=\"cmt-box\">\
        <p class=\"cmt-where\"></p><form method=\"post\" class=\"cmt-form cmt-new\">\
        <input type=\"hidden\" name=\"csrf\"><input type=\"hidden\" name=\"path\"><input type=\"hidden\" name=\"head\">\
        <input type=\"hidden\" name=\"line\"><input type=\"hidden\" name=\"side\"><input type=\"hidden\" name=\"start_line\"><input type=\"hidden\" name=\"start_side\">");
    box_fields(out, "cmt-box-body", read_only);
    out.push_str("<p class=\"cmt-buttons\"><button type=\"button\" class=\"button cmt-cancel\">Cancel</button></p></form></div></td></tr></template>\n");
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests {
    use super::*;
    use crate::github::reviews::{Anchor, Side};

    fn draft(line: u32, body: &str) -> Draft {
        Draft {
            id: 7,
            anchor: Anchor {
                path: "a.rs".into(),
                line,
                side: Side::Right,
                start_line: None,
                start_side: None,
            },
            head_sha: "abc".into(),
            lines: Vec::new(),
            body: body.into(),
            updated_at: "2026-12-04T10:00:00Z".into(),
        }
    }

    const PATCH: &str = "@@ -1,2 +1,2 @@\n a\n-b\n+c";

    #[test]
    fn a_draft_shows_its_text_and_forms_and_says_when_its_line_left() {
        let forms = Forms::new("/r/o/r/pull/1", "tok\"en", "abc");
        let mut out = String::new();
        draft_html(&mut out, &draft(2, "<b>hi</b>"), false, &[], &forms);
        assert!(out.contains("&lt;b&gt;hi&lt;/b&gt;"), "{out}");
        assert!(out.contains("action=\"/r/o/r/pull/1/drafts\""), "{out}");
        assert!(out.contains("value=\"tok&quot;en\""), "{out}");
        assert!(!out.contains("no longer in the diff"), "{out}");
        let mut gone = String::new();
        draft_html(&mut gone, &draft(9, "kept"), true, &[], &forms);
        assert!(gone.contains("no longer in the diff"), "{gone}");
        assert!(gone.contains(">kept</textarea>"), "{gone}");
    }

    fn github_comment(body: &str) -> ReviewComment {
        let value = serde_json::json!({
            "id": 1,
            "path": "a.rs",
            "line": 2,
            "body": body,
            "html_url": "https://github.com/o/r/pull/1#discussion_r1",
            "created_at": "2026-12-04T10:00:00Z",
        });
        crate::json::read(&value).unwrap_or_else(|error| panic!("{error}"))
    }

    /// Issue 36 W-C: one 65,536-character comment of nested quotes (or lists) added 65,535
    /// elements and 1.8 MB to the page; now under 200 and under 150 KB, and a comment too long
    /// to show whole ends with a link to the rest on GitHub.
    #[test]
    fn issue_36_a_hostile_comment_adds_little_to_the_page() {
        for body in [
            "> ".repeat(32_768),
            "+ ".repeat(32_768),
            "\"".repeat(65_536),
        ] {
            let mut out = String::new();
            comment_html(&mut out, &github_comment(&body), &[]);
            assert!(out.len() < 150_000, "{} bytes", out.len());
            assert!(out.matches("<blockquote").count() < 200);
            assert!(out.matches("<ul").count() < 200);
        }
        let mut out = String::new();
        comment_html(&mut out, &github_comment(&"\"".repeat(65_536)), &[]);
        assert!(
            out.contains("<a href=\"https://github.com/o/r/pull/1#discussion_r1\" rel=\"noopener noreferrer nofollow\">Read the rest on GitHub</a>"),
            "{}",
            &out[out.len().saturating_sub(400)..]
        );
    }

    #[test]
    fn the_panel_counts_drafts() {
        let drafts = [draft(2, "x"), draft(9, "y")];
        let discussion = Discussion {
            forms: Forms::new("/r/o/r/pull/1", "t", "abc"),
            drafts: &drafts,
            threads: &[],
        };
        let mut out = String::new();
        finish_panel(&mut out, &discussion, &|_| Some(PATCH.to_string()));
        assert!(out.contains("· 2 draft comments"), "{out}");
        assert!(
            out.contains("1 of your draft comments is on lines no longer in the diff"),
            "{out}"
        );
        assert!(out.contains("value=\"request_changes\""), "{out}");
        assert_eq!(draft_count(1), "· 1 draft comment");
    }

    /// Issue 36: comment bodies are shown without bidirectional controls.
    #[test]
    fn comments_lose_bidi_controls() {
        let html = sent_html(
            "octo",
            "Looks good \u{202E}txt.exe\u{202C} \u{2066}x\u{2069}",
            "",
        );
        assert!(html.contains("Looks good txt.exe x"), "{html}");
        assert!(
            !html.contains('\u{202E}') && !html.contains('\u{2066}'),
            "{html}"
        );
    }

    /// Issue 36: a read-only sign-in is offered no form that sends to GitHub (single comment,
    /// reply, resolve, the review), only drafts, and is told why and how to get write access.
    #[test]
    fn a_read_only_sign_in_gets_no_form_that_sends_to_github() {
        let drafts = [draft(2, "x")];
        let thread = Thread {
            id: "PRRT_1".into(),
            resolved: false,
            can_resolve: true,
            can_unresolve: true,
            can_reply: true,
            first_comment: 5,
        };
        let render = |may_write: bool| {
            let forms = Forms::new("/r/o/r/pull/1", "t", "abc").may_write(may_write);
            let discussion = Discussion {
                forms: forms.clone(),
                drafts: &drafts,
                threads: &[],
            };
            let mut out = String::new();
            finish_panel(&mut out, &discussion, &|_| Some(PATCH.to_string()));
            thread_controls(&mut out, 5, Some(&thread), &forms);
            file_form(&mut out, "a.rs", &forms, 1);
            box_template(&mut out, forms.is_read_only());
            out
        };
        let writable = render(true);
        for form in ["/review\"", "/replies\"", "/threads\"", "value=\"single\""] {
            assert!(writable.contains(form), "{form}: {writable}");
        }
        let read_only = render(false);
        for form in ["/review\"", "/replies\"", "/threads\"", "value=\"single\""] {
            assert!(!read_only.contains(form), "{form}: {read_only}");
        }
        assert!(read_only.contains("value=\"draft\""), "{read_only}");
        assert!(read_only.contains("/comments\""), "{read_only}");
        assert!(read_only.contains("sign in again"), "{read_only}");
    }
}
