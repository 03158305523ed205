//! The pure half of the GitHub REST client: the requests we make, the typed shapes we read back,
//! and how a failed response is classified.
//!
//! Only the fields LogiKFlow uses are decoded; everything else GitHub sends is ignored, so a new
//! field never breaks us. The shapes derive `Deserialize` and are read by `json::decode`;
//! fields we can do without take their default when GitHub leaves them out or sends `null`
//! (`json::or_default`).
//! Sending lives in `client` (wasm only).

use serde::Deserialize;

/// GitHub's REST API version we speak (sent as `X-GitHub-Api-Version`).
pub const API_VERSION: &str = "2022-11-28";
/// Files per page of `/pulls/{n}/files`: GitHub's maximum.
pub const FILES_PER_PAGE: u32 = 100;
/// GitHub lists at most this many files of a pull request.
pub const MAX_LISTED_FILES: u32 = 3000;
/// Review comments per page of `/pulls/{n}/comments`: GitHub's maximum.
pub const COMMENTS_PER_PAGE: u32 = 100;
/// Review comments a page view reads at most, in pages: a bound on GitHub requests per view.
pub const MAX_COMMENT_PAGES: u32 = 3;

/// Whether `name` can be a GitHub owner or repository name: 1 to 100 letters, digits, `-`, `_`
/// and `.`, but never `.` or `..`, which GitHub refuses and which a URL resolves as "this folder"
/// and "the folder above" (`/repos/../..` would leave `/repos/`). The one rule for names, used by
/// the tool arguments, the `/r/…` routes and [`RepoPath`].
pub fn is_repo_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 100
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Encodes one path segment (owner, repo, file path part) for a URL.
fn encode_segment(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Whether a segment would move a URL's path rather than name something in it: empty, `.` or
/// `..`, written plainly or percent-encoded (URL parsers treat `%2e` as a dot).
fn is_dot_segment(segment: &str) -> bool {
    let lower = segment.to_ascii_lowercase();
    let dots = lower.replace("%2e", ".");
    dots.is_empty() || dots == "." || dots == ".."
}

/// `/repos/{owner}/{repo}`, built only from names [`is_repo_name`] accepts, so every path under
/// it stays inside that repository: the only way to a GitHub path about a repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoPath(String);

impl RepoPath {
    /// `None` when either name could not be a GitHub name (or would leave `/repos/`).
    pub fn new(owner: &str, repo: &str) -> Option<RepoPath> {
        (is_repo_name(owner) && is_repo_name(repo)).then(|| {
            RepoPath(format!(
                "/repos/{}/{}",
                encode_segment(owner),
                encode_segment(repo)
            ))
        })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Paths of the endpoints we call, relative to the API base.
pub mod path {
    use super::{encode_segment, is_dot_segment, RepoPath, COMMENTS_PER_PAGE, FILES_PER_PAGE};

    pub fn repository(repo: &RepoPath) -> String {
        repo.0.clone()
    }

    pub fn pull_request(repo: &RepoPath, number: u64) -> String {
        format!("{}/pulls/{number}", repo.0)
    }

    pub fn pull_files(repo: &RepoPath, number: u64, page: u32) -> String {
        format!(
            "{}/files?per_page={FILES_PER_PAGE}&page={page}",
            pull_request(repo, number)
        )
    }

    /// One page of a pull request's review comments (the comments on its diff lines), oldest
    /// first, [`COMMENTS_PER_PAGE`] a page.
    pub fn pull_comments(repo: &RepoPath, number: u64, page: u32) -> String {
        format!(
            "{}/comments?per_page={COMMENTS_PER_PAGE}&page={page}",
            pull_request(repo, number)
        )
    }

    /// A file's contents at a commit; `file` keeps its slashes. `None` for a file path with an
    /// empty, `.` or `..` segment, which would name something other than a file of the repository.
    pub fn contents(repo: &RepoPath, file: &str, git_ref: &str) -> Option<String> {
        if file.split('/').any(is_dot_segment) {
            return None;
        }
        let file: Vec<String> = file.split('/').map(encode_segment).collect();
        Some(format!(
            "{}/contents/{}?ref={}",
            repo.0,
            file.join("/"),
            encode_segment(git_ref)
        ))
    }

    /// The comparison of two commits; `None` when either is empty, `.` or `..`.
    pub fn compare(repo: &RepoPath, base: &str, head: &str) -> Option<String> {
        if is_dot_segment(base) || is_dot_segment(head) {
            return None;
        }
        Some(format!(
            "{}/compare/{}...{}",
            repo.0,
            encode_segment(base),
            encode_segment(head)
        ))
    }

    pub fn user() -> String {
        "/user".to_string()
    }
}

/// Whether the files read page by page add up to the pull request read before them: its file
/// count and its added and deleted lines. They differ when a push lands between the two reads
/// (the pages then show the new head, or a mix), so such a read must not be cached under the
/// old head. A list GitHub cut at 3,000 files, or totals GitHub left out, are not checked.
pub fn files_match_pull(pull: &PullRequest, files: &[PullFile]) -> bool {
    if pull.changed_files > u64::from(MAX_LISTED_FILES) {
        return true;
    }
    let sum = |count: fn(&PullFile) -> u64| files.iter().map(count).sum::<u64>();
    files.len() as u64 == pull.changed_files
        && pull
            .additions
            .is_none_or(|total| total == sum(|f| f.additions))
        && pull
            .deletions
            .is_none_or(|total| total == sum(|f| f.deletions))
}

/// How many file pages a pull request with `changed_files` needs (GitHub lists at most 3,000).
pub fn file_pages(changed_files: u64) -> u32 {
    let listed = changed_files.min(u64::from(MAX_LISTED_FILES)) as u32;
    listed.div_ceil(FILES_PER_PAGE).max(1)
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Permissions {
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub admin: bool,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub maintain: bool,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub push: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Repository {
    pub full_name: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub private: bool,
    pub permissions: Option<Permissions>,
}

impl Repository {
    /// Push, maintain or admin lets a person arrange the pull request.
    pub fn can_arrange(&self) -> bool {
        self.permissions
            .as_ref()
            .is_some_and(|p| p.push || p.maintain || p.admin)
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Account {
    pub login: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub id: u64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct GitRef {
    /// The branch name (GitHub's `ref`).
    #[serde(rename = "ref")]
    pub name: String,
    pub sha: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PullRequest {
    pub number: u64,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub title: String,
    pub state: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub merged: bool,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub draft: bool,
    pub user: Option<Account>,
    pub html_url: String,
    pub base: GitRef,
    pub head: GitRef,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub changed_files: u64,
    /// Lines added and deleted over the whole diff; `None` when GitHub left them out.
    pub additions: Option<u64>,
    pub deletions: Option<u64>,
    /// How many review comments (comments on diff lines) it has; `None` when GitHub left it out.
    pub review_comments: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PullFile {
    pub filename: String,
    pub status: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub additions: u64,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub deletions: u64,
    pub patch: Option<String>,
    pub previous_filename: Option<String>,
    /// The file's blob at the head; `None` for a removed file.
    pub sha: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Contents {
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub content: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub encoding: String,
}

impl Contents {
    /// The file's text: GitHub sends base64 with line breaks every 60 characters.
    pub fn text(&self) -> Option<String> {
        if self.encoding != "base64" {
            return None;
        }
        let bytes = crate::security::base64::decode_standard(&self.content)?;
        String::from_utf8(bytes).ok()
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Comparison {
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub ahead_by: u64,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub total_commits: u64,
    /// The files that differ between the two commits (GitHub lists at most 300).
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub files: Vec<ComparedFile>,
}

/// GitHub lists at most this many files in a comparison.
pub const MAX_COMPARED_FILES: usize = 300;

/// One file of a comparison, by name (its patch is not needed).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ComparedFile {
    pub filename: String,
}

/// How many comment pages to read for a pull request with `review_comments` comments: none when
/// it has none, one when GitHub did not say, at most [`MAX_COMMENT_PAGES`].
pub fn comment_pages(review_comments: Option<u64>) -> u32 {
    match review_comments {
        None => 1,
        Some(count) => count
            .div_ceil(u64::from(COMMENTS_PER_PAGE))
            .min(u64::from(MAX_COMMENT_PAGES)) as u32,
    }
}

/// A review comment: a comment on a line of a pull request's diff (GitHub REST,
/// "List review comments on a pull request").
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReviewComment {
    /// GitHub's id of the comment (REST `id`, GraphQL `databaseId`).
    #[serde(default)]
    pub id: u64,
    /// The thread's first comment, for a reply.
    pub in_reply_to_id: Option<u64>,
    pub path: String,
    /// The line it is on in the current diff (the last line of a multi-line comment); `None`
    /// when it is outdated or on the whole file.
    pub line: Option<u32>,
    /// The line it was written on, in the diff of its own commit.
    pub original_line: Option<u32>,
    /// `LEFT` (the base: a removed line) or `RIGHT` (the head: an added or unchanged line).
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub side: String,
    /// A multi-line comment's first line and its side.
    pub start_line: Option<u32>,
    pub start_side: Option<String>,
    /// GitHub's position in the current diff; `null` is how GitHub marks a comment outdated
    /// (its line changed after it was written).
    pub position: Option<u64>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub body: String,
    pub user: Option<Account>,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub created_at: String,
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub html_url: String,
    /// The head it was written at (issue #38: what changed since).
    #[serde(default)]
    pub original_commit_id: Option<String>,
    /// The hunk's `@@` line and its rows down to the commented line, when it was written.
    #[serde(default, deserialize_with = "crate::json::or_default")]
    pub diff_hunk: String,
}

impl ReviewComment {
    /// Outdated as GitHub marks it: no position in the current diff.
    pub fn is_outdated(&self) -> bool {
        self.position.is_none()
    }

    /// The author's login; `ghost` for a deleted account, as GitHub shows it.
    pub fn author(&self) -> &str {
        self.user
            .as_ref()
            .map_or("ghost", |user| user.login.as_str())
    }
}

/// Why a GitHub request failed, classified so each maps to one message for the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitHubError {
    /// 404, or a resource this account cannot see (GitHub hides private ones behind 404).
    NotFound,
    /// 401: the token expired or was revoked.
    Unauthorized,
    /// Primary or secondary rate limit; seconds until it resets when GitHub said.
    RateLimited { retry_after_seconds: Option<u64> },
    /// 403 for another reason (an organization's policy, for example).
    Forbidden(String),
    /// 5xx after the retry.
    Unavailable(u16),
    /// No answer within the time limit, after the retry.
    Timeout,
    /// The answer could not be read (truncated or unexpected JSON).
    Malformed(String),
    /// The request could not be sent at all.
    Network(String),
}

/// For logs: the release wasm's derived `Debug` prints only type names (`tests/scripts/build.sh`).
impl std::fmt::Display for GitHubError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitHubError::NotFound => f.write_str("not found (404)"),
            GitHubError::Unauthorized => f.write_str("token refused (401)"),
            GitHubError::RateLimited {
                retry_after_seconds: Some(seconds),
            } => write!(f, "rate limited (retry after {seconds} s)"),
            GitHubError::RateLimited { .. } => f.write_str("rate limited"),
            GitHubError::Forbidden(message) => write!(f, "forbidden (403): {message}"),
            GitHubError::Unavailable(status) => write!(f, "unavailable ({status})"),
            GitHubError::Timeout => f.write_str("timed out"),
            GitHubError::Malformed(why) => write!(f, "unreadable answer: {why}"),
            GitHubError::Network(why) => write!(f, "network error: {why}"),
        }
    }
}

impl GitHubError {
    /// Worth one more try: the same request may well succeed.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            GitHubError::Unavailable(_) | GitHubError::Timeout | GitHubError::Network(_)
        )
    }
}

/// Classifies a non-2xx response. `header` looks a header up case-insensitively; `now` is epoch
/// seconds, used to turn `x-ratelimit-reset` into a wait.
pub fn classify_failure(
    status: u16,
    header: &dyn Fn(&str) -> Option<String>,
    body: &str,
    now: u64,
) -> GitHubError {
    let retry_after = header("retry-after").and_then(|v| v.trim().parse::<u64>().ok());
    let remaining_zero = header("x-ratelimit-remaining").is_some_and(|v| v.trim() == "0");
    let reset_in = header("x-ratelimit-reset")
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|reset| reset.saturating_sub(now));
    let message = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v.get("message")
                .and_then(|m| m.as_str())
                .map(str::to_string)
        })
        .unwrap_or_default();
    let says_rate_limit = message.to_ascii_lowercase().contains("rate limit");
    match status {
        401 => GitHubError::Unauthorized,
        404 | 410 => GitHubError::NotFound,
        403 | 429
            if remaining_zero || retry_after.is_some() || says_rate_limit || status == 429 =>
        {
            GitHubError::RateLimited {
                retry_after_seconds: retry_after.or(if remaining_zero { reset_in } else { None }),
            }
        }
        403 => GitHubError::Forbidden(message),
        500..=599 => GitHubError::Unavailable(status),
        _ => GitHubError::Malformed(format!("unexpected status {status}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name: &str| {
            pairs
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(name))
                .map(|(_, value)| value.to_string())
        }
    }

    fn check(
        status: u16,
        pairs: &'static [(&'static str, &'static str)],
        body: &str,
        expected: GitHubError,
    ) {
        assert_eq!(
            classify_failure(status, &headers(pairs), body, 1_000),
            expected
        );
    }

    #[test]
    fn failures() {
        check(
            404,
            &[],
            r#"{"message":"Not Found"}"#,
            GitHubError::NotFound,
        );
        check(
            401,
            &[],
            r#"{"message":"Bad credentials"}"#,
            GitHubError::Unauthorized,
        );
        check(
            403,
            &[
                ("x-ratelimit-remaining", "0"),
                ("x-ratelimit-reset", "1060"),
            ],
            r#"{"message":"API rate limit exceeded for user ID 1."}"#,
            GitHubError::RateLimited {
                retry_after_seconds: Some(60),
            },
        );
        check(
            403,
            &[("retry-after", "30")],
            r#"{"message":"You have exceeded a secondary rate limit."}"#,
            GitHubError::RateLimited {
                retry_after_seconds: Some(30),
            },
        );
        check(
            429,
            &[],
            "",
            GitHubError::RateLimited {
                retry_after_seconds: None,
            },
        );
        check(
            403,
            &[("x-ratelimit-remaining", "4999")],
            r#"{"message":"Resource protected by organization SAML enforcement."}"#,
            GitHubError::Forbidden("Resource protected by organization SAML enforcement.".into()),
        );
        check(502, &[], "<html>", GitHubError::Unavailable(502));
        check(
            418,
            &[],
            "",
            GitHubError::Malformed("unexpected status 418".into()),
        );
    }

    #[test]
    fn pages() {
        assert_eq!(file_pages(0), 1);
        assert_eq!(file_pages(1), 1);
        assert_eq!(file_pages(100), 1);
        assert_eq!(file_pages(101), 2);
        assert_eq!(file_pages(320), 4);
        assert_eq!(file_pages(3000), 30);
        assert_eq!(file_pages(3200), 30);
    }

    fn repo(owner: &str, name: &str) -> RepoPath {
        RepoPath::new(owner, name).expect("a valid name")
    }

    #[test]
    fn paths_are_encoded() {
        let acme = repo("acme", "app");
        assert_eq!(
            path::pull_files(&acme, 7, 2),
            "/repos/acme/app/pulls/7/files?per_page=100&page=2"
        );
        assert_eq!(
            path::contents(&acme, ".github/logikflow.yml", "abc123").as_deref(),
            Some("/repos/acme/app/contents/.github/logikflow.yml?ref=abc123")
        );
        assert_eq!(
            path::contents(&acme, "src/a b.rs", "main/x").as_deref(),
            Some("/repos/acme/app/contents/src/a%20b.rs?ref=main%2Fx")
        );
        assert_eq!(
            path::repository(&repo(".github", "x.y")),
            "/repos/.github/x.y"
        );
    }

    #[test]
    fn names_that_would_leave_the_repository_are_refused() {
        for (owner, name) in [
            ("..", ".."),
            (".", "app"),
            ("acme", ".."),
            ("acme", "."),
            ("", "app"),
            ("a b", "app"),
            ("acme", "c/d"),
            ("acme", "%2e%2e"),
        ] {
            assert_eq!(RepoPath::new(owner, name), None, "{owner}/{name}");
        }
        assert!(is_repo_name("..."), "three dots are a name, not a step up");
        assert!(!is_repo_name(&"a".repeat(101)));
    }

    #[test]
    fn no_path_leaves_the_repository() {
        let acme = repo("acme", "app");
        for file in [
            "../../user",
            "a/../../b",
            "./x",
            "a//b",
            "",
            "a/%2E%2e/b",
            "a/.",
        ] {
            assert_eq!(path::contents(&acme, file, "abc"), None, "{file}");
        }
        assert_eq!(path::compare(&acme, "..", "abc"), None);
        assert_eq!(path::compare(&acme, "abc", "."), None);
        assert_eq!(
            path::compare(&acme, "a1", "b2").as_deref(),
            Some("/repos/acme/app/compare/a1...b2")
        );
        // Whatever the inputs, every path built starts with the repository's own prefix.
        for number in [0, 1, u64::MAX] {
            assert!(path::pull_files(&acme, number, 1).starts_with("/repos/acme/app/"));
        }
    }

    #[test]
    fn contents_decode_wrapped_base64() {
        let contents = Contents {
            content: "ZGlhZ3JhbXM6\nIGFsd2F5cwo=\n".into(),
            encoding: "base64".into(),
        };
        assert_eq!(contents.text().as_deref(), Some("diagrams: always\n"));
    }

    fn read<T: serde::de::DeserializeOwned>(text: &str) -> T {
        crate::json::decode(text).unwrap_or_else(|e| panic!("{e}"))
    }

    /// GET /repos/{o}/{r}, trimmed from a real answer: unknown fields and nulls are ignored.
    const REPOSITORY: &str = r#"{
        "id": 1296269, "node_id": "MDEwOlJlcG9zaXRvcnkxMjk2MjY5", "name": "app",
        "full_name": "acme/app", "private": true,
        "owner": {"login": "acme", "id": 1, "type": "Organization", "site_admin": false},
        "html_url": "https://github.com/acme/app", "description": null, "fork": false,
        "homepage": null, "license": null, "topics": [], "visibility": "private",
        "default_branch": "main",
        "permissions": {"admin": false, "maintain": false, "push": true, "triage": true,
                        "pull": true}
    }"#;

    /// GET /repos/{o}/{r}/pulls/{n}, trimmed from a real answer.
    const PULL_REQUEST: &str = r#"{
        "url": "https://api.github.com/repos/acme/app/pulls/7", "id": 1296269007,
        "html_url": "https://github.com/acme/app/pull/7", "number": 7, "state": "open",
        "locked": false, "title": "Add invites",
        "user": {"login": "octo", "id": 583231, "type": "User", "site_admin": false},
        "body": null, "closed_at": null, "merged_at": null, "merge_commit_sha": null,
        "assignee": null, "labels": [], "milestone": null, "draft": true,
        "head": {"label": "acme:invites", "ref": "invites",
                 "sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e",
                 "user": {"login": "acme", "id": 1}, "repo": {"full_name": "acme/app"}},
        "base": {"label": "acme:main", "ref": "main",
                 "sha": "1f5b1e6d2a9d3c4e5f60718293a4b5c6d7e8f901", "user": null,
                 "repo": null},
        "_links": {"self": {"href": "https://api.github.com/repos/acme/app/pulls/7"}},
        "author_association": "COLLABORATOR", "auto_merge": null, "merged": false,
        "mergeable": null, "comments": 0, "review_comments": 2, "commits": 3, "additions": 42, "deletions": 7,
        "changed_files": 5
    }"#;

    #[test]
    fn reads_github_repositories_and_pull_requests() {
        let repository: Repository = read(REPOSITORY);
        assert_eq!(
            repository,
            Repository {
                full_name: "acme/app".into(),
                private: true,
                permissions: Some(Permissions {
                    admin: false,
                    maintain: false,
                    push: true,
                }),
            }
        );
        let bare: Repository = read(r#"{"full_name": "acme/app", "permissions": null}"#);
        assert_eq!((bare.private, bare.permissions), (false, None));

        let pull: PullRequest = read(PULL_REQUEST);
        assert_eq!(
            pull,
            PullRequest {
                number: 7,
                title: "Add invites".into(),
                state: "open".into(),
                merged: false,
                draft: true,
                user: Some(Account {
                    login: "octo".into(),
                    id: 583231,
                }),
                html_url: "https://github.com/acme/app/pull/7".into(),
                base: GitRef {
                    name: "main".into(),
                    sha: "1f5b1e6d2a9d3c4e5f60718293a4b5c6d7e8f901".into(),
                },
                head: GitRef {
                    name: "invites".into(),
                    sha: "6dcb09b5b57875f334f61aebed695e2e4193db5e".into(),
                },
                changed_files: 5,
                additions: Some(42),
                deletions: Some(7),
                review_comments: Some(2),
            }
        );
        // A deleted author is `null`; fields we can do without may be left out.
        let ghost: PullRequest = read(
            r#"{"number": 8, "state": "closed", "user": null, "html_url": "h",
                "base": {"ref": "main", "sha": "b"}, "head": {"ref": "x", "sha": "h"}}"#,
        );
        assert_eq!(ghost.user, None);
        assert_eq!(
            (ghost.title.as_str(), ghost.merged, ghost.draft),
            ("", false, false)
        );
        assert_eq!(ghost.changed_files, 0);
    }

    #[test]
    fn reads_github_files_contents_comparisons_and_users() {
        let files: Vec<PullFile> = read(
            r#"[{"sha": "bbcd538c8e72b8c175046e27cc8f907076331401", "filename": "src/new.rs",
                 "status": "renamed", "additions": 2, "deletions": 1, "changes": 3,
                 "blob_url": "https://github.com/acme/app/blob/6dcb/src/new.rs",
                 "patch": "@@ -1 +1,2 @@\n-a\n+b\n+c", "previous_filename": "src/old.rs"},
                {"sha": "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391", "filename": "logo.png",
                 "status": "added", "additions": 0, "deletions": 0, "changes": 0}]"#,
        );
        assert_eq!(
            files,
            [
                PullFile {
                    filename: "src/new.rs".into(),
                    status: "renamed".into(),
                    additions: 2,
                    deletions: 1,
                    patch: Some("@@ -1 +1,2 @@\n-a\n+b\n+c".into()),
                    previous_filename: Some("src/old.rs".into()),
                    sha: Some("bbcd538c8e72b8c175046e27cc8f907076331401".into()),
                },
                PullFile {
                    filename: "logo.png".into(),
                    status: "added".into(),
                    additions: 0,
                    deletions: 0,
                    patch: None,
                    previous_filename: None,
                    sha: Some("e69de29bb2d1d6434b8b29ae775ad8c2e48c5391".into()),
                },
            ]
        );
        let contents: Contents = read(
            r#"{"type": "file", "encoding": "base64", "size": 17, "name": "logikflow.yml",
                "path": ".github/logikflow.yml", "content": "ZGlhZ3JhbXM6\nIGFsd2F5cwo=\n",
                "sha": "3d21ec53a331a6f037a91c368710b99387d012c1", "_links": {}}"#,
        );
        assert_eq!(contents.text().as_deref(), Some("diagrams: always\n"));
        let comparison: Comparison = read(
            r#"{"url": "u", "status": "ahead", "ahead_by": 2, "behind_by": 0,
                "total_commits": 2, "commits": [], "files": []}"#,
        );
        assert_eq!((comparison.ahead_by, comparison.total_commits), (2, 2));
        let account: Account = read(
            r#"{"login": "octo", "id": 583231, "name": null, "email": null, "bio": null,
                "type": "User", "public_repos": 2}"#,
        );
        assert_eq!((account.login.as_str(), account.id), ("octo", 583231));
    }

    #[test]
    fn unreadable_github_json_shows_where() {
        let error = |text: &str| {
            crate::json::decode::<PullRequest>(text)
                .err()
                .map(|e| e.to_string())
        };
        assert_eq!(
            error(r#"{"number": 7, "state": "open", "html_url": "h", "base": {"sha": "b"}}"#)
                .as_deref(),
            Some("missing field `ref` at line 1 column 68, after `\", \"html_url\": \"h\", \"base\": {\"sha\": \"b\"}`")
        );
        assert_eq!(
            error(r#"{"number": "7"}"#).as_deref(),
            Some("invalid type: string \"7\", expected u64 at line 1 column 14, after `{\"number\": \"7\"`")
        );
        assert!(error(r#"{"number": 7"#).is_some_and(|e| e.starts_with("not JSON")));
    }

    #[test]
    fn review_comments_are_read_a_few_pages_at_most() {
        let acme = repo("acme", "app");
        assert_eq!(
            path::pull_comments(&acme, 7, 2),
            "/repos/acme/app/pulls/7/comments?per_page=100&page=2"
        );
        assert_eq!(comment_pages(Some(0)), 0, "no request for no comments");
        assert_eq!(comment_pages(Some(1)), 1);
        assert_eq!(comment_pages(Some(100)), 1);
        assert_eq!(comment_pages(Some(101)), 2);
        assert_eq!(comment_pages(Some(100_000)), MAX_COMMENT_PAGES);
        assert_eq!(comment_pages(None), 1);
    }

    /// GET /repos/{o}/{r}/pulls/{n}/comments, trimmed from GitHub's documented answer: one
    /// comment on a line, one outdated (`position` and `line` are `null`).
    #[test]
    fn reads_review_comments_and_their_outdated_mark() {
        let comments: Vec<ReviewComment> = read(
            r#"[{"url": "u", "pull_request_review_id": 42, "id": 10, "node_id": "n",
                 "diff_hunk": "@@ -16,33 +16,40 @@", "path": "file1.txt", "position": 1,
                 "original_position": 4, "commit_id": "6dcb", "original_commit_id": "9c48",
                 "in_reply_to_id": null, "user": {"login": "octocat", "id": 1},
                 "body": "Great stuff!", "created_at": "2011-04-14T16:00:49Z",
                 "updated_at": "2011-04-14T16:00:49Z",
                 "html_url": "https://github.com/o/r/pull/1#discussion-diff-1",
                 "author_association": "NONE", "start_line": null, "original_start_line": null,
                 "start_side": null, "line": 2, "original_line": 2, "side": "RIGHT"},
                {"id": 11, "path": "file1.txt", "position": null, "original_position": 4,
                 "line": null, "original_line": 7, "side": "LEFT", "user": null,
                 "body": "<b>old</b>", "created_at": "2011-04-15T16:00:49Z",
                 "html_url": "https://github.com/o/r/pull/1#discussion-diff-2"}]"#,
        );
        assert_eq!(comments.len(), 2);
        let current = &comments[0];
        assert_eq!(
            (current.line, current.side.as_str(), current.is_outdated()),
            (Some(2), "RIGHT", false)
        );
        assert_eq!(current.author(), "octocat");
        let outdated = &comments[1];
        assert!(outdated.is_outdated());
        assert_eq!(outdated.author(), "ghost", "a deleted account");
        assert_eq!((outdated.line, outdated.original_line), (None, Some(7)));
        assert_eq!(outdated.body, "<b>old</b>");
    }

    #[test]
    fn arrange_needs_push() {
        let repo = |push, maintain, admin| Repository {
            full_name: "a/b".into(),
            private: false,
            permissions: Some(Permissions {
                admin,
                maintain,
                push,
            }),
        };
        assert!(repo(true, false, false).can_arrange());
        assert!(repo(false, true, false).can_arrange());
        assert!(repo(false, false, true).can_arrange());
        assert!(!repo(false, false, false).can_arrange());
    }

    #[test]
    fn files_add_up_to_their_pull_request_unless_a_push_came_between() {
        let file = |additions, deletions| PullFile {
            filename: "a.rs".into(),
            status: "modified".into(),
            additions,
            deletions,
            patch: None,
            previous_filename: None,
            sha: None,
        };
        let mut pull: PullRequest = read(PULL_REQUEST);
        pull.changed_files = 2;
        let files = [file(40, 5), file(2, 2)];
        assert!(files_match_pull(&pull, &files));
        assert!(
            !files_match_pull(&pull, &[file(40, 5), file(3, 2)]),
            "lines differ"
        );
        assert!(!files_match_pull(&pull, &files[..1]), "a file fewer");
        pull.additions = None;
        pull.deletions = None;
        assert!(files_match_pull(&pull, &files), "no totals to check");
        pull.changed_files = 3200;
        assert!(files_match_pull(&pull, &files), "GitHub cut the list");
    }
}
