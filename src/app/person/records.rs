//! A person's records: the SQL statements over the object's SQLite (`ports::sql`), one method per
//! thing the application reads or writes, rows decoded by column name into the types below.
//!
//! Tables (`person.sql`, created on the first OAuth operation):
//! * `github` — one row: the GitHub login and the GitHub token(s), sealed (`ports::person`, the
//!   object name as additional data).
//! * `grants` — one row per connected app: client, redirect URI, resource, write access, times.
//! * `tokens` — SHA-256 hashes of access and refresh tokens with their grant, expiry, and for
//!   refresh tokens whether they were already rotated (kept until expiry to detect replays).
//! * `codes` — SHA-256 hashes of authorization codes with their bindings (JSON) and, once
//!   exchanged, the grant they created (to revoke it on a second use).
//! * `consents` — remembered consent per (client, redirect URI without loopback port).
//! * `api_tokens` — API tokens made on `/settings`: id, SHA-256 of the token, name, write access,
//!   times. They do not expire; revoking deletes the row.
//! * `pending` — consent forms awaiting an answer: hash of the id, hash of the CSRF token, the
//!   authorization request, expiry.
//! * `ticked` — the pull requests the person ticked on or keeps drafts on, with the key the rows
//!   are under there (their `gh:<id>` since issue 36, their login before) and when they last
//!   ticked there (`person_data`). Entries unchanged for a year go, as the ticks themselves do.
//!
//! Why synchronous: every method runs to completion without awaiting, so an operation that reads,
//! decides and writes through these methods cannot interleave with another request.
//! What not: no decisions (`oauth::grants` and the operations decide); the stored values are
//! exactly those the object wrote before this layer existed (`tests/data/stored-values/`).

use serde::Deserialize;

use crate::oauth::grants::{CodeRecord, GrantRecord};
use crate::ports::sql::{Sql, SqlError, SqlValue};

/// Every table, for "Delete my data".
pub const TABLES: [&str; 8] = [
    "github",
    "grants",
    "tokens",
    "codes",
    "consents",
    "api_tokens",
    "pending",
    "ticked",
];

/// The kinds of row in `tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    Access,
    Refresh,
}

impl TokenKind {
    fn column(self) -> &'static str {
        match self {
            TokenKind::Access => "access",
            TokenKind::Refresh => "refresh",
        }
    }
}

/// A `tokens` row as the operations read it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TokenRow {
    pub grant_id: String,
    pub expires_at: u64,
    #[serde(deserialize_with = "flag")]
    pub spent: bool,
}

/// A `grants` row.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
struct GrantRow {
    id: String,
    client_id: String,
    client_name: String,
    redirect_uri: String,
    resource: String,
    #[serde(deserialize_with = "flag")]
    may_write: bool,
    created_at: u64,
    last_used_at: u64,
}

impl From<GrantRow> for GrantRecord {
    fn from(row: GrantRow) -> GrantRecord {
        GrantRecord {
            id: row.id,
            client_id: row.client_id,
            client_name: row.client_name,
            redirect_uri: row.redirect_uri,
            resource: row.resource,
            may_write: row.may_write,
            created_at: row.created_at,
            last_used_at: row.last_used_at,
        }
    }
}

const GRANT_COLUMNS: &str =
    "id, client_id, client_name, redirect_uri, resource, may_write, created_at, last_used_at";

/// A `pending` consent.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PendingRow {
    pub csrf_hash: String,
    /// The authorization request, JSON.
    pub request: String,
    pub expires_at: u64,
}

/// An `api_tokens` row without its hash.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ApiTokenRow {
    pub id: String,
    pub name: String,
    #[serde(deserialize_with = "flag")]
    pub may_write: bool,
    pub created_at: u64,
    pub last_used_at: u64,
}

/// The `github` row.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GitHubRow {
    pub login: String,
    pub sealed: String,
}

/// A `ticked` row as listed.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct TickedRow {
    pub owner: String,
    pub repo: String,
    pub number: u64,
    pub login: String,
}

#[derive(Deserialize)]
struct CodeRow {
    record: String,
    grant_id: Option<String>,
}

#[derive(Deserialize)]
struct Flag {
    #[serde(deserialize_with = "flag")]
    may_write: bool,
}

#[derive(Deserialize)]
struct Listed {
    #[allow(dead_code)]
    listed: i64,
}

#[derive(Deserialize)]
struct LoginRow {
    login: String,
}

#[derive(Deserialize)]
struct Count {
    n: u64,
}

#[derive(Deserialize)]
struct Id {
    #[allow(dead_code)]
    id: String,
}

/// SQLite's booleans are integers (0 or 1).
fn flag<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Ok(i64::deserialize(deserializer)? != 0)
}

fn int(value: u64) -> SqlValue {
    SqlValue::Integer(i64::try_from(value).unwrap_or(i64::MAX))
}

fn flag_value(value: bool) -> SqlValue {
    SqlValue::Integer(i64::from(value))
}

/// A person's records over one SQLite database.
pub struct Records<'a, S> {
    sql: &'a S,
}

impl<'a, S: Sql> Records<'a, S> {
    pub fn new(sql: &'a S) -> Records<'a, S> {
        Records { sql }
    }

    /// Creates the tables that do not exist yet.
    pub fn create(&self) -> Result<(), SqlError> {
        self.sql.script(include_str!("person.sql"))
    }

    fn first<T: serde::de::DeserializeOwned>(
        &self,
        query: &str,
        bindings: &[SqlValue],
    ) -> Result<Option<T>, SqlError> {
        Ok(self.sql.rows(query, bindings)?.into_iter().next())
    }

    // ---- grants and tokens ---------------------------------------------------------------

    pub fn grant(&self, id: &str) -> Result<Option<GrantRecord>, SqlError> {
        let query = format!("SELECT {GRANT_COLUMNS} FROM grants WHERE id = ?");
        Ok(self
            .first::<GrantRow>(&query, &[id.into()])?
            .map(Into::into))
    }

    /// Every grant, most recently used first.
    pub fn grants(&self) -> Result<Vec<GrantRecord>, SqlError> {
        let query = format!("SELECT {GRANT_COLUMNS} FROM grants ORDER BY last_used_at DESC");
        let rows: Vec<GrantRow> = self.sql.rows(&query, &[])?;
        Ok(rows.into_iter().map(Into::into).collect())
    }

    pub fn insert_grant(&self, grant: &GrantRecord, now: u64) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT INTO grants (id, client_id, client_name, redirect_uri, resource, may_write, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            &[
                grant.id.as_str().into(),
                grant.client_id.as_str().into(),
                grant.client_name.as_str().into(),
                grant.redirect_uri.as_str().into(),
                grant.resource.as_str().into(),
                flag_value(grant.may_write),
                int(now),
                int(now),
            ],
        )
    }

    /// Records a use of a grant, or of an API token (`api_token`).
    pub fn touch(&self, api_token: bool, id: &str, now: u64) -> Result<(), SqlError> {
        let statement = if api_token {
            "UPDATE api_tokens SET last_used_at = ? WHERE id = ?"
        } else {
            "UPDATE grants SET last_used_at = ? WHERE id = ?"
        };
        self.sql.run(statement, &[int(now), id.into()])
    }

    /// The row of a token by its hash and kind.
    pub fn token(&self, hash: &str, kind: TokenKind) -> Result<Option<TokenRow>, SqlError> {
        self.first(
            "SELECT grant_id, expires_at, spent FROM tokens WHERE hash = ? AND kind = ?",
            &[hash.into(), kind.column().into()],
        )
    }

    pub fn insert_token(
        &self,
        hash: &str,
        kind: TokenKind,
        grant_id: &str,
        expires_at: u64,
    ) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT INTO tokens (hash, kind, grant_id, expires_at, spent) VALUES (?, ?, ?, ?, 0)",
            &[
                hash.into(),
                kind.column().into(),
                grant_id.into(),
                int(expires_at),
            ],
        )
    }

    /// Marks a refresh token rotated: presenting it again is a replay.
    pub fn spend_token(&self, hash: &str) -> Result<(), SqlError> {
        self.sql
            .run("UPDATE tokens SET spent = 1 WHERE hash = ?", &[hash.into()])
    }

    /// Ends a grant: its tokens stop working on the very next request.
    pub fn revoke_grant(&self, grant_id: &str) -> Result<(), SqlError> {
        self.sql
            .run("DELETE FROM tokens WHERE grant_id = ?", &[grant_id.into()])?;
        self.sql
            .run("DELETE FROM grants WHERE id = ?", &[grant_id.into()])
    }

    /// Ends every grant (the GitHub token no longer opens).
    pub fn revoke_all_grants(&self) -> Result<(), SqlError> {
        self.sql.run("DELETE FROM tokens", &[])?;
        self.sql.run("DELETE FROM grants", &[])
    }

    /// Drops what can no longer be used: expired tokens, codes and pending consents, and
    /// grants left without a token.
    pub fn sweep(&self, now: u64) -> Result<(), SqlError> {
        self.sql
            .run("DELETE FROM tokens WHERE expires_at <= ?", &[int(now)])?;
        self.sql
            .run("DELETE FROM codes WHERE expires_at <= ?", &[int(now)])?;
        self.sql
            .run("DELETE FROM pending WHERE expires_at <= ?", &[int(now)])?;
        self.sql.run(
            "DELETE FROM grants WHERE id NOT IN (SELECT grant_id FROM tokens)",
            &[],
        )
    }

    // ---- codes ---------------------------------------------------------------------------

    /// The code stored under `hash`, with the grant its first exchange created (if any).
    pub fn code(&self, hash: &str) -> Result<Option<CodeRecord>, crate::app::person::PersonError> {
        let Some(row) = self.first::<CodeRow>(
            "SELECT record, grant_id FROM codes WHERE hash = ?",
            &[hash.into()],
        )?
        else {
            return Ok(None);
        };
        let mut record: CodeRecord = crate::json::decode(&row.record)?;
        record.grant_id = row.grant_id;
        Ok(Some(record))
    }

    pub fn insert_code(
        &self,
        hash: &str,
        record: &CodeRecord,
    ) -> Result<(), crate::app::person::PersonError> {
        let json = serde_json::to_string(record)?;
        self.sql.run(
            "INSERT INTO codes (hash, record, expires_at, grant_id) VALUES (?, ?, ?, NULL)",
            &[hash.into(), json.into(), int(record.expires_at)],
        )?;
        Ok(())
    }

    /// Records the grant a code's exchange created, which spends the code.
    pub fn code_made_grant(&self, hash: &str, grant_id: &str) -> Result<(), SqlError> {
        self.sql.run(
            "UPDATE codes SET grant_id = ? WHERE hash = ?",
            &[grant_id.into(), hash.into()],
        )
    }

    pub fn delete_code(&self, hash: &str) -> Result<(), SqlError> {
        self.sql
            .run("DELETE FROM codes WHERE hash = ?", &[hash.into()])
    }

    // ---- consent -------------------------------------------------------------------------

    /// The write access remembered for a client and redirect key, if consent was given.
    pub fn consent(&self, client_id: &str, redirect_key: &str) -> Result<Option<bool>, SqlError> {
        Ok(self
            .first::<Flag>(
                "SELECT may_write FROM consents WHERE client_id = ? AND redirect_key = ?",
                &[client_id.into(), redirect_key.into()],
            )?
            .map(|row| row.may_write))
    }

    pub fn remember_consent(
        &self,
        client_id: &str,
        redirect_key: &str,
        may_write: bool,
        now: u64,
    ) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT INTO consents (client_id, redirect_key, may_write, created_at) VALUES (?, ?, ?, ?) \
             ON CONFLICT (client_id, redirect_key) DO UPDATE SET may_write = excluded.may_write, created_at = excluded.created_at",
            &[client_id.into(), redirect_key.into(), flag_value(may_write), int(now)],
        )
    }

    pub fn insert_pending(
        &self,
        hash: &str,
        csrf_hash: &str,
        login: &str,
        request: &str,
        expires_at: u64,
    ) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT INTO pending (hash, csrf_hash, login, request, expires_at) VALUES (?, ?, ?, ?, ?)",
            &[
                hash.into(),
                csrf_hash.into(),
                login.into(),
                request.into(),
                int(expires_at),
            ],
        )
    }

    /// Takes a pending consent: it is deleted whether or not it is found or accepted.
    pub fn take_pending(&self, hash: &str) -> Result<Option<PendingRow>, SqlError> {
        let pending = self.first(
            "SELECT csrf_hash, request, expires_at FROM pending WHERE hash = ?",
            &[hash.into()],
        )?;
        self.sql
            .run("DELETE FROM pending WHERE hash = ?", &[hash.into()])?;
        Ok(pending)
    }

    // ---- API tokens ----------------------------------------------------------------------

    /// A live API token by its hash: (id, name, may_write).
    pub fn api_token(&self, hash: &str) -> Result<Option<ApiTokenRow>, SqlError> {
        self.first(
            "SELECT id, name, may_write, created_at, last_used_at FROM api_tokens WHERE hash = ?",
            &[hash.into()],
        )
    }

    /// Every API token, newest first.
    pub fn api_tokens(&self) -> Result<Vec<ApiTokenRow>, SqlError> {
        self.sql.rows(
            "SELECT id, name, may_write, created_at, last_used_at FROM api_tokens ORDER BY created_at DESC",
            &[],
        )
    }

    pub fn insert_api_token(
        &self,
        id: &str,
        hash: &str,
        name: &str,
        may_write: bool,
        now: u64,
    ) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT INTO api_tokens (id, hash, name, may_write, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, 0)",
            &[id.into(), hash.into(), name.into(), flag_value(may_write), int(now)],
        )
    }

    /// Deletes an API token by id; whether it existed.
    pub fn delete_api_token(&self, id: &str) -> Result<bool, SqlError> {
        let found = self
            .first::<Id>("SELECT id FROM api_tokens WHERE id = ?", &[id.into()])?
            .is_some();
        self.sql
            .run("DELETE FROM api_tokens WHERE id = ?", &[id.into()])?;
        Ok(found)
    }

    pub fn delete_api_token_by_hash(&self, hash: &str) -> Result<(), SqlError> {
        self.sql
            .run("DELETE FROM api_tokens WHERE hash = ?", &[hash.into()])
    }

    // ---- the GitHub token ----------------------------------------------------------------

    pub fn github(&self) -> Result<Option<GitHubRow>, SqlError> {
        self.first("SELECT login, sealed FROM github WHERE id = 1", &[])
    }

    pub fn store_github(&self, login: &str, sealed: &str, now: u64) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT INTO github (id, login, sealed, updated_at) VALUES (1, ?, ?, ?) \
             ON CONFLICT (id) DO UPDATE SET login = excluded.login, sealed = excluded.sealed, updated_at = excluded.updated_at",
            &[login.into(), sealed.into(), int(now)],
        )
    }

    // ---- the index of ticked pull requests -----------------------------------------------

    pub fn note_ticked(&self, key: &str, pull: &TickedRow, now: u64) -> Result<(), SqlError> {
        self.sql.run(
            "INSERT INTO ticked (key, owner, repo, number, login, at) VALUES (?, ?, ?, ?, ?, ?) \
             ON CONFLICT (key) DO UPDATE SET at = excluded.at",
            &[
                key.into(),
                pull.owner.as_str().into(),
                pull.repo.as_str().into(),
                int(pull.number),
                pull.login.as_str().into(),
                int(now),
            ],
        )
    }

    /// Drops index entries last ticked before `before`.
    pub fn sweep_ticked(&self, before: u64) -> Result<(), SqlError> {
        self.sql
            .run("DELETE FROM ticked WHERE at < ?", &[int(before)])
    }

    /// The least recently ticked entries, at most `limit`.
    pub fn ticked(&self, limit: usize) -> Result<Vec<TickedRow>, SqlError> {
        self.sql.rows(
            "SELECT owner, repo, number, login FROM ticked ORDER BY at LIMIT ?",
            &[int(limit as u64)],
        )
    }

    /// Whether an entry is listed under `key`.
    pub fn has_ticked(&self, key: &str) -> Result<bool, SqlError> {
        Ok(self
            .first::<Listed>(
                "SELECT 1 AS listed FROM ticked WHERE key = ?",
                &[key.into()],
            )?
            .is_some())
    }

    /// The logins (keys without `:`, from before issue 36) the index lists `pull` under, its
    /// owner and repository matched as the pull request's object is named (lower-cased).
    pub fn ticked_logins(
        &self,
        pull: &crate::person_data::Ticked,
    ) -> Result<Vec<String>, SqlError> {
        let rows: Vec<LoginRow> = self.sql.rows(
            "SELECT login FROM ticked WHERE lower(owner) = ? AND lower(repo) = ? AND number = ? \
             AND instr(login, ':') = 0 ORDER BY login",
            &[
                pull.owner.to_ascii_lowercase().into(),
                pull.repo.to_ascii_lowercase().into(),
                int(pull.number),
            ],
        )?;
        Ok(rows.into_iter().map(|row| row.login).collect())
    }

    pub fn drop_ticked(&self, key: &str) -> Result<(), SqlError> {
        self.sql
            .run("DELETE FROM ticked WHERE key = ?", &[key.into()])
    }

    // ---- everything ----------------------------------------------------------------------

    /// How many rows `table` (one of [`TABLES`]) holds.
    pub fn count(&self, table: &str) -> Result<u64, SqlError> {
        Ok(self
            .first::<Count>(&format!("SELECT COUNT(*) AS n FROM {table}"), &[])?
            .map_or(0, |row| row.n))
    }

    /// Deletes every row of every table.
    pub fn delete_everything(&self) -> Result<(), SqlError> {
        for table in TABLES {
            self.sql.run(&format!("DELETE FROM {table}"), &[])?;
        }
        Ok(())
    }
}
