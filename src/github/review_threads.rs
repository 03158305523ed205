//! A pull request's review threads and reviews, read from GitHub's GraphQL (pure half): one
//! reader for both readers of them, the review page (each thread's id and what the viewer may do
//! with it, [`page_request`]) and `get_review_feedback` with the MCP Apps view (the threads'
//! lines and comments and the reviews, [`review_request`]), and the values they are read into.
//!
//! Why one reader: both answers are `repository.pullRequest.reviewThreads` (and `reviews`), so
//! one set of node types with every field optional decodes both; two decoders cost the wasm a
//! second copy of serde's code for the same shapes (issue #37's size work).
//! Why two queries: the page asks for each thread's id, resolution and the viewer's rights with
//! its first comment's id only; the review asks for every comment (up to 100 a thread) and the
//! reviews. One query for both would make every page view read every comment body and review
//! (GitHub's rate-limit cost of `first:100` comments in `first:100` threads is about 100 points
//! against 1), or the review read the viewer's rights it never uses. Each caller still makes one
//! request.
//!
//! GitHub's page limits, which [`Review::truncated`] reports when passed: the first
//! [`MAX_THREADS`] threads (`reviewThreads(first:100)`), the first [`MAX_COMMENTS`] comments of
//! each (`comments(first:100)`), and the last [`MAX_REVIEWS`] reviews (`reviews(last:100)`, so
//! each reviewer's latest verdict is among them unless a hundred later reviews came after it).
//! That is at most 10,100 comment nodes, well under GitHub's 500,000-node limit per query.
//! GitHub shows a pending (draft) comment or review to its writer only; they are read here with
//! their state so the review core (`review::feedback`) leaves them out for everyone.
//!
//! The values read ([`ThreadInput`], [`ReviewInput`], …) live here rather than in
//! `review::feedback`, which re-exports them: the review core builds on `github`, so `github`
//! can't import from it.
//!
//! What not: no sending (`client`), no decisions (`review::feedback`), the thread mutations
//! (`reviews::graphql`).

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::api::GitHubError;
use super::reviews::graphql::{refused, Answer};

/// Review threads read at most (GitHub's page size). A pull request with more shows the rest
/// without Resolve buttons on the page.
pub const MAX_THREADS: u32 = 100;
/// Comments read per thread at most (GitHub's page size).
pub const MAX_COMMENTS: u32 = 100;
/// Reviews read at most, the latest ones (GitHub's page size).
pub const MAX_REVIEWS: u32 = 100;

const PAGE_QUERY: &str = "query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){nodes{id isResolved viewerCanResolve viewerCanUnresolve viewerCanReply comments(first:1){nodes{databaseId}}}}}}}";

const REVIEW_QUERY: &str = "query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){totalCount pageInfo{hasNextPage} nodes{isResolved isOutdated path line startLine originalLine originalStartLine diffSide comments(first:100){totalCount nodes{author{login} body createdAt url diffHunk state originalCommit{oid}}}}} reviews(last:100){totalCount nodes{databaseId author{login} state body submittedAt url commit{oid}}}}}}";

fn request(query: &str, owner: &str, repo: &str, number: u64) -> String {
    json!({"query": query, "variables": {"owner": owner, "name": repo, "number": number}})
        .to_string()
}

/// The request body for the review page's threads: what the viewer may do with each.
pub fn page_request(owner: &str, repo: &str, number: u64) -> String {
    request(PAGE_QUERY, owner, repo, number)
}

/// The request body for the pull request's review: threads with their comments, and reviews.
pub fn review_request(owner: &str, repo: &str, number: u64) -> String {
    request(REVIEW_QUERY, owner, repo, number)
}

/// One review thread as the page needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    pub id: String,
    pub resolved: bool,
    pub can_resolve: bool,
    pub can_unresolve: bool,
    pub can_reply: bool,
    /// The REST id of its first comment: how a thread is matched to the comments listed.
    pub first_comment: u64,
}

/// The review as read: threads and reviews in GitHub's order, and whether GitHub has more.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Review {
    pub threads: Vec<ThreadInput>,
    pub reviews: Vec<ReviewInput>,
    pub truncated: bool,
}

/// Which version of a line a thread is on: `Left` the base (a removed line, or the old side of an
/// unchanged one), `Right` the head. GitHub's `diffSide`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum DiffSide {
    #[serde(rename = "LEFT")]
    Left,
    #[serde(rename = "RIGHT")]
    Right,
}

/// One comment of a thread, as GitHub gives it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CommentInput {
    pub author: String,
    pub body: String,
    pub created_at: String,
    pub url: String,
    /// The diff from the hunk's `@@` line down to the commented line, when it was written.
    pub diff_hunk: String,
    /// The head it was written at (`originalCommit`).
    pub original_commit: Option<String>,
    /// Part of a review not yet submitted: its writer's alone.
    pub pending: bool,
}

/// One review thread, as GitHub gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadInput {
    pub path: String,
    pub side: DiffSide,
    /// The thread's (last) line at the head; `None` when outdated.
    pub line: Option<u32>,
    pub start_line: Option<u32>,
    /// The line when it was written.
    pub original_line: Option<u32>,
    pub original_start_line: Option<u32>,
    pub outdated: bool,
    pub resolved: bool,
    /// Oldest first; the first is the one the thread was opened with.
    pub comments: Vec<CommentInput>,
}

/// A review's state, as GitHub names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewState {
    Approved,
    ChangesRequested,
    Commented,
    Dismissed,
    Pending,
}

impl ReviewState {
    /// GitHub's GraphQL and REST name (`CHANGES_REQUESTED`, …); `None` for another.
    pub fn parse(text: &str) -> Option<ReviewState> {
        Some(match text {
            "APPROVED" => ReviewState::Approved,
            "CHANGES_REQUESTED" => ReviewState::ChangesRequested,
            "COMMENTED" => ReviewState::Commented,
            "DISMISSED" => ReviewState::Dismissed,
            "PENDING" => ReviewState::Pending,
            _ => return None,
        })
    }

    /// The answer's word.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewState::Approved => "approved",
            ReviewState::ChangesRequested => "changes_requested",
            ReviewState::Commented => "commented",
            ReviewState::Dismissed => "dismissed",
            ReviewState::Pending => "pending",
        }
    }

    /// A verdict rather than a remark: it replaces the reviewer's earlier verdict.
    pub fn is_opinion(self) -> bool {
        matches!(
            self,
            ReviewState::Approved | ReviewState::ChangesRequested | ReviewState::Dismissed
        )
    }
}

/// One submitted (or pending) review, oldest first as GitHub lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewInput {
    /// GitHub's id of the review (GraphQL `databaseId`, the REST `id`): what the pull request's
    /// object records a receipt under (issue #47).
    pub id: Option<u64>,
    pub author: String,
    pub state: ReviewState,
    pub body: String,
    /// The head it was made at.
    pub commit: Option<String>,
    pub submitted_at: Option<String>,
    pub url: String,
}

/// Reads the answer to [`page_request`]: the threads whose first comment GitHub names.
pub fn page_threads(text: &str) -> Result<Vec<Thread>, GitHubError> {
    let pull = decode(text, "graphql threads")?;
    Ok(pull
        .review_threads
        .nodes
        .into_iter()
        .flatten()
        .filter_map(|node| {
            let first = node.comments.nodes.into_iter().flatten().next()?;
            Some(Thread {
                id: node.id,
                resolved: node.is_resolved,
                can_resolve: node.viewer_can_resolve,
                can_unresolve: node.viewer_can_unresolve,
                can_reply: node.viewer_can_reply,
                first_comment: first.database_id?,
            })
        })
        .collect())
}

/// Reads the answer to [`review_request`].
pub fn review(text: &str) -> Result<Review, GitHubError> {
    let pull = decode(text, "graphql review")?;
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
                id: node.database_id,
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

/// The pull request of either answer, or why GitHub gave none (`what` names the read in the
/// message of an answer that isn't JSON of this shape).
fn decode(text: &str, what: &str) -> Result<PullData, GitHubError> {
    let answer: Answer<Data> =
        serde_json::from_str(text).map_err(|e| GitHubError::Malformed(format!("{what}: {e}")))?;
    match answer
        .data
        .and_then(|d| d.repository)
        .and_then(|r| r.pull_request)
    {
        Some(pull) => Ok(pull),
        None => Err(refused(&answer.errors)),
    }
}

/// A deleted account is `null`: GitHub shows it as `ghost`.
fn login(author: Option<Author>) -> String {
    author.map_or_else(|| "ghost".into(), |a| a.login)
}

// GitHub's nodes for both queries: a field one query doesn't ask for is absent from its answer
// and takes its default (every field either query asks for is one GitHub always sends).

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
    #[serde(default)]
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

impl<T> Default for Page<T> {
    fn default() -> Self {
        Page {
            total_count: 0,
            page_info: PageInfo::default(),
            nodes: Vec::new(),
        }
    }
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
    id: String,
    #[serde(default)]
    is_resolved: bool,
    #[serde(default)]
    viewer_can_resolve: bool,
    #[serde(default)]
    viewer_can_unresolve: bool,
    #[serde(default = "yes")]
    viewer_can_reply: bool,
    #[serde(default)]
    is_outdated: bool,
    #[serde(default)]
    path: String,
    line: Option<u32>,
    start_line: Option<u32>,
    original_line: Option<u32>,
    original_start_line: Option<u32>,
    diff_side: Option<String>,
    comments: Page<CommentNode>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CommentNode {
    database_id: Option<u64>,
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
    database_id: Option<u64>,
    author: Option<Author>,
    #[serde(default)]
    state: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    body: String,
    submitted_at: Option<String>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    url: String,
    commit: Option<Commit>,
}

#[cfg(test)]
mod tests;
