//! The Durable Object that owns one pull request's saved orders and diagrams (SQLite storage).
//!
//! One object per pull request (`owner/repo#number`, lower-cased) is the single writer that makes
//! `base_version` conflicts exact: a save reads the latest version and writes the next one with
//! no `await` in between, so no other request can interleave. History is append-only.
//!
//! Internal API (JSON over `fetch`, reached only through the Worker's binding):
//! `POST /tool` [`RelayedCall::to_wire`] → an MCP tool's result (`tools::relay`: the object runs every
//! tool that reads the pull request, so reading, decoding or building its snapshot is not the
//! Worker's CPU; the shell `tools`, the dispatch `app::pull_request::tools`);
//! `POST /page`, `/diff`, `/context`, `/ticks/batch`, `/write/…`, `/arrange`, `/arrange/save`
//! [`ReviewerCall`] → the reviewer routes run here (`app::pull_request::calls`, typed per
//! route; module `reviewer`, each route reading this object's orders, history, ticks, recorded
//! heads and drafts straight from its storage);
//! `POST /ticks/forget` `{person}` → `{removed}`: every tick and draft comment of that person, for
//! "Delete my data".
//!
//! The records themselves (saves against `base_version`, history and its bound, ticks, recorded
//! heads, drafts, the yearly sweep) are `app::pull_request::records`, over this object's SQL.

use worker::{
    durable_object, DurableObject, Env, Method, Request, Response, Result, SqlStorage, State,
};

use super::platform::Platform;
use crate::app::pull_request::calls::{ReviewerCall, Route as ReviewerRoute};
use crate::app::pull_request::object::{Object, Storage};
use crate::app::pull_request::records::{Records, TickSweep};
use crate::tools::relay::{self, RelayedCall};

mod reviewer;
mod tools;

#[durable_object(fetch)]
pub struct PullRequestStore {
    /// Its storage, opened on first use (`sql`): a request refused before then (a reviewer
    /// route whose viewer GitHub would not show the pull request) leaves no storage behind.
    state: State,
    sql: std::cell::OnceCell<SqlStorage>,
    /// For the relayed tools and reviewer routes, which read GitHub and KV as the Worker would.
    env: Env,
    /// What the reads here remember between them (`app::pull_request::read::ReadMemo`).
    read_memo: crate::app::pull_request::read::ReadMemo,
    /// Whether the schema was created in this instance. Created on first use rather than in
    /// the constructor: a reviewer route creates it only once the viewer's GitHub read
    /// succeeded, so a request for a pull request that doesn't exist or that the viewer can't
    /// see leaves no storage behind. A failure answers 500 instead of panicking.
    schema_ready: std::cell::Cell<bool>,
    /// When this instance last removed old ticks (`records::TickSweep`: at most hourly).
    tick_sweep: TickSweep,
}

impl DurableObject for PullRequestStore {
    fn new(state: State, env: Env) -> Self {
        PullRequestStore {
            state,
            sql: std::cell::OnceCell::new(),
            env,
            read_memo: Default::default(),
            schema_ready: std::cell::Cell::new(false),
            tick_sweep: TickSweep::default(),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        let url = req.url()?;
        // The reviewer routes create the schema after the viewer's read (`reviewer`).
        if ReviewerRoute::of_path(url.path()).is_none() {
            if let Err(error) = self.schema() {
                return Response::error(format!("storage unavailable: {error}"), 500);
            }
        }
        match (req.method(), url.path()) {
            (Method::Post, relay::PATH) => {
                let text = req.text().await?;
                let Some(call) = RelayedCall::from_wire(&text) else {
                    return Response::error("not a tool call", 400);
                };
                self.tool(call).await
            }
            (Method::Post, path) if ReviewerRoute::of_path(path).is_some() => {
                let route = ReviewerRoute::of_path(path).unwrap_or(ReviewerRoute::Page);
                let call: ReviewerCall = json_body(&mut req).await?;
                self.reviewer(route, call).await
            }
            (Method::Post, crate::person_data::FORGET_TICKS) => {
                let forget: crate::person_data::ForgetTicks = json_body(&mut req).await?;
                let removed = self.records().forget(&forget.person)?;
                Response::ok(format!("{{\"removed\":{removed}}}"))
            }
            _ => Response::error("no such operation", 404),
        }
    }
}

/// The object's SQLite storage, opened on first use.
impl Storage for PullRequestStore {
    type Sql = SqlStorage;

    fn sql(&self) -> &SqlStorage {
        self.sql.get_or_init(|| self.state.storage().sql())
    }
}

impl PullRequestStore {
    /// The object's surroundings as the application's ports (`store::platform`).
    fn platform(&self) -> Platform<'_> {
        Platform { env: &self.env }
    }

    /// The object as the application sees it (`app::pull_request::object`).
    fn object(&self) -> Object<'_, Self, Platform<'_>> {
        Object {
            storage: self,
            platform: self.platform(),
            memo: &self.read_memo,
            sweep: &self.tick_sweep,
            clock: &crate::bindings::WorkerClock,
            schema_ready: &self.schema_ready,
        }
    }

    /// The object's records (`app::pull_request::records`) over its storage.
    fn records(&self) -> Records<'_, SqlStorage> {
        Records::new(self.sql())
    }

    /// Creates the tables and runs the migrations, once per instance.
    fn schema(&self) -> Result<()> {
        Ok(self.object().schema()?)
    }
}

/// Parses a JSON request body with serde_json and reads it as `T` (the same reader as everywhere
/// else, rather than `Request::json`'s JS-value one).
async fn json_body<T: serde::de::DeserializeOwned>(req: &mut Request) -> Result<T> {
    Ok(crate::json::decode(&req.text().await?)?)
}
