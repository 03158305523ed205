//! The GitHub client: GitHub's REST and GraphQL API called with the person's own token, over the
//! GitHub transport port (one exchange), so its rules run natively against a scripted stand-in
//! (issue #37).
//!
//! Every request carries the token, our `User-Agent` and the API version. A read that gets a 5xx,
//! times out or fails to connect is tried once more; a write is sent exactly once (a retry after
//! a lost answer could post a comment twice); every other failure is classified by
//! `api::classify_failure` and returned as a value.
//! Built in one place, [`GitHub::new`], from the configuration (`GITHUB_API_URL`,
//! `GITHUB_TIMEOUT_MS`); the Workers side of the transport is `github::fetch`.
//! What not: no decisions about what to read; callers choose the paths (`api::path`).

use super::api::{classify_failure, GitHubError, API_VERSION};
use super::reviews::Refusal;
use crate::config::Config;
use crate::ports::clock::Clock;
use crate::ports::github::{Answer, Exchange, GitHubTransport, Method, NoAnswer};

/// The response headers the client reads (`classify_failure`, a write's rate-limit note); a
/// transport need pass on no others.
pub const HEADERS_READ: [&str; 3] = ["retry-after", "x-ratelimit-remaining", "x-ratelimit-reset"];

/// A GitHub API client for one person.
pub struct GitHub<'a, T: GitHubTransport> {
    transport: &'a T,
    clock: &'a dyn Clock,
    base_url: &'a str,
    token: &'a str,
    /// Per-attempt time limit (`GITHUB_TIMEOUT_MS`, default [`crate::config::DEFAULT_GITHUB_TIMEOUT_MS`]).
    timeout_ms: u64,
}

impl<'a, T: GitHubTransport> GitHub<'a, T> {
    /// The client for `token`, as the configuration says: the one place a client is built.
    pub fn new(config: &'a Config, token: &'a str, transport: &'a T, clock: &'a dyn Clock) -> Self {
        GitHub {
            transport,
            clock,
            base_url: &config.github_api_url,
            token,
            timeout_ms: config.github_timeout_ms,
        }
    }

    /// GETs `path` and decodes the JSON body.
    pub async fn get<V: serde::de::DeserializeOwned>(&self, path: &str) -> Result<V, GitHubError> {
        let body = self.send(path, None).await?;
        crate::json::decode(&body).map_err(|e| GitHubError::Malformed(e.to_string()))
    }

    /// GETs `path`; `Ok(None)` when GitHub says 404 (for optional files).
    pub async fn get_optional<V: serde::de::DeserializeOwned>(
        &self,
        path: &str,
    ) -> Result<Option<V>, GitHubError> {
        match self.get(path).await {
            Ok(value) => Ok(Some(value)),
            Err(GitHubError::NotFound) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// POSTs a JSON `body` to `path` (GraphQL) and returns the answer's text; retried like a
    /// GET, since the queries sent this way only read.
    pub async fn post(&self, path: &str, body: &str) -> Result<String, GitHubError> {
        self.send(path, Some(body)).await
    }

    /// One request with one retry for transient failures; shared by GET and POST.
    async fn send(&self, path: &str, body: Option<&str>) -> Result<String, GitHubError> {
        match self.attempt(path, body).await {
            Err(error) if error.is_transient() => self.attempt(path, body).await,
            other => other,
        }
    }

    /// POSTs a JSON `body` that writes (a comment, a review, a GraphQL mutation) exactly once:
    /// a write is never retried, as a retry after a lost answer could post it twice. The answer's
    /// text, or GitHub's refusal with its status and words (`reviews::Refusal`); no answer at all
    /// is status 504 (timed out) or 502 (could not connect).
    pub async fn write(&self, path: &str, body: &str) -> Result<String, Refusal> {
        let answer = match self.exchange(path, Some(body)).await {
            Ok(answer) => answer,
            Err(error) => {
                let status = if error == GitHubError::Timeout {
                    504
                } else {
                    502
                };
                return Err(Refusal {
                    status,
                    message: error.to_string(),
                    errors: Vec::new(),
                });
            }
        };
        crate::log::github(answer.status);
        if (200..300).contains(&answer.status) {
            return Ok(answer.body);
        }
        let mut refusal = Refusal::parse(answer.status, &answer.body);
        if answer.header("x-ratelimit-remaining") == Some("0") {
            refusal.message = format!("rate limit: {}", refusal.message);
        }
        Err(refusal)
    }

    async fn attempt(&self, path: &str, body: Option<&str>) -> Result<String, GitHubError> {
        let answer = self.exchange(path, body).await?;
        crate::log::github(answer.status);
        if (200..300).contains(&answer.status) {
            return Ok(answer.body);
        }
        let header = |name: &str| answer.header(name).map(str::to_string);
        Err(classify_failure(
            answer.status,
            &header,
            &answer.body,
            self.clock.now_seconds(),
        ))
    }

    /// One exchange with GitHub, its answer read whole, within the time limit.
    async fn exchange(&self, path: &str, body: Option<&str>) -> Result<Answer, GitHubError> {
        let mut headers = vec![
            ("authorization", format!("Bearer {}", self.token)),
            ("accept", "application/vnd.github+json".to_string()),
            ("user-agent", "logikflow".to_string()),
            ("x-github-api-version", API_VERSION.to_string()),
        ];
        if body.is_some() {
            headers.push(("content-type", "application/json".to_string()));
        }
        let exchange = Exchange {
            method: if body.is_some() {
                Method::Post
            } else {
                Method::Get
            },
            url: format!("{}{}", self.base_url, path),
            headers,
            body: body.map(str::to_string),
        };
        match self.transport.exchange(exchange, self.timeout_ms).await {
            Ok(answer) => Ok(answer),
            Err(failure) => {
                crate::log::github(0);
                Err(match failure {
                    NoAnswer::Timeout => GitHubError::Timeout,
                    NoAnswer::Network(why) => GitHubError::Network(why),
                })
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
