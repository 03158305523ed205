//! Sends GitHub REST requests over the Worker's fetch (wasm only).
//!
//! Every request carries the person's own token, our `User-Agent` and the API version. A request
//! that gets a 5xx, times out or fails to connect is tried once more; every other failure is
//! classified by `api::classify_failure` and returned as a value.

use futures_util::future::{select, Either};
use worker::{web_sys, Delay};

use super::api::{classify_failure, GitHubError, API_VERSION};
use super::reviews::Refusal;
use crate::subrequest as wire;

/// A GitHub API client for one person.
pub struct GitHub<'a> {
    pub base_url: &'a str,
    pub token: &'a str,
    /// Per-attempt time limit (`GITHUB_TIMEOUT_MS`, default [`crate::config::DEFAULT_GITHUB_TIMEOUT_MS`]).
    pub timeout_ms: u64,
}

impl GitHub<'_> {
    /// GETs `path` and decodes the JSON body.
    pub async fn get<T: serde::de::DeserializeOwned>(&self, path: &str) -> Result<T, GitHubError> {
        let body = self.get_text(path).await?;
        crate::json::decode(&body).map_err(|e| GitHubError::Malformed(e.to_string()))
    }

    /// GETs `path`; `Ok(None)` when GitHub says 404 (for optional files).
    pub async fn get_optional<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
    ) -> Result<Option<T>, GitHubError> {
        match self.get(path).await {
            Ok(value) => Ok(Some(value)),
            Err(GitHubError::NotFound) => Ok(None),
            Err(error) => Err(error),
        }
    }

    /// POSTs a JSON `body` to `path` (GraphQL) and returns the answer's text; retried like a
    /// GET, since the one query we send only reads.
    pub async fn post(&self, path: &str, body: &str) -> Result<String, GitHubError> {
        self.send(path, Some(body)).await
    }

    async fn get_text(&self, path: &str) -> Result<String, GitHubError> {
        self.send(path, None).await
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
        let reply = match self.exchange(path, Some(body)).await {
            Ok(reply) => reply,
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
        crate::log::github(reply.status);
        if (200..300).contains(&reply.status) {
            return Ok(reply.body);
        }
        let mut refusal = Refusal::parse(reply.status, &reply.body);
        if reply.header("x-ratelimit-remaining").as_deref() == Some("0") {
            refusal.message = format!("rate limit: {}", refusal.message);
        }
        Err(refusal)
    }

    async fn attempt(&self, path: &str, body: Option<&str>) -> Result<String, GitHubError> {
        let reply = self.exchange(path, body).await?;
        crate::log::github(reply.status);
        if (200..300).contains(&reply.status) {
            return Ok(reply.body);
        }
        let header = |name: &str| reply.header(name);
        let now = worker::Date::now().as_millis() / 1000;
        Err(classify_failure(reply.status, &header, &reply.body, now))
    }

    /// One exchange with GitHub, its reply read whole, within the time limit.
    async fn exchange(&self, path: &str, body: Option<&str>) -> Result<wire::Reply, GitHubError> {
        let url = format!("{}{}", self.base_url, path);
        let network = |e: worker::wasm_bindgen::JsValue| GitHubError::Network(format!("{e:?}"));
        let headers = web_sys::Headers::new().map_err(network)?;
        let set = |name: &str, value: &str| headers.set(name, value).map_err(network);
        set("authorization", &format!("Bearer {}", self.token))?;
        set("accept", "application/vnd.github+json")?;
        set("user-agent", "logikflow")?;
        set("x-github-api-version", API_VERSION)?;
        let init = web_sys::RequestInit::new();
        match body {
            Some(body) => {
                set("content-type", "application/json")?;
                init.set_method("POST");
                init.set_body(&worker::wasm_bindgen::JsValue::from_str(body));
            }
            None => init.set_method("GET"),
        }
        init.set_headers(&headers);
        let request = web_sys::Request::new_with_str_and_init(&url, &init).map_err(network)?;
        // The time limit covers the whole exchange, body included: a server that sends headers
        // and then stalls must not hold the request open.
        let exchange = Box::pin(async move {
            wire::fetch(&request)
                .await
                .map_err(|e| GitHubError::Network(e.to_string()))
        });
        let timer = Box::pin(Delay::from(std::time::Duration::from_millis(
            self.timeout_ms,
        )));
        match select(exchange, timer).await {
            Either::Left((Ok(reply), _)) => Ok(reply),
            Either::Left((Err(error), _)) => {
                crate::log::github(0);
                Err(error)
            }
            Either::Right(_) => {
                crate::log::github(0);
                Err(GitHubError::Timeout)
            }
        }
    }
}
