//! The pull request object's surroundings on Workers (wasm only): the snapshot cache in KV
//! `CACHE` (in parts, `kv`), a pause on the Worker's timer, the console, the person's index in their
//! object (`PERSONS`, `person_data::NOTE_TICKED`)
//! (`ports::pull_request`'s Workers side).

use worker::Env;

use crate::person_data::Ticked;
use crate::ports::pull_request::{Cache, CacheError, Console, IndexListing, Pause, PersonIndex};

/// The object's environment as the ports the application reads it through.
pub struct Platform<'a> {
    pub env: &'a Env,
}

impl Cache for Platform<'_> {
    async fn get_text(&self, key: &str) -> Option<String> {
        super::get_text(&self.env.kv("CACHE").ok()?, key)
            .await
            .ok()?
    }

    async fn put_text(&self, key: &str, text: &str, ttl_seconds: u64) -> Result<bool, CacheError> {
        let cache = self
            .env
            .kv("CACHE")
            .map_err(|error| CacheError(error.to_string()))?;
        let part_bytes = crate::bindings::config(self.env).kv_part_bytes;
        super::put_text(&cache, key, text, part_bytes, ttl_seconds)
            .await
            .map_err(|error| CacheError(error.to_string()))
    }
}

impl Pause for Platform<'_> {
    async fn pause(&self, ms: u64) {
        worker::Delay::from(std::time::Duration::from_millis(ms)).await;
    }
}

impl Console for Platform<'_> {
    fn warn(&self, line: &str) {
        worker::console_warn!("{line}");
    }

    fn error(&self, line: &str) {
        worker::console_error!("{line}");
    }
}

impl Platform<'_> {
    /// Posts `ticked` to `path` of `person`'s object; the answer's body when it is a 200.
    async fn to_index(&self, person: &str, path: &str, ticked: &Ticked) -> Result<String, String> {
        let body = ticked.to_json().to_string();
        let reply = crate::subrequest::post_to_object(self.env, "PERSONS", person, path, &body)
            .await
            .map_err(|error| error.to_string())?;
        match reply.status {
            200 => Ok(reply.body),
            status => Err(format!("PERSONS {path} answered {status}")),
        }
    }
}

impl PersonIndex for Platform<'_> {
    async fn note(&self, person: &str, ticked: &Ticked) -> Result<(), String> {
        self.to_index(person, crate::person_data::NOTE_TICKED, ticked)
            .await
            .map(drop)
    }

    async fn listed(&self, person: &str, ticked: &Ticked) -> Result<IndexListing, String> {
        let body = self
            .to_index(person, crate::person_data::HAS_TICKED, ticked)
            .await?;
        crate::json::decode(&body).map_err(|error| error.to_string())
    }
}
