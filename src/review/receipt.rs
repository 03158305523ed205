//! A review that says what was read (issue #47): the receipt a review sent from the review page
//! carries in its summary, and the record of it the pull request's object keeps.
//!
//! Why: "LGTM" on a 3,000-line pull request might rest on two files. The reviewer's own ticks say
//! what they read, so the review can say it too, in the reviewer's own words on GitHub: a short
//! Markdown block inside a marker comment ([`MARKER`]), which the reviewer can turn off. The
//! object records the same facts under GitHub's id of the review, and `get_review_feedback`
//! reports them on that verdict from the record. It never parses review bodies: anyone can type
//! receipt-like text into a review on GitHub.
//! What not: coverage itself (`review::coverage`), storage, GitHub requests.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::review::coverage::Coverage;

/// The marker a receipt starts with: versioned, so a later format can be told apart.
pub const MARKER: &str = "<!-- logikflow:read v1 -->";

/// Files the receipt names among those not read; the rest are counted.
pub const MAX_NAMED_UNREAD: usize = 10;

/// Files the record keeps by name among those not read (the agent gets them), bounded so a
/// record stays small on a 3,000-file pull request.
pub const MAX_RECORDED_UNREAD: usize = 50;

/// What a reviewer had read when they sent a review from the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Receipt {
    pub login: String,
    /// The order version the page showed (0 when none was saved).
    pub order_version: u64,
    pub head_sha: String,
    /// Sections every change of which they reviewed, of the sections with something to review.
    pub sections_read: usize,
    pub sections: usize,
    pub files_read: usize,
    pub files: usize,
    /// Files not read in full, in reading order, up to [`MAX_RECORDED_UNREAD`].
    pub unread_files: Vec<String>,
    /// How many more files were not read than `unread_files` names.
    pub more_unread: usize,
    pub sent_at: String,
}

/// The receipt of `login` from `coverage` of the order shown (version `order_version`) at
/// `head_sha`. A reviewer with no tick has read nothing: every file is unread.
pub fn receipt(
    coverage: &Coverage,
    login: &str,
    order_version: u64,
    head_sha: &str,
    sent_at: &str,
) -> Receipt {
    let me = coverage.reviewer(login);
    let has = |readers: &crate::review::coverage::Readers| me.is_some_and(|at| readers.has(at));
    let sections: Vec<bool> = coverage
        .entries
        .iter()
        .filter(|entries| entries.iter().any(|entry| entry.items > 0))
        .map(|entries| {
            entries
                .iter()
                .filter(|entry| entry.items > 0)
                .all(|entry| has(&entry.read))
        })
        .collect();
    let mut unread: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let entries = coverage
        .entries
        .iter()
        .flatten()
        .chain(&coverage.not_in_order);
    for entry in entries {
        let path = entry.path.as_str();
        if entry.items > 0 && !has(&entry.read) && seen.insert(path) {
            unread.push(path);
        }
    }
    let files_read = me
        .and_then(|at| coverage.reviewers.get(at))
        .map_or(0, |reviewer| reviewer.files_read);
    let more_unread = unread.len().saturating_sub(MAX_RECORDED_UNREAD);
    Receipt {
        login: login.to_string(),
        order_version,
        head_sha: head_sha.to_string(),
        sections_read: sections.iter().filter(|read| **read).count(),
        sections: sections.len(),
        files_read,
        files: coverage.totals.files,
        unread_files: unread
            .into_iter()
            .take(MAX_RECORDED_UNREAD)
            .map(str::to_string)
            .collect(),
        more_unread,
        sent_at: sent_at.to_string(),
    }
}

/// The receipt as the review's summary carries it, after the reviewer's own text: the marker,
/// what was read of the order at which head, up to [`MAX_NAMED_UNREAD`] files not read, and the
/// review link.
pub fn markdown(receipt: &Receipt, review_url: &str) -> String {
    let mut out = String::new();
    out.push_str(MARKER);
    out.push('\n');
    let short: String = receipt.head_sha.chars().take(7).collect();
    let order = if receipt.order_version == 0 {
        "the pull request".to_string()
    } else {
        format!("reading order v{}", receipt.order_version)
    };
    let _ = write!(
        out,
        "**Read with LogiKFlow**: {} of {} files",
        receipt.files_read, receipt.files
    );
    if receipt.sections > 0 {
        let _ = write!(
            out,
            " and {} of {} sections",
            receipt.sections_read, receipt.sections
        );
    }
    let _ = writeln!(out, " of {order}, at {}.", code(&short));
    let unread = receipt.unread_files.len() + receipt.more_unread;
    if unread > 0 {
        let named: Vec<String> = receipt
            .unread_files
            .iter()
            .take(MAX_NAMED_UNREAD)
            .map(|path| code(path))
            .collect();
        let rest = unread - named.len();
        let _ = write!(out, "\nNot read: {}", named.join(", "));
        if rest > 0 {
            let _ = write!(out, " and {rest} more");
        }
        out.push_str(".\n");
    }
    let _ = writeln!(out, "\n[The review in reading order]({})", link(review_url));
    out
}

/// A Markdown code span around `text`, with a fence longer than any run of backticks in it, and
/// bidi controls dropped (a path is anyone's text).
fn code(text: &str) -> String {
    let text = crate::unicode::without_bidi_controls(text);
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// The review link inside `(…)`: spaces and parentheses encoded so it stays one link.
fn link(url: &str) -> String {
    url.replace(' ', "%20")
        .replace('(', "%28")
        .replace(')', "%29")
}

/// The summary to send: the reviewer's own text, then the receipt, unless together they would
/// pass GitHub's limit on a review's body (`limit` characters); then the summary alone.
pub fn with_receipt(summary: &str, receipt_markdown: &str, limit: usize) -> Option<String> {
    let joined = if summary.trim().is_empty() {
        receipt_markdown.to_string()
    } else {
        format!("{}\n\n{receipt_markdown}", summary.trim_end())
    };
    (joined.chars().count() <= limit).then_some(joined)
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests;
