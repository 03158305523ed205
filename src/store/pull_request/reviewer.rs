//! The reviewer routes as the pull request's object runs them (`tools::relay::reviewer` says
//! why and what the wire is): each in its own log record, with a GitHub client acting as the
//! viewer, answered as the status, content type and body the Worker frames.
//!
//! The routes themselves: `app::pull_request::page` (the review page), `app::pull_request::diff` (a diff on demand
//! and lines of context), `app::pull_request::writes` (comments, drafts, the review, replies, threads, previews), `arrange` (the
//! editor's page and its save, `app::pull_request::arrange`), and `app::pull_request::ticks` (one
//! tick or a batch); those in `app` moved to the application layer (issue #37). Each reads the object's own saved state, ticks and drafts
//! straight from its SQLite storage, so a route costs the Worker one object request.

use std::cell::RefCell;
use std::rc::Rc;

use worker::{Response, Result};

use super::PullRequestStore;
use crate::github::fetch::FetchTransport;
use crate::http::HttpReply;
use crate::router::PullPath;
use crate::tools::relay::reviewer::{ReviewerCall, Route};
use crate::tools::relay::LOG_HEADER;

impl PullRequestStore {
    /// Runs a reviewer route the Worker relayed, and answers with its reply and what it did.
    pub(super) async fn reviewer(&self, route: Route, call: ReviewerCall) -> Result<Response> {
        let record = Rc::new(RefCell::new(crate::log::Record::default()));
        let run = self.run_reviewer(route, &call);
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

    async fn run_reviewer(&self, route: Route, call: &ReviewerCall) -> Result<HttpReply> {
        let config = crate::bindings::config(&self.env);
        let github = crate::github::fetch::github(config, &call.github_token);
        let pull = PullPath {
            owner: call.owner.clone(),
            repo: call.repo.clone(),
            number: call.number,
        };
        let viewer = Viewer {
            call,
            github: &github,
            pull: &pull,
        };
        match route {
            Route::Page => Ok(crate::app::pull_request::page::page(&self.object(), &viewer).await?),
            Route::Diff | Route::Context => {
                let context = route == Route::Context;
                Ok(crate::app::pull_request::diff::diff(&self.object(), &viewer, context).await?)
            }
            Route::Ticks => {
                Ok(crate::app::pull_request::ticks::tick_batch(&self.object(), &viewer).await?)
            }
            Route::Write(action) => {
                Ok(
                    crate::app::pull_request::writes::write(&self.object(), &viewer, action)
                        .await?,
                )
            }
            Route::Arrange | Route::ArrangeSave => {
                let save = route == Route::ArrangeSave;
                Ok(
                    crate::app::pull_request::arrange::arrange(&self.object(), &viewer, save)
                        .await?,
                )
            }
        }
    }
}

/// Who is asking and about which pull request (`app::pull_request::object::Viewer`).
pub(super) type Viewer<'a> = crate::app::pull_request::object::Viewer<'a, FetchTransport>;
