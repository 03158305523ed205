//! The Worker's ports on Workers (wasm only): the `CLIENTS` KV namespace, the `PERSONS` and `PULL_REQUESTS` objects,
//! randomness, GitHub (its token endpoint and its API), the metadata documents' fetch, the
//! console (`ports::edge`'s Workers side, for `app::oauth`).
//!
//! What not: no rule; the size limits, time limits and caching of metadata documents are the
//! application's, this file only carries bytes.

use worker::{web_sys, Env};

use crate::app::oauth::WorkerPorts;
use crate::ports::edge::{
    Capped, DocumentFetch, DocumentHead, Kv, ObjectReply, Objects, PlatformError, Random,
};
use crate::ports::pull_request::Console;

/// The `CLIENTS` namespace, and the `PERSONS` objects, of an environment.
pub struct Clients<'a>(&'a Env);
pub struct Persons<'a>(&'a Env);
/// The `PULL_REQUESTS` objects of an environment.
pub struct Pulls<'a>(&'a Env);

fn platform(error: impl std::fmt::Display) -> PlatformError {
    PlatformError(error.to_string())
}

impl Kv for Clients<'_> {
    async fn get(&self, key: &str) -> Result<Option<String>, PlatformError> {
        let kv = self.0.kv("CLIENTS").map_err(platform)?;
        kv.get(key).text().await.map_err(platform)
    }

    async fn put(&self, key: &str, value: &str, ttl: Option<u64>) -> Result<(), PlatformError> {
        let kv = self.0.kv("CLIENTS").map_err(platform)?;
        let mut put = kv.put(key, super::KvText(value)).map_err(platform)?;
        if let Some(ttl) = ttl {
            put = put.expiration_ttl(ttl);
        }
        put.execute().await.map_err(platform)
    }

    async fn delete(&self, key: &str) -> Result<(), PlatformError> {
        let kv = self.0.kv("CLIENTS").map_err(platform)?;
        kv.delete(key).await.map_err(platform)
    }
}

/// One POST to the object `name` of `binding`.
async fn post(
    env: &Env,
    binding: &str,
    name: &str,
    path: &str,
    body: &str,
) -> Result<ObjectReply, PlatformError> {
    let reply = crate::subrequest::post_to_object(env, binding, name, path, body)
        .await
        .map_err(platform)?;
    Ok(ObjectReply {
        status: reply.status,
        body: reply.body,
    })
}

impl Objects for Persons<'_> {
    async fn post(&self, name: &str, path: &str, body: &str) -> Result<ObjectReply, PlatformError> {
        post(self.0, "PERSONS", name, path, body).await
    }
}

impl Objects for Pulls<'_> {
    async fn post(&self, name: &str, path: &str, body: &str) -> Result<ObjectReply, PlatformError> {
        post(self.0, "PULL_REQUESTS", name, path, body).await
    }
}

/// Randomness from the platform's CSPRNG (`security::random`).
pub struct PlatformRandom;

impl Random for PlatformRandom {
    fn token(&self) -> Result<String, PlatformError> {
        crate::security::random::token().map_err(platform)
    }
}

/// The fetch of a metadata document: `GET`, JSON asked for, redirects not followed.
pub struct DocumentFetcher;

impl DocumentFetch for DocumentFetcher {
    type Body = web_sys::Response;

    async fn get(&self, url: &str) -> Result<DocumentHead<web_sys::Response>, PlatformError> {
        let js = |e: worker::wasm_bindgen::JsValue| PlatformError(format!("{e:?}"));
        let headers = web_sys::Headers::new().map_err(js)?;
        headers.set("accept", "application/json").map_err(js)?;
        headers.set("user-agent", "logikflow").map_err(js)?;
        let init = web_sys::RequestInit::new();
        init.set_method("GET");
        init.set_headers(&headers);
        init.set_redirect(web_sys::RequestRedirect::Manual);
        let request = web_sys::Request::new_with_str_and_init(url, &init).map_err(js)?;
        let response = crate::subrequest::send(&request).await.map_err(platform)?;
        let declared_length = response
            .headers()
            .get("content-length")
            .ok()
            .flatten()
            .and_then(|v| v.parse::<usize>().ok());
        Ok(DocumentHead {
            status: response.status(),
            declared_length,
            body: response,
        })
    }

    async fn read(&self, body: web_sys::Response, limit: usize) -> Result<Capped, PlatformError> {
        match crate::body::read_stream(body.body(), limit).await {
            Ok(crate::body::Capped::Body(body)) => Ok(Capped::Body(body)),
            Ok(crate::body::Capped::TooLarge) => Ok(Capped::TooLarge),
            Err(error) => Err(platform(error)),
        }
    }

    async fn pause(&self, ms: u64) {
        worker::Delay::from(std::time::Duration::from_millis(ms)).await;
    }
}

/// The Worker's console.
pub struct WorkerConsole;

impl Console for WorkerConsole {
    fn warn(&self, line: &str) {
        worker::console_warn!("{line}");
    }

    fn error(&self, line: &str) {
        worker::console_error!("{line}");
    }
}

/// The ports, each a view of the one environment.
pub struct WorkerPlatform<'a> {
    clients: Clients<'a>,
    persons: Persons<'a>,
    pulls: Pulls<'a>,
}

impl<'a> WorkerPlatform<'a> {
    pub fn new(env: &'a Env) -> Self {
        WorkerPlatform {
            clients: Clients(env),
            persons: Persons(env),
            pulls: Pulls(env),
        }
    }
}

impl<'a> WorkerPorts for WorkerPlatform<'a> {
    type Kv = Clients<'a>;
    type Objects = Persons<'a>;
    type Pulls = Pulls<'a>;
    type Clock = crate::bindings::WorkerClock;
    type Random = PlatformRandom;
    type TokenEndpoint = super::person::TokenEndpoint;
    type GitHubApi = crate::github::fetch::FetchTransport;
    type Fetch = DocumentFetcher;
    type Console = WorkerConsole;

    fn clients(&self) -> &Clients<'a> {
        &self.clients
    }
    fn persons(&self) -> &Persons<'a> {
        &self.persons
    }
    fn pulls(&self) -> &Pulls<'a> {
        &self.pulls
    }
    fn clock(&self) -> &crate::bindings::WorkerClock {
        &crate::bindings::WorkerClock
    }
    fn random(&self) -> &PlatformRandom {
        &PlatformRandom
    }
    fn token_endpoint(&self) -> &super::person::TokenEndpoint {
        &super::person::TokenEndpoint
    }
    fn github_api(&self) -> &crate::github::fetch::FetchTransport {
        &crate::github::fetch::FetchTransport
    }
    fn fetch(&self) -> &DocumentFetcher {
        &DocumentFetcher
    }
    fn console(&self) -> &WorkerConsole {
        &WorkerConsole
    }
}
