//! Reviewers' ticks and the heads they were made at.
//!
//! Ticks are stored per person with the head each was made at; unticking deletes rows, and a
//! person holds at most [`MAX_TICKS_PER_PERSON`] ticks on one pull request. The change ids of the
//! newest [`MAX_HEADS`] heads ticked at are kept, for "since your last visit". Ticks unchanged for
//! [`TICK_RETENTION_SECONDS`] (a year) are swept, at most every [`TICK_SWEEP_INTERVAL_MS`].
//! Path-keyed ticks from before content keys are replaced (`migrate`) when their person next
//! views the page.

use std::cell::Cell;
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::Value;

use super::{Count, Records, Returned};
use crate::person_data::TICK_RETENTION_SECONDS;
use crate::ports::clock::Clock;
use crate::ports::sql::{Sql, SqlError};
use crate::review::model::ticks::{TickOutcome, TickReply, TickRow, MAX_TICKS_PER_PERSON};

/// The most heads whose change ids are kept: enough for "since your last visit" across many
/// pushes, bounded so a busy pull request's object doesn't grow without limit.
pub const MAX_HEADS: usize = 20;

/// How often an instance sweeps old ticks: the sweep reads the whole table, and a popular pull
/// request's object takes many ticks a second.
pub const TICK_SWEEP_INTERVAL_MS: u64 = 60 * 60 * 1000;

/// A reviewer ticking (or unticking) items: one checklist item, one change, or every change of a
/// file entry, stored as content items (`change:<path>#<id>`, `blob:<path>#<sha>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    pub person: String,
    pub items: Vec<String>,
    pub done: bool,
    pub head_sha: String,
    pub at: String,
}

/// The change ids of every file at one head, recorded once per head.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadRecord {
    pub head_sha: String,
    pub files: Value,
    pub at: String,
}

#[derive(Deserialize)]
struct FilesRow {
    files: String,
}

/// When an object instance last swept old ticks (epoch ms): kept by the shell for its lifetime.
#[derive(Debug, Default)]
pub struct TickSweep {
    swept_at: Cell<u64>,
}

impl TickSweep {
    /// Removes ticks unchanged for longer than [`TICK_RETENTION_SECONDS`], unless this instance
    /// did so within [`TICK_SWEEP_INTERVAL_MS`]. `updated_at` is RFC 3339 text in one fixed-width
    /// format, so text order is time order.
    pub fn run<S: Sql>(&self, records: &Records<'_, S>, clock: &dyn Clock) -> Result<(), SqlError> {
        let now = clock.now_ms();
        let last = self.swept_at.get();
        if last != 0 && now < last + TICK_SWEEP_INTERVAL_MS {
            return Ok(());
        }
        self.swept_at.set(now);
        let cutoff = now.saturating_sub(TICK_RETENTION_SECONDS * 1000);
        records.sql.run(
            "DELETE FROM ticks WHERE updated_at < ?",
            &[crate::time::rfc3339(cutoff).into()],
        )
    }
}

impl<S: Sql> Records<'_, S> {
    /// The items a person has ticked, with the head each was ticked at. Checklist ticks are keyed
    /// by checklist identity, not position, so they survive a re-arrange; file and change ticks by
    /// content, so they survive a push that leaves the change alone.
    pub fn ticks(&self, person: &str) -> Result<Vec<TickRow>, SqlError> {
        self.sql.rows(
            "SELECT item, head_sha, updated_at AS at FROM ticks WHERE person = ? AND done = 1 ORDER BY item",
            &[person.into()],
        )
    }

    /// The recorded change ids of the given heads (those still kept).
    pub fn heads(&self, shas: &[&str]) -> Result<BTreeMap<String, Value>, SqlError> {
        let mut out = BTreeMap::new();
        for sha in shas {
            let rows: Vec<FilesRow> = self.sql.rows(
                "SELECT files FROM heads WHERE head_sha = ?",
                &[(*sha).into()],
            )?;
            let files = rows.into_iter().next();
            if let Some(files) = files.and_then(|row| crate::json::decode::<Value>(&row.files).ok())
            {
                out.insert((*sha).to_string(), files);
            }
        }
        Ok(out)
    }

    /// Whether the change ids of this head are recorded.
    pub fn knows_head(&self, sha: &str) -> Result<bool, SqlError> {
        let rows: Vec<Returned> = self.sql.rows(
            "SELECT head_sha FROM heads WHERE head_sha = ?",
            &[sha.into()],
        )?;
        Ok(!rows.is_empty())
    }

    /// Records a head's change ids once, keeping the newest [`MAX_HEADS`].
    pub fn record_head(&self, head: &HeadRecord) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT OR IGNORE INTO heads (head_sha, files, recorded_at) VALUES (?, ?, ?)",
            &[
                head.head_sha.as_str().into(),
                head.files.to_string().into(),
                head.at.as_str().into(),
            ],
        )?;
        self.sql.run(
            &format!(
                "DELETE FROM heads WHERE head_sha NOT IN \
                 (SELECT head_sha FROM heads ORDER BY recorded_at DESC LIMIT {MAX_HEADS})"
            ),
            &[],
        )
    }

    /// Stores ticks, or deletes them when unticked (so unticking never grows storage). A person
    /// holds at most [`MAX_TICKS_PER_PERSON`] ticks on one pull request: the caller admits only
    /// items of the current page, and this bound holds even across many pushes and versions.
    pub fn tick(&self, tick: &Tick) -> Result<TickReply, SqlError> {
        let known_head = self.knows_head(&tick.head_sha)?;
        if !tick.done {
            for item in &tick.items {
                self.sql.run(
                    "DELETE FROM ticks WHERE person = ? AND item = ?",
                    &[tick.person.as_str().into(), item.as_str().into()],
                )?;
            }
            return Ok(TickReply {
                outcome: TickOutcome::Stored,
                known_head,
            });
        }
        let held: Vec<Count> = self.sql.rows(
            "SELECT COUNT(*) AS n FROM ticks WHERE person = ?",
            &[tick.person.as_str().into()],
        )?;
        let held = held.first().map_or(0, |count| count.n.max(0) as usize);
        if held + tick.items.len() > MAX_TICKS_PER_PERSON {
            return Ok(TickReply {
                outcome: TickOutcome::Full,
                known_head,
            });
        }
        for item in &tick.items {
            self.sql.run(
                "INSERT INTO ticks (person, item, done, updated_at, head_sha) VALUES (?, ?, 1, ?, ?) \
                 ON CONFLICT (person, item) DO UPDATE SET done = 1, updated_at = excluded.updated_at, \
                 head_sha = excluded.head_sha",
                &[
                    tick.person.as_str().into(),
                    item.as_str().into(),
                    tick.at.as_str().into(),
                    tick.head_sha.as_str().into(),
                ],
            )?;
        }
        Ok(TickReply {
            outcome: TickOutcome::Stored,
            known_head,
        })
    }

    /// Replaces a person's path-keyed ticks with content items, keeping their time.
    pub fn migrate(
        &self,
        person: &str,
        add: &[TickRow],
        remove: &[String],
    ) -> Result<(), SqlError> {
        for row in add {
            self.sql.run(
                "INSERT INTO ticks (person, item, done, updated_at, head_sha) VALUES (?, ?, 1, ?, ?) \
                 ON CONFLICT (person, item) DO NOTHING",
                &[
                    person.into(),
                    row.item.as_str().into(),
                    row.at.as_str().into(),
                    row.head_sha.clone().into(),
                ],
            )?;
        }
        for item in remove {
            self.sql.run(
                "DELETE FROM ticks WHERE person = ? AND item = ?",
                &[person.into(), item.as_str().into()],
            )?;
        }
        Ok(())
    }

    /// Deletes every tick of one person; answers how many rows went.
    pub fn forget_ticks(&self, person: &str) -> Result<usize, SqlError> {
        let gone: Vec<Returned> = self.sql.rows(
            "DELETE FROM ticks WHERE person = ? RETURNING item",
            &[person.into()],
        )?;
        Ok(gone.len())
    }
}
