//! The agent-side MCP tools the Worker relays here (`tools::relay` says why and what the wire
//! is), as the object's shell: each call runs in its own log record, with a GitHub client acting
//! as the caller, through the one dispatch of `app::pull_request::tools`, and its result goes
//! back as the relay's reply.
//!
//! What not: no tool, argument or message of its own; a storage failure is the request's
//! failure, which the Worker answers with the tool's own words.

use std::cell::RefCell;
use std::rc::Rc;

use worker::{Response, Result};

use super::PullRequestStore;
use crate::app::pull_request::relayed::Run;
use crate::app::pull_request::tools;
use crate::tools::relay::{self, RelayedCall};

impl PullRequestStore {
    /// Runs a tool call the Worker relayed in its own log record, and answers with the result
    /// and what the run did.
    pub(super) async fn tool(&self, call: RelayedCall) -> Result<Response> {
        let record = Rc::new(RefCell::new(crate::log::Record::default()));
        let config = crate::bindings::config(&self.env);
        let github = crate::github::fetch::github(config, &call.github_token);
        let object = self.object();
        let run = Run {
            object: &object,
            github: &github,
            call: &call,
        };
        let result = crate::log::Scoped::new(tools::run(&run), record.clone()).await?;
        let (kind, body) = relay::reply_of(result);
        let headers = worker::Headers::new();
        headers.set(relay::RESULT_HEADER, &kind)?;
        headers.set(relay::LOG_HEADER, &record.borrow().carried())?;
        Ok(Response::ok(body)?.with_headers(headers))
    }
}
