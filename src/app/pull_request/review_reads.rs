//! What the review page reads from GitHub beside the pull request: its review comments
//! and, when it has any, their threads with what the viewer may do (issue 29). Shared by the page
//! and a diff loaded on demand, which the pull request's object runs (`store::pull_request`),
//! with the viewer's own token.
//!
//! Both are additions to the page: a failed read shows the page without them (and is logged).

use crate::github::api::{comment_pages, path, RepoPath, ReviewComment};
use crate::github::client::GitHub;
use crate::github::review_threads::{self, Thread};
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Console;
use crate::router::PullPath;

/// The pull request's review comments, oldest first: the pages its `review_comments` count
/// says, at most `MAX_COMMENT_PAGES`, one after another (almost every pull request has one page,
/// and a parallel join would cost the wasm a copy of `futures_util`'s ordered stream). Comments
/// are an addition to the page, so a failed read shows the page without them (and is logged).
pub async fn comments<T: GitHubTransport>(
    console: &impl Console,
    github: &GitHub<'_, T>,
    pull: &PullPath,
    review_comments: Option<u64>,
) -> Vec<ReviewComment> {
    let mut all = Vec::new();
    let Some(repo) = RepoPath::new(&pull.owner, &pull.repo) else {
        return all;
    };
    for page in 1..=comment_pages(review_comments) {
        let path = path::pull_comments(&repo, pull.number, page);
        match github.get::<Vec<ReviewComment>>(&path).await {
            Ok(comments) => all.extend(comments),
            Err(error) => {
                console.warn(&format!("reading review comments failed: {error}"));
                break;
            }
        }
    }
    all
}

/// The pull request's review threads as the viewer may act on them; empty when it has no review
/// comments (no request) or GitHub won't say (the page then shows threads without Resolve).
pub async fn threads<T: GitHubTransport>(
    console: &impl Console,
    github: &GitHub<'_, T>,
    pull: &PullPath,
    comments: usize,
) -> Vec<Thread> {
    if comments == 0 {
        return Vec::new();
    }
    try_threads(github, pull).await.unwrap_or_else(|error| {
        console.warn(&format!("reading review threads failed: {error}"));
        Vec::new()
    })
}

/// The review threads GitHub lists for the pull request, or why it didn't list them: for a
/// route that must tell "not a thread of this pull request" from "GitHub didn't answer".
pub async fn try_threads<T: GitHubTransport>(
    github: &GitHub<'_, T>,
    pull: &PullPath,
) -> Result<Vec<Thread>, String> {
    let body = review_threads::page_request(&pull.owner, &pull.repo, pull.number);
    let text = github
        .post(crate::github::graphql::PATH, &body)
        .await
        .map_err(|error| error.to_string())?;
    review_threads::page_threads(&text).map_err(|error| error.to_string())
}
