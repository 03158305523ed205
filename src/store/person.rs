//! The Durable Object that owns one person's OAuth state (SQLite storage), named `gh:<GitHub id>`.
//!
//! Why one object per person: refresh rotation, replay detection and revocation must be atomic
//! and take effect on the very next request, and the per-person rate limit must be counted in
//! the same hop as the token check (DESIGN.md §3). Every decision comes from `oauth::grants`
//! and `oauth::rate_limit`; this file loads rows, asks, and writes the answer back with no
//! `await` in between, so no other request can interleave.
//!
//! Tables (created on the first OAuth operation, not in the constructor, so objects used only as
//! per-address rate-limit windows, named `ip:<address>`, store nothing):
//! * `github` — one row: the GitHub login and the GitHub token(s), sealed with AES-GCM
//!   (`oauth::seal`, key from `TOKEN_ENCRYPTION_KEY`, the object name as additional data).
//! * `grants` — one row per connected app: client, redirect URI, resource, write access, times.
//! * `tokens` — SHA-256 hashes of access and refresh tokens with their grant, expiry, and for
//!   refresh tokens whether they were already rotated (kept until expiry to detect replays).
//! * `codes` — SHA-256 hashes of authorization codes with their bindings (JSON) and, once
//!   exchanged, the grant they created (to revoke it on a second use). A failed exchange deletes
//!   its code (`grants::CodeDecision::Consume`), so no later attempt can use it.
//! * `consents` — remembered consent per (client, redirect URI without loopback port).
//! * `api_tokens` — API tokens made on `/settings`: id, SHA-256 of the token, name, write
//!   access, times. They do not expire; revoking deletes the row.
//! * `pending` — consent forms awaiting an answer: hash of the id, hash of the CSRF token, the
//!   authorization request, expiry.
//! * `ticked` — the pull requests the person ticked on or keeps drafts on, with the key the rows
//!   are under there (their `gh:<id>` since issue 36, their login before) and when they last
//!   ticked there; `/data/ticked/has` tells a pull request's object whether rows under a login are
//!   this person's (`person_data::adopts_login_rows`), so "Delete my data" can find their ticks (`person_data`).
//!   Entries unchanged for a year go, as the ticks themselves do.
//!
//! `/data/forget` deletes every row of every table at once (grants, tokens, codes, consents, API
//! tokens, pending consents, the sealed GitHub token, the index) and everything remembered in
//! memory, so the person's tokens fail on their very next request.
//!
//! The rate-limit window (`oauth::rate_limit`, sliding) is kept in memory: an object is evicted
//! only after it has been idle for longer than a window, so eviction loses nothing that matters,
//! and no request pays for a storage write just to be counted.
//!
//! Internal API: JSON POSTs defined in `oauth::person_api`, served through `web_sys` alone (no
//! `worker::Request`/`Response` conversions: this object is on every `/mcp` request's path).

use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;
use worker::wasm_bindgen_futures::JsFuture;
use worker::{web_sys, Env, Result, SqlStorage, SqlStorageValue, State};

use crate::oauth::authorize::AuthorizationRequest;
use crate::oauth::error::GrantError;
use crate::oauth::github_flow::{self, GitHubTokens};
use crate::oauth::grants::{
    self, CodeDecision, CodeExchange, CodeRecord, GrantRecord, RefreshDecision, RefreshState,
};
use crate::oauth::person_api as api;
use crate::oauth::rate_limit::{Admission, Window};
use crate::oauth::redirect_uri::consent_key;
use crate::oauth::seal;
use crate::oauth::tokens::{self, PersonId, TokenKind, RANDOM_BYTES};
use crate::person_data as data;
use crate::security::compare::constant_time_eq;

/// How long a GitHub refresh counts as in flight.
const REFRESH_IN_FLIGHT_SECONDS: u64 = 30;

/// Every table, for `/data/forget`.
const TABLES: [&str; 8] = [
    "github",
    "grants",
    "tokens",
    "codes",
    "consents",
    "api_tokens",
    "pending",
    "ticked",
];

#[wasm_bindgen(wasm_bindgen = ::worker::wasm_bindgen)]
pub struct PersonStore {
    sql: SqlStorage,
    env: Env,
    schema_ready: Cell<bool>,
    /// The rate-limit window (per person, or per address for `ip:` objects).
    window: RefCell<Window>,
    /// The person's review pages' window, apart from MCP's (issue 36, `rate_limit::web_limit`).
    web_window: RefCell<Window>,
    /// The imported AES-GCM key, once.
    key: RefCell<Option<JsValue>>,
    /// The last opened GitHub token, keyed by its sealed text, so `/check` decrypts once.
    opened: RefCell<Option<(String, GitHubTokens)>>,
    /// When a GitHub token refresh started (epoch seconds, 0 when none is in flight); other
    /// requests use the current token meanwhile. A timestamp, not a flag, so a refresh that never
    /// finishes cannot block the next one for longer than [`REFRESH_IN_FLIGHT_SECONDS`].
    refreshing_since: Cell<u64>,
    /// Bearer tokens this object has checked, with what they allow: the token path's
    /// SQLite reads and its last-use write, done once per token rather than per request.
    /// Safe because this object is the only writer of its tables: every operation other than
    /// `/check` forgets the memo before and after it runs (see [`PersonStore::forget`]).
    checked: RefCell<Vec<Checked>>,
    /// The `github` row (login, sealed token) as last read or written.
    github_row: RefCell<Option<(String, String)>>,
    /// How many times `/data/forget` ran in this instance, so a GitHub token refresh that was
    /// awaiting GitHub when the person deleted their data does not write the token back.
    deletions: Cell<u32>,
}

/// One remembered token check.
struct Checked {
    token_hash: String,
    access: Access,
    /// Epoch seconds the token stops working at (`None`: an API token, which does not expire).
    valid_until: Option<u64>,
    /// When its last use was last written, so it is written at most once a minute.
    use_written_at: u64,
}

/// How many tokens a person's object remembers: one per connected app is typical.
const CHECKED_CAPACITY: usize = 16;

/// One result row, read by column position: serde-free, which keeps the wasm small.
struct Row(Vec<SqlStorageValue>);

impl Row {
    fn text(&self, column: usize) -> String {
        self.opt_text(column).unwrap_or_default()
    }

    fn opt_text(&self, column: usize) -> Option<String> {
        match self.0.get(column) {
            Some(SqlStorageValue::String(text)) => Some(text.clone()),
            _ => None,
        }
    }

    fn int(&self, column: usize) -> u64 {
        match self.0.get(column) {
            Some(SqlStorageValue::Integer(n)) => u64::try_from(*n).unwrap_or_default(),
            Some(SqlStorageValue::Float(f)) if *f >= 0.0 => *f as u64,
            Some(SqlStorageValue::Boolean(b)) => u64::from(*b),
            _ => 0,
        }
    }
}

/// `SELECT grant_id, expires_at, spent FROM tokens`.
struct TokenRow {
    grant_id: String,
    expires_at: u64,
    spent: bool,
}

impl TokenRow {
    fn from_row(row: &Row) -> TokenRow {
        TokenRow {
            grant_id: row.text(0),
            expires_at: row.int(1),
            spent: row.int(2) != 0,
        }
    }
}

/// Where a bearer token's access comes from.
#[derive(Clone, Copy)]
enum AccessSource {
    Grant,
    ApiToken,
}

/// What a valid bearer token allows, and what to call its client.
#[derive(Clone)]
struct Access {
    source: AccessSource,
    /// The grant's or the API token's id.
    id: String,
    may_write: bool,
    client_name: String,
    /// The resource an OAuth grant's tokens were issued for; API tokens are not bound to one.
    resource: Option<String>,
}

const GRANT_COLUMNS: &str =
    "id, client_id, client_name, redirect_uri, resource, may_write, created_at, last_used_at";

fn grant_from_row(row: &Row) -> GrantRecord {
    GrantRecord {
        id: row.text(0),
        client_id: row.text(1),
        client_name: row.text(2),
        redirect_uri: row.text(3),
        resource: row.text(4),
        may_write: row.int(5) != 0,
        created_at: row.int(6),
        last_used_at: row.int(7),
    }
}

#[wasm_bindgen(
    wasm_bindgen = ::worker::wasm_bindgen,
    wasm_bindgen_futures = ::worker::wasm_bindgen_futures,
    js_sys = ::worker::js_sys
)]
impl PersonStore {
    #[wasm_bindgen(constructor)]
    pub fn new(state: worker::worker_sys::DurableObjectState, env: Env) -> PersonStore {
        let state = State::from(state);
        PersonStore {
            sql: state.storage().sql(),
            env,
            schema_ready: Cell::new(false),
            window: RefCell::new(Window::default()),
            web_window: RefCell::new(Window::default()),
            key: RefCell::new(None),
            opened: RefCell::new(None),
            refreshing_since: Cell::new(0),
            checked: RefCell::new(Vec::new()),
            github_row: RefCell::new(None),
            deletions: Cell::new(0),
        }
    }

    /// Every operation is a JSON POST answered with JSON (see `oauth::person_api`).
    pub async fn fetch(&self, req: web_sys::Request) -> std::result::Result<JsValue, JsValue> {
        let reply = self.answer(&req).await.unwrap_or_else(|error| {
            worker::console_error!("person object: {error}");
            Reply::Failed("the person object failed".into())
        });
        reply
            .into_response()
            .map(JsValue::from)
            .map_err(JsValue::from)
    }
}

/// An operation's answer, before it becomes a `web_sys::Response`.
enum Reply {
    Json(String),
    NotFound,
    Failed(String),
}

impl Reply {
    fn json<T: serde::Serialize>(value: &T) -> Result<Reply> {
        Ok(Reply::Json(serde_json::to_string(value)?))
    }

    fn into_response(self) -> Result<web_sys::Response> {
        let (status, body) = match self {
            Reply::Json(body) => (200, body),
            Reply::NotFound => (404, "no such operation".to_string()),
            Reply::Failed(message) => (500, message),
        };
        let init = web_sys::ResponseInit::new();
        init.set_status(status);
        Ok(web_sys::Response::new_with_opt_str_and_init(
            Some(&body),
            &init,
        )?)
    }
}

impl PersonStore {
    /// Reads the request with `web_sys` alone: no `worker::Request` (whose conversion reads the
    /// headers and `cf` objects) and no `worker::Response` (a `Headers` object per reply), which
    /// the token path pays on every `/mcp` request.
    async fn answer(&self, req: &web_sys::Request) -> Result<Reply> {
        if req.method() != "POST" {
            return Ok(Reply::NotFound);
        }
        let url = req.url();
        let path = object_path(&url).to_string();
        let body = JsFuture::from(req.text()?)
            .await?
            .as_string()
            .unwrap_or_default();
        if path == api::CHECK {
            let request: api::CheckRequest = crate::json::decode(&body)?;
            return Reply::json(&self.check(&request).await?);
        }
        if path == api::ADDRESS {
            let request: api::AddressRequest = crate::json::decode(&body)?;
            return Reply::json(&self.address(&request));
        }
        // Everything else may write grants, tokens or the GitHub token: forget what `/check`
        // remembered, before (so nothing read earlier is trusted) and after (so nothing a check
        // read while this operation awaited outlives it).
        self.forget();
        let reply = self.operate(&path, &body).await;
        self.forget();
        reply
    }

    /// Every operation but `/check` and `/address`.
    async fn operate(&self, path: &str, body: &str) -> Result<Reply> {
        match path {
            api::BEGIN => Reply::json(&self.begin(&crate::json::decode(body)?).await?),
            api::CONSENT => Reply::json(&self.consent(&crate::json::decode(body)?)?),
            api::TOKEN => Reply::json(&self.exchange(&crate::json::decode(body)?)?),
            api::REFRESH => Reply::json(&self.refresh(&crate::json::decode(body)?)?),
            api::REVOKE => {
                self.revoke(&crate::json::decode(body)?)?;
                Ok(Reply::Json("{}".into()))
            }
            api::SETTINGS => Reply::json(&self.settings(&crate::json::decode(body)?)?),
            api::DISCONNECT => Reply::json(&self.disconnect(&crate::json::decode(body)?)?),
            api::CREATE_API_TOKEN => {
                Reply::json(&self.create_api_token(&crate::json::decode(body)?)?)
            }
            api::REVOKE_API_TOKEN => {
                Reply::json(&self.revoke_api_token(&crate::json::decode(body)?)?)
            }
            data::NOTE_TICKED => self.note_ticked(body),
            data::LIST_TICKED => self.list_ticked(body),
            data::DROP_TICKED => self.drop_ticked(body),
            data::HAS_TICKED => self.has_ticked(body),
            data::FORGET => self.forget_everything(),
            _ => Ok(Reply::NotFound),
        }
    }
}

/// The path of an object request's URL (`https://object/check` → `/check`); the host means
/// nothing here.
fn object_path(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[after_scheme..];
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    path.split(['?', '#']).next().unwrap_or(path)
}

fn now_ms() -> u64 {
    worker::Date::now().as_millis()
}

fn random() -> Result<[u8; RANDOM_BYTES]> {
    crate::security::random::bytes::<RANDOM_BYTES>()
        .map_err(|e| worker::Error::RustError(e.to_string()))
}

fn int(value: u64) -> SqlStorageValue {
    SqlStorageValue::Integer(value as i64)
}

fn text(value: &str) -> SqlStorageValue {
    SqlStorageValue::String(value.to_string())
}

impl PersonStore {
    fn ensure_schema(&self) -> Result<()> {
        if !self.schema_ready.get() {
            self.sql.exec(include_str!("person.sql"), None)?;
            self.schema_ready.set(true);
        }
        Ok(())
    }

    /// The first row of a query, if any.
    fn first(&self, query: &str, bindings: Vec<SqlStorageValue>) -> Result<Option<Row>> {
        match self.sql.exec(query, bindings)?.raw().next() {
            Some(values) => Ok(Some(Row(values?))),
            None => Ok(None),
        }
    }

    fn run(&self, query: &str, bindings: Vec<SqlStorageValue>) -> Result<()> {
        self.sql.exec(query, bindings)?;
        Ok(())
    }

    fn grant(&self, id: &str) -> Result<Option<GrantRecord>> {
        let query = format!("SELECT {GRANT_COLUMNS} FROM grants WHERE id = ?");
        Ok(self
            .first(&query, vec![text(id)])?
            .map(|row| grant_from_row(&row)))
    }

    fn token_row(&self, token: &str, kind: &str) -> Result<Option<TokenRow>> {
        Ok(self
            .first(
                "SELECT grant_id, expires_at, spent FROM tokens WHERE hash = ? AND kind = ?",
                vec![text(&tokens::hash(token)), text(kind)],
            )?
            .map(|row| TokenRow::from_row(&row)))
    }

    /// Ends a grant: its tokens stop working on the very next request.
    fn revoke_grant(&self, grant_id: &str) -> Result<()> {
        self.run(
            "DELETE FROM tokens WHERE grant_id = ?",
            vec![text(grant_id)],
        )?;
        self.run("DELETE FROM grants WHERE id = ?", vec![text(grant_id)])
    }

    /// Drops what can no longer be used.
    fn sweep(&self, now: u64) -> Result<()> {
        self.run("DELETE FROM tokens WHERE expires_at <= ?", vec![int(now)])?;
        self.run("DELETE FROM codes WHERE expires_at <= ?", vec![int(now)])?;
        self.run("DELETE FROM pending WHERE expires_at <= ?", vec![int(now)])?;
        self.run(
            "DELETE FROM grants WHERE id NOT IN (SELECT grant_id FROM tokens)",
            vec![],
        )
    }

    /// Mints an access and a refresh token for a grant and stores their hashes.
    fn issue_pair(
        &self,
        person: &PersonId,
        grant_id: &str,
        refresh_expires_at: u64,
        access_ttl: u64,
        now: u64,
    ) -> Result<api::TokenReply> {
        let access = tokens::mint(TokenKind::Access, person, &random()?, &self.tag_key()?);
        let refresh = tokens::mint(TokenKind::Refresh, person, &random()?, &self.tag_key()?);
        let insert =
            "INSERT INTO tokens (hash, kind, grant_id, expires_at, spent) VALUES (?, ?, ?, ?, 0)";
        self.run(
            insert,
            vec![
                text(&tokens::hash(&access)),
                text("access"),
                text(grant_id),
                int(now + access_ttl),
            ],
        )?;
        self.run(
            insert,
            vec![
                text(&tokens::hash(&refresh)),
                text("refresh"),
                text(grant_id),
                int(refresh_expires_at),
            ],
        )?;
        Ok(api::TokenReply::Issued {
            access_token: access,
            refresh_token: refresh,
            expires_in: access_ttl,
        })
    }

    /// Issues an authorization code for an approved request.
    fn issue_code(
        &self,
        person: &PersonId,
        request: &AuthorizationRequest,
        may_write: bool,
        now: u64,
    ) -> Result<String> {
        let code = tokens::mint(TokenKind::Code, person, &random()?, &self.tag_key()?);
        let record = request.code_record(may_write, now);
        self.run(
            "INSERT INTO codes (hash, record, expires_at, grant_id) VALUES (?, ?, ?, NULL)",
            vec![
                text(&tokens::hash(&code)),
                text(&serde_json::to_string(&record)?),
                int(record.expires_at),
            ],
        )?;
        Ok(code)
    }

    // ---- per-address window ------------------------------------------------------------

    fn address(&self, request: &api::AddressRequest) -> api::AddressReply {
        let admission = self
            .window
            .borrow_mut()
            .admit(now_ms(), request.limit_per_minute);
        match admission {
            Admission::Allowed => api::AddressReply::Allowed,
            Admission::Limited {
                retry_after_seconds,
            } => api::AddressReply::Limited {
                retry_after_seconds,
            },
        }
    }

    // ---- /mcp bearer check ---------------------------------------------------------------

    async fn check(&self, request: &api::CheckRequest) -> Result<api::CheckReply> {
        self.ensure_schema()?;
        let Some((kind, person)) = tokens::parse(&request.token) else {
            return Ok(api::CheckReply::Invalid);
        };
        let now_ms = now_ms();
        let now = now_ms / 1000;
        // Token check and rate limit: synchronous, so atomic.
        let Some(access) = self.checked_access(kind, &request.token, now)? else {
            return Ok(api::CheckReply::Invalid);
        };
        // RFC 8707: a token is good only at the resource it was issued for (the same Worker
        // under another host name is another resource).
        if access
            .resource
            .as_deref()
            .is_some_and(|bound| !grants::resource_matches(bound, &request.resource))
        {
            return Ok(api::CheckReply::Invalid);
        }
        let admission = match (request.web, request.limit_per_minute) {
            (true, 0) => Admission::Allowed,
            (true, limit) => self.web_window.borrow_mut().admit(now_ms, limit),
            (false, limit) => self.window.borrow_mut().admit(now_ms, limit),
        };
        if let Admission::Limited {
            retry_after_seconds,
        } = admission
        {
            return Ok(api::CheckReply::Limited {
                retry_after_seconds,
            });
        }
        let Some((login, github)) = self.github_token(&person, now).await? else {
            return Ok(api::CheckReply::Invalid);
        };
        Ok(api::CheckReply::Allowed {
            person: person.object_name(),
            login,
            github_token: github.access_token,
            may_write: access.may_write,
            client_name: access.client_name,
        })
    }

    /// What a bearer token allows, from the memo when this object checked it before, else from
    /// its rows (then remembered). Records the token's last use at most once a minute.
    fn checked_access(&self, kind: TokenKind, token: &str, now: u64) -> Result<Option<Access>> {
        let hash = tokens::hash(token);
        let mut checked = self.checked.borrow_mut();
        let position = checked.iter().position(|entry| entry.token_hash == hash);
        let position = match position {
            Some(position)
                if checked[position]
                    .valid_until
                    .is_none_or(|until| now < until) =>
            {
                position
            }
            Some(expired) => {
                checked.swap_remove(expired);
                return Ok(None);
            }
            None => {
                let found = match kind {
                    TokenKind::Access => self.access_grant(token, now)?,
                    TokenKind::Api => self.api_token(token)?.map(|access| (access, None)),
                    _ => None,
                };
                let Some((access, valid_until)) = found else {
                    return Ok(None);
                };
                if checked.len() >= CHECKED_CAPACITY {
                    checked.remove(0);
                }
                checked.push(Checked {
                    token_hash: hash,
                    access,
                    valid_until,
                    use_written_at: 0,
                });
                checked.len() - 1
            }
        };
        let entry = &mut checked[position];
        if now >= entry.use_written_at + 60 {
            let table = match entry.access.source {
                AccessSource::Grant => "grants",
                AccessSource::ApiToken => "api_tokens",
            };
            self.run(
                &format!("UPDATE {table} SET last_used_at = ? WHERE id = ?"),
                vec![int(now), text(&entry.access.id)],
            )?;
            entry.use_written_at = now;
        }
        Ok(Some(entry.access.clone()))
    }

    /// Forgets every remembered token check and the GitHub row; see [`PersonStore::checked`].
    fn forget(&self) {
        self.checked.borrow_mut().clear();
        *self.github_row.borrow_mut() = None;
    }

    /// The grant behind a valid OAuth access token, and when the token expires.
    fn access_grant(&self, token: &str, now: u64) -> Result<Option<(Access, Option<u64>)>> {
        let row = self.token_row(token, "access")?;
        let grant = match &row {
            Some(row) => self.grant(&row.grant_id)?,
            None => None,
        };
        if !grants::access_is_valid(row.as_ref().map(|r| r.expires_at), grant.as_ref(), now) {
            return Ok(None);
        }
        let valid_until = row.map(|row| row.expires_at);
        Ok(grant.map(|grant| {
            let access = Access {
                source: AccessSource::Grant,
                id: grant.id,
                may_write: grant.may_write,
                client_name: grant.client_name,
                resource: Some(grant.resource),
            };
            (access, valid_until)
        }))
    }

    /// A live API token (they do not expire; a revoked one has no row).
    fn api_token(&self, token: &str) -> Result<Option<Access>> {
        Ok(self
            .first(
                "SELECT id, name, may_write FROM api_tokens WHERE hash = ?",
                vec![text(&tokens::hash(token))],
            )?
            .map(|row| Access {
                source: AccessSource::ApiToken,
                id: row.text(0),
                client_name: row.text(1),
                may_write: row.int(2) != 0,
                resource: None,
            }))
    }

    // ---- /settings -----------------------------------------------------------------------

    fn settings(&self, request: &api::SettingsRequest) -> Result<api::SettingsReply> {
        self.ensure_schema()?;
        let now = now_ms() / 1000;
        self.sweep(now)?;
        let current = match &request.current_token {
            Some(token) => self.token_row(token, "access")?.map(|row| row.grant_id),
            None => None,
        };
        let query = format!("SELECT {GRANT_COLUMNS} FROM grants ORDER BY last_used_at DESC");
        let mut apps = Vec::new();
        for values in self.sql.exec(&query, None)?.raw() {
            let grant = grant_from_row(&Row(values?));
            apps.push(api::ConnectedApp {
                current: current.as_deref() == Some(grant.id.as_str()),
                grant_id: grant.id,
                client_name: grant.client_name,
                may_write: grant.may_write,
                created_at: grant.created_at,
                last_used_at: grant.last_used_at,
            });
        }
        let mut api_tokens = Vec::new();
        for values in self
            .sql
            .exec(
                "SELECT id, name, may_write, created_at, last_used_at FROM api_tokens ORDER BY created_at DESC",
                None,
            )?
            .raw()
        {
            let row = Row(values?);
            api_tokens.push(api::ApiTokenInfo {
                id: row.text(0),
                name: row.text(1),
                may_write: row.int(2) != 0,
                created_at: row.int(3),
                last_used_at: row.int(4),
            });
        }
        Ok(api::SettingsReply {
            apps,
            tokens: api_tokens,
        })
    }

    fn disconnect(&self, request: &api::DisconnectRequest) -> Result<api::Removed> {
        self.ensure_schema()?;
        let removed = self.grant(&request.grant_id)?.is_some();
        if removed {
            self.revoke_grant(&request.grant_id)?;
        }
        Ok(api::Removed { removed })
    }

    fn create_api_token(
        &self,
        request: &api::CreateApiTokenRequest,
    ) -> Result<api::CreateApiTokenReply> {
        self.ensure_schema()?;
        let now = now_ms() / 1000;
        let token = tokens::mint(
            TokenKind::Api,
            &request.person,
            &random()?,
            &self.tag_key()?,
        );
        let id = crate::security::random::text_of(&random()?[..16]);
        self.run(
            "INSERT INTO api_tokens (id, hash, name, may_write, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, 0)",
            vec![
                text(&id),
                text(&tokens::hash(&token)),
                text(&request.name),
                int(u64::from(request.may_write)),
                int(now),
            ],
        )?;
        Ok(api::CreateApiTokenReply { id, token })
    }

    fn revoke_api_token(&self, request: &api::RevokeApiTokenRequest) -> Result<api::Removed> {
        self.ensure_schema()?;
        let removed = self
            .first(
                "SELECT id FROM api_tokens WHERE id = ?",
                vec![text(&request.id)],
            )?
            .is_some();
        self.run(
            "DELETE FROM api_tokens WHERE id = ?",
            vec![text(&request.id)],
        )?;
        Ok(api::Removed { removed })
    }

    // ---- a person's data (`person_data`) -------------------------------------------------

    /// Notes a pull request the person ticked on, and drops entries older than the ticks'
    /// retention (their ticks are gone by then too).
    fn note_ticked(&self, body: &str) -> Result<Reply> {
        self.ensure_schema()?;
        let pull: data::Ticked = crate::json::decode(body)?;
        let now = now_ms() / 1000;
        self.run(
            "INSERT INTO ticked (key, owner, repo, number, login, at) VALUES (?, ?, ?, ?, ?, ?) \
             ON CONFLICT (key) DO UPDATE SET at = excluded.at",
            vec![
                text(&pull.key()),
                text(&pull.owner),
                text(&pull.repo),
                int(pull.number),
                text(&pull.login),
                int(now),
            ],
        )?;
        self.run(
            "DELETE FROM ticked WHERE at < ?",
            vec![int(now.saturating_sub(data::TICK_RETENTION_SECONDS))],
        )?;
        Ok(Reply::Json("{}".into()))
    }

    /// The pull requests the person ticked on, least recently ticked first, one batch.
    fn list_ticked(&self, body: &str) -> Result<Reply> {
        self.ensure_schema()?;
        let mut list = data::TickedList::default();
        let query = "SELECT owner, repo, number, login FROM ticked ORDER BY at LIMIT ?";
        let limit = vec![int(data::batch_limit(body) as u64)];
        for values in self.sql.exec(query, limit)?.raw() {
            let row = Row(values?);
            list.pulls.push(data::Ticked {
                owner: row.text(0),
                repo: row.text(1),
                number: row.int(2),
                login: row.text(3),
            });
        }
        Ok(Reply::Json(list.to_json().to_string()))
    }

    /// Whether the index lists a pull request under a key (`person_data::adopts_login_rows`).
    fn has_ticked(&self, body: &str) -> Result<Reply> {
        self.ensure_schema()?;
        let pull: data::Ticked = crate::json::decode(body)?;
        let listed = self
            .sql
            .exec(
                "SELECT 1 FROM ticked WHERE key = ?",
                vec![text(&pull.key())],
            )?
            .raw()
            .next()
            .is_some();
        Ok(Reply::Json(format!("{{\"listed\":{listed}}}")))
    }

    /// Removes index entries whose ticks were deleted.
    fn drop_ticked(&self, body: &str) -> Result<Reply> {
        self.ensure_schema()?;
        let list: data::TickedList = crate::json::decode(body)?;
        for pull in &list.pulls {
            self.run("DELETE FROM ticked WHERE key = ?", vec![text(&pull.key())])?;
        }
        Ok(Reply::Json("{}".into()))
    }

    /// Deletes everything this object holds about the person; see the module doc.
    fn forget_everything(&self) -> Result<Reply> {
        self.ensure_schema()?;
        let count = |table: &str| -> Result<u64> {
            Ok(self
                .first(&format!("SELECT COUNT(*) FROM {table}"), vec![])?
                .map_or(0, |row| row.int(0)))
        };
        let forgotten = data::Forgotten {
            grants: count("grants")?,
            api_tokens: count("api_tokens")?,
            github_token: count("github")? > 0,
        };
        for table in TABLES {
            self.run(&format!("DELETE FROM {table}"), vec![])?;
        }
        self.forget();
        *self.opened.borrow_mut() = None;
        self.deletions.set(self.deletions.get().wrapping_add(1));
        Ok(Reply::Json(forgotten.to_json().to_string()))
    }

    /// The key our tokens are tagged with (see `oauth::tokens`).
    fn tag_key(&self) -> Result<tokens::TagKey> {
        crate::bindings::config(&self.env)
            .token_tag_key()
            .ok_or_else(|| worker::Error::RustError("TOKEN_ENCRYPTION_KEY is not set".into()))
    }

    async fn key(&self) -> Result<JsValue> {
        if let Some(key) = self.key.borrow().as_ref() {
            return Ok(key.clone());
        }
        let secret = crate::bindings::config(&self.env)
            .token_encryption_key
            .clone()
            .ok_or_else(|| worker::Error::RustError("TOKEN_ENCRYPTION_KEY is not set".into()))?;
        let key = seal::import_key(&secret)
            .await
            .map_err(|e| worker::Error::RustError(format!("importing the key: {e}")))?;
        *self.key.borrow_mut() = Some(key.clone());
        Ok(key)
    }

    async fn store_github(
        &self,
        person: &PersonId,
        login: &str,
        github: &GitHubTokens,
        now: u64,
    ) -> Result<()> {
        let key = self.key().await?;
        let plain = serde_json::to_string(github)?;
        let sealed = seal::seal(&key, &person.object_name(), &plain)
            .await
            .map_err(|e| worker::Error::RustError(format!("sealing: {e}")))?;
        self.run(
            "INSERT INTO github (id, login, sealed, updated_at) VALUES (1, ?, ?, ?) \
             ON CONFLICT (id) DO UPDATE SET login = excluded.login, sealed = excluded.sealed, updated_at = excluded.updated_at",
            vec![text(login), text(&sealed), int(now)],
        )?;
        *self.github_row.borrow_mut() = Some((login.to_string(), sealed.clone()));
        *self.opened.borrow_mut() = Some((sealed, github.clone()));
        Ok(())
    }

    /// The person's login and GitHub token, refreshed first when it is about to expire.
    async fn github_token(
        &self,
        person: &PersonId,
        now: u64,
    ) -> Result<Option<(String, GitHubTokens)>> {
        let remembered = self.github_row.borrow().clone();
        let (login, sealed) = match remembered {
            Some(row) => row,
            None => {
                let query = "SELECT login, sealed FROM github WHERE id = 1";
                let Some(row) = self.first(query, vec![])? else {
                    return Ok(None);
                };
                let row = (row.text(0), row.text(1));
                *self.github_row.borrow_mut() = Some(row.clone());
                row
            }
        };
        let cached = self
            .opened
            .borrow()
            .as_ref()
            .filter(|(cached, _)| *cached == sealed)
            .map(|(_, tokens)| tokens.clone());
        let github = match cached {
            Some(github) => github,
            None => {
                let key = self.key().await?;
                let plain = match seal::open(&key, &person.object_name(), &sealed).await {
                    Ok(plain) => plain,
                    Err(error) => {
                        // A rotated key or a damaged row: every grant ends, so each app's refresh
                        // fails too and it starts a new sign-in, which stores a readable token.
                        worker::console_error!("opening the GitHub token failed: {error}");
                        self.run("DELETE FROM tokens", vec![])?;
                        self.run("DELETE FROM grants", vec![])?;
                        self.forget();
                        return Ok(None);
                    }
                };
                let github: GitHubTokens = crate::json::decode(&plain)?;
                *self.opened.borrow_mut() = Some((sealed.clone(), github.clone()));
                github
            }
        };
        let in_flight = now < self.refreshing_since.get() + REFRESH_IN_FLIGHT_SECONDS;
        if !github.needs_refresh(now) || in_flight {
            return Ok(Some((login, github)));
        }
        self.refreshing_since.set(now);
        let deletions = self.deletions.get();
        let refreshed = self.refresh_github(&github, now).await;
        self.refreshing_since.set(0);
        if self.deletions.get() != deletions {
            // The person deleted their data while GitHub answered: store nothing back.
            return Ok(None);
        }
        match refreshed {
            Ok(fresh) => {
                self.store_github(person, &login, &fresh, now).await?;
                Ok(Some((login, fresh)))
            }
            Err(error) => {
                // Keep using the current token; a tool call will say if GitHub refuses it.
                worker::console_error!("refreshing the GitHub token failed: {error}");
                Ok(Some((login, github)))
            }
        }
    }

    async fn refresh_github(&self, github: &GitHubTokens, now: u64) -> Result<GitHubTokens> {
        let config = crate::bindings::config(&self.env);
        let (Some(client_id), Some(secret), Some(refresh_token)) = (
            config.github_client_id.as_deref(),
            config.github_client_secret.as_deref(),
            github.refresh_token.as_deref(),
        ) else {
            return Err(worker::Error::RustError(
                "GitHub client is not configured".into(),
            ));
        };
        let url = format!("{}/login/oauth/access_token", config.github_oauth_url);
        let form = github_flow::refresh_body(client_id, secret, refresh_token);
        let body = crate::subrequest::post_github_form(&url, &form, config.github_timeout_ms)
            .await?
            .body;
        github_flow::parse_token_response(&body, now)
            .map_err(|e| worker::Error::RustError(format!("GitHub refused the refresh: {e}")))
    }

    // ---- authorization -------------------------------------------------------------------

    async fn begin(&self, request: &api::BeginRequest) -> Result<api::BeginReply> {
        self.ensure_schema()?;
        let now = now_ms() / 1000;
        self.store_github(&request.person, &request.login, &request.github, now)
            .await?;
        self.sweep(now)?;
        let auth = &request.request;
        let remembered = self.first(
            "SELECT may_write FROM consents WHERE client_id = ? AND redirect_key = ?",
            vec![
                text(&auth.client_id),
                text(&consent_key(&auth.redirect_uri)),
            ],
        )?;
        // Remembered consent skips the page only when it already covers everything the app can
        // get; a read-only consent is asked again, so the app can ask for more.
        if remembered.is_some_and(|row| row.int(0) != 0) {
            let code = self.issue_code(&request.person, auth, true, now)?;
            return Ok(api::BeginReply::Code { code });
        }
        let consent_id = tokens::mint(
            TokenKind::Consent,
            &request.person,
            &random()?,
            &self.tag_key()?,
        );
        self.run(
            "INSERT INTO pending (hash, csrf_hash, login, request, expires_at) VALUES (?, ?, ?, ?, ?)",
            vec![
                text(&tokens::hash(&consent_id)),
                text(&request.csrf_hash),
                text(&request.login),
                text(&serde_json::to_string(auth)?),
                int(now + grants::CONSENT_TTL_SECONDS),
            ],
        )?;
        Ok(api::BeginReply::Consent { consent_id })
    }

    fn consent(&self, request: &api::ConsentRequest) -> Result<api::ConsentReply> {
        self.ensure_schema()?;
        let Some((TokenKind::Consent, person)) = tokens::parse(&request.consent_id) else {
            return Ok(api::ConsentReply::Expired);
        };
        let now = now_ms() / 1000;
        let hash = tokens::hash(&request.consent_id);
        let pending = self.first(
            "SELECT csrf_hash, request, expires_at FROM pending WHERE hash = ?",
            vec![text(&hash)],
        )?;
        // Single use, whatever the answer.
        self.run("DELETE FROM pending WHERE hash = ?", vec![text(&hash)])?;
        let Some(pending) = pending else {
            return Ok(api::ConsentReply::Expired);
        };
        let csrf_ok = constant_time_eq(
            tokens::hash(&request.csrf).as_bytes(),
            pending.text(0).as_bytes(),
        );
        if !csrf_ok || now >= pending.int(2) {
            return Ok(api::ConsentReply::Expired);
        }
        let auth: AuthorizationRequest = crate::json::decode(&pending.text(1))?;
        if !request.approve {
            return Ok(api::ConsentReply::Denied { request: auth });
        }
        self.run(
            "INSERT INTO consents (client_id, redirect_key, may_write, created_at) VALUES (?, ?, ?, ?) \
             ON CONFLICT (client_id, redirect_key) DO UPDATE SET may_write = excluded.may_write, created_at = excluded.created_at",
            vec![
                text(&auth.client_id),
                text(&consent_key(&auth.redirect_uri)),
                int(u64::from(request.may_write)),
                int(now),
            ],
        )?;
        let code = self.issue_code(&person, &auth, request.may_write, now)?;
        Ok(api::ConsentReply::Approved {
            code,
            request: auth,
        })
    }

    // ---- token endpoint ------------------------------------------------------------------

    fn exchange(&self, request: &api::CodeTokenRequest) -> Result<api::TokenReply> {
        self.ensure_schema()?;
        let refused = |error| Ok(api::TokenReply::Refused { error });
        let Some((TokenKind::Code, person)) = tokens::parse(&request.code) else {
            return refused(GrantError::CodeUnknown);
        };
        let now = now_ms() / 1000;
        let hash = tokens::hash(&request.code);
        let record = match self.first(
            "SELECT record, grant_id FROM codes WHERE hash = ?",
            vec![text(&hash)],
        )? {
            Some(row) => {
                let mut record: CodeRecord = crate::json::decode(&row.text(0))?;
                record.grant_id = row.opt_text(1);
                Some(record)
            }
            None => None,
        };
        let exchange = CodeExchange {
            client_id: &request.client_id,
            redirect_uri: request.redirect_uri.as_deref(),
            code_verifier: &request.code_verifier,
            resource: request.resource.as_deref(),
        };
        // From the read above to the writes below nothing awaits, so no other request to this
        // object can present the same code in between: the first attempt spends it, successful
        // or not (issue #31).
        match grants::exchange_code(record.as_ref(), &exchange, now) {
            CodeDecision::Refuse(error) => refused(error),
            CodeDecision::Consume(error) => {
                self.run("DELETE FROM codes WHERE hash = ?", vec![text(&hash)])?;
                refused(error)
            }
            CodeDecision::RevokeGrant { grant_id } => {
                self.revoke_grant(&grant_id)?;
                refused(GrantError::CodeReused)
            }
            CodeDecision::Issue => {
                let Some(code) = record else {
                    return refused(GrantError::CodeUnknown);
                };
                self.sweep(now)?;
                let grant_id = crate::security::random::text_of(&random()?[..16]);
                let grant = grants::grant_from_code(&code, grant_id.clone(), now);
                self.run(
                    "INSERT INTO grants (id, client_id, client_name, redirect_uri, resource, may_write, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    vec![
                        text(&grant.id),
                        text(&grant.client_id),
                        text(&grant.client_name),
                        text(&grant.redirect_uri),
                        text(&grant.resource),
                        int(u64::from(grant.may_write)),
                        int(now),
                        int(now),
                    ],
                )?;
                self.run(
                    "UPDATE codes SET grant_id = ? WHERE hash = ?",
                    vec![text(&grant_id), text(&hash)],
                )?;
                self.issue_pair(
                    &person,
                    &grant_id,
                    grants::refresh_expiry(now, now),
                    request.access_ttl_seconds,
                    now,
                )
            }
        }
    }

    fn refresh(&self, request: &api::RefreshTokenRequest) -> Result<api::TokenReply> {
        self.ensure_schema()?;
        let refused = |error| Ok(api::TokenReply::Refused { error });
        let Some((TokenKind::Refresh, person)) = tokens::parse(&request.refresh_token) else {
            return refused(GrantError::RefreshUnknown);
        };
        let now = now_ms() / 1000;
        let row = self.token_row(&request.refresh_token, "refresh")?;
        let grant = match &row {
            Some(row) => self.grant(&row.grant_id)?,
            None => None,
        };
        let state = row.as_ref().map(|row| RefreshState {
            expires_at: row.expires_at,
            spent: row.spent,
        });
        match grants::refresh(
            state,
            grant.as_ref(),
            request.client_id.as_deref(),
            request.resource.as_deref(),
            now,
        ) {
            RefreshDecision::Refuse(error) => refused(error),
            RefreshDecision::RevokeGrant => {
                if let Some(row) = &row {
                    self.revoke_grant(&row.grant_id)?;
                }
                refused(GrantError::RefreshReplayed)
            }
            RefreshDecision::Rotate { refresh_expires_at } => {
                let (Some(row), Some(grant)) = (row, grant) else {
                    return refused(GrantError::RefreshUnknown);
                };
                self.run(
                    "UPDATE tokens SET spent = 1 WHERE hash = ?",
                    vec![text(&tokens::hash(&request.refresh_token))],
                )?;
                self.run(
                    "UPDATE grants SET last_used_at = ? WHERE id = ?",
                    vec![int(now), text(&grant.id)],
                )?;
                self.sweep(now)?;
                self.issue_pair(
                    &person,
                    &row.grant_id,
                    refresh_expires_at,
                    request.access_ttl_seconds,
                    now,
                )
            }
        }
    }

    fn revoke(&self, request: &api::RevokeRequest) -> Result<()> {
        self.ensure_schema()?;
        let kind = match tokens::parse(&request.token) {
            Some((TokenKind::Access, _)) => "access",
            Some((TokenKind::Refresh, _)) => "refresh",
            Some((TokenKind::Api, _)) => {
                // Not bound to a client: whoever holds it may end it.
                let hash = tokens::hash(&request.token);
                return self.run("DELETE FROM api_tokens WHERE hash = ?", vec![text(&hash)]);
            }
            _ => return Ok(()),
        };
        let Some(row) = self.token_row(&request.token, kind)? else {
            return Ok(());
        };
        let grant = self.grant(&row.grant_id)?;
        let same_client = match (&request.client_id, &grant) {
            (Some(client_id), Some(grant)) => *client_id == grant.client_id,
            _ => true,
        };
        if same_client {
            self.revoke_grant(&row.grant_id)?;
        }
        Ok(())
    }
}
