//! The review read back for the author's agent (`get_review_feedback`, issue #38): GitHub's review
//! threads and reviews, placed on the pull request as it is at its current head and in its latest
//! saved reading order.
//!
//! Why: an agent answering a review needs more than a flat list of comments by file and line.
//! LogiKFlow knows which change (content-keyed hunk id, the ids `get_pull_request` gives) each
//! thread is on, which section of the order shows that change, and whether a later push changed
//! the lines under the thread. [`feedback`] decides all of it from plain values, so the rules are
//! tested natively and the adapter only reads GitHub and the store.
//!
//! The rules, each with its test in `tests.rs`:
//! - **Drafts are never shown.** A pending comment (a review not yet submitted) belongs to its
//!   writer alone; GitHub shows it to them only, and this tool shows it to nobody: a thread whose
//!   first comment is pending is left out, as are pending replies and pending reviews.
//! - **Where a thread is** ([`anchor`]): the file at head with the thread's path, or, when that
//!   path was renamed after the comment, the file whose previous path it is. Its change is the hunk
//!   holding the thread's line on its side (`RIGHT`: the head's numbering, `LEFT`: the base's, as
//!   for a comment on a removed line); an outdated thread has no current line, so its original line
//!   stands in, when a hunk of the file still holds it.
//! - **The section** is the latest saved order's first section with an entry for the file naming
//!   that change in `hunks`, else its entry without `hunks` (which takes every change not named
//!   elsewhere); none when no order is saved.
//! - **Changed since** ([`anchor::changed_since`]): false for a thread written at the current
//!   head. Otherwise true when GitHub marks it outdated (it could not carry the line to the head),
//!   when its file is gone from the diff or was renamed, when its line is no longer in the diff,
//!   or when the diff rows GitHub kept with its first comment (`diff_hunk`: the hunk from its `@@`
//!   line down to the commented line, as it was) differ from the head's rows ending at the same
//!   line, compared by marker and text so lines shifted by other hunks don't count. Rows below the
//!   commented line are not compared: GitHub keeps none.
//! - **Verdicts**: per reviewer (not the pull request's author, whose replies GitHub records as
//!   reviews too), their latest approval, change request or dismissed review, else their latest
//!   comment-only review.
//!
//! What not: no GitHub requests or JSON parsing (`github::review_threads`, which also holds the input types), no storage, no writes: the
//! agent replies and resolves on GitHub.

mod anchor;
pub mod next_step;
mod suggestion;

use serde::Serialize;

use crate::review::order::Order;

pub use crate::github::review_threads::{
    CommentInput, DiffSide, ReviewInput, ReviewState, ThreadInput,
};
pub use anchor::rows_changed;
pub use suggestion::{parse_suggestion, SuggestedLines};

/// A changed file at the current head, as the snapshot holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileAtHead<'a> {
    pub path: &'a str,
    pub previous_path: Option<&'a str>,
    /// GitHub's patch; `None` for a file GitHub gives no diff for.
    pub patch: Option<&'a str>,
    /// The change id of each hunk of `patch`, in patch order.
    pub change_ids: Vec<&'a str>,
}

/// Everything the answer is decided from.
pub struct Inputs<'a> {
    pub head_sha: &'a str,
    /// The pull request's author: their own reviews (replies) are no verdicts.
    pub author: Option<&'a str>,
    pub files: &'a [FileAtHead<'a>],
    /// The latest saved order, when one is.
    pub order: Option<&'a Order>,
    pub threads: &'a [ThreadInput],
    pub reviews: &'a [ReviewInput],
    pub include_resolved: bool,
    /// GitHub had more threads, comments or reviews than were read (`github::review_threads` says
    /// which limits).
    pub truncated: bool,
}

/// The answer: what `get_review_feedback` returns besides the pull request's identity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Feedback {
    pub verdicts: Vec<Verdict>,
    pub threads: Vec<Thread>,
    pub counts: Counts,
    pub truncated: bool,
    pub next_step: String,
}

/// A reviewer's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    pub reviewer: String,
    pub state: &'static str,
    /// The review's summary, as Markdown (untrusted text).
    pub summary: String,
    pub commit_id: Option<String>,
    pub at_current_head: bool,
    pub submitted_at: Option<String>,
    pub url: String,
    /// What the reviewer had read when they sent this review from the review page, from the pull
    /// request object's own record (issue #47); `None` for a review sent elsewhere, whatever its
    /// text says.
    pub read: Option<crate::review::receipt::Receipt>,
    /// GitHub's id of the review, which the record is kept under.
    #[serde(skip)]
    pub id: Option<u64>,
}

/// A review thread placed on the pull request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Thread {
    pub path: String,
    /// The file's path at head when it was renamed after the thread was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_at_head: Option<String>,
    pub line: Option<u32>,
    pub start_line: Option<u32>,
    pub original_line: Option<u32>,
    pub side: DiffSide,
    pub url: String,
    pub resolved: bool,
    pub outdated: bool,
    pub changed_since: bool,
    pub change_id: Option<String>,
    pub section: Option<SectionRef>,
    pub suggestion: Option<Suggestion>,
    pub comments: Vec<Comment>,
}

/// A section of the saved order: its place (1-based) and title.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SectionRef {
    pub index: usize,
    pub title: Option<String>,
}

/// A comment of a thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comment {
    pub author: String,
    /// Markdown, untrusted text.
    pub body: String,
    pub created_at: String,
    pub url: String,
}

/// A ```` ```suggestion ```` block as lines, with the lines of the file it replaces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Suggestion {
    pub author: String,
    /// The first and last line replaced, on the thread's side (at head, or as written when the
    /// thread is outdated).
    pub start_line: Option<u32>,
    pub end_line: Option<u32>,
    /// The replacement; empty to delete the lines.
    pub lines: Vec<String>,
}

/// How many threads are open and resolved, and how many open ones changed since.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub open: usize,
    pub resolved: usize,
    pub changed_since: usize,
}

/// Decides the answer (the module's doc says by which rules).
pub fn feedback(inputs: &Inputs<'_>) -> Feedback {
    let verdicts = verdicts(inputs);
    let mut placed: Vec<(SortKey, Thread)> = inputs
        .threads
        .iter()
        .filter_map(|thread| place(inputs, thread))
        .collect();
    let mut counts = Counts::default();
    for (_, thread) in &placed {
        if thread.resolved {
            counts.resolved += 1;
        } else {
            counts.open += 1;
            counts.changed_since += usize::from(thread.changed_since);
        }
    }
    placed.retain(|(_, thread)| inputs.include_resolved || !thread.resolved);
    crate::sorting::sort_by_key(&mut placed, &|(key, _)| *key);
    let threads: Vec<Thread> = placed.into_iter().map(|(_, thread)| thread).collect();
    let next_step = next_step::next_step(&next_step::Facts {
        verdicts: &verdicts,
        threads: &threads,
        counts,
        has_order: inputs.order.is_some(),
        truncated: inputs.truncated,
    });
    Feedback {
        verdicts,
        threads,
        counts,
        truncated: inputs.truncated,
        next_step,
    }
}

/// A decided answer's open threads by the section of the order they were placed in
/// (`sections[0]` is section 1), and those the order places in no section.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpenBySection<'a> {
    pub sections: Vec<Vec<&'a Thread>>,
    pub elsewhere: Vec<&'a Thread>,
}

/// Groups `threads` (a [`Feedback`]'s, in its order) for an order of `sections` sections; a
/// resolved thread is left out, so the review page's outline and the MCP Apps view count "open"
/// as this tool does.
pub fn open_by_section(threads: &[Thread], sections: usize) -> OpenBySection<'_> {
    let mut grouped = OpenBySection {
        sections: vec![Vec::new(); sections],
        elsewhere: Vec::new(),
    };
    for thread in threads.iter().filter(|thread| !thread.resolved) {
        let slot = thread
            .section
            .as_ref()
            .and_then(|section| grouped.sections.get_mut(section.index.wrapping_sub(1)));
        match slot {
            Some(slot) => slot.push(thread),
            None => grouped.elsewhere.push(thread),
        }
    }
    grouped
}

/// Threads in the order's order: section, then the file's place at head, then line.
type SortKey = (usize, usize, u32);

/// One thread placed, or `None` for a draft.
fn place(inputs: &Inputs<'_>, thread: &ThreadInput) -> Option<(SortKey, Thread)> {
    let root = thread.comments.first().filter(|c| !c.pending)?;
    let comments: Vec<&CommentInput> = thread.comments.iter().filter(|c| !c.pending).collect();
    let found = anchor::find_file(inputs.files, &thread.path);
    let change = found.and_then(|(_, file, _)| anchor::change_of(file, thread));
    let change_id = found
        .zip(change)
        .and_then(|((_, file, _), (hunk, _))| file.change_ids.get(hunk).map(|id| id.to_string()));
    let section = found.and_then(|(_, file, _)| {
        inputs
            .order
            .and_then(|order| section_of(order, file.path, change_id.as_deref()))
    });
    let changed_since = anchor::changed_since(inputs.head_sha, found, thread, root);
    let suggestion = comments.iter().rev().find_map(|comment| {
        let lines = parse_suggestion(&comment.body)?;
        let (start_line, end_line) = match thread.line {
            Some(line) => (thread.start_line.or(Some(line)), Some(line)),
            None => (
                thread.original_start_line.or(thread.original_line),
                thread.original_line,
            ),
        };
        Some(Suggestion {
            author: comment.author.clone(),
            start_line,
            end_line,
            lines: lines.0,
        })
    });
    let key = (
        section.as_ref().map_or(usize::MAX, |s| s.index),
        found.map_or(usize::MAX, |(index, _, _)| index),
        thread.line.or(thread.original_line).unwrap_or(0),
    );
    let placed = Thread {
        path: thread.path.clone(),
        path_at_head: found
            .filter(|(_, _, renamed)| *renamed)
            .map(|(_, file, _)| file.path.to_string()),
        line: thread.line,
        start_line: thread.start_line,
        original_line: thread.original_line,
        side: thread.side,
        url: root.url.clone(),
        resolved: thread.resolved,
        outdated: thread.outdated,
        changed_since,
        change_id,
        section,
        suggestion,
        comments: comments
            .into_iter()
            .map(|c| Comment {
                author: c.author.clone(),
                body: c.body.clone(),
                created_at: c.created_at.clone(),
                url: c.url.clone(),
            })
            .collect(),
    };
    Some((key, placed))
}

/// The order's section showing `change` of the file at `path` (or the file, when it has no
/// change ids).
fn section_of(order: &Order, path: &str, change: Option<&str>) -> Option<SectionRef> {
    let entries = || {
        order
            .sections
            .iter()
            .enumerate()
            .flat_map(|(index, section)| {
                section
                    .files
                    .iter()
                    .filter(|entry| entry.path == path)
                    .map(move |entry| (index, section, entry))
            })
    };
    let named = change.and_then(|id| {
        entries().find(|(_, _, entry)| {
            entry
                .hunks
                .as_ref()
                .is_some_and(|hunks| hunks.iter().any(|h| h == id))
        })
    });
    let (index, section, _) = named
        .or_else(|| entries().find(|(_, _, entry)| entry.hunks.is_none()))
        .or_else(|| entries().next())?;
    Some(SectionRef {
        index: index + 1,
        title: section.title.clone(),
    })
}

/// Each reviewer's verdict (the module's doc says which review counts), change requests first,
/// then in the order they were given.
fn verdicts(inputs: &Inputs<'_>) -> Vec<Verdict> {
    let mut latest: Vec<&ReviewInput> = Vec::new();
    for review in inputs.reviews {
        if review.state == ReviewState::Pending || Some(review.author.as_str()) == inputs.author {
            continue;
        }
        match latest.iter_mut().find(|r| r.author == review.author) {
            None => latest.push(review),
            Some(kept) => {
                if review.state.is_opinion() || !kept.state.is_opinion() {
                    *kept = review;
                }
            }
        }
    }
    let mut verdicts: Vec<Verdict> = latest
        .into_iter()
        .map(|review| Verdict {
            reviewer: review.author.clone(),
            state: review.state.as_str(),
            summary: review.body.clone(),
            at_current_head: review.commit.as_deref() == Some(inputs.head_sha),
            commit_id: review.commit.clone(),
            submitted_at: review.submitted_at.clone(),
            url: review.url.clone(),
            read: None,
            id: review.id,
        })
        .collect();
    crate::sorting::sort_by_key(&mut verdicts, &|v| {
        v.state != ReviewState::ChangesRequested.as_str()
    });
    verdicts
}

#[cfg(test)]
mod tests;
