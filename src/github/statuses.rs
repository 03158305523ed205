//! The reading order on the pull request as a GitHub commit status (issue #47, part 4): the
//! request that sets it (`POST /repos/{owner}/{repo}/statuses/{sha}`, GitHub's REST docs
//! "Create a commit status"), its one-line description, and what the save's answer says when it
//! was not set.
//!
//! Why a status: it is where a reviewer who opens the pull request on GitHub looks, and it
//! carries a link (`target_url`, the review page). Its state is always `success`: the order is
//! information, never a gate a branch protection rule could wait on. The context is
//! [`CONTEXT`], so a newer status replaces the older one on GitHub's list of checks.
//!
//! What not: no sending (the application layer sends it once with the acting person's client,
//! `github::client::GitHub::write`, which never retries a write) and no counting of what was
//! read (the caller passes [`ReadCounts`]).

use serde::Serialize;

use super::api::RepoPath;
use super::reviews::Refusal;

/// The status's context on GitHub: one per repository's commit, replaced by each newer one.
pub const CONTEXT: &str = "LogiKFlow";

/// GitHub refuses a description over this many characters (its REST docs say 140).
pub const MAX_DESCRIPTION_CHARS: usize = 140;

/// The path that creates a status on `sha`.
pub fn path(repo: &RepoPath, sha: &str) -> String {
    format!("{}/statuses/{sha}", repo.as_str())
}

/// What the reviewers have read at the head, in plain numbers: `reviewers` with any tick,
/// `files_read` of `files_total` files every change of which at least one of them ticked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadCounts {
    pub reviewers: usize,
    pub files_read: usize,
    pub files_total: usize,
}

/// The status's description: `Reading order v3 · 4 sections · 2 reviewers, 14 of 20 files read`,
/// or without the reviewers' part before anyone read; cut at [`MAX_DESCRIPTION_CHARS`]
/// characters (never inside one), with an ellipsis when cut.
pub fn description(version: u64, sections: usize, read: Option<ReadCounts>) -> String {
    let mut text = format!(
        "Reading order v{version} · {}",
        plural(sections, "section", "sections")
    );
    match read {
        Some(read) if read.reviewers > 0 => text.push_str(&format!(
            " · {}, {} of {} read",
            plural(read.reviewers, "reviewer", "reviewers"),
            read.files_read,
            plural(read.files_total, "file", "files"),
        )),
        Some(read) => text.push_str(&format!(
            " · {} to read",
            plural(read.files_total, "file", "files")
        )),
        None => {}
    }
    cut(text)
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `text` within [`MAX_DESCRIPTION_CHARS`] characters, its last one `…` when cut.
fn cut(text: String) -> String {
    if text.chars().count() <= MAX_DESCRIPTION_CHARS {
        return text;
    }
    let mut out: String = text.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
    out.push('…');
    out
}

/// `get_pull_request`'s `nextStep` when commits were pushed after the order was saved: the
/// status stays on the commit it was set on until something sets it again.
pub const AFTER_PUSH: &str = "Commits were pushed after the order was saved, so its LogiKFlow status on GitHub is still on the earlier head: it follows when the order is saved again (check it against the new commits first) or a reviewer sends a review from the review page.";

/// The request's body, as GitHub's "Create a commit status" takes it.
#[derive(Debug, Serialize)]
pub struct NewStatus<'a> {
    pub state: &'static str,
    pub target_url: &'a str,
    pub description: &'a str,
    pub context: &'static str,
}

impl<'a> NewStatus<'a> {
    /// A `success` status of [`CONTEXT`] linking to `target_url`.
    pub fn new(target_url: &'a str, description: &'a str) -> NewStatus<'a> {
        NewStatus {
            state: "success",
            target_url,
            description,
            context: CONTEXT,
        }
    }
}

/// Why no status was set: the one sentence the save's answer gives (`commitStatus.reason`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotSet {
    /// The repository's `.github/logikflow.yml` says `status: off`.
    Off,
    /// The sign-in or grant is read-only: it sends nothing to GitHub.
    ReadOnly,
    /// GitHub refused the write, or did not answer.
    Refused(Refusal),
}

impl NotSet {
    /// The sentence, naming what to do when there is something to do.
    pub fn reason(&self) -> String {
        match self {
            NotSet::Off => "The repository's .github/logikflow.yml says status: off, so LogiKFlow sets no commit status on its pull requests.".into(),
            NotSet::ReadOnly => "This connection has read access only, and a read-only connection sends nothing to GitHub, so no commit status was set.".into(),
            NotSet::Refused(refusal) => refused(refusal),
        }
    }
}

/// A refusal of the status write as a sentence: the order is saved either way.
fn refused(refusal: &Refusal) -> String {
    let detail = detail(refusal);
    let rate = refusal.status == 429
        || detail.to_ascii_lowercase().contains("rate limit")
        || refusal.message.starts_with("rate limit");
    if rate {
        return "GitHub's rate limit for your account is used up, so no commit status was set; it is set with the next save or review sent.".into();
    }
    match refusal.status {
        403 if detail.to_ascii_lowercase().contains("not accessible by integration") => "GitHub refused the commit status: the LogiKFlow GitHub App is installed without Commit statuses: Read and write; an owner of the repository can grant it in the App's installation settings.".into(),
        401 => "GitHub no longer accepts your sign-in, so no commit status was set; sign in again and save again.".into(),
        403 => format!("GitHub refused the commit status: you may not set statuses on this repository ({detail})."),
        404 => "GitHub refused the commit status with 404: this token can't write statuses to the repository, or its head commit is gone.".into(),
        422 => format!("GitHub refused the commit status ({detail}); the head may have moved since the read: save again to set it on the new head."),
        502 | 504 => "GitHub did not answer the commit status write, so it may not be set; the next save or review sent sets it again.".into(),
        status if status >= 500 => format!("GitHub could not set the commit status just now (HTTP {status}); the next save or review sent sets it again."),
        status => format!("GitHub refused the commit status (HTTP {status}: {detail})."),
    }
}

/// GitHub's words: its `errors[]`, else its `message`, at most 200 characters.
fn detail(refusal: &Refusal) -> String {
    let joined = if refusal.errors.is_empty() {
        refusal.message.clone()
    } else {
        refusal.errors.join("; ")
    };
    let joined = joined.trim().trim_end_matches('.');
    if joined.is_empty() {
        "no reason given".into()
    } else {
        joined.chars().take(200).collect()
    }
}

#[cfg(test)]
mod tests;
