//! The pure half of the GitHub REST client: the requests we make, the typed shapes we read back,
//! and how a failed response is classified.
//!
//! Only the fields LogiKFlow uses are decoded; everything else GitHub sends is ignored, so a new
//! field never breaks us. Sending lives in `client` (wasm only).

use serde::Deserialize;

/// GitHub's REST API version we speak (sent as `X-GitHub-Api-Version`).
pub const API_VERSION: &str = "2022-11-28";
/// Files per page of `/pulls/{n}/files`: GitHub's maximum.
pub const FILES_PER_PAGE: u32 = 100;
/// GitHub lists at most this many files of a pull request.
pub const MAX_LISTED_FILES: u32 = 3000;

/// Encodes one path segment (owner, repo, file path part) for a URL.
pub fn encode_segment(segment: &str) -> String {
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

/// Paths of the endpoints we call, relative to the API base.
pub mod path {
    use super::{encode_segment, FILES_PER_PAGE};

    pub fn repository(owner: &str, repo: &str) -> String {
        format!("/repos/{}/{}", encode_segment(owner), encode_segment(repo))
    }

    pub fn pull_request(owner: &str, repo: &str, number: u64) -> String {
        format!("{}/pulls/{number}", repository(owner, repo))
    }

    pub fn pull_files(owner: &str, repo: &str, number: u64, page: u32) -> String {
        format!(
            "{}/files?per_page={FILES_PER_PAGE}&page={page}",
            pull_request(owner, repo, number)
        )
    }

    /// A file's contents at a commit; `file` keeps its slashes.
    pub fn contents(owner: &str, repo: &str, file: &str, git_ref: &str) -> String {
        let file: Vec<String> = file.split('/').map(encode_segment).collect();
        format!(
            "{}/contents/{}?ref={}",
            repository(owner, repo),
            file.join("/"),
            encode_segment(git_ref)
        )
    }

    pub fn compare(owner: &str, repo: &str, base: &str, head: &str) -> String {
        format!(
            "{}/compare/{}...{}",
            repository(owner, repo),
            encode_segment(base),
            encode_segment(head)
        )
    }

    pub fn user() -> String {
        "/user".to_string()
    }
}

/// How many file pages a pull request with `changed_files` needs (GitHub lists at most 3,000).
pub fn file_pages(changed_files: u64) -> u32 {
    let listed = changed_files.min(u64::from(MAX_LISTED_FILES)) as u32;
    listed.div_ceil(FILES_PER_PAGE).max(1)
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Permissions {
    #[serde(default)]
    pub admin: bool,
    #[serde(default)]
    pub maintain: bool,
    #[serde(default)]
    pub push: bool,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Repository {
    pub full_name: String,
    #[serde(default)]
    pub private: bool,
    #[serde(default)]
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

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Account {
    pub login: String,
    #[serde(default)]
    pub id: u64,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct GitRef {
    #[serde(rename = "ref")]
    pub name: String,
    pub sha: String,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct PullRequest {
    pub number: u64,
    #[serde(default)]
    pub title: String,
    pub state: String,
    #[serde(default)]
    pub merged: bool,
    #[serde(default)]
    pub draft: bool,
    pub user: Option<Account>,
    pub html_url: String,
    pub base: GitRef,
    pub head: GitRef,
    #[serde(default)]
    pub changed_files: u64,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct PullFile {
    pub filename: String,
    pub status: String,
    #[serde(default)]
    pub additions: u64,
    #[serde(default)]
    pub deletions: u64,
    #[serde(default)]
    pub patch: Option<String>,
    #[serde(default)]
    pub previous_filename: Option<String>,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Contents {
    #[serde(default)]
    pub content: String,
    #[serde(default)]
    pub encoding: String,
}

impl Contents {
    /// The file's text: GitHub sends base64 with line breaks every 60 characters.
    pub fn text(&self) -> Option<String> {
        use base64::Engine;
        if self.encoding != "base64" {
            return None;
        }
        let compact: String = self
            .content
            .chars()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(compact)
            .ok()?;
        String::from_utf8(bytes).ok()
    }
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Comparison {
    #[serde(default)]
    pub ahead_by: u64,
    #[serde(default)]
    pub total_commits: u64,
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

    #[test]
    fn paths_are_encoded() {
        assert_eq!(
            path::pull_files("acme", "app", 7, 2),
            "/repos/acme/app/pulls/7/files?per_page=100&page=2"
        );
        assert_eq!(
            path::contents("acme", "app", ".github/logikflow.yml", "abc123"),
            "/repos/acme/app/contents/.github/logikflow.yml?ref=abc123"
        );
        assert_eq!(path::repository("a b", "c/d"), "/repos/a%20b/c%2Fd");
    }

    #[test]
    fn contents_decode_wrapped_base64() {
        let contents = Contents {
            content: "ZGlhZ3JhbXM6\nIGFsd2F5cwo=\n".into(),
            encoding: "base64".into(),
        };
        assert_eq!(contents.text().as_deref(), Some("diagrams: always\n"));
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
}
