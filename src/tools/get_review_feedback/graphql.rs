//! Reading a pull request's review back (pure half, issue #38): the one GraphQL request that
//! gives its review threads with their comments and its reviews, and reading GitHub's answer into
//! the review core's values (`review::feedback`).
//!
//! Why one GraphQL request: REST lists review comments without their thread's resolution, so the
//! review page already asks GraphQL for threads; asking for the threads' lines, comments and the
//! reviews in the same request makes the whole review one request on top of the pull request read.
//!
//! GitHub's page limits, which the answer's `truncated` flag reports when passed: the first
//! [`MAX_THREADS`] threads (`reviewThreads(first:100)`), the first [`MAX_COMMENTS`] comments of
//! each (`comments(first:100)`), and the last [`MAX_REVIEWS`] reviews (`reviews(last:100)`, so
//! each reviewer's latest verdict is among them unless a hundred later reviews came after it).
//! That is at most 10,100 comment nodes, well under GitHub's 500,000-node limit per query.
//! GitHub shows a pending (draft) comment or review to its writer only; they are read here with
//! their state so the core leaves them out for everyone.
//!
//! It lives with the tool rather than in `github`: it reads into the review core's values, and
//! the core already builds on `github` (no import loops between top-level modules).
//!
//! What not: no sending (`github::client`), no decisions (`review::feedback`).

use serde::Deserialize;
use serde_json::json;

use crate::github::api::GitHubError;
use crate::github::reviews::graphql::{refused, Problem};
use crate::review::feedback::{CommentInput, DiffSide, ReviewInput, ReviewState, ThreadInput};

/// Review threads read at most (GitHub's page size).
pub const MAX_THREADS: u32 = 100;
/// Comments read per thread at most (GitHub's page size).
pub const MAX_COMMENTS: u32 = 100;
/// Reviews read at most, the latest ones (GitHub's page size).
pub const MAX_REVIEWS: u32 = 100;

const QUERY: &str = "query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){totalCount pageInfo{hasNextPage} nodes{isResolved isOutdated path line startLine originalLine originalStartLine diffSide comments(first:100){totalCount nodes{author{login} body createdAt url diffHunk state originalCommit{oid}}}}} reviews(last:100){totalCount nodes{author{login} state body submittedAt url commit{oid}}}}}}";

/// The request body for the pull request's review.
pub fn request(owner: &str, repo: &str, number: u64) -> String {
    json!({"query": QUERY, "variables": {"owner": owner, "name": repo, "number": number}})
        .to_string()
}

/// The review as read: threads and reviews in GitHub's order, and whether GitHub has more.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Review {
    pub threads: Vec<ThreadInput>,
    pub reviews: Vec<ReviewInput>,
    pub truncated: bool,
}

/// Reads the answer to [`request`].
pub fn read(text: &str) -> Result<Review, GitHubError> {
    let answer: Answer = serde_json::from_str(text)
        .map_err(|e| GitHubError::Malformed(format!("graphql review: {e}")))?;
    let Some(pull) = answer
        .data
        .and_then(|d| d.repository)
        .and_then(|r| r.pull_request)
    else {
        return Err(refused(&answer.errors));
    };
    let threads_page = pull.review_threads;
    let mut truncated = threads_page.page_info.has_next_page
        || threads_page.total_count > threads_page.nodes.len() as u64;
    let threads = threads_page
        .nodes
        .into_iter()
        .flatten()
        .map(|node| {
            truncated |= node.comments.total_count > node.comments.nodes.len() as u64;
            ThreadInput {
                path: node.path,
                side: match node.diff_side.as_deref() {
                    Some("LEFT") => DiffSide::Left,
                    _ => DiffSide::Right,
                },
                line: node.line,
                start_line: node.start_line,
                original_line: node.original_line,
                original_start_line: node.original_start_line,
                outdated: node.is_outdated,
                resolved: node.is_resolved,
                comments: node
                    .comments
                    .nodes
                    .into_iter()
                    .flatten()
                    .map(|c| CommentInput {
                        author: login(c.author),
                        body: c.body,
                        created_at: c.created_at,
                        url: c.url,
                        diff_hunk: c.diff_hunk,
                        original_commit: c.original_commit.map(|commit| commit.oid),
                        pending: c.state.as_deref() == Some("PENDING"),
                    })
                    .collect(),
            }
        })
        .collect();
    let reviews_page = pull.reviews;
    truncated |= reviews_page.total_count > reviews_page.nodes.len() as u64;
    let reviews = reviews_page
        .nodes
        .into_iter()
        .flatten()
        .filter_map(|node| {
            Some(ReviewInput {
                author: login(node.author),
                state: ReviewState::parse(&node.state)?,
                body: node.body,
                commit: node.commit.map(|commit| commit.oid),
                submitted_at: node.submitted_at,
                url: node.url,
            })
        })
        .collect();
    Ok(Review {
        threads,
        reviews,
        truncated,
    })
}

/// A deleted account is `null`: GitHub shows it as `ghost`.
fn login(author: Option<Author>) -> String {
    author.map_or_else(|| "ghost".into(), |a| a.login)
}

#[derive(Deserialize)]
struct Answer {
    data: Option<Data>,
    #[serde(default)]
    errors: Vec<Problem>,
}

#[derive(Deserialize)]
struct Data {
    repository: Option<RepositoryData>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RepositoryData {
    pull_request: Option<PullData>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PullData {
    review_threads: Page<ThreadNode>,
    reviews: Page<ReviewNode>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Page<T> {
    #[serde(default)]
    total_count: u64,
    #[serde(default)]
    page_info: PageInfo,
    #[serde(default = "Vec::new")]
    nodes: Vec<Option<T>>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct PageInfo {
    #[serde(default)]
    has_next_page: bool,
}

#[derive(Deserialize)]
struct Author {
    login: String,
}

#[derive(Deserialize)]
struct Commit {
    oid: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ThreadNode {
    #[serde(default)]
    is_resolved: bool,
    #[serde(default)]
    is_outdated: bool,
    path: String,
    line: Option<u32>,
    start_line: Option<u32>,
    original_line: Option<u32>,
    original_start_line: Option<u32>,
    diff_side: Option<String>,
    comments: Page<CommentNode>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CommentNode {
    author: Option<Author>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    body: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    created_at: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    url: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    diff_hunk: String,
    state: Option<String>,
    original_commit: Option<Commit>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReviewNode {
    author: Option<Author>,
    state: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    body: String,
    submitted_at: Option<String>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    url: String,
    commit: Option<Commit>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GitHub's documented shapes, trimmed: one open thread with a reply, one pending (draft)
    /// thread, a `null` node, and reviews; GitHub says it has more threads than this page.
    #[test]
    fn reads_threads_comments_and_reviews_with_their_limits() {
        let text = r#"{"data":{"repository":{"pullRequest":{
            "reviewThreads":{"totalCount":101,"pageInfo":{"hasNextPage":true},"nodes":[
              {"isResolved":false,"isOutdated":true,"path":"src/a.rs","line":null,"startLine":null,
               "originalLine":7,"originalStartLine":5,"diffSide":"LEFT",
               "comments":{"totalCount":2,"nodes":[
                 {"author":{"login":"rev"},"body":"Why?","createdAt":"2026-12-04T10:00:00Z","url":"u1",
                  "diffHunk":"@@ -1 +1 @@\n-a","state":"SUBMITTED","originalCommit":{"oid":"c1"}},
                 {"author":null,"body":"Because","createdAt":"2026-12-04T11:00:00Z","url":"u2",
                  "diffHunk":"@@ -1 +1 @@\n-a","state":"PENDING","originalCommit":null}]}},
              null]},
            "reviews":{"totalCount":1,"nodes":[
              {"author":{"login":"rev"},"state":"CHANGES_REQUESTED","body":"Fix","submittedAt":"2026-12-04T10:00:00Z","url":"r1","commit":{"oid":"c1"}},
              {"author":{"login":"rev"},"state":"SOMETHING_NEW","body":"","submittedAt":null,"url":"r2","commit":null}]}}}}}"#;
        let review = read(text).unwrap_or_default();
        assert!(review.truncated, "101 threads, 1 read");
        assert_eq!(review.threads.len(), 1);
        let thread = &review.threads[0];
        assert_eq!(
            (
                thread.side,
                thread.line,
                thread.original_line,
                thread.original_start_line
            ),
            (DiffSide::Left, None, Some(7), Some(5))
        );
        assert!(thread.outdated && !thread.resolved);
        assert_eq!(thread.comments[0].original_commit.as_deref(), Some("c1"));
        assert_eq!(
            (
                thread.comments[1].author.as_str(),
                thread.comments[1].pending
            ),
            ("ghost", true)
        );
        assert_eq!(review.reviews.len(), 1, "an unknown state is left out");
        assert_eq!(review.reviews[0].state, ReviewState::ChangesRequested);
        let whole = text.replace(
            r#""totalCount":101,"pageInfo":{"hasNextPage":true}"#,
            r#""totalCount":1"#,
        );
        assert!(!read(&whole).unwrap_or_default().truncated);
        let long_thread = whole.replace(r#""totalCount":2"#, r#""totalCount":150"#);
        assert!(read(&long_thread).unwrap_or_default().truncated);
    }

    #[test]
    fn a_hidden_pull_request_is_not_found() {
        let hidden = r#"{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","message":"Could not resolve"}]}"#;
        assert_eq!(read(hidden), Err(GitHubError::NotFound));
        let body: serde_json::Value =
            serde_json::from_str(&request("acme", "app", 7)).unwrap_or_default();
        assert_eq!(body["variables"]["number"], 7);
        assert!(body["query"]
            .as_str()
            .is_some_and(|q| q.contains("reviewThreads(first:100)")
                && q.contains("comments(first:100)")
                && q.contains("reviews(last:100)")));
    }
}
