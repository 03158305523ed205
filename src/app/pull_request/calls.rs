//! The reviewer routes' calls: what the Worker sends the pull request's Durable Object for each
//! reviewer route (the review page, a diff loaded on demand, lines of context, ticks, the review
//! writes, the arrange editor and its save), typed, and how the answer comes back.
//!
//! Why the object runs them: each starts with the viewer's own GitHub read of the pull request
//! and its file snapshot, and building or decoding a snapshot costs the Worker far past the
//! Workers free plan's 10 ms per invocation at a few thousand files (a cached review page of
//! 3,000 files was ~19 ms, the first view after a push ~88 ms; issue #30). A Durable Object
//! request is an invocation of its own, with its own CPU limit, and the object holds the saved
//! order, history, ticks and drafts the page needs, so a page view is one object request
//! instead of four or five. The Worker keeps what needs its own secrets: the viewer's session
//! and the page's CSRF token (the session key and the browser's cookie), and the checks of
//! every browser POST.
//!
//! One typed call per route (issue #37): the Worker decodes the query string or the form and
//! checks its shape (the `read` functions here, run where the Worker checked shapes before), and
//! the object receives the values, never a query string or a form body to parse again. Why here,
//! in `app::pull_request`: these are the application's inputs (`page`, `diff`, `ticks`,
//! `writes`, `arrange` take them), and both sides that name them sit above it (the Worker's
//! `service`, the object's shell in `store`); `review` is below the page and form rules the
//! payloads carry (`web::review_write::Checked`, `web::review_page::View`), and `tools` is the
//! MCP tools' layer, which the application uses and so may not use it back.
//!
//! The wire, internal to the deployment (the object is reached only through the Worker's
//! binding): `POST` [`Route::path`] with [`ReviewerCall`] as JSON (serde's derives). The reply's
//! status, content type, body and `location` (a 303 back to the page; the Worker asks for
//! redirects unfollowed) are the answer; its `x-log` header (`tools::relay::LOG_HEADER`) carries
//! what the object's run did for the Worker's log line, and [`CSRF_COOKIE_HEADER`] asks the
//! Worker to set the page's CSRF cookie (a page that shows forms). Ticks answer [`TickResult`]s
//! as JSON, one per item sent, in order.
//!
//! What not: no I/O; the routes themselves are the modules beside this one.

use serde::{Deserialize, Serialize};

use crate::github::reviews::Anchor;
use crate::review::drafts;
use crate::review::model::ticks::{TickItem, TickResult};
use crate::router::ReviewWrite;
use crate::security::form;
use crate::web::arrange_page::Submission;
use crate::web::review_page::{self, View};
use crate::web::review_write::{check, Checked, Fields};

/// The reply header saying the answer is a page whose forms carry the call's CSRF token, so the
/// Worker sets the browser session's cookie with it.
pub const CSRF_COOKIE_HEADER: &str = "x-csrf-cookie";

/// Which reviewer route the object runs: the path it is sent to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `GET /r/{owner}/{repo}/pull/{n}`: the review page.
    Page,
    /// `GET …/diff`: one entry's diff on demand.
    Diff,
    /// `GET …/context`: lines around a change.
    Context,
    /// `POST …/ticks`: one tick or a batch.
    Ticks,
    /// `POST …/comments`, `…/drafts`, `…/review`, `…/replies`, `…/threads`, `…/preview`.
    Write(ReviewWrite),
    /// `GET …/arrange`: the arrange editor's page.
    Arrange,
    /// `POST …/arrange`: saving the editor's order.
    ArrangeSave,
}

/// Every route, for [`Route::of_path`].
const ROUTES: [Route; 12] = [
    Route::Page,
    Route::Diff,
    Route::Context,
    Route::Ticks,
    Route::Write(ReviewWrite::Comment),
    Route::Write(ReviewWrite::Draft),
    Route::Write(ReviewWrite::Submit),
    Route::Write(ReviewWrite::Reply),
    Route::Write(ReviewWrite::Thread),
    Route::Write(ReviewWrite::Preview),
    Route::Arrange,
    Route::ArrangeSave,
];

impl Route {
    /// The object's path for the route.
    pub fn path(self) -> &'static str {
        match self {
            Route::Page => "/page",
            Route::Diff => "/diff",
            Route::Context => "/context",
            Route::Ticks => "/ticks/batch",
            Route::Write(write) => match write {
                ReviewWrite::Comment => "/write/comments",
                ReviewWrite::Draft => "/write/drafts",
                ReviewWrite::Submit => "/write/review",
                ReviewWrite::Reply => "/write/replies",
                ReviewWrite::Thread => "/write/threads",
                ReviewWrite::Preview => "/write/preview",
            },
            Route::Arrange => "/arrange",
            Route::ArrangeSave => "/arrange/save",
        }
    }

    /// The route an object path names.
    pub fn of_path(path: &str) -> Option<Route> {
        ROUTES.into_iter().find(|route| route.path() == path)
    }
}

/// A reviewer route for the object to run: who for, and the route with its decoded input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReviewerCall {
    pub viewer: ViewerCall,
    pub route: RouteCall,
}

impl ReviewerCall {
    /// The request body.
    pub fn to_json(&self) -> String {
        // A call is strings, numbers, booleans and JSON values: it always serializes.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Who a reviewer route acts for, and what the page needs of them. The viewer was authenticated
/// by the Worker; the object only acts as them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewerCall {
    pub owner: String,
    pub repo: String,
    pub number: u64,
    /// The viewer's GitHub token: the object reads GitHub as the viewer, never stores it.
    pub github_token: String,
    /// The viewer's login, shown with what they write; ticks and drafts written before issue 36
    /// are under it (`person_data::adopts_login_rows`).
    pub login: String,
    /// The viewer's person id (`gh:<id>`, or `local:<login>`): their ticks and drafts are theirs
    /// under it, and a stored tick is noted in their index of ticked pull requests first
    /// (`person_data`).
    pub person: String,
    /// The page's CSRF token, for its forms (page, diff, arrange); empty otherwise.
    pub csrf: String,
    /// The public origin links start with.
    pub base_url: String,
    /// The viewer's sign-in may write (issue 36): without it the page offers no form that sends
    /// to GitHub, and the object refuses such a write as the Worker did
    /// ([`WriteCall::sends_to_github`]).
    pub may_write: bool,
}

/// The route and its input, decoded and shape-checked by the Worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RouteCall {
    Page(PageQuery),
    Diff(DiffQuery),
    Context(ContextQuery),
    /// The ticks to store, their shape checked (`web::tick_batch::read_form`).
    Ticks(Vec<TickItem>),
    Write(WriteCall),
    Arrange,
    /// The editor's order, its shape checked (`web::arrange_page::submission`).
    ArrangeSave(Submission),
}

impl RouteCall {
    /// The call of a route read with `GET`, its query string (as the URL has it, undecoded)
    /// decoded; `None` for a route sent with a `POST` (each has its own reader).
    pub fn of_get(route: Route, query: &str) -> Option<RouteCall> {
        match route {
            Route::Page => Some(RouteCall::Page(PageQuery::read(query))),
            Route::Diff => Some(RouteCall::Diff(DiffQuery::read(query))),
            Route::Context => Some(RouteCall::Context(ContextQuery::read(query))),
            Route::Arrange => Some(RouteCall::Arrange),
            Route::Ticks | Route::Write(_) | Route::ArrangeSave => None,
        }
    }

    /// The route the call is for.
    pub fn route(&self) -> Route {
        match self {
            RouteCall::Page(_) => Route::Page,
            RouteCall::Diff(_) => Route::Diff,
            RouteCall::Context(_) => Route::Context,
            RouteCall::Ticks(_) => Route::Ticks,
            RouteCall::Write(write) => Route::Write(write.action()),
            RouteCall::Arrange => Route::Arrange,
            RouteCall::ArrangeSave(_) => Route::ArrangeSave,
        }
    }
}

/// The review page's query: `version`, `view`, `from`, `fragment`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageQuery {
    /// The saved version asked for (`?version=N`); the latest when absent or not a number.
    pub version: Option<u64>,
    /// Which entries the page shows (`?view=left`, `?view=since`; anything else is all).
    pub view: View,
    /// The window of entries (`?from=`, the number of its first entry): `review_page::window_of`.
    pub window: usize,
    /// Only the window's entries, for the page's script (`?fragment=1`).
    pub fragment: bool,
}

impl PageQuery {
    /// Reads the page's query string as the URL has it (undecoded).
    pub fn read(query: &str) -> PageQuery {
        let pairs = form::pairs(query.as_bytes());
        let value = |name: &str| form::value(&pairs, name);
        PageQuery {
            version: value("version").and_then(|v| v.parse().ok()),
            view: View::parse(value("view")),
            window: review_page::window_of(value("from")),
            fragment: value("fragment") == Some("1"),
        }
    }
}

/// The longest query value the diff routes accept: a path (GitHub paths run to 4,096 bytes) or
/// the change ids of a file's entry (ten bytes each). A longer or empty value is absent.
pub const MAX_QUERY_VALUE_BYTES: usize = 16 * 1024;

/// A query's first value of `name`, when not empty and not over [`MAX_QUERY_VALUE_BYTES`].
fn bounded<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form::value(pairs, name).filter(|v| !v.is_empty() && v.len() <= MAX_QUERY_VALUE_BYTES)
}

/// One entry's diff on demand (`…/diff?path=&hunks=&first=&fragment=`, as its "Load diff" link
/// names it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiffQuery {
    /// The file; the object refuses the call without one (`path is required`).
    pub path: Option<String>,
    /// The entry's change ids (`hunks`, comma-separated; one empty id when absent).
    pub hunks: Vec<String>,
    /// The entry is the first of its file (`first=1`).
    pub first: bool,
    /// Just the diff's HTML, for the page's script (`fragment=1`).
    pub fragment: bool,
}

impl DiffQuery {
    /// Reads the diff's query string as the URL has it (undecoded).
    pub fn read(query: &str) -> DiffQuery {
        let pairs = form::pairs(query.as_bytes());
        let value = |name: &str| bounded(&pairs, name);
        DiffQuery {
            path: value("path").map(str::to_string),
            hunks: value("hunks")
                .unwrap_or_default()
                .split(',')
                .map(str::to_string)
                .collect(),
            first: value("first") == Some("1"),
            fragment: value("fragment") == Some("1"),
        }
    }
}

/// Lines around a change (`…/context?path=&from=&to=`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextQuery {
    /// The file; the object refuses the call without one (`path is required`).
    pub path: Option<String>,
    pub from: Option<u32>,
    pub to: Option<u32>,
}

impl ContextQuery {
    /// Reads the context's query string as the URL has it (undecoded).
    pub fn read(query: &str) -> ContextQuery {
        let pairs = form::pairs(query.as_bytes());
        let number = |name: &str| bounded(&pairs, name).and_then(|v| v.parse::<u32>().ok());
        ContextQuery {
            path: bounded(&pairs, "path").map(str::to_string),
            from: number("from"),
            to: number("to"),
        }
    }
}

/// A review write's form, decoded and checked (`web::review_write::check`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WriteCall {
    /// What the fields ask for, checked.
    pub checked: Checked,
    /// The comment's, reply's or summary's text (`body`), or empty: what a draft is changed to,
    /// and the text a refusal gives back to copy.
    pub body: String,
    /// A new comment is sent to GitHub at once (`mode=single`) rather than kept as a draft.
    pub single: bool,
    /// The head the page was loaded at (`head`), or empty: a new comment at another is refused.
    pub head: String,
    /// The form's CSRF token (the Worker matched it to the cookie): the forms of a fragment sent
    /// back carry it.
    pub csrf: String,
    /// The line a preview is for, when its form names one (its comment's `path`, `line`,
    /// `side`…): the preview shows the lines commented on.
    pub anchor: Option<Anchor>,
    /// The answer is wanted as JSON (the page's script), not a page or a 303.
    pub json: bool,
    /// A review's summary gets what the reviewer read (`receipt=1`, the Finish review panel's
    /// option, on by default; issue #47).
    #[serde(default)]
    pub receipt: bool,
}

impl WriteCall {
    /// Reads and checks the form of `action` (`application/x-www-form-urlencoded`); a refusal's
    /// message says what to fix, and the text typed (`body`) goes back with it.
    pub fn read(action: ReviewWrite, body: &[u8], json: bool) -> Result<WriteCall, WriteRefused> {
        let fields = Fields::read(body);
        let text = fields.body();
        let checked = match check(action, &fields) {
            Ok(checked) => checked,
            Err(message) => {
                return Err(WriteRefused {
                    message,
                    kept: text,
                })
            }
        };
        let anchor = match checked {
            Checked::Preview => drafts::parse(&|name| {
                if name == "body" {
                    Some("x".into())
                } else {
                    fields.get(name)
                }
            })
            .ok()
            .map(|draft| draft.anchor),
            _ => None,
        };
        Ok(WriteCall {
            checked,
            single: fields.get("mode").as_deref() == Some("single"),
            head: fields.get("head").unwrap_or_default(),
            csrf: fields.get("csrf").unwrap_or_default(),
            body: text,
            anchor,
            json,
            receipt: fields.get("receipt").as_deref() == Some("1"),
        })
    }

    /// The route this write is (`checked` names it: a draft edited or deleted is `…/drafts`).
    pub fn action(&self) -> ReviewWrite {
        match self.checked {
            Checked::Comment(_) => ReviewWrite::Comment,
            Checked::EditDraft(_) | Checked::DeleteDraft(_) => ReviewWrite::Draft,
            Checked::Submit(_) => ReviewWrite::Submit,
            Checked::Reply(_) => ReviewWrite::Reply,
            Checked::Thread(..) => ReviewWrite::Thread,
            Checked::Preview => ReviewWrite::Preview,
        }
    }

    /// Whether this write sends something to GitHub as the viewer: a review, a single comment,
    /// a reply, a thread resolved or unresolved. A draft kept here, its change or deletion, and
    /// a preview stay in LogiKFlow, like ticks, so a read-only sign-in keeps them (issue 36).
    pub fn sends_to_github(&self) -> bool {
        match self.checked {
            Checked::Comment(_) => self.single,
            Checked::Submit(_) | Checked::Reply(_) | Checked::Thread(..) => true,
            Checked::EditDraft(_) | Checked::DeleteDraft(_) | Checked::Preview => false,
        }
    }
}

/// Why a review write's form was refused (400), with the text typed, to give back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteRefused {
    pub message: String,
    pub kept: String,
}

/// The object's answer to a batch: one result per tick, in order.
pub fn results_json(results: &[TickResult]) -> String {
    // Numbers and strings: it always serializes.
    serde_json::to_string(results).unwrap_or_default()
}

/// Reads the object's answer to a batch of `sent` ticks; `None` for an answer that is not one
/// (the Worker then says storage failed).
pub fn read_results(body: &str, sent: usize) -> Option<Vec<TickResult>> {
    let results: Vec<TickResult> = crate::json::decode(body).ok()?;
    (results.len() == sent).then_some(results)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;
