//! The reviewer routes as the pull request's object runs them (`app::pull_request::calls` says
//! why and what the wire is): each in its own log record, with a GitHub client acting as the
//! viewer, answered as the status, content type and body the Worker frames.
//!
//! The routes themselves are `app::pull_request::reviewer::run` and the modules it names; each
//! reads the object's own saved state, ticks and drafts straight from its SQLite storage, so a
//! route costs the Worker one object request.

use std::cell::RefCell;
use std::rc::Rc;

use worker::{Response, Result};

use super::PullRequestStore;
use crate::app::pull_request::calls::{ReviewerCall, Route};
use crate::github::fetch::FetchTransport;
use crate::http::HttpReply;
use crate::router::PullPath;
use crate::tools::relay::LOG_HEADER;

impl PullRequestStore {
    /// Runs a reviewer route the Worker relayed to `route`'s path, and answers with its reply
    /// and what it did. A call for another route than its path names is refused.
    pub(super) async fn reviewer(&self, route: Route, call: ReviewerCall) -> Result<Response> {
        if call.route.route() != route {
            return Response::error("the call is for another route than its path", 400);
        }
        let record = Rc::new(RefCell::new(crate::log::Record::default()));
        let run = self.run_reviewer(&call);
        let reply = crate::log::Scoped::new(run, record.clone()).await?;
        let headers = worker::Headers::new();
        for (name, value) in &reply.headers {
            headers.set(name, value)?;
        }
        headers.set(LOG_HEADER, &record.borrow().carried())?;
        Ok(Response::ok(reply.body)?
            .with_status(reply.status)
            .with_headers(headers))
    }

    async fn run_reviewer(&self, call: &ReviewerCall) -> Result<HttpReply> {
        let config = crate::bindings::config(&self.env);
        let viewer = &call.viewer;
        let github = crate::github::fetch::github(config, &viewer.github_token);
        let pull = PullPath {
            owner: viewer.owner.clone(),
            repo: viewer.repo.clone(),
            number: viewer.number,
        };
        let viewer = Viewer {
            call: viewer,
            github: &github,
            pull: &pull,
        };
        Ok(crate::app::pull_request::reviewer::run(&self.object(), &viewer, &call.route).await?)
    }
}

/// Who is asking and about which pull request (`app::pull_request::object::Viewer`).
pub(super) type Viewer<'a> = crate::app::pull_request::object::Viewer<'a, FetchTransport>;
