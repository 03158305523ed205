//! What a pull request's object needs beyond SQL, GitHub and the clock, as ports: the snapshot
//! cache (KV `CACHE`), a pause while another read builds the same head, the console for what an
//! operator should read, and the person's index of pull requests holding their ticks and drafts
//! (issue #37).
//!
//! The Workers side is `store::platform`; the tests' stand-ins are in
//! `app::pull_request::test_support` (a cache in memory that counts reads and writes and can
//! refuse writes, a pause that yields once, a console that keeps its lines).
//! What not: no policy; what is cached, for how long and when to wait is the application's.

/// A failed cache write, in the platform's words (logged, never shown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheError(pub String);

impl std::fmt::Display for CacheError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The cache of derived texts (snapshots and listings), keyed by content, so never stale.
#[allow(async_fn_in_trait)]
pub trait Cache {
    /// The text under `key`; `None` when absent, incomplete or unreadable (a failed read only
    /// costs the caller the work of deriving it again).
    async fn get_text(&self, key: &str) -> Option<String>;

    /// Stores `text` under `key` for `ttl_seconds`; `Ok(false)`, storing nothing, when it is too
    /// large to store.
    async fn put_text(&self, key: &str, text: &str, ttl_seconds: u64) -> Result<bool, CacheError>;
}

/// Waiting without blocking the object: other requests run meanwhile.
#[allow(async_fn_in_trait)]
pub trait Pause {
    async fn pause(&self, ms: u64);
}

/// Where the application writes what an operator should read: failures it recovers from.
pub trait Console {
    fn warn(&self, line: &str);
    fn error(&self, line: &str);
}

/// The person's index of the pull requests that hold their ticks or drafts ("Delete my data"
/// walks it, `person_data`): kept in the person's own object.
#[allow(async_fn_in_trait)]
pub trait PersonIndex {
    /// Notes `ticked` in the index of `person` (a `gh:<id>`); the platform's words on failure.
    async fn note(&self, person: &str, ticked: &crate::person_data::Ticked) -> Result<(), String>;

    /// Whether the index of `person` lists `ticked`, and every login it lists that pull request
    /// under (`person_data::HAS_TICKED`, issue 36).
    async fn listed(
        &self,
        person: &str,
        ticked: &crate::person_data::Ticked,
    ) -> Result<IndexListing, String>;
}

/// The index's answer about one pull request (`HAS_TICKED`).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
pub struct IndexListing {
    /// Listed under the key asked about.
    #[serde(default)]
    pub listed: bool,
    /// Every login (key from before issue 36) the pull request is listed under.
    #[serde(default)]
    pub logins: Vec<String>,
}

/// Everything above, as one object's surroundings hand them in.
pub trait Surroundings: Cache + Pause + Console + PersonIndex {}

impl<T: Cache + Pause + Console + PersonIndex> Surroundings for T {}

/// A borrowed port is the port: the application may hold its surroundings by reference.
impl<T: Cache> Cache for &T {
    async fn get_text(&self, key: &str) -> Option<String> {
        (**self).get_text(key).await
    }

    async fn put_text(&self, key: &str, text: &str, ttl_seconds: u64) -> Result<bool, CacheError> {
        (**self).put_text(key, text, ttl_seconds).await
    }
}

impl<T: Pause> Pause for &T {
    async fn pause(&self, ms: u64) {
        (**self).pause(ms).await
    }
}

impl<T: Console> Console for &T {
    fn warn(&self, line: &str) {
        (**self).warn(line)
    }

    fn error(&self, line: &str) {
        (**self).error(line)
    }
}

impl<T: PersonIndex> PersonIndex for &T {
    async fn note(&self, person: &str, ticked: &crate::person_data::Ticked) -> Result<(), String> {
        (**self).note(person, ticked).await
    }

    async fn listed(
        &self,
        person: &str,
        ticked: &crate::person_data::Ticked,
    ) -> Result<IndexListing, String> {
        (**self).listed(person, ticked).await
    }
}
