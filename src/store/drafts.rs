//! The `drafts` table of a pull request's Durable Object (wasm only, issue 29): each reviewer's
//! comments before they are sent, one row per draft, keyed by the reviewer's person id like
//! ticks (issue 36: not the login, which another account may claim; so "Delete my data" finds
//! them through the same index of pull requests).
//!
//! A row holds the draft as JSON (`review::drafts::Draft` without its id, which is the row's) and
//! when it last changed. A person holds at most `MAX_DRAFTS_PER_PERSON` drafts on one pull
//! request, each body at most GitHub's 65,536 characters (checked before any is stored,
//! `web::review_write::check`).

use worker::{Result, SqlStorage, SqlStorageValue};

use crate::review::drafts::{Draft, DraftDelete, DraftPut, PutOutcome, MAX_DRAFTS_PER_PERSON};

/// A person's drafts, oldest first.
pub fn list(sql: &SqlStorage, person: &str) -> Result<Vec<Draft>> {
    let rows = sql
        .exec(
            "SELECT id, draft FROM drafts WHERE person = ? ORDER BY id",
            vec![person.to_string().into()],
        )?
        .raw();
    let mut out = Vec::new();
    for values in rows {
        let mut values = values?.into_iter();
        let id = match values.next() {
            Some(SqlStorageValue::Integer(id)) => id as u64,
            _ => continue,
        };
        let Some(SqlStorageValue::String(text)) = values.next() else {
            continue;
        };
        if let Ok(mut draft) = serde_json::from_str::<Draft>(&text) {
            draft.id = id;
            out.push(draft);
        }
    }
    Ok(out)
}

fn count(sql: &SqlStorage, person: &str) -> Result<usize> {
    let value = sql
        .exec(
            "SELECT COUNT(*) FROM drafts WHERE person = ?",
            vec![person.to_string().into()],
        )?
        .raw()
        .next()
        .transpose()?
        .and_then(|values| values.into_iter().next());
    Ok(match value {
        Some(SqlStorageValue::Integer(n)) => n as usize,
        _ => 0,
    })
}

/// Stores a new draft or changes one of the person's own.
pub fn put(sql: &SqlStorage, put: &DraftPut) -> Result<PutOutcome> {
    let mut draft = put.draft.clone();
    draft.id = 0;
    let text = serde_json::to_string(&draft)?;
    let outcome = match put.id {
        Some(id) => {
            let written = sql
                .exec(
                    "UPDATE drafts SET draft = ?, updated_at = ? WHERE id = ? AND person = ?",
                    vec![
                        text.into(),
                        draft.updated_at.clone().into(),
                        (id as i64).into(),
                        put.person.clone().into(),
                    ],
                )?
                .rows_written();
            if written == 0 {
                PutOutcome::Missing
            } else {
                PutOutcome::Stored(id)
            }
        }
        None if count(sql, &put.person)? >= MAX_DRAFTS_PER_PERSON => PutOutcome::Full,
        None => {
            let id = sql
                .exec(
                    "INSERT INTO drafts (person, draft, updated_at) VALUES (?, ?, ?) RETURNING id",
                    vec![
                        put.person.clone().into(),
                        text.into(),
                        draft.updated_at.clone().into(),
                    ],
                )?
                .raw()
                .next()
                .transpose()?
                .and_then(|values| values.into_iter().next());
            match id {
                Some(SqlStorageValue::Integer(id)) => PutOutcome::Stored(id as u64),
                _ => return Err(worker::Error::RustError("draft id not returned".into())),
            }
        }
    };
    Ok(outcome)
}

/// Deletes some of the person's drafts; answers how many went.
pub fn delete(sql: &SqlStorage, delete: &DraftDelete) -> Result<usize> {
    let mut removed = 0;
    for id in &delete.ids {
        removed += sql
            .exec(
                "DELETE FROM drafts WHERE id = ? AND person = ?",
                vec![(*id as i64).into(), delete.person.clone().into()],
            )?
            .rows_written();
    }
    Ok(removed)
}

/// Deletes every draft of one person ("Delete my data").
pub fn forget(sql: &SqlStorage, person: &str) -> Result<usize> {
    Ok(sql
        .exec(
            "DELETE FROM drafts WHERE person = ?",
            vec![person.to_string().into()],
        )?
        .rows_written())
}
