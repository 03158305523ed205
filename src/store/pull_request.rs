//! The Durable Object that owns one pull request's saved orders and diagrams (SQLite storage).
//!
//! One object per pull request (`owner/repo#number`, lower-cased) is the single writer that makes
//! `base_version` conflicts exact: a save reads the latest version and writes the next one with
//! no `await` in between, so no other request can interleave. History is append-only.
//!
//! Internal API (JSON over `fetch`, reached only through the Worker's binding):
//! `GET /state` → [`CurrentState`]; `POST /save` [`SaveRequest`] → [`SaveOutcome`];
//! `GET /history?kind=order` → `[VersionSummary]`; `GET /version?kind=order&v=N` → [`SavedRecord`];
//! `GET /ticks?person=login` → ticked item ids; `POST /tick` `{person, item, done, at}` → the same;
//! `POST /ticks/forget` `{person}` → `{removed}`: every tick of that person, for "Delete my data".
//!
//! Bounds (`person_data`): a save keeps the latest [`MAX_VERSIONS`] versions of its kind, and a
//! tick removes every tick unchanged for a year, so neither table grows without limit.

use serde_json::Value;
use worker::{
    durable_object, DurableObject, Env, Method, Request, Response, Result, SqlCursor, SqlStorage,
    SqlStorageValue, State,
};

use crate::json::{DecodeError, Fields, FromJson};
use crate::person_data::{MAX_VERSIONS, TICK_RETENTION_SECONDS};
use crate::tools::saved::{
    decide_save, CurrentState, DocumentKind, SaveOutcome, SaveRequest, SavedRecord, VersionSummary,
};

#[durable_object(fetch)]
pub struct PullRequestStore {
    sql: SqlStorage,
    /// Set when the schema could not be created; every request then answers 500 instead of
    /// panicking in the constructor (which would hang the request).
    schema_error: Option<String>,
    /// When this instance last removed old ticks (epoch ms): at most hourly, because the sweep
    /// reads the whole table and a popular pull request's object takes many ticks a second.
    ticks_swept_at: std::cell::Cell<u64>,
}

/// How often an instance sweeps old ticks.
const TICK_SWEEP_INTERVAL_MS: u64 = 60 * 60 * 1000;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS orders (
  version INTEGER PRIMARY KEY,
  body TEXT NOT NULL,
  person TEXT NOT NULL,
  client TEXT,
  source TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  saved_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS diagrams (
  version INTEGER PRIMARY KEY,
  body TEXT NOT NULL,
  person TEXT NOT NULL,
  client TEXT,
  source TEXT NOT NULL,
  head_sha TEXT NOT NULL,
  saved_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS ticks (
  person TEXT NOT NULL,
  item TEXT NOT NULL,
  done INTEGER NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (person, item)
);
";

/// A reviewer ticking (or unticking) one checklist item or file entry.
struct Tick {
    person: String,
    item: String,
    done: bool,
    at: String,
}

impl FromJson for Tick {
    fn from_json(value: Value) -> std::result::Result<Self, DecodeError> {
        let mut f = Fields::of(value)?;
        Ok(Tick {
            person: f.required("person")?,
            item: f.required("item")?,
            done: f.required("done")?,
            at: f.required("at")?,
        })
    }
}

/// `POST /ticks/forget`: whose ticks to delete.
struct ForgetTicks {
    person: String,
}

impl FromJson for ForgetTicks {
    fn from_json(value: Value) -> std::result::Result<Self, DecodeError> {
        Ok(ForgetTicks {
            person: Fields::of(value)?.required("person")?,
        })
    }
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
    fn new(state: State, _env: Env) -> Self {
        let sql = state.storage().sql();
        let schema_error = sql.exec(SCHEMA, None).err().map(|e| e.to_string());
        PullRequestStore {
            sql,
            schema_error,
            ticks_swept_at: std::cell::Cell::new(0),
        }
    }

    async fn fetch(&self, mut req: Request) -> Result<Response> {
        if let Some(error) = &self.schema_error {
            return Response::error(format!("storage unavailable: {error}"), 500);
        }
        let url = req.url()?;
        let query = |key: &str| {
            url.query_pairs()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.into_owned())
        };
        let kind = match query("kind").as_deref() {
            Some("diagram") => DocumentKind::Diagram,
            _ => DocumentKind::Order,
        };
        match (req.method(), url.path()) {
            (Method::Get, "/state") => Response::from_json(&CurrentState {
                order: self.latest(DocumentKind::Order, true)?.map(Row::record),
                diagram: self.latest(DocumentKind::Diagram, true)?.map(Row::record),
            }),
            (Method::Post, "/save") => {
                let request: SaveRequest = json_body(&mut req).await?;
                Response::from_json(&self.save(&request)?)
            }
            (Method::Get, "/history") => Response::from_json(&self.history(kind)?),
            (Method::Get, "/ticks") => {
                let person = query("person").unwrap_or_default();
                Response::from_json(&self.ticks(&person)?)
            }
            (Method::Post, "/tick") => {
                let tick: Tick = json_body(&mut req).await?;
                self.tick(&tick)?;
                self.sweep_ticks()?;
                Response::from_json(&self.ticks(&tick.person)?)
            }
            (Method::Post, "/ticks/forget") => {
                let forget: ForgetTicks = json_body(&mut req).await?;
                let removed = self.forget_ticks(&forget.person)?;
                Response::ok(format!("{{\"removed\":{removed}}}"))
            }
            (Method::Get, "/version") => {
                let version: i64 = query("v").and_then(|v| v.parse().ok()).unwrap_or(0);
                match self.version(kind, version)? {
                    Some(record) => Response::from_json(&record),
                    None => Response::error("no such version", 404),
                }
            }
            _ => Response::error("no such operation", 404),
        }
    }
}

impl PullRequestStore {
    fn latest(&self, kind: DocumentKind, with_body: bool) -> Result<Option<Row>> {
        let columns = ROW_COLUMNS[usize::from(!with_body)];
        let query = format!(
            "{columns} FROM {} ORDER BY version DESC LIMIT 1",
            kind.table()
        );
        let rows = Row::all(self.sql.exec(&query, None)?)?;
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
        self.sql.exec(
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
            self.sql
                .exec(&prune, vec![((version - MAX_VERSIONS) as i64).into()])?;
        }
        Ok(SaveOutcome::Saved { version })
    }

    /// The items a person has ticked. Ticks are keyed by checklist identity, not position, so
    /// they survive a re-arrange.
    fn ticks(&self, person: &str) -> Result<Vec<String>> {
        self.sql
            .exec(
                "SELECT item FROM ticks WHERE person = ? AND done = 1 ORDER BY item",
                vec![person.to_string().into()],
            )?
            .raw()
            .map(|values| {
                required_text(values?.into_iter().next().unwrap_or(SqlStorageValue::Null))
            })
            .collect()
    }

    fn tick(&self, tick: &Tick) -> Result<()> {
        self.sql.exec(
            "INSERT INTO ticks (person, item, done, updated_at) VALUES (?, ?, ?, ?) \
             ON CONFLICT (person, item) DO UPDATE SET done = excluded.done, updated_at = excluded.updated_at",
            vec![
                tick.person.clone().into(),
                tick.item.clone().into(),
                i64::from(tick.done).into(),
                tick.at.clone().into(),
            ],
        )?;
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
        self.sql.exec(
            "DELETE FROM ticks WHERE updated_at < ?",
            vec![crate::time::rfc3339(cutoff).into()],
        )?;
        Ok(())
    }

    /// Deletes every tick of one person; answers how many rows went.
    fn forget_ticks(&self, person: &str) -> Result<usize> {
        Ok(self
            .sql
            .exec(
                "DELETE FROM ticks WHERE person = ?",
                vec![person.to_string().into()],
            )?
            .rows_written())
    }

    fn history(&self, kind: DocumentKind) -> Result<Vec<VersionSummary>> {
        let query = format!(
            "{} FROM {} ORDER BY version DESC",
            ROW_COLUMNS[1],
            kind.table()
        );
        let rows = Row::all(self.sql.exec(&query, None)?)?;
        Ok(rows.iter().map(Row::summary).collect())
    }

    fn version(&self, kind: DocumentKind, version: i64) -> Result<Option<SavedRecord>> {
        let query = format!("{} FROM {} WHERE version = ?", ROW_COLUMNS[0], kind.table());
        let rows = Row::all(self.sql.exec(&query, vec![version.into()])?)?;
        Ok(rows.into_iter().next().map(Row::record))
    }
}

/// Parses a JSON request body with serde_json and reads it as `T` (the same reader as everywhere
/// else, rather than `Request::json`'s JS-value one).
async fn json_body<T: FromJson>(req: &mut Request) -> Result<T> {
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
