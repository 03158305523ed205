//! Writing a review on GitHub (pure half, issue 29): the requests that send line comments,
//! replies, a review with its verdict, and resolve or unresolve a thread, and how GitHub's
//! refusals read as sentences a reviewer can act on.
//!
//! Why: the review page lets a reviewer finish the review where they read it, always with their
//! own token, so GitHub's own rules decide (the line must be in the diff, one pending review per
//! person, no approving one's own pull request, an App installed without write access to pull
//! requests). The requests follow GitHub's REST API (`POST /pulls/{n}/reviews`,
//! `POST /pulls/{n}/comments`, `POST /pulls/{n}/comments/{id}/replies`) and its GraphQL API
//! (`pullRequest.reviewThreads`, `resolveReviewThread`, `unresolveReviewThread`), anchored by
//! `line`/`side` (and `start_line`/`start_side`), never the deprecated `position`.
//! Bodies are written with serde's `Serialize` and answers read with its derived `Deserialize`.
//!
//! What not: no sending (`client`), no HTTP types; no pending reviews on GitHub: drafts are kept
//! by LogiKFlow until the review is sent whole.

use serde::{Deserialize, Serialize};

use super::api::RepoPath;

/// Which version of a line a comment is on: `LEFT` the base (a removed line, or the old side of
/// an unchanged one), `RIGHT` the head (an added or unchanged line). GitHub's own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    #[serde(rename = "LEFT")]
    Left,
    #[serde(rename = "RIGHT")]
    Right,
}

impl Side {
    pub fn parse(text: &str) -> Option<Side> {
        match text {
            "LEFT" | "left" => Some(Side::Left),
            "RIGHT" | "right" => Some(Side::Right),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Side::Left => "LEFT",
            Side::Right => "RIGHT",
        }
    }
}

/// The verdict a review is sent with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    #[serde(rename = "COMMENT")]
    Comment,
    #[serde(rename = "APPROVE")]
    Approve,
    #[serde(rename = "REQUEST_CHANGES")]
    RequestChanges,
}

impl Event {
    /// The form's value (`comment`, `approve`, `request_changes`, or GitHub's own upper case).
    pub fn parse(text: &str) -> Option<Event> {
        match text.to_ascii_lowercase().as_str() {
            "comment" => Some(Event::Comment),
            "approve" => Some(Event::Approve),
            "request_changes" => Some(Event::RequestChanges),
            _ => None,
        }
    }

    pub fn done(self) -> &'static str {
        match self {
            Event::Comment => "Review sent with your comments.",
            Event::Approve => "Review sent: you approved the pull request.",
            Event::RequestChanges => "Review sent: you requested changes.",
        }
    }
}

/// Where a comment sits: a line, or a range of lines ending at `line`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Anchor {
    pub path: String,
    pub line: u32,
    pub side: Side,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub start_line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub start_side: Option<Side>,
}

/// One comment of a review (`comments[]` of "Create a review for a pull request").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReviewLineComment<'a> {
    #[serde(flatten)]
    pub anchor: &'a Anchor,
    pub body: &'a str,
}

/// `POST /repos/{o}/{r}/pulls/{n}/reviews`: the review sent whole, with its verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewReview<'a> {
    pub commit_id: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    pub body: &'a str,
    pub event: Event,
    pub comments: Vec<ReviewLineComment<'a>>,
}

/// `POST /repos/{o}/{r}/pulls/{n}/comments`: one comment sent at once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewComment<'a> {
    pub commit_id: &'a str,
    #[serde(flatten)]
    pub anchor: &'a Anchor,
    pub body: &'a str,
}

/// `POST /repos/{o}/{r}/pulls/{n}/comments/{id}/replies`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewReply<'a> {
    pub body: &'a str,
}

/// What GitHub answers a created comment or review with: enough to link to it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct Created {
    #[serde(default)]
    pub id: u64,
    #[serde(default)]
    pub html_url: String,
}

pub mod path {
    use super::RepoPath;

    pub fn reviews(repo: &RepoPath, number: u64) -> String {
        format!("{}/pulls/{number}/reviews", repo.as_str())
    }

    pub fn comments(repo: &RepoPath, number: u64) -> String {
        format!("{}/pulls/{number}/comments", repo.as_str())
    }

    pub fn replies(repo: &RepoPath, number: u64, comment: u64) -> String {
        format!(
            "{}/pulls/{number}/comments/{comment}/replies",
            repo.as_str()
        )
    }
}

/// A write GitHub refused: its status and what its answer says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
    /// GitHub's `errors[]`, each as a sentence (strings as they are, objects by their
    /// `message`, else `field` and `code`).
    pub errors: Vec<String>,
}

#[derive(Deserialize)]
struct ErrorBody {
    #[serde(default)]
    message: String,
    #[serde(default)]
    errors: Vec<ErrorItem>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ErrorItem {
    Text(String),
    Object {
        #[serde(default)]
        message: Option<String>,
        #[serde(default)]
        field: Option<String>,
        #[serde(default)]
        code: Option<String>,
    },
}

impl Refusal {
    /// Reads a refusal's body (GitHub's `{message, errors, documentation_url}`); a body that
    /// isn't one leaves `message` empty.
    pub fn parse(status: u16, body: &str) -> Refusal {
        let parsed: Option<ErrorBody> = serde_json::from_str(body).ok();
        let (message, items) =
            parsed.map_or((String::new(), Vec::new()), |b| (b.message, b.errors));
        let errors = items
            .into_iter()
            .filter_map(|item| match item {
                ErrorItem::Text(text) => Some(text),
                ErrorItem::Object {
                    message: Some(message),
                    ..
                } => Some(message),
                ErrorItem::Object { field, code, .. } => match (field, code) {
                    (Some(field), Some(code)) => Some(format!("{field} {code}")),
                    (Some(field), None) => Some(field),
                    (None, Some(code)) => Some(code),
                    (None, None) => None,
                },
            })
            .collect();
        Refusal {
            status,
            message,
            errors,
        }
    }

    fn says(&self, words: &str) -> bool {
        let words = words.to_ascii_lowercase();
        self.message.to_ascii_lowercase().contains(&words)
            || self
                .errors
                .iter()
                .any(|e| e.to_ascii_lowercase().contains(&words))
    }

    /// Whether the refusal means the viewer may not write here at all (the App's installation
    /// lacks write access to pull requests, or the person can't comment): the page then says
    /// so beside every control.
    pub fn is_no_write_access(&self) -> bool {
        self.status == 403 && !self.says("rate limit")
    }

    /// The refusal as a sentence for the reviewer, naming what to do next.
    pub fn sentence(&self) -> String {
        if self.says("must be part of the diff") || self.says("line could not be resolved") {
            return "GitHub refused: a comment's line is not part of the pull request's diff (it may have changed since the page loaded). Reload the page and comment on a line that is shown.".into();
        }
        if self.says("approve your own pull request") {
            return "GitHub refused: you can't approve your own pull request. Send the review as Comment instead.".into();
        }
        if self.says("request changes on your own pull request") {
            return "GitHub refused: you can't request changes on your own pull request. Send the review as Comment instead.".into();
        }
        if self.says("one pending review") {
            return "GitHub refused: you already have a pending review on this pull request on GitHub. Submit or delete that review on GitHub, then send again.".into();
        }
        if self.says("not accessible by integration") {
            return NO_WRITE_ACCESS.into();
        }
        if self.says("rate limit") || self.status == 429 {
            return "GitHub's rate limit for your account is used up; wait a few minutes, then send again.".into();
        }
        match self.status {
            401 => "GitHub no longer accepts your sign-in; sign out and sign in again, then send again.".into(),
            403 => format!(
                "GitHub refused: you can't comment on this pull request ({}).",
                self.detail()
            ),
            404 => "GitHub can't find this pull request or comment for you (it may have been deleted, or you lost access).".into(),
            422 => format!("GitHub refused: {}.", self.detail()),
            status if status >= 500 => "GitHub is not answering right now; send again in a moment.".into(),
            status => format!("GitHub refused ({status}): {}.", self.detail()),
        }
    }

    fn detail(&self) -> String {
        let mut parts: Vec<&str> = self.errors.iter().map(String::as_str).collect();
        if parts.is_empty() && !self.message.is_empty() {
            parts.push(&self.message);
        }
        let joined = parts.join("; ");
        let joined = joined.trim_end_matches('.');
        if joined.is_empty() {
            "no reason given".into()
        } else {
            joined.chars().take(300).collect()
        }
    }
}

/// What the page says where the GitHub App may not write to pull requests.
pub const NO_WRITE_ACCESS: &str = "GitHub refused: the LogiKFlow GitHub App was installed without write access to pull requests, so it can't send comments for you. Ask an owner of the repository to allow Pull requests: Read and write, or comment on GitHub.";

/// GraphQL: the pull request's review threads with what the viewer may do, and the thread
/// mutations (`ID`s are GraphQL's node ids).
pub mod graphql {
    use serde::Deserialize;
    use serde_json::json;

    use crate::github::api::GitHubError;

    /// Threads read at most: GitHub's page size. A pull request with more shows the rest
    /// without Resolve buttons.
    pub const MAX_THREADS: u32 = 100;

    const THREADS: &str = "query($owner:String!,$name:String!,$number:Int!){repository(owner:$owner,name:$name){pullRequest(number:$number){reviewThreads(first:100){nodes{id isResolved viewerCanResolve viewerCanUnresolve viewerCanReply comments(first:1){nodes{databaseId}}}}}}}";
    const RESOLVE: &str =
        "mutation($id:ID!){resolveReviewThread(input:{threadId:$id}){thread{id isResolved}}}";
    const UNRESOLVE: &str =
        "mutation($id:ID!){unresolveReviewThread(input:{threadId:$id}){thread{id isResolved}}}";

    pub fn threads_request(owner: &str, repo: &str, number: u64) -> String {
        json!({"query": THREADS, "variables": {"owner": owner, "name": repo, "number": number}})
            .to_string()
    }

    pub fn resolve_request(thread: &str, resolve: bool) -> String {
        let query = if resolve { RESOLVE } else { UNRESOLVE };
        json!({"query": query, "variables": {"id": thread}}).to_string()
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

    #[derive(Deserialize)]
    struct Answer<T> {
        data: Option<T>,
        #[serde(default)]
        errors: Vec<Problem>,
    }

    #[derive(Deserialize)]
    pub(crate) struct Problem {
        #[serde(default, rename = "type")]
        kind: String,
        #[serde(default)]
        message: String,
    }

    #[derive(Deserialize)]
    struct ThreadsData {
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
        review_threads: Nodes<ThreadNode>,
    }
    #[derive(Deserialize)]
    struct Nodes<T> {
        #[serde(default = "Vec::new")]
        nodes: Vec<Option<T>>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct ThreadNode {
        id: String,
        #[serde(default)]
        is_resolved: bool,
        #[serde(default)]
        viewer_can_resolve: bool,
        #[serde(default)]
        viewer_can_unresolve: bool,
        #[serde(default = "yes")]
        viewer_can_reply: bool,
        comments: Nodes<CommentNode>,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct CommentNode {
        database_id: Option<u64>,
    }

    fn yes() -> bool {
        true
    }

    pub(crate) fn refused(errors: &[Problem]) -> GitHubError {
        let first = errors.first();
        match first.map(|p| p.kind.as_str()) {
            Some("RATE_LIMITED") => GitHubError::RateLimited {
                retry_after_seconds: None,
            },
            Some("NOT_FOUND") => GitHubError::NotFound,
            _ => GitHubError::Forbidden(first.map(|p| p.message.clone()).unwrap_or_default()),
        }
    }

    /// Reads the answer to [`threads_request`].
    pub fn threads(text: &str) -> Result<Vec<Thread>, GitHubError> {
        let answer: Answer<ThreadsData> = serde_json::from_str(text)
            .map_err(|e| GitHubError::Malformed(format!("graphql threads: {e}")))?;
        let Some(pull) = answer
            .data
            .and_then(|d| d.repository)
            .and_then(|r| r.pull_request)
        else {
            return Err(refused(&answer.errors));
        };
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

    /// Reads the answer to [`resolve_request`]: the thread's new state, or why GitHub refused
    /// (GraphQL refuses with a 200 and `errors`; a token without write access gets
    /// `FORBIDDEN`, "Resource not accessible by integration").
    pub fn resolved(text: &str) -> Result<bool, super::Refusal> {
        let answer: Answer<serde_json::Value> =
            serde_json::from_str(text).map_err(|_| super::Refusal {
                status: 502,
                message: "GitHub's answer could not be read".into(),
                errors: Vec::new(),
            })?;
        let state = answer.data.as_ref().and_then(|data| {
            ["resolveReviewThread", "unresolveReviewThread"]
                .iter()
                .find_map(|field| data.pointer(&format!("/{field}/thread/isResolved")))
                .and_then(serde_json::Value::as_bool)
        });
        match state {
            Some(state) if answer.errors.is_empty() => Ok(state),
            _ => {
                let status = match answer.errors.first().map(|p| p.kind.as_str()) {
                    Some("FORBIDDEN") => 403,
                    Some("NOT_FOUND") => 404,
                    Some("RATE_LIMITED") => 429,
                    _ => 422,
                };
                Err(super::Refusal {
                    status,
                    message: answer
                        .errors
                        .first()
                        .map(|p| p.message.clone())
                        .unwrap_or_default(),
                    errors: Vec::new(),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchor() -> Anchor {
        Anchor {
            path: "src/a.rs".into(),
            line: 12,
            side: Side::Right,
            start_line: Some(10),
            start_side: Some(Side::Right),
        }
    }

    #[test]
    fn a_review_is_shaped_as_github_reads_it() {
        let a = anchor();
        let single = Anchor {
            path: "b.py".into(),
            line: 3,
            side: Side::Left,
            start_line: None,
            start_side: None,
        };
        let review = NewReview {
            commit_id: "abc",
            body: "Nice",
            event: Event::RequestChanges,
            comments: vec![
                ReviewLineComment {
                    anchor: &a,
                    body: "range",
                },
                ReviewLineComment {
                    anchor: &single,
                    body: "one",
                },
            ],
        };
        assert_eq!(
            serde_json::to_value(&review).ok(),
            Some(serde_json::json!({
                "commit_id": "abc", "body": "Nice", "event": "REQUEST_CHANGES",
                "comments": [
                    {"path": "src/a.rs", "line": 12, "side": "RIGHT", "start_line": 10, "start_side": "RIGHT", "body": "range"},
                    {"path": "b.py", "line": 3, "side": "LEFT", "body": "one"},
                ]
            }))
        );
        let comment = NewComment {
            commit_id: "abc",
            anchor: &single,
            body: "x",
        };
        assert_eq!(
            serde_json::to_string(&comment).ok().as_deref(),
            Some(r#"{"commit_id":"abc","path":"b.py","line":3,"side":"LEFT","body":"x"}"#)
        );
        let repo = RepoPath::new("acme", "app").map(|r| path::replies(&r, 7, 99));
        assert_eq!(
            repo.as_deref(),
            Some("/repos/acme/app/pulls/7/comments/99/replies")
        );
        assert_eq!(Event::parse("request_changes"), Some(Event::RequestChanges));
        assert_eq!(Event::parse("APPROVE"), Some(Event::Approve));
        assert_eq!(Event::parse("merge"), None);
    }

    #[test]
    fn refusals_read_as_sentences() {
        let check = |status: u16, body: &str, expected: &str| {
            let sentence = Refusal::parse(status, body).sentence();
            assert!(sentence.contains(expected), "{sentence}");
        };
        check(
            422,
            r#"{"message":"Unprocessable Entity","errors":["Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank"]}"#,
            "not part of the pull request's diff",
        );
        check(
            422,
            r#"{"message":"Validation Failed","errors":[{"resource":"PullRequestReviewComment","code":"custom","field":"pull_request_review_thread.line","message":"pull_request_review_thread.line must be part of the diff"}]}"#,
            "not part of the pull request's diff",
        );
        check(
            422,
            r#"{"message":"Unprocessable Entity","errors":["Can not approve your own pull request"]}"#,
            "can't approve your own pull request",
        );
        check(
            422,
            r#"{"message":"Unprocessable Entity","errors":["User can only have one pending review per pull request"]}"#,
            "already have a pending review",
        );
        check(
            403,
            r#"{"message":"Resource not accessible by integration"}"#,
            "without write access to pull requests",
        );
        check(
            422,
            r#"{"message":"Validation Failed","errors":[{"field":"body","code":"missing"}]}"#,
            "GitHub refused: body missing.",
        );
        check(401, "", "sign in again");
        check(502, "<html>", "not answering");
        assert!(Refusal::parse(
            403,
            r#"{"message":"Resource not accessible by integration"}"#
        )
        .is_no_write_access());
        assert!(
            !Refusal::parse(403, r#"{"message":"API rate limit exceeded"}"#).is_no_write_access()
        );
    }

    #[test]
    fn threads_are_read_from_graphql() {
        let text = r#"{"data":{"repository":{"pullRequest":{"reviewThreads":{"nodes":[
            {"id":"PRRT_1","isResolved":false,"viewerCanResolve":true,"viewerCanUnresolve":false,"viewerCanReply":true,"comments":{"nodes":[{"databaseId":11}]}},
            {"id":"PRRT_2","isResolved":true,"viewerCanResolve":false,"viewerCanUnresolve":true,"comments":{"nodes":[]}},
            null]}}}}}"#;
        let threads = graphql::threads(text);
        assert_eq!(
            threads,
            Ok(vec![graphql::Thread {
                id: "PRRT_1".into(),
                resolved: false,
                can_resolve: true,
                can_unresolve: false,
                can_reply: true,
                first_comment: 11,
            }])
        );
        let hidden = r#"{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","message":"Could not resolve"}]}"#;
        assert_eq!(
            graphql::threads(hidden),
            Err(crate::github::api::GitHubError::NotFound)
        );
        let body = graphql::resolve_request("PRRT_1\"}", true);
        let value: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
        assert_eq!(value["variables"]["id"], "PRRT_1\"}");
        assert!(value["query"]
            .as_str()
            .is_some_and(|q| q.starts_with("mutation($id:ID!){resolveReviewThread")));
        assert_eq!(
            graphql::resolved(
                r#"{"data":{"resolveReviewThread":{"thread":{"id":"PRRT_1","isResolved":true}}}}"#
            ),
            Ok(true)
        );
        let refused = graphql::resolved(
            r#"{"data":{"resolveReviewThread":null},"errors":[{"type":"FORBIDDEN","message":"Resource not accessible by integration"}]}"#,
        );
        assert!(refused
            .as_ref()
            .is_err_and(|r| r.status == 403 && r.sentence().contains("without write access")));
    }
}
