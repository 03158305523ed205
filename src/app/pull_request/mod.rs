//! What a pull request's Durable Object does (`store::pull_request` is its shell): its records
//! (`records`: saved orders and diagrams with their history, ticks, recorded heads, drafts).
//!
//! What not: no platform names; the shell hands in its SQL storage and the clock.

pub mod records;

#[cfg(all(test, not(target_arch = "wasm32")))]
pub mod test_support;
