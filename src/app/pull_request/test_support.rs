//! What the pull request's in-process tests share: a poll loop that runs a future whose
//! stand-ins answer at once (`block_on`, on `std::task::Waker::noop`, so no executor crate),
//! fresh records on SQLite in memory, and a scripted GitHub that counts requests and injects
//! faults (5xx, 401, rate limits, timeouts, lost connections).
//!
//! What not: no test cases; each module keeps its own.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use crate::config::Config;
use crate::ports::clock::FixedClock;
use crate::ports::github::{Answer, Exchange, GitHubTransport, NoAnswer};
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
