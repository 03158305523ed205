//! Each reviewer's draft comments before they are sent (issue 29): one row per draft, keyed by
//! the reviewer's person id like ticks (issue 36: not the login, which another account may
//! claim; so "Delete my data" finds them through the same index of pull requests).
//!
//! A row holds the draft as JSON (`review::drafts::Draft` without its id, which is the row's) and
//! when it last changed. A person holds at most [`MAX_DRAFTS_PER_PERSON`] drafts on one pull
//! request, each body at most GitHub's 65,536 characters (checked before any is stored,
//! `web::review_write::check`).

use serde::Deserialize;

use super::{Count, Records, Returned};
use crate::ports::sql::{Sql, SqlError};
use crate::review::drafts::{Draft, DraftDelete, DraftPut, PutOutcome, MAX_DRAFTS_PER_PERSON};

#[derive(Deserialize)]
struct DraftRow {
    id: i64,
    draft: String,
}

#[derive(Deserialize)]
struct IdRow {
    id: i64,
}

impl<S: Sql> Records<'_, S> {
    /// A person's drafts, oldest first (a row whose JSON no longer reads as a draft is left out).
    pub fn drafts(&self, person: &str) -> Result<Vec<Draft>, SqlError> {
        let rows: Vec<DraftRow> = self.sql.rows(
            "SELECT id, draft FROM drafts WHERE person = ? ORDER BY id",
            &[person.into()],
        )?;
        Ok(rows
            .into_iter()
            .filter_map(|row| {
                let mut draft = serde_json::from_str::<Draft>(&row.draft).ok()?;
                draft.id = row.id as u64;
                Some(draft)
            })
            .collect())
    }

    /// Stores a new draft or changes one of the person's own.
    pub fn put_draft(&self, put: &DraftPut) -> Result<PutOutcome, SqlError> {
        let mut draft = put.draft.clone();
        draft.id = 0;
        let text =
            serde_json::to_string(&draft).map_err(|error| SqlError::new("draft as JSON", error))?;
        if let Some(id) = put.id {
            let written: Vec<Returned> = self.sql.rows(
                "UPDATE drafts SET draft = ?, updated_at = ? WHERE id = ? AND person = ? RETURNING id",
                &[
                    text.into(),
                    draft.updated_at.as_str().into(),
                    (id as i64).into(),
                    put.person.as_str().into(),
                ],
            )?;
            return Ok(if written.is_empty() {
                PutOutcome::Missing
            } else {
                PutOutcome::Stored(id)
            });
        }
        let held: Vec<Count> = self.sql.rows(
            "SELECT COUNT(*) AS n FROM drafts WHERE person = ?",
            &[put.person.as_str().into()],
        )?;
        if held.first().map_or(0, |count| count.n.max(0) as usize) >= MAX_DRAFTS_PER_PERSON {
            return Ok(PutOutcome::Full);
        }
        let inserted: Vec<IdRow> = self.sql.rows(
            "INSERT INTO drafts (person, draft, updated_at) VALUES (?, ?, ?) RETURNING id",
            &[
                put.person.as_str().into(),
                text.into(),
                draft.updated_at.as_str().into(),
            ],
        )?;
        match inserted.first() {
            Some(row) => Ok(PutOutcome::Stored(row.id as u64)),
            None => Err(SqlError::new("INSERT INTO drafts", "no id returned")),
        }
    }

    /// Deletes some of the person's drafts; answers how many went.
    pub fn delete_drafts(&self, delete: &DraftDelete) -> Result<usize, SqlError> {
        let mut removed = 0;
        for id in &delete.ids {
            let gone: Vec<Returned> = self.sql.rows(
                "DELETE FROM drafts WHERE id = ? AND person = ? RETURNING id",
                &[(*id as i64).into(), delete.person.as_str().into()],
            )?;
            removed += gone.len();
        }
        Ok(removed)
    }

    /// Deletes every draft of one person ("Delete my data"); answers how many went.
    pub fn forget_drafts(&self, person: &str) -> Result<usize, SqlError> {
        let gone: Vec<Returned> = self.sql.rows(
            "DELETE FROM drafts WHERE person = ? RETURNING id",
            &[person.into()],
        )?;
        Ok(gone.len())
    }
}
