//! The saved orders and diagrams: append-only versions, the latest one, the history, and the
//! save that checks `base_version` and writes the next version in one synchronous run, keeping
//! the newest [`MAX_VERSIONS`] of each kind.

use serde::Deserialize;
use serde_json::Value;

use super::Records;
use crate::person_data::MAX_VERSIONS;
use crate::ports::sql::{Sql, SqlError, SqlValue};
use crate::review::model::saved::{
    decide_save, CurrentState, DocumentKind, SaveOutcome, SaveRequest, SavedRecord, VersionSummary,
};

/// A version as its table holds it; `body` is `NULL AS body` when it isn't needed.
#[derive(Deserialize)]
struct VersionRow {
    version: i64,
    body: Option<String>,
    person: String,
    client: Option<String>,
    source: String,
    head_sha: String,
    saved_at: String,
}

/// The columns of a [`VersionRow`], before `FROM`, with the body and without it.
const WITH_BODY: &str = "SELECT version, body, person, client, source, head_sha, saved_at";
const WITHOUT_BODY: &str =
    "SELECT version, NULL AS body, person, client, source, head_sha, saved_at";

impl VersionRow {
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

    /// The stored version; a body that no longer reads is `null` (never the case for a body this
    /// code wrote, which is JSON it produced).
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

impl<S: Sql> Records<'_, S> {
    /// The latest order and diagram.
    pub fn current(&self) -> Result<CurrentState, SqlError> {
        Ok(CurrentState {
            order: self
                .latest(DocumentKind::Order, true)?
                .map(VersionRow::record),
            diagram: self
                .latest(DocumentKind::Diagram, true)?
                .map(VersionRow::record),
        })
    }

    fn latest(&self, kind: DocumentKind, with_body: bool) -> Result<Option<VersionRow>, SqlError> {
        let columns = if with_body { WITH_BODY } else { WITHOUT_BODY };
        let query = format!(
            "{columns} FROM {} ORDER BY version DESC LIMIT 1",
            kind.table()
        );
        Ok(self.sql.rows(&query, &[])?.into_iter().next())
    }

    /// Checks the base version and writes the next version, with no await in between; removes
    /// the versions of this kind older than the newest [`MAX_VERSIONS`].
    pub fn save(&self, request: &SaveRequest) -> Result<SaveOutcome, SqlError> {
        let latest = self.latest(request.kind, false)?.map(|row| row.summary());
        let version = match decide_save(latest.as_ref(), request.base_version) {
            Ok(version) => version,
            Err(latest) => return Ok(SaveOutcome::Conflict { latest: *latest }),
        };
        let insert = format!(
            "INSERT INTO {} (version, body, person, client, source, head_sha, saved_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            request.kind.table()
        );
        self.sql.run(
            &insert,
            &[
                (version as i64).into(),
                request.body.to_string().into(),
                request.person.as_str().into(),
                request.client.clone().into(),
                request.source.as_str().into(),
                request.head_sha.as_str().into(),
                request.saved_at.as_str().into(),
            ],
        )?;
        if version > MAX_VERSIONS {
            let prune = format!("DELETE FROM {} WHERE version <= ?", request.kind.table());
            self.sql.run(
                &prune,
                &[SqlValue::Integer((version - MAX_VERSIONS) as i64)],
            )?;
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

    /// Every kept version of one kind, newest first, without bodies.
    pub fn history(&self, kind: DocumentKind) -> Result<Vec<VersionSummary>, SqlError> {
        let query = format!("{WITHOUT_BODY} FROM {} ORDER BY version DESC", kind.table());
        let rows: Vec<VersionRow> = self.sql.rows(&query, &[])?;
        Ok(rows.iter().map(VersionRow::summary).collect())
    }

    /// One version of one kind, when it is kept.
    pub fn version(
        &self,
        kind: DocumentKind,
        version: i64,
    ) -> Result<Option<SavedRecord>, SqlError> {
        let query = format!("{WITH_BODY} FROM {} WHERE version = ?", kind.table());
        let rows: Vec<VersionRow> = self.sql.rows(&query, &[version.into()])?;
        Ok(rows.into_iter().next().map(VersionRow::record))
    }
}
