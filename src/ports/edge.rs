//! The Worker's own ports: what the OAuth endpoints, the web sign-in and the settings need from
//! the platform (issue #45), beside the objects' ports in `pull_request` and `person`.
//!
//! * [`Kv`]: the `CLIENTS` namespace (clients, flows, metadata documents), text in and out.
//! * [`Objects`]: one request to a Durable Object by name, its reply read whole; the
//!   application layer types the calls on top (`app::oauth::objects`).
//! * [`Random`]: fresh random tokens.
//! * [`DocumentFetch`]: the outbound fetch of a client ID metadata document, in two steps so the
//!   size rules (declared length, then a capped read) are the application's.
//!
//! What not: no rule here; a port carries values, it decides nothing. Stand-ins for native tests
//! live in `app::oauth::tests::support`, where they are used.

/// A failure of the platform, in its own words (logged, never shown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformError(pub String);

impl std::fmt::Display for PlatformError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A KV namespace holding text.
///
/// `async fn` without a `Send` bound, as every port here: the Worker is single-threaded.
#[allow(async_fn_in_trait)]
pub trait Kv {
    /// The text under `key`, `None` when absent.
    async fn get(&self, key: &str) -> Result<Option<String>, PlatformError>;
    /// Stores `value` under `key`, expiring after `ttl_seconds` when given.
    async fn put(
        &self,
        key: &str,
        value: &str,
        ttl_seconds: Option<u64>,
    ) -> Result<(), PlatformError>;
    async fn delete(&self, key: &str) -> Result<(), PlatformError>;
}

/// An object's reply: its status and its body as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectReply {
    pub status: u16,
    pub body: String,
}

/// The Durable Objects of one namespace, reached by name.
#[allow(async_fn_in_trait)]
pub trait Objects {
    /// POSTs `body` to `path` on the object `name`.
    async fn post(&self, name: &str, path: &str, body: &str) -> Result<ObjectReply, PlatformError>;
}

/// Fresh randomness.
pub trait Random {
    /// A random token: 32 bytes as URL-safe base64 (`security::random::token`).
    fn token(&self) -> Result<String, PlatformError>;
}

/// A metadata document's first answer: its status and declared length, its body not yet read.
pub struct DocumentHead<B> {
    pub status: u16,
    pub declared_length: Option<usize>,
    pub body: B,
}

/// A body read up to a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Capped {
    Body(Vec<u8>),
    /// Longer than the limit; reading stopped there.
    TooLarge,
}

/// The outbound fetch of a client ID metadata document (`GET`, `accept: application/json`,
/// redirects not followed), and the pause its time limit is measured with.
#[allow(async_fn_in_trait)]
pub trait DocumentFetch {
    type Body;
    async fn get(&self, url: &str) -> Result<DocumentHead<Self::Body>, PlatformError>;
    async fn read(&self, body: Self::Body, limit: usize) -> Result<Capped, PlatformError>;
    /// Waits `ms` milliseconds.
    async fn pause(&self, ms: u64);
}
