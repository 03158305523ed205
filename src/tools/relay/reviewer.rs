//! The reviewer routes run in the pull request's Durable Object: what the Worker sends it and
//! how the answer comes back (the review page, a diff loaded on demand, lines of context, ticks).
//!
//! The review page's writes (a comment, a draft changed or deleted, the review, a reply, a thread
//! resolved, a preview) and the arrange editor (its page and its save) run there too: each needs
//! the same read, the drafts live in the object, and the order is saved there.
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
//! The wire, internal to the deployment (the object is reached only through the Worker's
//! binding): `POST` [`Route::path`] with [`ReviewerCall`] as JSON. The reply's status, content
//! type, body and `location` (a 303 back to the page; the Worker asks for redirects unfollowed)
//! are the answer; its `x-log` header (`tools::relay::LOG_HEADER`) carries what the
//! object's run did for the Worker's log line, and [`CSRF_COOKIE_HEADER`] asks the Worker to
//! set the page's CSRF cookie (a page that shows forms). Ticks answer [`TickResult`]s as JSON,
//! one per item sent, in order.

use serde::Deserialize;
use serde_json::{json, Value};

use crate::router::ReviewWrite;

/// The reply header saying the answer is a page whose forms carry the call's CSRF token, so the
/// Worker sets the browser session's cookie with it.
pub const CSRF_COOKIE_HEADER: &str = "x-csrf-cookie";

/// Which reviewer route the object runs.
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
    /// `POST …/comments`, `…/drafts`, `…/review`, `…/replies`, `…/threads`, `…/preview`: the
    /// form in [`ReviewerCall::form`], its fields checked (`web::review_write::check`).
    Write(ReviewWrite),
    /// `GET …/arrange`: the arrange editor's page.
    Arrange,
    /// `POST …/arrange`: saving the order in [`ReviewerCall::form`] (the editor's JSON, its
    /// shape checked: `web::arrange_page::submission`).
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

// The domain types this module shapes (issue #37: they live in `review::model`).
use crate::review::model::ticks::{TickItem, TickResult};

/// A reviewer route for the object to run, with what it needs of the viewer. The viewer was
/// authenticated by the Worker; the object only acts as them.
#[derive(Debug, Deserialize)]
pub struct ReviewerCall {
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
    /// The request's query string, undecoded (page: `version`, `view`, `from`, `fragment`;
    /// diff: `path`, `hunks`, `first`, `fragment`; context: `path`, `from`, `to`).
    #[serde(default)]
    pub query: String,
    /// The page's CSRF token, for its forms (page and diff).
    #[serde(default)]
    pub csrf: String,
    /// The public origin links start with.
    pub base_url: String,
    /// The ticks to store (`Route::Ticks`), their shape already checked.
    #[serde(default)]
    pub ticks: Vec<TickItem>,
    /// The body of a POST the Worker verified (`forms::verified_post`) and checked the shape
    /// of: a review write's form (`Route::Write`), or the arrange editor's JSON
    /// (`Route::ArrangeSave`). Empty otherwise.
    #[serde(default)]
    pub form: String,
    /// The answer is wanted as JSON (the page's script), not a page or a 303 (`Route::Write`).
    #[serde(default)]
    pub json: bool,
    /// The viewer's sign-in may write (issue 36): without it the page offers no form that sends
    /// to GitHub, and the object refuses such a write as the Worker did
    /// (`web::review_write::sends_to_github`). Absent means read-only.
    #[serde(default)]
    pub may_write: bool,
}

impl ReviewerCall {
    /// The request body.
    pub fn to_json(&self) -> String {
        let ticks: Vec<Value> = self
            .ticks
            .iter()
            .map(|tick| json!({ "item": tick.item, "done": tick.done }))
            .collect();
        json!({
            "owner": self.owner,
            "repo": self.repo,
            "number": self.number,
            "github_token": self.github_token,
            "login": self.login,
            "person": self.person,
            "query": self.query,
            "csrf": self.csrf,
            "base_url": self.base_url,
            "ticks": ticks,
            "form": self.form,
            "json": self.json,
            "may_write": self.may_write,
        })
        .to_string()
    }

    /// The first value of `name` in the query, decoded.
    pub fn query_value(&self, name: &str) -> Option<String> {
        url::form_urlencoded::parse(self.query.as_bytes())
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    }
}

/// The object's answer to a batch: one result per tick, in order.
pub fn results_json(results: &[TickResult]) -> String {
    let results: Vec<Value> = results
        .iter()
        .map(|result| match &result.error {
            Some(error) => json!({ "status": result.status, "error": error }),
            None => json!({ "status": result.status }),
        })
        .collect();
    Value::Array(results).to_string()
}

/// Reads the object's answer to a batch of `sent` ticks; `None` for an answer that is not one
/// (the Worker then says storage failed).
pub fn read_results(body: &str, sent: usize) -> Option<Vec<TickResult>> {
    let results: Vec<TickResult> = crate::json::decode(body).ok()?;
    (results.len() == sent).then_some(results)
}

#[cfg(test)]
mod tests;
