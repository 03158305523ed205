//! Both answers read by the one reader: the page's threads and the review's threads, comments
//! and reviews, with GitHub's page limits and refusals.

use super::*;

#[test]
fn the_pages_threads_are_read_with_what_the_viewer_may_do() {
    let text = r#"{"data":{"repository":{"pullRequest":{"reviewThreads":{"nodes":[
        {"id":"PRRT_1","isResolved":false,"viewerCanResolve":true,"viewerCanUnresolve":false,"viewerCanReply":true,"comments":{"nodes":[{"databaseId":11}]}},
        {"id":"PRRT_2","isResolved":true,"viewerCanResolve":false,"viewerCanUnresolve":true,"comments":{"nodes":[]}},
        {"id":"PRRT_3","isResolved":true,"viewerCanResolve":false,"viewerCanUnresolve":true,"comments":{"nodes":[{"databaseId":12}]}},
        null]}}}}}"#;
    assert_eq!(
        page_threads(text),
        Ok(vec![
            Thread {
                id: "PRRT_1".into(),
                resolved: false,
                can_resolve: true,
                can_unresolve: false,
                can_reply: true,
                first_comment: 11,
            },
            Thread {
                id: "PRRT_3".into(),
                resolved: true,
                can_resolve: false,
                can_unresolve: true,
                can_reply: true,
                first_comment: 12,
            }
        ]),
        "a thread without a first comment is left out; viewerCanReply defaults to yes"
    );
    let body: serde_json::Value =
        serde_json::from_str(&page_request("acme", "app", 7)).unwrap_or_default();
    assert_eq!(body["variables"]["name"], "app");
    assert!(body["query"].as_str().is_some_and(|q| q
        .contains("viewerCanResolve viewerCanUnresolve viewerCanReply comments(first:1)")
        && !q.contains("body")
        && !q.contains("reviews(")));
}

/// GitHub's documented shapes, trimmed: one open thread with a reply, one pending (draft)
/// thread, a `null` node, and reviews; GitHub says it has more threads than this page.
#[test]
fn the_review_is_read_with_its_comments_reviews_and_limits() {
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
    let read = review(text).unwrap_or_default();
    assert!(read.truncated, "101 threads, 1 read");
    assert_eq!(read.threads.len(), 1);
    let thread = &read.threads[0];
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
    assert_eq!(read.reviews.len(), 1, "an unknown state is left out");
    assert_eq!(read.reviews[0].state, ReviewState::ChangesRequested);
    let whole = text.replace(
        r#""totalCount":101,"pageInfo":{"hasNextPage":true}"#,
        r#""totalCount":1"#,
    );
    assert!(!review(&whole).unwrap_or_default().truncated);
    let long_thread = whole.replace(r#""totalCount":2"#, r#""totalCount":150"#);
    assert!(review(&long_thread).unwrap_or_default().truncated);
    let body: serde_json::Value =
        serde_json::from_str(&review_request("acme", "app", 7)).unwrap_or_default();
    assert_eq!(body["variables"]["number"], 7);
    assert!(body["query"]
        .as_str()
        .is_some_and(|q| q.contains("reviewThreads(first:100)")
            && q.contains("comments(first:100)")
            && q.contains("reviews(last:100)")
            && !q.contains("viewerCan")));
}

#[test]
fn a_hidden_pull_request_is_not_found_and_a_broken_answer_unreadable() {
    let hidden = r#"{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","message":"Could not resolve"}]}"#;
    assert_eq!(page_threads(hidden), Err(GitHubError::NotFound));
    assert_eq!(review(hidden), Err(GitHubError::NotFound));
    let limited = r#"{"data":null,"errors":[{"type":"RATE_LIMITED","message":"slow down"}]}"#;
    assert_eq!(
        review(limited),
        Err(GitHubError::RateLimited {
            retry_after_seconds: None
        })
    );
    assert!(
        matches!(page_threads("<html>"), Err(GitHubError::Malformed(why)) if why.starts_with("graphql threads: "))
    );
    assert!(
        matches!(review("<html>"), Err(GitHubError::Malformed(why)) if why.starts_with("graphql review: "))
    );
}
