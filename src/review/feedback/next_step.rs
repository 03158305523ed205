//! The `nextStep` sentence of `get_review_feedback`: what the agent does first (answer the changes
//! requested), then the open threads section by section in the order's order, and how to leave
//! the answers where the reviewer looks (the ordering guide's "Answering a review").
//!
//! What not: no decisions about threads or verdicts (the parent module's), no JSON.

use super::{Counts, Thread, Verdict};
use crate::review::feedback::ReviewState;

/// What the sentence is written from.
pub struct Facts<'a> {
    pub verdicts: &'a [Verdict],
    /// The threads shown, in the answer's order (section by section).
    pub threads: &'a [Thread],
    pub counts: Counts,
    pub has_order: bool,
    pub truncated: bool,
}

/// The `nextStep` text.
pub fn next_step(facts: &Facts<'_>) -> String {
    let asked: Vec<&str> = facts
        .verdicts
        .iter()
        .filter(|v| v.state == ReviewState::ChangesRequested.as_str())
        .map(|v| v.reviewer.as_str())
        .collect();
    let open = facts.counts.open;
    let mut text = String::new();
    if open == 0 && asked.is_empty() {
        text.push_str(if facts.verdicts.is_empty() {
            "No review yet: there is nothing to answer. Share the review link with the reviewers."
        } else {
            "Nothing to answer: no open threads and no changes requested."
        });
    } else {
        if !asked.is_empty() {
            text.push_str(&format!(
                "First answer the changes requested by {}: read the summary in verdicts. ",
                asked.join(", ")
            ));
        }
        if open > 0 {
            let then = if asked.is_empty() {
                "Answer"
            } else {
                "Then answer"
            };
            let threads = plural(open, "open thread", "open threads");
            if facts.has_order {
                text.push_str(&format!(
                    "{then} the {threads} section by section, in the order's order: {}. ",
                    by_section(facts.threads)
                ));
            } else {
                text.push_str(&format!("{then} the {threads}, file by file. "));
            }
            let changed = facts.counts.changed_since;
            if changed > 0 {
                text.push_str(&format!(
                    "{} changed since {} written (changedSince): check that the change answers {} and say so in a reply. ",
                    plural(changed, "thread's lines", "threads' lines"),
                    if changed == 1 { "it was" } else { "they were" },
                    if changed == 1 { "it" } else { "each" },
                ));
            }
        }
        text.push_str(
            "For each thread, change the code (a suggestion's lines are the reviewer's replacement \
             for the lines it names) or reply on GitHub, and resolve it only once it is answered. \
             Then push, call get_pull_request, and ",
        );
        text.push_str(if facts.has_order {
            "save the order again (save_reading_order with its baseVersion) "
        } else {
            "save a reading order (save_reading_order) "
        });
        text.push_str(
            "with a section or notes pointing at the changes that answer each thread, so the \
             reviewer finds the answers.",
        );
    }
    if facts.truncated {
        text.push_str(
            " GitHub has more threads, comments or reviews than LogiKFlow reads (truncated): read \
             the rest on the pull request's GitHub page.",
        );
    }
    text
}

/// The sentence `get_review_feedback`'s `nextStep` ends with when reviewers have ticked in
/// LogiKFlow but nobody has read some sections (issue #47): which, so the agent can say where the
/// review stands and point the reviewers there. `None` when every section has a reader, or when
/// nobody has ticked anything (then coverage tells nothing the verdicts don't).
pub fn for_coverage(report: &crate::review::coverage::Report) -> Option<String> {
    if report.reviewers.is_empty() {
        return None;
    }
    let unread = crate::review::coverage::unread_sections(report);
    if unread.is_empty() {
        return None;
    }
    let named: Vec<String> = unread
        .iter()
        .map(|(index, title)| match title {
            Some(title) => format!("section {index} {title:?}"),
            None => format!("section {index}"),
        })
        .collect();
    Some(format!(
        "Nobody has read {} yet (coverage): when you hand the review link back, point the \
         reviewers at {}.",
        named.join(", "),
        if unread.len() == 1 { "it" } else { "them" }
    ))
}

/// `get_pull_request`'s `nextStep` when the pull request has review comments (GitHub's
/// `review_comments` count, which its pull request read already gives); `None` without any.
/// Whether they are open is not known there: only GitHub's GraphQL threads say which are
/// resolved, one more GitHub request on every read, which `get_review_feedback` makes instead.
pub fn for_pull_request(review_comments: Option<u64>) -> Option<String> {
    let count = review_comments.filter(|&count| count > 0)?;
    Some(format!(
        "Reviewers left {} on this pull request: call get_review_feedback to read the verdicts \
         and open threads placed in the order, answer them, then save the order again so the \
         reviewer finds the answers.",
        plural(count as usize, "review comment", "review comments")
    ))
}

/// `section 1 "Title" (2), section 3 (1), not in the order (1)`: open threads per section.
fn by_section(threads: &[Thread]) -> String {
    let mut groups: Vec<(Option<usize>, Option<&str>, usize)> = Vec::new();
    for thread in threads.iter().filter(|t| !t.resolved) {
        let key = thread.section.as_ref().map(|s| s.index);
        match groups.last_mut() {
            Some(group) if group.0 == key => group.2 += 1,
            _ => groups.push((
                key,
                thread.section.as_ref().and_then(|s| s.title.as_deref()),
                1,
            )),
        }
    }
    groups
        .iter()
        .map(|(index, title, count)| match (index, title) {
            (Some(index), Some(title)) => format!("section {index} {title:?} ({count})"),
            (Some(index), None) => format!("section {index} ({count})"),
            (None, _) => format!("not in the order ({count})"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural(count: usize, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}
