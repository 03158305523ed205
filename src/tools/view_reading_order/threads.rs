//! The open review threads `view_reading_order` gives beside each section of the order it shows
//! (issue #38): how many, and each one's first line, author and GitHub link, so the MCP Apps view
//! says "2 open threads" where the reviewer left them.
//!
//! Why here, and nothing decided: which change and section a thread is on and which threads are
//! open are the feedback rules' (`review::feedback`: `feedback` places, `open_by_section` groups),
//! read from the same one GraphQL answer `get_review_feedback` reads
//! (`github::review_threads`). This module only shapes the view's part. Threads are
//! placed in the version of the order the view shows (an older one when asked), at the current head.
//!
//! When GitHub's read failed (`None`), the answer says so (`read: false`) and the view shows the
//! order without counts; the order never fails for its threads.
//!
//! What not: no comment bodies past their first line (the view links to GitHub for the rest), no
//! verdicts, no resolved threads.

use serde::Serialize;
use serde_json::Value;

use crate::github::review_threads::Review;
use crate::review::feedback::{feedback, open_by_section, Inputs, Thread};
use crate::review::model::snapshot::files_named_by;
use crate::review::model::snapshot::Snapshot;
use crate::review::order::Order;

/// A thread's first line is cut to this many characters: the view shows one line per thread.
const FIRST_LINE_CHARS: usize = 120;

/// The first line of a thread whose first comment is only a suggestion block.
const SUGGESTION_ONLY: &str = "Suggested change";

/// The view's part: open threads per section of the order shown.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewThreads {
    /// GitHub's threads were read; when false the rest is empty and the view shows no counts.
    read: bool,
    /// One per section of the order shown, in its order.
    sections: Vec<SectionThreads>,
    /// Open threads on no section of the order (a file it does not place, or one gone from the
    /// diff).
    elsewhere: usize,
    /// GitHub had more threads than one request reads (`get_review_feedback`'s limits).
    truncated: bool,
}

#[derive(Debug, Serialize)]
struct SectionThreads {
    open: usize,
    threads: Vec<ThreadLine>,
}

/// One open thread, as the view lists it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ThreadLine {
    /// The file's path at head.
    path: String,
    /// Its line at head, or as written when GitHub could not carry it to the head.
    line: Option<u32>,
    /// The thread on GitHub.
    url: String,
    author: String,
    /// The first comment's first line of text (untrusted).
    first_line: String,
    changed_since: bool,
}

/// The view's part from what was read: `review` is `None` when GitHub's read failed; `order` is
/// the stored order shown (`save_reading_order`'s shape).
pub fn review_threads(
    review: Option<&Review>,
    order: &Value,
    snapshot: &Snapshot,
    head_sha: &str,
) -> ReviewThreads {
    let Some(review) = review else {
        return ReviewThreads {
            read: false,
            sections: Vec::new(),
            elsewhere: 0,
            truncated: false,
        };
    };
    let count = order
        .get("sections")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let mut answer = ReviewThreads {
        read: true,
        sections: (0..count)
            .map(|_| SectionThreads {
                open: 0,
                threads: Vec::new(),
            })
            .collect(),
        elsewhere: 0,
        truncated: review.truncated,
    };
    if review.threads.is_empty() {
        return answer;
    }
    // A stored order always reads (it was validated when saved); one that doesn't places nothing.
    let parsed: Option<Order> = crate::json::read(order).ok();
    let files = files_named_by(&snapshot.files, &review.threads);
    let placed = feedback(&Inputs {
        head_sha,
        author: None,
        files: &files,
        order: parsed.as_ref(),
        threads: &review.threads,
        reviews: &[],
        include_resolved: false,
        truncated: review.truncated,
    });
    let grouped = open_by_section(&placed.threads, count);
    for (slot, threads) in answer.sections.iter_mut().zip(&grouped.sections) {
        slot.open = threads.len();
        slot.threads = threads.iter().map(|thread| thread_line(thread)).collect();
    }
    answer.elsewhere = grouped.elsewhere.len();
    answer
}

fn thread_line(thread: &Thread) -> ThreadLine {
    let root = thread.comments.first();
    ThreadLine {
        path: thread
            .path_at_head
            .clone()
            .unwrap_or_else(|| thread.path.clone()),
        line: thread.line.or(thread.original_line),
        url: thread.url.clone(),
        author: root.map_or_else(String::new, |c| c.author.clone()),
        first_line: first_line(root.map_or("", |c| c.body.as_str()), thread),
        changed_since: thread.changed_since,
    }
}

/// The first line of text of `body` outside fenced blocks, bidi and other control characters
/// out, cut to [`FIRST_LINE_CHARS`]; [`SUGGESTION_ONLY`] for a body that is only a suggestion.
fn first_line(body: &str, thread: &Thread) -> String {
    let mut fenced = false;
    for line in body.lines() {
        let line = line.trim();
        if line.starts_with("```") || line.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced || line.is_empty() {
            continue;
        }
        let clean: String = crate::unicode::without_bidi_controls(line)
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        return crate::review::layout::fit(clean.trim(), FIRST_LINE_CHARS);
    }
    if thread.suggestion.is_some() {
        SUGGESTION_ONLY.into()
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests;
