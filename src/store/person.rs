//! The Durable Object that owns one person's OAuth state, named `gh:<GitHub id>` (or
//! `ip:<address>` when used only as a per-address rate window): a shell around
//! `app::person`, which does the work (DESIGN §2).
//!
//! This file decodes a request (`app::person::Request::decode`), calls the application with
//! the object's ports, and encodes the reply; and it holds the platform's side of two ports:
//! sealing with WebCrypto (`oauth::seal`, the key imported once) and GitHub's token endpoint
//! over the Worker's fetch (`subrequest::post_github_form`).
//!
//! Requests are read with `web_sys` alone: no `worker::Request` (whose conversion reads the
//! headers and `cf` objects) and no `worker::Response` (a `Headers` object per reply), which
//! the token path pays on every `/mcp` request.

use std::cell::RefCell;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use worker::wasm_bindgen_futures::JsFuture;
use worker::{web_sys, Env, SqlStorage, State};

use crate::app::person::{Memory, Person, PersonError, Request};
use crate::ports::github::{Answer, Exchange, GitHubTransport, NoAnswer};
use crate::ports::person::{SealFailure, Sealer};

#[wasm_bindgen(wasm_bindgen = ::worker::wasm_bindgen)]
pub struct PersonStore {
    sql: SqlStorage,
    env: Env,
    memory: Memory,
    sealer: WebCryptoSeal,
}

#[wasm_bindgen(
    wasm_bindgen = ::worker::wasm_bindgen,
    wasm_bindgen_futures = ::worker::wasm_bindgen_futures,
    js_sys = ::worker::js_sys
)]
impl PersonStore {
    #[wasm_bindgen(constructor)]
    pub fn new(state: worker::worker_sys::DurableObjectState, env: Env) -> PersonStore {
        let state = State::from(state);
        PersonStore {
            sql: state.storage().sql(),
            env,
            memory: Memory::default(),
            sealer: WebCryptoSeal::default(),
        }
    }

    /// Every operation is a JSON POST answered with JSON (see `oauth::person_api`).
    pub async fn fetch(&self, req: web_sys::Request) -> Result<JsValue, JsValue> {
        let (status, body) = match self.answer(&req).await {
            Ok(Some(json)) => (200, json),
            Ok(None) => (404, "no such operation".to_string()),
            Err(error) => {
                worker::console_error!("person object: {error}");
                (500, "the person object failed".to_string())
            }
        };
        for warning in self.memory.take_warnings() {
            worker::console_error!("{warning}");
        }
        let init = web_sys::ResponseInit::new();
        init.set_status(status);
        web_sys::Response::new_with_opt_str_and_init(Some(&body), &init).map(JsValue::from)
    }
}

impl PersonStore {
    async fn answer(&self, req: &web_sys::Request) -> Result<Option<String>, String> {
        if req.method() != "POST" {
            return Ok(None);
        }
        let url = req.url();
        let text = req.text().map_err(|e| format!("{e:?}"))?;
        let body = JsFuture::from(text)
            .await
            .map_err(|e| format!("{e:?}"))?
            .as_string()
            .unwrap_or_default();
        let request = match Request::decode(object_path(&url), &body) {
            Ok(Some(request)) => request,
            Ok(None) => return Ok(None),
            Err(error) => return Err(error.to_string()),
        };
        let config = crate::bindings::config(&self.env);
        self.sealer
            .set_secret(config.token_encryption_key.as_deref());
        let person = Person {
            sql: &self.sql,
            clock: &crate::bindings::WorkerClock,
            sealer: &self.sealer,
            github: &TokenEndpoint,
            config,
            memory: &self.memory,
        };
        person
            .answer(request)
            .await
            .map(Some)
            .map_err(|error: PersonError| error.to_string())
    }
}

/// The path of an object request's URL (`https://object/check` → `/check`); the host means
/// nothing here.
fn object_path(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[after_scheme..];
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    path.split(['?', '#']).next().unwrap_or(path)
}

/// AES-GCM with WebCrypto (`oauth::seal`), the key imported from `TOKEN_ENCRYPTION_KEY` once.
#[derive(Default)]
struct WebCryptoSeal {
    secret: RefCell<Option<String>>,
    key: RefCell<Option<JsValue>>,
}

impl WebCryptoSeal {
    fn set_secret(&self, secret: Option<&str>) {
        if self.secret.borrow().is_none() {
            *self.secret.borrow_mut() = secret.map(str::to_string);
        }
    }

    async fn key(&self) -> Result<JsValue, SealFailure> {
        if let Some(key) = self.key.borrow().as_ref() {
            return Ok(key.clone());
        }
        let secret =
            self.secret.borrow().clone().ok_or_else(|| {
                SealFailure::Unavailable("TOKEN_ENCRYPTION_KEY is not set".into())
            })?;
        let key = crate::oauth::seal::import_key(&secret)
            .await
            .map_err(|e| SealFailure::Unavailable(format!("importing the key: {e}")))?;
        *self.key.borrow_mut() = Some(key.clone());
        Ok(key)
    }
}

impl Sealer for WebCryptoSeal {
    async fn seal(&self, additional_data: &str, plaintext: &str) -> Result<String, SealFailure> {
        let key = self.key().await?;
        crate::oauth::seal::seal(&key, additional_data, plaintext)
            .await
            .map_err(|e| SealFailure::Unavailable(format!("sealing: {e}")))
    }

    async fn open(&self, additional_data: &str, sealed: &str) -> Result<String, SealFailure> {
        let key = self.key().await?;
        crate::oauth::seal::open(&key, additional_data, sealed)
            .await
            .map_err(|e| SealFailure::Unreadable(e.to_string()))
    }
}

/// GitHub's OAuth token endpoint, the one GitHub exchange this object makes: a form POST
/// (`subrequest::post_github_form` sets the headers the exchange carries). The Worker's sign-in
/// (`store::worker`) makes its code exchange through it too.
pub struct TokenEndpoint;

impl GitHubTransport for TokenEndpoint {
    async fn exchange(&self, exchange: Exchange, timeout_ms: u64) -> Result<Answer, NoAnswer> {
        let form = exchange.body.unwrap_or_default();
        match crate::subrequest::post_github_form(&exchange.url, &form, timeout_ms).await {
            Ok(reply) => Ok(Answer {
                status: reply.status,
                headers: Vec::new(),
                body: reply.body,
            }),
            Err(error) => Err(NoAnswer::Network(error.to_string())),
        }
    }
}
