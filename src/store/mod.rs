//! Storage adapters (wasm only): the Durable Object classes and KV access.
//!
//! * `PullRequestStore` — one object per pull request (`owner/repo#number`, lower-cased): reading
//!   orders, diagrams, their history and reviewers' ticks, written by one writer so `base_version`
//!   conflicts are decided atomically; and each reviewer's draft comments. Its records are
//!   `app::pull_request::records`, over this object's SQL (`sql`).
//! * `PersonStore` — one object per person (GitHub user id): OAuth grants, hashed tokens, the
//!   encrypted GitHub token and the rate-limit window, so a token check and the limit are one hop.
//!
//! See docs in ARCHITECTURE.md; the SQL schema of each object is created in its constructor.

mod kv;
mod person;
mod platform;
mod pull_request;
mod sql;
mod worker;

pub use kv::{get_text, put_text, KvText};
pub use person::PersonStore;
pub use pull_request::PullRequestStore;
pub use worker::WorkerPlatform;
