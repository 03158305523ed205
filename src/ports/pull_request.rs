//! What a pull request's object needs beyond SQL, GitHub and the clock, as ports: the snapshot
//! cache (KV `CACHE`), a pause while another read builds the same head, and the console for what
//! an operator should read (issue #37).
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

/// Everything above, as one object's surroundings hand them in.
pub trait Surroundings: Cache + Pause + Console {}

impl<T: Cache + Pause + Console> Surroundings for T {}
