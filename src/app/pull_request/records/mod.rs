//! A pull request's records in its Durable Object's SQLite (`schema.sql`), written once in SQL
//! against the `Sql` port: on Workers the object's storage, natively SQLite in memory, so the
//! tests run these very statements (issue #37).
//!
//! Every method is synchronous: a caller that reads, decides and writes through [`Records`] with
//! no `await` in between is one uninterrupted run of the object, which is what makes a save's
//! `base_version` check exact and a batch of ticks one commit.
//! Rows are read into typed structs by column name (serde); the stored values (tables, columns,
//! the JSON in them) are the ones earlier builds wrote (`docs/storage.md`).
//! What not: no policy beyond the bounds that keep storage finite; who may tick or save is the
//! caller's to decide.

use serde::Deserialize;

use crate::ports::sql::{Sql, SqlError};

mod documents;
mod drafts;
mod team;
mod ticks;

pub use team::{ReceiptRow, ReviewerLogin, TeamTick, MAX_RECEIPTS_PER_PERSON};
pub use ticks::{HeadRecord, Tick, TickSweep, MAX_HEADS, TICK_SWEEP_INTERVAL_MS};

/// Schema migration 2: ticks record the head they were made at (content-keyed review state).
/// Rows from before it have `NULL` there and path-keyed items, which the page migrates.
const ADD_TICK_HEAD: &str = "ALTER TABLE ticks ADD COLUMN head_sha TEXT";

/// One pull request's records, over its object's SQL storage.
pub struct Records<'a, S: Sql> {
    sql: &'a S,
}

impl<'a, S: Sql> Records<'a, S> {
    pub fn new(sql: &'a S) -> Records<'a, S> {
        Records { sql }
    }

    /// Creates the tables and runs the migrations; idempotent (the shell runs it once per
    /// instance, on first use).
    pub fn schema(&self) -> Result<(), SqlError> {
        self.sql.script(include_str!("schema.sql"))?;
        match self.sql.run(ADD_TICK_HEAD, &[]) {
            // Already migrated: SQLite says the column exists.
            Err(error) if !error.cause.contains("duplicate column") => Err(error),
            _ => Ok(()),
        }
    }

    /// Whether any tick or draft is stored under `key` (issue 36: a login, from before rows were
    /// keyed by person id).
    pub fn holds_rows(&self, key: &str) -> Result<bool, SqlError> {
        for table in ["ticks", "drafts"] {
            let query = format!("SELECT person FROM {table} WHERE person = ? LIMIT 1");
            let found: Vec<Returned> = self.sql.rows(&query, &[key.into()])?;
            if !found.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Every key without `:` that ticks or drafts are stored under: logins, from before rows were
    /// keyed by person id (issue 36).
    pub fn login_keys(&self) -> Result<Vec<String>, SqlError> {
        let rows: Vec<PersonKey> = self.sql.rows(
            "SELECT person FROM ticks WHERE instr(person, ':') = 0 \
             UNION SELECT person FROM drafts WHERE instr(person, ':') = 0 ORDER BY person",
            &[],
        )?;
        Ok(rows.into_iter().map(|row| row.person).collect())
    }

    /// Moves every tick and draft stored under `from` to `to`, in one synchronous run (committed
    /// together); a tick `to` holds already stays as it is.
    pub fn move_rows(&self, from: &str, to: &str) -> Result<(), SqlError> {
        let keys = [to.into(), from.into()];
        self.sql.run(
            "UPDATE OR IGNORE ticks SET person = ? WHERE person = ?",
            &keys,
        )?;
        self.forget_ticks(from)?;
        self.sql
            .run("UPDATE drafts SET person = ? WHERE person = ?", &keys)
    }

    /// Deletes every tick, draft, login and receipt of one person ("Delete my data"), so they
    /// leave everyone's coverage; answers how many rows went.
    pub fn forget(&self, person: &str) -> Result<usize, SqlError> {
        Ok(self.forget_ticks(person)?
            + self.forget_drafts(person)?
            + self.forget_team_rows(person)?)
    }
}

/// A row of `SELECT COUNT(*) AS n`.
#[derive(Deserialize)]
struct Count {
    n: i64,
}

/// A row of a statement whose rows are only counted (`RETURNING` a key).
#[derive(Deserialize)]
struct Returned {}

#[derive(serde::Deserialize)]
struct PersonKey {
    person: String,
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
