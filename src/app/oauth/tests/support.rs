//! The world the Worker's OAuth server runs in for a test: KV in memory, the people's objects
//! as the real `app::person` over SQLite in memory, a clock the test moves, counted randomness,
//! GitHub as a script, metadata documents as a script, and a console that keeps its lines.
//!
//! Why the real person application behind the object port: the Worker's flows and the object's
//! grants are one protocol (`oauth::person_api`); running both in-process tests what the two
//! halves do together, as `wrangler dev` did, in a millisecond.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::app::oauth::{Incoming, Server, WorkerPorts};
use crate::app::person::{Memory, Person, Request};
pub use crate::app::pull_request::test_support::block_on;
use crate::app::pull_request::test_support::{Scripted, ScriptedGitHub, GITHUB};
use crate::config::Config;
use crate::http::HttpReply;
use crate::ports::clock::FixedClock;
use crate::ports::edge::{
    Capped, DocumentFetch, DocumentHead, Kv, ObjectReply, Objects, PlatformError, Random,
};
use crate::ports::github::{Answer, Exchange, GitHubTransport, NoAnswer};
use crate::ports::person::stand_in::ReversibleSeal;
use crate::ports::pull_request::Console;
use crate::ports::sql::native::MemorySql;
use crate::router::OAuthEndpoint;

/// This deployment's origin in the tests.
pub const BASE: &str = "https://lf.test";
/// The epoch second the tests start at.
pub const START: u64 = 1_800_000_000;
/// The address requests come from unless a test says otherwise.
pub const ADDRESS: &str = "203.0.113.7";

/// KV in memory. It keeps values past their TTL, as KV may for a while, so what is tested is
/// the application's own expiry checks; the TTL asked for is kept to be read.
#[derive(Default)]
pub struct MemoryKv {
    pub entries: RefCell<BTreeMap<String, (String, Option<u64>)>>,
    pub down: Cell<bool>,
}

impl MemoryKv {
    pub fn value(&self, key: &str) -> Option<String> {
        self.entries.borrow().get(key).map(|(v, _)| v.clone())
    }
    pub fn ttl(&self, key: &str) -> Option<u64> {
        self.entries.borrow().get(key).and_then(|(_, ttl)| *ttl)
    }
    /// The keys starting with `prefix`.
    pub fn keys(&self, prefix: &str) -> Vec<String> {
        let entries = self.entries.borrow();
        entries
            .keys()
            .filter(|k| k.starts_with(prefix))
            .cloned()
            .collect()
    }
    fn up(&self) -> Result<(), PlatformError> {
        match self.down.get() {
            true => Err(PlatformError("KV is down in this test".into())),
            false => Ok(()),
        }
    }
}

impl Kv for MemoryKv {
    async fn get(&self, key: &str) -> Result<Option<String>, PlatformError> {
        self.up()?;
        Ok(self.value(key))
    }
    async fn put(&self, key: &str, value: &str, ttl: Option<u64>) -> Result<(), PlatformError> {
        self.up()?;
        let entry = (value.to_string(), ttl);
        self.entries.borrow_mut().insert(key.to_string(), entry);
        Ok(())
    }
    async fn delete(&self, key: &str) -> Result<(), PlatformError> {
        self.up()?;
        self.entries.borrow_mut().remove(key);
        Ok(())
    }
}

/// GitHub for the people's objects: never asked in these tests (no GitHub refresh).
pub struct NoGitHub;

impl GitHubTransport for NoGitHub {
    async fn exchange(&self, _: Exchange, _: u64) -> Result<Answer, NoAnswer> {
        Err(NoAnswer::Timeout)
    }
}

/// One object of the `PERSONS` namespace: its storage and memory.
#[derive(Default)]
struct Object {
    sql: MemorySql,
    memory: Memory,
}

/// The `PERSONS` namespace: each name its own `app::person` over SQLite in memory, answered as
/// `store::PersonStore` answers (200 with JSON, 404 for no such operation, 500 on a failure).
pub struct PersonObjects {
    objects: RefCell<BTreeMap<String, Rc<Object>>>,
    clock: Rc<FixedClock>,
    config: Config,
    sealer: ReversibleSeal,
    /// Every call: the object's name and the operation.
    pub calls: RefCell<Vec<(String, String)>>,
    pub down: Cell<bool>,
}

impl PersonObjects {
    /// Whether an object by this name was ever created.
    pub fn exists(&self, name: &str) -> bool {
        self.objects.borrow().contains_key(name)
    }
}

impl Objects for PersonObjects {
    async fn post(&self, name: &str, path: &str, body: &str) -> Result<ObjectReply, PlatformError> {
        self.calls.borrow_mut().push((name.into(), path.into()));
        if self.down.get() {
            return Err(PlatformError(
                "the object is unreachable in this test".into(),
            ));
        }
        let object = self
            .objects
            .borrow_mut()
            .entry(name.into())
            .or_default()
            .clone();
        let person = Person {
            sql: &object.sql,
            clock: &*self.clock,
            sealer: &self.sealer,
            github: &NoGitHub,
            config: &self.config,
            memory: &object.memory,
        };
        let answered = match Request::decode(path, body) {
            Ok(Some(request)) => person.answer(request).await,
            Ok(None) => return Ok(reply(404, "no such operation")),
            Err(error) => Err(error.into()),
        };
        Ok(match answered {
            Ok(json) => reply_of(200, json),
            Err(_) => reply(500, "the person object failed"),
        })
    }
}

fn reply(status: u16, body: &str) -> ObjectReply {
    reply_of(status, body.to_string())
}

fn reply_of(status: u16, body: String) -> ObjectReply {
    ObjectReply { status, body }
}

/// The `PULL_REQUESTS` namespace as far as settings reach it: every call kept (name, operation,
/// body), answered 200 `{"removed":1}`, or 500 for a name in `failing`.
#[derive(Default)]
pub struct PullObjects {
    pub calls: RefCell<Vec<(String, String, String)>>,
    pub failing: RefCell<Vec<String>>,
}

impl Objects for PullObjects {
    async fn post(&self, name: &str, path: &str, body: &str) -> Result<ObjectReply, PlatformError> {
        let call = (name.to_string(), path.to_string(), body.to_string());
        self.calls.borrow_mut().push(call);
        if self.failing.borrow().iter().any(|failing| failing == name) {
            return Ok(reply(500, "the pull request object failed"));
        }
        Ok(reply(200, r#"{"removed":1}"#))
    }
}

/// Randomness that counts: `0…01rr…`, `0…02rr…`, … (43 characters, as a real token; the
/// count first, as a client id keeps the first 22).
#[derive(Default)]
pub struct CountingRandom(Cell<u64>);

impl Random for CountingRandom {
    fn token(&self) -> Result<String, PlatformError> {
        self.0.set(self.0.get() + 1);
        Ok(format!("{:022}{}", self.0.get(), "r".repeat(21)))
    }
}

/// A scripted metadata document.
#[derive(Clone)]
pub struct Document {
    pub status: u16,
    pub declared_length: Option<usize>,
    pub body: Vec<u8>,
}

/// Metadata documents as a script by URL (an unscripted URL answers 404); `hang` makes every
/// fetch wait until the time limit. Counts the fetches and the bodies read.
#[derive(Default)]
pub struct ScriptedDocuments {
    pub documents: RefCell<BTreeMap<String, Document>>,
    pub fetched: RefCell<Vec<String>>,
    pub reads: Cell<usize>,
    pub hang: Cell<bool>,
}

impl ScriptedDocuments {
    /// Scripts `url` to answer 200 with `json` (its length declared).
    pub fn serve(&self, url: &str, json: &str) {
        let body = json.as_bytes().to_vec();
        let document = Document {
            status: 200,
            declared_length: Some(body.len()),
            body,
        };
        self.documents.borrow_mut().insert(url.into(), document);
    }
}

impl DocumentFetch for ScriptedDocuments {
    type Body = Vec<u8>;

    async fn get(&self, url: &str) -> Result<DocumentHead<Vec<u8>>, PlatformError> {
        self.fetched.borrow_mut().push(url.into());
        if self.hang.get() {
            std::future::pending::<()>().await;
        }
        let document = self.documents.borrow().get(url).cloned();
        let document = document.unwrap_or(Document {
            status: 404,
            declared_length: None,
            body: Vec::new(),
        });
        Ok(DocumentHead {
            status: document.status,
            declared_length: document.declared_length,
            body: document.body,
        })
    }

    async fn read(&self, body: Vec<u8>, limit: usize) -> Result<Capped, PlatformError> {
        self.reads.set(self.reads.get() + 1);
        Ok(match body.len() > limit {
            true => Capped::TooLarge,
            false => Capped::Body(body),
        })
    }

    /// Ends at once when fetches hang, and never otherwise: the time limit is reached exactly
    /// when a test says the document does not come.
    async fn pause(&self, _ms: u64) {
        if !self.hang.get() {
            std::future::pending::<()>().await;
        }
    }
}

/// A console that keeps its lines.
#[derive(Default)]
pub struct Lines(pub RefCell<Vec<String>>);

impl Console for Lines {
    fn warn(&self, line: &str) {
        self.0.borrow_mut().push(line.into());
    }
    fn error(&self, line: &str) {
        self.0.borrow_mut().push(line.into());
    }
}

/// The Worker and everything around it.
pub struct World {
    pub kv: MemoryKv,
    pub persons: PersonObjects,
    pub pulls: PullObjects,
    pub clock: Rc<FixedClock>,
    pub random: CountingRandom,
    pub github: ScriptedGitHub,
    pub documents: ScriptedDocuments,
    pub console: Lines,
    pub config: Config,
}

impl WorkerPorts for World {
    type Kv = MemoryKv;
    type Objects = PersonObjects;
    type Pulls = PullObjects;
    type Clock = FixedClock;
    type Random = CountingRandom;
    type TokenEndpoint = ScriptedGitHub;
    type GitHubApi = ScriptedGitHub;
    type Fetch = ScriptedDocuments;
    type Console = Lines;
    fn clients(&self) -> &MemoryKv {
        &self.kv
    }
    fn persons(&self) -> &PersonObjects {
        &self.persons
    }
    fn pulls(&self) -> &PullObjects {
        &self.pulls
    }
    fn clock(&self) -> &FixedClock {
        &self.clock
    }
    fn random(&self) -> &CountingRandom {
        &self.random
    }
    fn token_endpoint(&self) -> &ScriptedGitHub {
        &self.github
    }
    fn github_api(&self) -> &ScriptedGitHub {
        &self.github
    }
    fn fetch(&self) -> &ScriptedDocuments {
        &self.documents
    }
    fn console(&self) -> &Lines {
        &self.console
    }
}

/// The configuration the tests run with, with `extra` vars on top.
pub fn config(extra: &[(&str, &str)]) -> Config {
    Config::from_vars(|name| {
        if let Some((_, value)) = extra.iter().find(|(key, _)| *key == name) {
            return Some(value.to_string());
        }
        match name {
            "TOKEN_ENCRYPTION_KEY" => Some("a-test-secret".into()),
            "GITHUB_CLIENT_ID" => Some("Iv1.test".into()),
            "GITHUB_CLIENT_SECRET" => Some("shh".into()),
            "GITHUB_OAUTH_URL" | "GITHUB_API_URL" => Some(GITHUB.into()),
            "ADDRESS_RATE_LIMIT_PER_MINUTE" => Some("1000".into()),
            _ => None,
        }
    })
}

impl World {
    pub fn new() -> World {
        World::with(&[])
    }

    /// A world whose configuration has `extra` vars.
    pub fn with(extra: &[(&str, &str)]) -> World {
        let clock = Rc::new(FixedClock::at(START * 1000));
        let config = config(extra);
        World {
            kv: MemoryKv::default(),
            persons: PersonObjects {
                objects: RefCell::default(),
                clock: clock.clone(),
                config: config.clone(),
                sealer: ReversibleSeal::default(),
                calls: RefCell::default(),
                down: Cell::new(false),
            },
            pulls: PullObjects::default(),
            clock,
            random: CountingRandom::default(),
            github: ScriptedGitHub::new(),
            documents: ScriptedDocuments::default(),
            console: Lines::default(),
            config,
        }
    }

    pub fn server(&self) -> Server<'_, World> {
        Server {
            ports: self,
            config: &self.config,
            base_url: BASE,
        }
    }

    /// Moves the clock on by whole seconds.
    pub fn wait(&self, seconds: u64) {
        self.clock.advance(seconds * 1000);
    }

    /// Serves `endpoint` for `incoming`.
    pub fn call(&self, endpoint: OAuthEndpoint, incoming: Incoming) -> HttpReply {
        block_on(self.server().handle(endpoint, incoming))
    }

    /// GitHub signs `login` (id `id`) in: its token endpoint and `/user` answer.
    pub fn github_signs_in(&self, login: &str, id: u64) {
        self.github.on(
            "/login/oauth/access_token",
            [Scripted::ok(format!(
                r#"{{"access_token":"gho_{login}","token_type":"bearer","scope":""}}"#
            ))],
        );
        self.github.on(
            "/user",
            [Scripted::ok(format!(r#"{{"login":"{login}","id":{id}}}"#))],
        );
    }
}

/// A GET with this query from [`ADDRESS`].
pub fn get(query: &str) -> Incoming {
    Incoming {
        query: query.into(),
        address: ADDRESS.into(),
        ..Incoming::default()
    }
}

/// A POST of a form body from [`ADDRESS`].
pub fn form(body: &str) -> Incoming {
    Incoming {
        body: Some(body.as_bytes().to_vec()),
        content_type: Some("application/x-www-form-urlencoded".into()),
        address: ADDRESS.into(),
        ..Incoming::default()
    }
}

/// A POST of a JSON body from [`ADDRESS`].
pub fn json(body: &str) -> Incoming {
    Incoming {
        body: Some(body.as_bytes().to_vec()),
        content_type: Some("application/json".into()),
        address: ADDRESS.into(),
        ..Incoming::default()
    }
}

/// Every `set-cookie` of a reply.
pub fn cookies(reply: &HttpReply) -> Vec<&str> {
    let headers = reply.headers.iter();
    headers
        .filter(|(name, _)| name == "set-cookie")
        .map(|(_, value)| value.as_str())
        .collect()
}

/// A query or form value of `url` (after its `?`).
pub fn param(url: &str, key: &str) -> Option<String> {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.into_owned())
}

/// `value`, URL-encoded for a query or form.
pub fn enc(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}
