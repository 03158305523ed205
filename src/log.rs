//! One structured log line per request: what an operator needs to read a request's fate without
//! reading its data.
//!
//! Why a request-scoped record rather than log calls along the way: Workers Logs indexes the
//! fields of a JSON `console.log`, so one line with every field answers "which requests were
//! slow, which hit GitHub's limits, which missed the cache" with one query; and writing it once
//! costs one string and one call into JavaScript per request, where a line per event would cost
//! one each.
//!
//! How the record reaches the code that knows a fact (a GitHub status in `github::client`, the
//! cache outcome in `app::pull_request::read`) without a parameter through every signature: the
//! entry point runs the request's future inside [`Scoped`], which makes its record the current
//! one while (and only while) that future is polled. An isolate serves several requests at once,
//! interleaved at their `await`s; each poll belongs to exactly one request, so a fact is always
//! written to the record of the request that produced it. Code that runs outside any scope (a
//! Durable Object's own handler, native tests) records nothing.
//!
//! What it never holds: every field is a number or one of a fixed set of labels chosen here or
//! by the code that records it (`&'static str`), so no token, code, cookie, GitHub token, URL or
//! other text from a request can reach a log line by construction.
//!
//! What not: no sending. `entry` writes [`Record::to_json`] with `console.log` once the reply is
//! known.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

/// How many GitHub statuses a line lists; the count goes on past it. A `get_pull_request` of a
/// 3,000-file pull request makes 34 requests.
const MAX_LISTED_STATUSES: usize = 40;

/// What one request did, filled in while it runs. (No HTTP method: the route says it, and a
/// method a route does not serve is the route `method_not_allowed`.)
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Record {
    /// The route's label (`router::Route::label`, or the OAuth endpoint's).
    pub route: &'static str,
    /// The JSON-RPC method of an `/mcp` request, when it is one MCP defines.
    pub mcp_method: Option<&'static str>,
    /// The tool a `tools/call` ran.
    pub tool: Option<&'static str>,
    /// The reply's HTTP status.
    pub status: u16,
    /// Milliseconds from the request's arrival to its reply (wall time, including I/O).
    pub ms: u64,
    /// The statuses of the GitHub subrequests, in order (0: no answer, a timeout or a network
    /// failure), up to [`MAX_LISTED_STATUSES`].
    pub github: Vec<u16>,
    /// How many GitHub subrequests were sent in all.
    pub github_count: u32,
    /// How many Durable Object requests were sent.
    pub objects: u32,
    /// The snapshot cache's answer: `hit` or `miss`.
    pub cache: Option<&'static str>,
    /// The rate limit's decision: `allowed` or `limited`.
    pub rate_limit: Option<&'static str>,
    /// What went wrong, as a class (`invalid_token`, `tool_error`, `internal`, …).
    pub error: Option<&'static str>,
}

impl Record {
    /// The line: a JSON object with the fields that were set. Labels are ASCII words chosen in
    /// this crate, so they are written without escaping (a test checks every label in use).
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(256);
        out.push_str("{\"event\":\"request\"");
        label(&mut out, "route", self.route);
        if let Some(value) = self.mcp_method {
            label(&mut out, "mcp_method", value);
        }
        if let Some(value) = self.tool {
            label(&mut out, "tool", value);
        }
        number(&mut out, "status", u64::from(self.status));
        number(&mut out, "ms", self.ms);
        number(&mut out, "github_requests", u64::from(self.github_count));
        if !self.github.is_empty() {
            out.push_str(",\"github_statuses\":[");
            for (i, status) in self.github.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&status.to_string());
            }
            out.push(']');
        }
        number(&mut out, "objects", u64::from(self.objects));
        if let Some(value) = self.cache {
            label(&mut out, "cache", value);
        }
        if let Some(value) = self.rate_limit {
            label(&mut out, "rate_limit", value);
        }
        if let Some(value) = self.error.or_else(|| error_of_status(self.status)) {
            label(&mut out, "error", value);
        }
        out.push('}');
        out
    }
}

impl Record {
    /// What part of a request run elsewhere did (a Durable Object running a tool for the Worker,
    /// `tools::relay`), for the Worker's own record: `cache;github count;statuses;objects` with
    /// the statuses comma-separated and `objects` the object requests the run sent itself (a
    /// tick's note in the person's object). Numbers and labels only, like the line itself.
    pub fn carried(&self) -> String {
        let mut out = String::from(self.cache.unwrap_or(""));
        out.push(';');
        out.push_str(&self.github_count.to_string());
        out.push(';');
        for (i, status) in self.github.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&status.to_string());
        }
        if self.objects > 0 {
            out.push(';');
            out.push_str(&self.objects.to_string());
        }
        out
    }

    /// Adds what [`Record::carried`] wrote; a part that doesn't read is left out, never trusted
    /// as text (only known labels and numbers reach the line).
    pub fn absorb(&mut self, carried: &str) {
        let mut parts = carried.split(';');
        self.cache = match parts.next() {
            Some("hit") => Some("hit"),
            Some("miss") => Some("miss"),
            _ => self.cache,
        };
        let count = parts.next().and_then(|n| n.parse::<u32>().ok());
        self.github_count = self.github_count.saturating_add(count.unwrap_or(0));
        for status in parts.next().unwrap_or("").split(',') {
            if let (Ok(status), true) = (status.parse(), self.github.len() < MAX_LISTED_STATUSES) {
                self.github.push(status);
            }
        }
        let objects = parts.next().and_then(|n| n.parse::<u32>().ok());
        self.objects = self.objects.saturating_add(objects.unwrap_or(0));
    }
}

fn label(out: &mut String, name: &str, value: &str) {
    out.push_str(",\"");
    out.push_str(name);
    out.push_str("\":\"");
    out.push_str(value);
    out.push('"');
}

fn number(out: &mut String, name: &str, value: u64) {
    out.push_str(",\"");
    out.push_str(name);
    out.push_str("\":");
    out.push_str(&value.to_string());
}

/// The class of a failed reply no code named a class for.
fn error_of_status(status: u16) -> Option<&'static str> {
    Some(match status {
        400 => "bad_request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not_found",
        405 => "method_not_allowed",
        413 => "too_large",
        415 => "unsupported_media_type",
        429 => "rate_limited",
        503 => "unavailable",
        _ if status < 400 => return None,
        _ if status < 500 => "client_error",
        _ => "internal",
    })
}

/// The label of an MCP method this server knows; anything else is `other` (a method name is
/// request text, of any length).
pub fn mcp_method_label(method: &str) -> &'static str {
    const KNOWN: [&str; 17] = [
        "initialize",
        "ping",
        "server/discover",
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/read",
        "resources/templates/list",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "logging/setLevel",
        "notifications/initialized",
        "notifications/cancelled",
        "notifications/progress",
        "notifications/roots/list_changed",
        "notifications/message",
    ];
    KNOWN
        .iter()
        .find(|known| **known == method)
        .copied()
        .unwrap_or("other")
}

thread_local! {
    /// The record of the request whose future is being polled, if any (see [`Scoped`]).
    static CURRENT: RefCell<Option<Rc<RefCell<Record>>>> = const { RefCell::new(None) };
}

/// Changes the current request's record; does nothing outside a request (see the module doc).
pub fn note(change: impl FnOnce(&mut Record)) {
    CURRENT.with(|current| {
        if let Some(record) = current.borrow().as_ref() {
            change(&mut record.borrow_mut());
        }
    });
}

/// Records one GitHub subrequest's status (0 when no answer came).
pub fn github(status: u16) {
    note(|record| {
        record.github_count += 1;
        if record.github.len() < MAX_LISTED_STATUSES {
            record.github.push(status);
        }
    });
}

/// Records a rate limit's decision (the person's on `/mcp`, the address's on the OAuth
/// endpoints that create state); a refusal is the request's error too.
pub fn rate_limit(allowed: bool) {
    note(|record| {
        if allowed {
            record.rate_limit = Some("allowed");
        } else {
            record.rate_limit = Some("limited");
            record.error.get_or_insert("rate_limited");
        }
    });
}

/// Records one Durable Object request.
pub fn object() {
    note(|record| record.objects += 1);
}

/// Records the request's error class, keeping the first one named.
pub fn error(class: &'static str) {
    note(|record| {
        record.error.get_or_insert(class);
    });
}

/// Runs a request's future with `record` as the current record while it is polled.
pub struct Scoped<F> {
    inner: Pin<Box<F>>,
    record: Rc<RefCell<Record>>,
}

impl<F: Future> Scoped<F> {
    pub fn new(inner: F, record: Rc<RefCell<Record>>) -> Self {
        Scoped {
            inner: Box::pin(inner),
            record,
        }
    }
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = &mut *self;
        // Restores whatever was current before, so a scope polled inside another (never done
        // today) leaves the outer one in place.
        let previous = CURRENT.with(|current| current.replace(Some(this.record.clone())));
        let polled = this.inner.as_mut().poll(cx);
        CURRENT.with(|current| *current.borrow_mut() = previous);
        polled
    }
}

/// Every error class the Worker names (besides [`error_of_status`]'s), for the test above and
/// for docs/capacity.md's readers.
pub const ERROR_CLASSES: &[&str] = &[
    "internal",
    "missing_token",
    "invalid_token",
    "rate_limited",
    "unavailable",
    "insufficient_scope",
    "tool_error",
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    /// A future that is pending once, so two scopes can interleave.
    struct YieldOnce(bool);

    impl Future for YieldOnce {
        type Output = ();
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            if self.0 {
                Poll::Ready(())
            } else {
                self.0 = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        }
    }

    #[test]
    fn interleaved_requests_write_their_own_records() {
        let first = Rc::new(RefCell::new(Record::default()));
        let second = Rc::new(RefCell::new(Record::default()));
        let work = |status: u16| async move {
            github(status);
            YieldOnce(false).await;
            github(status);
            error(if status == 200 { "first" } else { "second" });
        };
        let mut a = Box::pin(Scoped::new(work(200), first.clone()));
        let mut b = Box::pin(Scoped::new(work(404), second.clone()));
        let mut cx = Context::from_waker(Waker::noop());
        assert!(a.as_mut().poll(&mut cx).is_pending());
        assert!(b.as_mut().poll(&mut cx).is_pending());
        github(500); // between polls: no request is current
        assert!(b.as_mut().poll(&mut cx).is_ready());
        assert!(a.as_mut().poll(&mut cx).is_ready());
        assert_eq!(first.borrow().github, vec![200, 200]);
        assert_eq!(first.borrow().error, Some("first"));
        assert_eq!(second.borrow().github, vec![404, 404]);
        assert_eq!(second.borrow().error, Some("second"));
        assert!(CURRENT.with(|current| current.borrow().is_none()));
    }

    #[test]
    fn a_line_has_the_fields_that_were_set() {
        let record = Record {
            route: "mcp",
            mcp_method: Some("tools/call"),
            tool: Some("get_pull_request"),
            status: 200,
            ms: 42,
            github: vec![200, 0, 200],
            github_count: 3,
            objects: 2,
            cache: Some("miss"),
            rate_limit: Some("allowed"),
            error: None,
        };
        assert_eq!(
            record.to_json(),
            r#"{"event":"request","route":"mcp","mcp_method":"tools/call","tool":"get_pull_request","status":200,"ms":42,"github_requests":3,"github_statuses":[200,0,200],"objects":2,"cache":"miss","rate_limit":"allowed"}"#
        );
        let refused = Record {
            route: "mcp",
            status: 401,
            ..Record::default()
        };
        let line: serde_json::Value = serde_json::from_str(&refused.to_json()).unwrap();
        assert_eq!(line["error"], "unauthorized");
        assert_eq!(line["github_requests"], 0);
        assert!(line.get("github_statuses").is_none());
        assert!(line.get("tool").is_none());
    }

    #[test]
    fn statuses_are_listed_up_to_the_cap_and_counted_past_it() {
        let record = Rc::new(RefCell::new(Record::default()));
        let mut cx = Context::from_waker(Waker::noop());
        let mut scoped = Box::pin(Scoped::new(
            async {
                for _ in 0..50 {
                    github(200);
                }
                object();
            },
            record.clone(),
        ));
        assert!(scoped.as_mut().poll(&mut cx).is_ready());
        assert_eq!(record.borrow().github.len(), MAX_LISTED_STATUSES);
        assert_eq!(record.borrow().github_count, 50);
        assert_eq!(record.borrow().objects, 1);
    }

    #[test]
    fn request_text_becomes_a_fixed_label() {
        assert_eq!(mcp_method_label("tools/call"), "tools/call");
        assert_eq!(mcp_method_label("tools/call\"}"), "other");
        assert_eq!(mcp_method_label(&"x".repeat(10_000)), "other");
    }

    /// Every label a line can carry is a plain word, so writing it without escaping is safe.
    #[test]
    fn labels_need_no_escaping() {
        let plain = |label: &str| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"/_-".contains(&b))
        };
        for status in [
            0, 200, 302, 400, 401, 403, 404, 405, 413, 415, 418, 429, 500, 503,
        ] {
            if let Some(label) = error_of_status(status) {
                assert!(plain(label), "{label}");
            }
        }
        for method in ["initialize", "notifications/roots/list_changed", "x"] {
            assert!(plain(mcp_method_label(method)));
        }
        for label in crate::router::ROUTE_LABELS.iter().chain(ERROR_CLASSES) {
            assert!(plain(label), "{label}");
        }
    }

    #[test]
    fn what_an_object_did_joins_the_workers_record() {
        let object = Record {
            github: vec![200, 200, 503, 0],
            github_count: 4,
            objects: 1,
            cache: Some("miss"),
            ..Record::default()
        };
        let mut worker = Record {
            objects: 1,
            github: vec![401],
            github_count: 1,
            ..Record::default()
        };
        worker.absorb(&object.carried());
        assert_eq!(worker.github, vec![401, 200, 200, 503, 0]);
        assert_eq!((worker.github_count, worker.objects), (5, 2));
        assert_eq!(worker.cache, Some("miss"));
        // Nothing done elsewhere: nothing added.
        let mut quiet = Record::default();
        quiet.absorb(&Record::default().carried());
        assert_eq!(quiet, Record::default());
    }

    #[test]
    fn a_carried_text_that_does_not_read_adds_only_what_does() {
        for junk in [
            "",
            ";;",
            "hit;x;a,b",
            "<script>;1",
            "hit;1;200,abc,404;extra",
        ] {
            let mut record = Record::default();
            record.absorb(junk);
            assert!(
                record.cache.is_none() || record.cache == Some("hit"),
                "{junk}"
            );
            assert!(
                record.github.iter().all(|s| [200, 404].contains(s)),
                "{junk}"
            );
        }
        let mut long = Record::default();
        let statuses = vec!["200"; MAX_LISTED_STATUSES + 5].join(",");
        long.absorb(&format!("hit;45;{statuses};3"));
        assert_eq!(long.github.len(), MAX_LISTED_STATUSES);
        assert_eq!((long.github_count, long.objects), (45, 3));
    }
}
