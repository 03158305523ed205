//! The Durable Object that owns one pull request's saved orders and diagrams (SQLite storage).
//!
//! One object per pull request (`owner/repo#number`, lower-cased) is the single writer that makes
//! `base_version` conflicts exact: a save reads the latest version and writes the next one with
//! no `await` in between, so no other request can interleave. History is append-only.
//!
//! Internal API (JSON over `fetch`, reached only through the Worker's binding):
//! `POST /tool` [`RelayedCall::to_wire`] → an MCP tool's result (`tools::relay`: the object runs every
//! tool that reads the pull request, so reading, decoding or building its snapshot is not the
//! Worker's CPU; modules `tools` and `saves`, and `store::pull_read` for `get_pull_request`);
//! `POST /page`, `/diff`, `/context`, `/ticks/batch` [`ReviewerCall`] → the reviewer
//! routes run here (`tools::relay::reviewer`; modules `page`, `diff`, `ticks`, each reading this
//! object's orders, history, ticks, recorded heads and drafts straight from its storage);
//! Ticks are stored per person with the head each was made at (unticking deletes rows; a person
//! holds at most [`MAX_TICKS_PER_PERSON`]), with the change ids of the newest 20 heads ticked at;
//! path-keyed ticks from before content keys are replaced by content items when their person
//! next views the page.
//! `POST /ticks/forget` `{person}` → `{removed}`: every tick and draft comment of that person, for
//! "Delete my data".
//! Draft comments (issue 29, `store::drafts`) are read and written only by the routes that run
//! here (`writes`, and the page and diffs that show them).
//!
//! Bounds (`person_data`): a save keeps the latest [`MAX_VERSIONS`] versions of its kind, and a
//! tick removes every tick unchanged for a year, so neither table grows without limit.

use serde::Deserialize;
use serde_json::Value;
use worker::{
    durable_object, DurableObject, Env, Method, Request, Response, Result, SqlCursor, SqlStorage,
    SqlStorageValue, State,
};

use crate::person_data::{MAX_VERSIONS, TICK_RETENTION_SECONDS};
use crate::tools::relay::reviewer::{ReviewerCall, Route as ReviewerRoute};
use crate::tools::relay::{self, RelayedCall};
use crate::tools::saved::{
    decide_save, CurrentState, DocumentKind, SaveOutcome, SaveRequest, SavedRecord, TickOutcome,
    TickReply, TickRow, VersionSummary, MAX_TICKS_PER_PERSON,
};

mod arrange;
mod diff;
mod page;
mod reviewer;
mod saves;
mod ticks;
mod tools;
mod writes;

pub use ticks::note_ticked;

#[durable_object(fetch)]
pub struct PullRequestStore {
    /// Its storage, opened on first use (`sql`): a request refused before then (a reviewer
    /// route whose viewer GitHub would not show the pull request) leaves no storage behind.
    state: State,
    sql: std::cell::OnceCell<SqlStorage>,
    /// For the relayed tools and reviewer routes, which read GitHub and KV as the Worker would.
    env: Env,
    /// What the reads here remember between them (`pull_read::ReadMemo`).
    read_memo: super::pull_read::ReadMemo,
    /// Whether the schema was created in this instance. Created on first use rather than in
    /// the constructor: a reviewer route creates it only once the viewer's GitHub read
    /// succeeded, so a request for a pull request that doesn't exist or that the viewer can't
    /// see leaves no storage behind. A failure answers 500 instead of panicking.
    schema_ready: std::cell::Cell<bool>,
    /// When this instance last removed old ticks (epoch ms): at most hourly, because the sweep
    /// reads the whole table and a popular pull request's object takes many ticks a second.
    ticks_swept_at: std::cell::Cell<u64>,
}

/// How often an instance sweeps old ticks.
const TICK_SWEEP_INTERVAL_MS: u64 = 60 * 60 * 1000;

/// Schema migration 2: ticks record the head they were made at (content-keyed review state).
/// Rows from before it have `NULL` there and path-keyed items, which the Worker migrates.
const ADD_TICK_HEAD: &str = "ALTER TABLE ticks ADD COLUMN head_sha TEXT";

/// The most heads whose change ids are kept: enough for "since your last visit" across many
/// pushes, bounded so a busy pull request's object doesn't grow without limit.
const MAX_HEADS: usize = 20;

/// A reviewer ticking (or unticking) items: one checklist item, one change, or every change of a
/// file entry, stored as content items (`change:<path>#<id>`, `blob:<path>#<sha>`).
struct Tick {
    person: String,
    items: Vec<String>,
    done: bool,
    head_sha: String,
    at: String,
}

/// The change ids of every file at one head, recorded once per head.
struct HeadRecord {
    head_sha: String,
    files: Value,
    at: String,
}

/// `POST /ticks/forget`: whose ticks to delete.
#[derive(Deserialize)]
struct ForgetTicks {
    person: String,
}

/// A row as SQLite returns it (columns in the order of [`ROW_COLUMNS`]).
struct Row {
    version: f64,
    body: Option<String>,
    person: String,
    client: Option<String>,
    source: String,
    head_sha: String,
    saved_at: String,
}

/// The columns of a [`Row`], before `FROM`; `body` is `NULL AS body` when it isn't needed.
const ROW_COLUMNS: [&str; 2] = [
    "SELECT version, body, person, client, source, head_sha, saved_at",
    "SELECT version, NULL AS body, person, client, source, head_sha, saved_at",
];

impl Row {
    /// Reads the rows of a query selecting the [`Row`] columns. (Read as raw values rather
    /// than deserialized objects, which would pull in a second deserializer.)
    fn all(cursor: SqlCursor) -> Result<Vec<Row>> {
        cursor
            .raw()
            .map(|values| Row::from_values(values?))
            .collect()
    }

    fn from_values(values: Vec<SqlStorageValue>) -> Result<Row> {
        let mut values = values.into_iter();
        let mut next = || values.next().unwrap_or(SqlStorageValue::Null);
        Ok(Row {
            version: number(next())?,
            body: optional_text(next())?,
            person: required_text(next())?,
            client: optional_text(next())?,
            source: required_text(next())?,
            head_sha: required_text(next())?,
            saved_at: required_text(next())?,
        })
    }

    fn summary(&self) -> VersionSummary {
        VersionSummary {
            version: self.version as u64,
            person: self.person.clone(),
            client: self.client.clone(),
            source: self.source.clone(),
            head_sha: self.head_sha.clone(),
            saved_at: self.saved_at.clone(),
        }
    }

    fn record(self) -> SavedRecord {
        let body = self
            .body
            .as_deref()
            .and_then(|text| crate::json::decode(text).ok())
            .unwrap_or(Value::Null);
        SavedRecord {
            version: self.version as u64,
            body,
            person: self.person,
            client: self.client,
            source: self.source,
            head_sha: self.head_sha,
            saved_at: self.saved_at,
        }
    }
}

impl DurableObject for PullRequestStore {
    fn new(state: State, env: Env) -> Self {
        PullRequestStore {
            state,
            sql: std::cell::OnceCell::new(),
            env,
            read_memo: Default::default(),
            schema_ready: std::cell::Cell::new(false),
            ticks_swept_at: std::cell::Cell::new(0),
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
            (Method::Post, "/ticks/forget") => {
                let forget: ForgetTicks = json_body(&mut req).await?;
                let removed = self.forget_ticks(&forget.person)?
                    + super::drafts::forget(self.sql(), &forget.person)?;
                Response::ok(format!("{{\"removed\":{removed}}}"))
            }
            _ => Response::error("no such operation", 404),
        }
    }
}

impl PullRequestStore {
    /// The object's SQLite storage.
    fn sql(&self) -> &SqlStorage {
        self.sql.get_or_init(|| self.state.storage().sql())
    }

    /// Creates the tables and runs the migrations, once per instance.
    fn schema(&self) -> Result<()> {
        if self.schema_ready.get() {
            return Ok(());
        }
        self.sql().exec(include_str!("pull-request.sql"), None)?;
        match self.sql().exec(ADD_TICK_HEAD, None) {
            // Already migrated: SQLite says the column exists.
            Err(error) if !error.to_string().contains("duplicate column") => return Err(error),
            _ => {}
        }
        self.schema_ready.set(true);
        Ok(())
    }

    /// The latest order and diagram.
    fn current(&self) -> Result<CurrentState> {
        Ok(CurrentState {
            order: self.latest(DocumentKind::Order, true)?.map(Row::record),
            diagram: self.latest(DocumentKind::Diagram, true)?.map(Row::record),
        })
    }

    fn latest(&self, kind: DocumentKind, with_body: bool) -> Result<Option<Row>> {
        let columns = ROW_COLUMNS[usize::from(!with_body)];
        let query = format!(
            "{columns} FROM {} ORDER BY version DESC LIMIT 1",
            kind.table()
        );
        let rows = Row::all(self.sql().exec(&query, None)?)?;
        Ok(rows.into_iter().next())
    }

    /// Checks the base version and writes the next version, with no await in between.
    fn save(&self, request: &SaveRequest) -> Result<SaveOutcome> {
        let latest = self.latest(request.kind, false)?.map(|row| row.summary());
        let version = match decide_save(latest.as_ref(), request.base_version) {
            Ok(version) => version,
            Err(latest) => return Ok(SaveOutcome::Conflict { latest: *latest }),
        };
        let query = format!(
            "INSERT INTO {} (version, body, person, client, source, head_sha, saved_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            request.kind.table()
        );
        let client = match &request.client {
            Some(client) => client.clone().into(),
            None => worker::SqlStorageValue::Null,
        };
        self.sql().exec(
            &query,
            vec![
                (version as i64).into(),
                request.body.to_string().into(),
                request.person.clone().into(),
                client,
                request.source.clone().into(),
                request.head_sha.clone().into(),
                request.saved_at.clone().into(),
            ],
        )?;
        if version > MAX_VERSIONS {
            let prune = format!("DELETE FROM {} WHERE version <= ?", request.kind.table());
            self.sql()
                .exec(&prune, vec![((version - MAX_VERSIONS) as i64).into()])?;
        }
        let has_diagram = match request.kind {
            DocumentKind::Diagram => true,
            DocumentKind::Order => self.latest(DocumentKind::Diagram, false)?.is_some(),
        };
        Ok(SaveOutcome::Saved {
            version,
            has_diagram,
        })
    }

    /// The items a person has ticked, with the head each was ticked at. Checklist ticks are keyed
    /// by checklist identity, not position, so they survive a re-arrange; file and change ticks by
    /// content, so they survive a push that leaves the change alone.
    fn ticks(&self, person: &str) -> Result<Vec<TickRow>> {
        self.sql()
            .exec(
                "SELECT item, head_sha, updated_at FROM ticks WHERE person = ? AND done = 1 ORDER BY item",
                vec![person.to_string().into()],
            )?
            .raw()
            .map(|values| {
                let mut values = values?.into_iter();
                let mut next = || values.next().unwrap_or(SqlStorageValue::Null);
                Ok(TickRow {
                    item: required_text(next())?,
                    head_sha: optional_text(next())?,
                    at: required_text(next())?,
                })
            })
            .collect()
    }

    /// The recorded change ids of the given heads (those still kept).
    fn heads(&self, shas: &[&str]) -> Result<std::collections::BTreeMap<String, Value>> {
        let mut out = std::collections::BTreeMap::new();
        for sha in shas {
            let files = self
                .sql()
                .exec(
                    "SELECT files FROM heads WHERE head_sha = ?",
                    vec![sha.to_string().into()],
                )?
                .raw()
                .next()
                .transpose()?
                .and_then(|values| values.into_iter().next())
                .map(optional_text)
                .transpose()?
                .flatten();
            if let Some(files) = files.and_then(|text| crate::json::decode::<Value>(&text).ok()) {
                out.insert((*sha).to_string(), files);
            }
        }
        Ok(out)
    }

    fn knows_head(&self, sha: &str) -> Result<bool> {
        Ok(self
            .sql()
            .exec(
                "SELECT 1 FROM heads WHERE head_sha = ?",
                vec![sha.to_string().into()],
            )?
            .raw()
            .next()
            .is_some())
    }

    /// Records a head's change ids once, keeping the newest [`MAX_HEADS`].
    fn record_head(&self, head: &HeadRecord) -> Result<()> {
        self.sql().exec(
            "INSERT OR IGNORE INTO heads (head_sha, files, recorded_at) VALUES (?, ?, ?)",
            vec![
                head.head_sha.clone().into(),
                head.files.to_string().into(),
                head.at.clone().into(),
            ],
        )?;
        self.sql().exec(
            &format!(
                "DELETE FROM heads WHERE head_sha NOT IN \
                 (SELECT head_sha FROM heads ORDER BY recorded_at DESC LIMIT {MAX_HEADS})"
            ),
            None,
        )?;
        Ok(())
    }

    /// Stores ticks, or deletes them when unticked (so unticking never grows storage). A person
    /// holds at most [`MAX_TICKS_PER_PERSON`] ticks on one pull request: the Worker admits only
    /// items of the current page, and this bound holds even across many pushes and versions.
    fn tick(&self, tick: &Tick) -> Result<TickReply> {
        let known_head = self.knows_head(&tick.head_sha)?;
        if !tick.done {
            for item in &tick.items {
                self.sql().exec(
                    "DELETE FROM ticks WHERE person = ? AND item = ?",
                    vec![tick.person.clone().into(), item.clone().into()],
                )?;
            }
            return Ok(TickReply {
                outcome: TickOutcome::Stored,
                known_head,
            });
        }
        let held = self
            .sql()
            .exec(
                "SELECT COUNT(*) FROM ticks WHERE person = ?",
                vec![tick.person.clone().into()],
            )?
            .raw()
            .next()
            .transpose()?
            .and_then(|values| values.into_iter().next())
            .map(number)
            .transpose()?
            .unwrap_or(0.0);
        if held + tick.items.len() as f64 > MAX_TICKS_PER_PERSON as f64 {
            return Ok(TickReply {
                outcome: TickOutcome::Full,
                known_head,
            });
        }
        for item in &tick.items {
            self.sql().exec(
                "INSERT INTO ticks (person, item, done, updated_at, head_sha) VALUES (?, ?, 1, ?, ?) \
                 ON CONFLICT (person, item) DO UPDATE SET done = 1, updated_at = excluded.updated_at, \
                 head_sha = excluded.head_sha",
                vec![
                    tick.person.clone().into(),
                    item.clone().into(),
                    tick.at.clone().into(),
                    tick.head_sha.clone().into(),
                ],
            )?;
        }
        Ok(TickReply {
            outcome: TickOutcome::Stored,
            known_head,
        })
    }

    /// Replaces a person's path-keyed ticks with content items, keeping their time.
    fn migrate(&self, person: &str, add: &[TickRow], remove: &[String]) -> Result<()> {
        for row in add {
            self.sql().exec(
                "INSERT INTO ticks (person, item, done, updated_at, head_sha) VALUES (?, ?, 1, ?, ?) \
                 ON CONFLICT (person, item) DO NOTHING",
                vec![
                    person.to_string().into(),
                    row.item.clone().into(),
                    row.at.clone().into(),
                    row.head_sha.clone().into(),
                ],
            )?;
        }
        for item in remove {
            self.sql().exec(
                "DELETE FROM ticks WHERE person = ? AND item = ?",
                vec![person.to_string().into(), item.clone().into()],
            )?;
        }
        Ok(())
    }

    /// Removes ticks unchanged for longer than the retention (`updated_at` is RFC 3339 text in
    /// one fixed-width format, so text order is time order), at most once an hour.
    fn sweep_ticks(&self) -> Result<()> {
        let now = worker::Date::now().as_millis();
        if now < self.ticks_swept_at.get() + TICK_SWEEP_INTERVAL_MS {
            return Ok(());
        }
        self.ticks_swept_at.set(now);
        let cutoff = now.saturating_sub(TICK_RETENTION_SECONDS * 1000);
        self.sql().exec(
            "DELETE FROM ticks WHERE updated_at < ?",
            vec![crate::time::rfc3339(cutoff).into()],
        )?;
        Ok(())
    }

    /// Deletes every tick of one person; answers how many rows went.
    fn forget_ticks(&self, person: &str) -> Result<usize> {
        Ok(self
            .sql()
            .exec(
                "DELETE FROM ticks WHERE person = ?",
                vec![person.to_string().into()],
            )?
            .rows_written())
    }

    /// Whether any tick or draft is stored under `key` (issue 36: a login, from before rows were
    /// keyed by person id).
    fn holds_rows(&self, key: &str) -> Result<bool> {
        for table in ["ticks", "drafts"] {
            let query = format!("SELECT 1 FROM {table} WHERE person = ? LIMIT 1");
            let found = self
                .sql()
                .exec(&query, vec![key.to_string().into()])?
                .raw()
                .next()
                .is_some();
            if found {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Moves every tick and draft stored under `from` to `to`, in one synchronous run (committed
    /// together); a tick `to` holds already stays as it is.
    fn move_rows(&self, from: &str, to: &str) -> Result<()> {
        let keys = || vec![to.to_string().into(), from.to_string().into()];
        self.sql().exec(
            "UPDATE OR IGNORE ticks SET person = ? WHERE person = ?",
            keys(),
        )?;
        self.forget_ticks(from)?;
        self.sql()
            .exec("UPDATE drafts SET person = ? WHERE person = ?", keys())?;
        Ok(())
    }

    fn history(&self, kind: DocumentKind) -> Result<Vec<VersionSummary>> {
        let query = format!(
            "{} FROM {} ORDER BY version DESC",
            ROW_COLUMNS[1],
            kind.table()
        );
        let rows = Row::all(self.sql().exec(&query, None)?)?;
        Ok(rows.iter().map(Row::summary).collect())
    }

    fn version(&self, kind: DocumentKind, version: i64) -> Result<Option<SavedRecord>> {
        let query = format!("{} FROM {} WHERE version = ?", ROW_COLUMNS[0], kind.table());
        let rows = Row::all(self.sql().exec(&query, vec![version.into()])?)?;
        Ok(rows.into_iter().next().map(Row::record))
    }
}

/// Parses a JSON request body with serde_json and reads it as `T` (the same reader as everywhere
/// else, rather than `Request::json`'s JS-value one).
async fn json_body<T: serde::de::DeserializeOwned>(req: &mut Request) -> Result<T> {
    Ok(crate::json::decode(&req.text().await?)?)
}

fn type_error(expected: &str) -> worker::Error {
    worker::Error::RustError(format!("unexpected column value: expected {expected}"))
}

fn number(value: SqlStorageValue) -> Result<f64> {
    match value {
        SqlStorageValue::Integer(n) => Ok(n as f64),
        SqlStorageValue::Float(f) => Ok(f),
        _ => Err(type_error("a number")),
    }
}

fn optional_text(value: SqlStorageValue) -> Result<Option<String>> {
    match value {
        SqlStorageValue::Null => Ok(None),
        other => required_text(other).map(Some),
    }
}

fn required_text(value: SqlStorageValue) -> Result<String> {
    match value {
        SqlStorageValue::String(text) => Ok(text),
        _ => Err(type_error("text")),
    }
}
