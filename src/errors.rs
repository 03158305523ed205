//! Every message about GitHub failures that an agent sees, in one place.
//!
//! Each starts exactly as the spec's error table says, then tells the agent what to do next.
//! Internal causes (status codes, decode errors) are named only where they help a person retry.

use crate::github::api::GitHubError;

/// The tool error for a failed GitHub request about `what` (`acme/app#12`).
pub fn github_failure(error: &GitHubError, what: &str) -> String {
    match error {
        GitHubError::NotFound => format!(
            "GitHub says this pull request doesn't exist or this account can't see it: {what}. Check the owner, repository and number, and that the signed-in GitHub account can open it."
        ),
        GitHubError::Unauthorized => "GitHub access for this connection has expired or was revoked. Reconnect LogiKFlow (sign in with GitHub again), then retry.".to_string(),
        GitHubError::RateLimited { retry_after_seconds } => match retry_after_seconds {
            Some(seconds) => format!(
                "GitHub's rate limit was reached for this account. It resets in about {}; retry after that.",
                describe_wait(*seconds)
            ),
            None => "GitHub's rate limit was reached for this account. Wait a minute, then retry.".to_string(),
        },
        // A 403 that is not a rate limit (SAML enforcement, an IP allow list, an organization
        // that blocks OAuth apps): this account can't see the pull request, in the spec's words.
        GitHubError::Forbidden(message) => format!(
            "GitHub says this pull request doesn't exist or this account can't see it: {what}. GitHub refused access{}{message}. Check that the signed-in GitHub account may read this repository (an organization may require SSO authorization or approval of LogiKFlow).",
            if message.is_empty() { "" } else { ": " }
        ),
        GitHubError::Unavailable(status) => format!(
            "GitHub is not answering properly right now (HTTP {status}, twice). Retry in a minute."
        ),
        GitHubError::Timeout => {
            "GitHub did not answer in time (twice). Retry in a minute.".to_string()
        }
        GitHubError::Malformed(_) => {
            "GitHub sent an answer LogiKFlow could not read. Retry in a minute.".to_string()
        }
        GitHubError::Network(_) => {
            "LogiKFlow could not reach GitHub. Retry in a minute.".to_string()
        }
    }
}

/// The message for a file GitHub wouldn't serve after it served its pull request (the review
/// page's "Expand" reads the file at the head): it names the file, since the pull request itself
/// was just read (issue #31).
pub fn github_file_failure(error: &GitHubError, path: &str) -> String {
    let why = match error {
        GitHubError::NotFound | GitHubError::Forbidden(_) => "it says the file isn't there or this account can't read it. Reload the review page (the pull request may have moved on), or open the file on GitHub.".to_string(),
        other => github_failure(other, path),
    };
    format!("GitHub couldn't serve {path} at the pull request's head: {why}")
}

/// "45 seconds", "3 minutes", "2 hours".
fn describe_wait(seconds: u64) -> String {
    match seconds {
        0..=1 => "1 second".to_string(),
        2..=89 => format!("{seconds} seconds"),
        90..=5399 => format!("{} minutes", seconds.div_ceil(60)),
        _ => format!("{} hours", seconds.div_ceil(3600)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(error: GitHubError, starts_with: &str) {
        let message = github_failure(&error, "acme/app#1");
        assert!(message.starts_with(starts_with), "{message}");
    }

    #[test]
    fn messages_start_as_the_spec_says() {
        check(
            GitHubError::NotFound,
            "GitHub says this pull request doesn't exist or this account can't see it",
        );
        check(
            GitHubError::Unauthorized,
            "GitHub access for this connection has expired",
        );
        check(
            GitHubError::RateLimited {
                retry_after_seconds: Some(30),
            },
            "GitHub's rate limit was reached",
        );
        check(
            GitHubError::RateLimited {
                retry_after_seconds: None,
            },
            "GitHub's rate limit was reached",
        );
        check(
            GitHubError::Unavailable(502),
            "GitHub is not answering properly right now (HTTP 502",
        );
        check(GitHubError::Timeout, "GitHub did not answer in time");
        check(
            GitHubError::Forbidden("Resource protected by organization SAML enforcement".into()),
            "GitHub says this pull request doesn't exist or this account can't see it: acme/app#1. GitHub refused access: Resource protected by organization SAML enforcement.",
        );
    }

    #[test]
    fn file_failures_name_the_file_not_the_pull_request() {
        for error in [
            GitHubError::NotFound,
            GitHubError::Forbidden("Resource protected by organization SAML enforcement".into()),
        ] {
            let message = github_file_failure(&error, "src/lib.rs");
            assert!(
                message.starts_with("GitHub couldn't serve src/lib.rs at the pull request's head: it says the file isn't there"),
                "{message}"
            );
            assert!(!message.contains("pull request doesn't exist"), "{message}");
        }
        let message = github_file_failure(&GitHubError::Timeout, "a.rs");
        assert!(
            message.starts_with("GitHub couldn't serve a.rs at the pull request's head: GitHub did not answer in time"),
            "{message}"
        );
    }

    #[test]
    fn waits() {
        assert_eq!(describe_wait(0), "1 second");
        assert_eq!(describe_wait(30), "30 seconds");
        assert_eq!(describe_wait(600), "10 minutes");
        assert_eq!(describe_wait(7200), "2 hours");
    }
}
