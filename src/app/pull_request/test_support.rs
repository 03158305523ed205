//! What the pull request's in-process tests share: a poll loop that runs a future whose
//! stand-ins answer at once (`block_on`, on `std::task::Waker::noop`, so no executor crate),
//! fresh records on SQLite in memory, a scripted GitHub that counts requests and injects faults
//! (5xx, 401, rate limits, timeouts, lost connections) and can make every exchange wait a turn,
//! and the object's surroundings ([`Around`]: a cache in memory that counts reads and writes and
//! can refuse writes or decline them as too large, a pause that yields a turn, a console that keeps its lines).
//!
//! What not: no test cases; each module keeps its own.

use super::calls::{ReviewerCall, RouteCall, ViewerCall};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::config::Config;
use crate::person_data::Ticked;
use crate::ports::clock::FixedClock;
use crate::ports::github::{Answer, Exchange, GitHubTransport, NoAnswer};
use crate::ports::pull_request::{Cache, CacheError, Console, IndexListing, Pause, PersonIndex};
use crate::ports::sql::native::MemorySql;

/// Runs `future` to its end by polling it. Every stand-in here answers at once, so a future that
/// stays pending past the bound is a test's bug.
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut context = Context::from_waker(Waker::noop());
    for _ in 0..1_000_000 {
        if let Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
    }
    panic!("a future stayed pending with stand-ins that answer at once");
}

/// A pull request's SQL storage with its schema created.
pub fn storage() -> MemorySql {
    let sql = MemorySql::new();
    super::records::Records::new(&sql)
        .schema()
        .expect("the schema is created on SQLite in memory");
    sql
}

/// Where the scripted GitHub answers (`GITHUB_API_URL` of [`config`]).
pub const GITHUB: &str = "https://github.test";

/// The configuration the tests run with: GitHub is [`GITHUB`].
pub fn config() -> Config {
    Config::from_vars(|name| match name {
        "GITHUB_API_URL" => Some(GITHUB.to_string()),
        _ => None,
    })
}

/// A clock at a fixed time, 2026-11-28.
pub fn clock() -> FixedClock {
    FixedClock::at(1_795_891_327_000)
}

/// One scripted answer.
#[derive(Debug, Clone)]
pub enum Scripted {
    Answer(Answer),
    Timeout,
    Network,
}

impl Scripted {
    /// A 200 with this body.
    pub fn ok(body: impl Into<String>) -> Scripted {
        Scripted::status(200, body)
    }

    /// An answer with this status and body.
    pub fn status(status: u16, body: impl Into<String>) -> Scripted {
        Scripted::Answer(Answer {
            status,
            headers: Vec::new(),
            body: body.into(),
        })
    }

    /// This answer with a header more.
    pub fn header(self, name: &str, value: &str) -> Scripted {
        match self {
            Scripted::Answer(mut answer) => {
                answer.headers.push((name.to_string(), value.to_string()));
                Scripted::Answer(answer)
            }
            other => other,
        }
    }
}

/// GitHub as a script: each path (the URL after [`GITHUB`]) answers its scripted answers in
/// order, repeating the last; an unscripted path answers 404. Every exchange is kept, to count.
#[derive(Default)]
pub struct ScriptedGitHub {
    script: RefCell<Vec<(String, VecDeque<Scripted>)>>,
    seen: RefCell<Vec<Exchange>>,
    /// Every exchange waits a turn before it answers, as a real one would, so concurrent
    /// requests interleave.
    slow: Cell<bool>,
}

impl ScriptedGitHub {
    pub fn new() -> ScriptedGitHub {
        ScriptedGitHub::default()
    }

    /// Scripts `path` (with its query) to answer `answers` in order, then the last again.
    pub fn on(&self, path: &str, answers: impl IntoIterator<Item = Scripted>) -> &Self {
        let answers: VecDeque<Scripted> = answers.into_iter().collect();
        assert!(!answers.is_empty(), "script {path} with an answer");
        let mut script = self.script.borrow_mut();
        script.retain(|(known, _)| known != path);
        script.push((path.to_string(), answers));
        self
    }

    /// Makes every exchange wait a turn before it answers.
    pub fn slow(&self) -> &Self {
        self.slow.set(true);
        self
    }

    /// Every exchange so far, in order.
    pub fn requests(&self) -> Vec<Exchange> {
        self.seen.borrow().clone()
    }

    /// How many exchanges asked for `path`.
    pub fn count(&self, path: &str) -> usize {
        let url = format!("{GITHUB}{path}");
        self.seen.borrow().iter().filter(|e| e.url == url).count()
    }

    /// How many exchanges there were.
    pub fn total(&self) -> usize {
        self.seen.borrow().len()
    }
}

impl GitHubTransport for ScriptedGitHub {
    async fn exchange(&self, exchange: Exchange, _timeout_ms: u64) -> Result<Answer, NoAnswer> {
        let path = exchange
            .url
            .strip_prefix(GITHUB)
            .unwrap_or(&exchange.url)
            .to_string();
        self.seen.borrow_mut().push(exchange);
        if self.slow.get() {
            Turn::default().await;
        }
        let mut script = self.script.borrow_mut();
        let Some((_, answers)) = script.iter_mut().find(|(known, _)| *known == path) else {
            return Ok(Answer {
                status: 404,
                headers: Vec::new(),
                body: r#"{"message":"Not Found"}"#.to_string(),
            });
        };
        let next = if answers.len() > 1 {
            answers.pop_front()
        } else {
            answers.front().cloned()
        };
        match next {
            Some(Scripted::Answer(answer)) => Ok(answer),
            Some(Scripted::Timeout) => Err(NoAnswer::Timeout),
            Some(Scripted::Network) | None => Err(NoAnswer::Network("connection refused".into())),
        }
    }
}

/// A future that is pending once, then ready: one turn for other futures to run.
#[derive(Default)]
pub struct Turn(bool);

impl Future for Turn {
    type Output = ();

    fn poll(mut self: std::pin::Pin<&mut Self>, context: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        context.waker().wake_by_ref();
        Poll::Pending
    }
}

/// The object's surroundings in memory: the cache (counting reads and writes, refusing writes
/// when told), a pause of one turn, and the console's lines.
#[derive(Default)]
pub struct Around {
    pub cache: RefCell<BTreeMap<String, String>>,
    pub reads: Cell<usize>,
    pub writes: Cell<usize>,
    pub refuse_writes: Cell<bool>,
    /// Writes are declined as too large (KV's parts would exceed their bound): `Ok(false)`.
    pub decline_writes: Cell<bool>,
    pub pauses: Cell<usize>,
    pub lines: RefCell<Vec<String>>,
    /// The person index's notes, as `person key`.
    pub noted: RefCell<Vec<String>>,
    pub refuse_notes: Cell<bool>,
    /// How many times the index was asked what it lists.
    pub asked: Cell<usize>,
}

impl PersonIndex for Around {
    async fn note(&self, person: &str, ticked: &Ticked) -> Result<(), String> {
        if self.refuse_notes.get() {
            return Err("the person's object is unavailable (the test says)".into());
        }
        self.noted
            .borrow_mut()
            .push(format!("{person} {}", ticked.key()));
        Ok(())
    }

    async fn listed(&self, person: &str, ticked: &Ticked) -> Result<IndexListing, String> {
        if self.refuse_notes.get() {
            return Err("the person's object is unavailable (the test says)".into());
        }
        self.asked.set(self.asked.get() + 1);
        let key = format!("{person} {}", ticked.key());
        let noted = self.noted.borrow();
        let pull = format!(
            "{person} {}",
            Ticked {
                login: String::new(),
                ..ticked.clone()
            }
            .key()
        );
        let logins = noted
            .iter()
            .filter_map(|entry| entry.strip_prefix(&pull))
            .filter(|login| !login.contains(':'))
            .map(str::to_string)
            .collect();
        Ok(IndexListing {
            listed: noted.contains(&key),
            logins,
        })
    }
}

impl Cache for Around {
    async fn get_text(&self, key: &str) -> Option<String> {
        self.reads.set(self.reads.get() + 1);
        self.cache.borrow().get(key).cloned()
    }

    async fn put_text(&self, key: &str, text: &str, _ttl_seconds: u64) -> Result<bool, CacheError> {
        if self.refuse_writes.get() {
            return Err(CacheError("refused by the test".into()));
        }
        if self.decline_writes.get() {
            return Ok(false);
        }
        self.writes.set(self.writes.get() + 1);
        self.cache
            .borrow_mut()
            .insert(key.to_string(), text.to_string());
        Ok(true)
    }
}

impl Pause for Around {
    async fn pause(&self, _ms: u64) {
        self.pauses.set(self.pauses.get() + 1);
        Turn::default().await;
    }
}

impl Console for Around {
    fn warn(&self, line: &str) {
        self.lines.borrow_mut().push(format!("warn: {line}"));
    }

    fn error(&self, line: &str) {
        self.lines.borrow_mut().push(format!("error: {line}"));
    }
}

/// Scripts a pull request `o/r#1` at base `b1` and `head`, with `files` changed files (one
/// page per hundred), push access, no conventions file and no build files; a commit status on
/// `head` is created (201, as GitHub answers).
pub fn script_pull(github: &ScriptedGitHub, head: &str, files: usize) {
    github.on(
        "/repos/o/r",
        [Scripted::ok(
            r#"{"full_name":"o/r","private":false,"permissions":{"push":true}}"#,
        )],
    );
    github.on(
        "/repos/o/r/pulls/1",
        [Scripted::ok(format!(
            r#"{{"number":1,"title":"T","state":"open","html_url":"https://github.test/o/r/pull/1","base":{{"ref":"main","sha":"b1"}},"head":{{"ref":"f","sha":"{head}"}},"changed_files":{files},"additions":{files},"deletions":0,"review_comments":0}}"#
        ))],
    );
    let all: Vec<String> = (0..files)
        .map(|i| {
            format!(
                r#"{{"filename":"src/f{i}.rs","status":"modified","additions":1,"deletions":0,"patch":"@@ -1,1 +1,2 @@\n a\n+b{i}","sha":"s{i}"}}"#
            )
        })
        .collect();
    for (page, chunk) in all.chunks(100).enumerate() {
        github.on(
            &files_path(page as u32 + 1),
            [Scripted::ok(format!("[{}]", chunk.join(",")))],
        );
    }
    github.on("/graphql", [Scripted::ok(r#"{"data":{"repository":{}}}"#)]);
    github.on(
        &status_path(head),
        [Scripted::status(
            201,
            r#"{"id":1,"state":"success","context":"LogiKFlow"}"#,
        )],
    );
}

/// The path that sets a commit status on `sha` of `o/r`.
pub fn status_path(sha: &str) -> String {
    format!("/repos/o/r/statuses/{sha}")
}

/// The relayed tool call the object decodes off the wire: `tool` with `arguments`, as `octo`
/// with a grant that may write when `may_write`.
pub fn relayed_call(
    tool: &str,
    arguments: serde_json::Value,
    may_write: bool,
) -> crate::tools::relay::RelayedCall {
    let call = crate::tools::relay::RelayedCall {
        tool: tool.into(),
        arguments: serde_json::Map::new(),
        github_token: "t".into(),
        may_write,
        base_url: "https://review.test".into(),
        login: "octo".into(),
        client: Some("Agent".into()),
    };
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": tool, "arguments": arguments },
    });
    crate::tools::relay::RelayedCall::from_wire(&call.to_wire(&body.to_string()))
        .expect("the wire decodes")
}

/// The path of one page of `o/r#1`'s files.
pub fn files_path(page: u32) -> String {
    format!("/repos/o/r/pulls/1/files?per_page=100&page={page}")
}

/// SQLite in memory is open from the start.
impl super::object::Storage for MemorySql {
    type Sql = MemorySql;

    fn sql(&self) -> &MemorySql {
        self
    }
}

/// One pull request's object with its stand-ins, for the routes' tests: `o/r#1` at head `h1`
/// with three files (`script_pull`), its storage with the schema not yet created.
pub struct World {
    pub sql: MemorySql,
    pub around: Around,
    pub github: ScriptedGitHub,
    pub memo: super::read::ReadMemo,
    pub sweep: super::records::TickSweep,
    pub clock: FixedClock,
    pub schema_ready: Cell<bool>,
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

impl World {
    pub fn new() -> World {
        let github = ScriptedGitHub::new();
        script_pull(&github, "h1", 3);
        World {
            sql: MemorySql::new(),
            around: Around::default(),
            github,
            memo: Default::default(),
            sweep: Default::default(),
            clock: clock(),
            schema_ready: Cell::new(false),
        }
    }

    /// The one builder of reviewer calls: `person` (login `octo`, a sign-in that may write) on
    /// `o/r#1` asking for `route`, the page's CSRF token `k`.
    pub fn call(&self, person: &str, route: RouteCall) -> ReviewerCall {
        ReviewerCall {
            viewer: ViewerCall {
                owner: "o".into(),
                repo: "r".into(),
                number: 1,
                github_token: "t".into(),
                login: "octo".into(),
                person: person.into(),
                csrf: "k".into(),
                base_url: "https://review.test".into(),
                may_write: true,
            },
            route,
        }
    }

    /// The object's answer to `call`, run as its shell runs it (`reviewer::run`).
    pub fn answer(&self, call: &ReviewerCall) -> crate::http::HttpReply {
        self.run(&call.viewer, |object, viewer| {
            block_on(super::reviewer::run(object, viewer, &call.route)).expect("the records answer")
        })
    }

    /// Runs `route` on this object for the viewer of `call`.
    pub fn run<R>(
        &self,
        call: &ViewerCall,
        route: impl FnOnce(
            &super::object::Object<'_, MemorySql, &Around>,
            &super::object::Viewer<'_, ScriptedGitHub>,
        ) -> R,
    ) -> R {
        let config = config();
        let github = crate::github::client::GitHub::new(&config, "t", &self.github, &self.clock);
        let pull = crate::router::PullPath {
            owner: call.owner.clone(),
            repo: call.repo.clone(),
            number: call.number,
        };
        let viewer = super::object::Viewer {
            call,
            github: &github,
            pull: &pull,
        };
        let object = super::object::Object {
            storage: &self.sql,
            platform: &self.around,
            memo: &self.memo,
            sweep: &self.sweep,
            clock: &self.clock,
            schema_ready: &self.schema_ready,
        };
        route(&object, &viewer)
    }

    /// The object's records (its schema created).
    pub fn records(&self) -> super::records::Records<'_, MemorySql> {
        let records = super::records::Records::new(&self.sql);
        records.schema().expect("the schema is created");
        records
    }
}
