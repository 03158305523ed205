//! What a pull request's Durable Object does (`store::pull_request` is its shell): its records
//! (`records`: saved orders and diagrams with their history, ticks, recorded heads, drafts), the
//! caller's read of the pull request with its snapshot built once per head (`read`), and what the
//! review page reads beside it (`review_reads`); the object's context and the viewer of a
//! reviewer route (`object`), the reviewer routes' typed calls (`calls`) and their dispatch
//! (`reviewer`), how routes answer (`reply`), the routes moved here: `ticks`, `arrange`,
//! `diff`, `writes`, `page`, and the MCP tools the Worker relays (`tools`, one dispatch of
//! `relayed` tools; `saves`, `feedback`), and the commit status a save or a review sent from
//! the page sets on the pull request (`commit_status`).
//!
//! What not: no platform names; the shell hands in its SQL storage and the clock.

pub mod arrange;
pub mod calls;
pub mod commit_status;
pub mod coverage;
pub mod diff;
pub mod feedback;
pub mod object;
pub mod page;
pub mod read;
pub mod records;
pub mod relayed;
pub mod reply;
pub mod review_reads;
pub mod reviewer;
pub mod saves;
pub mod ticks;
pub mod tools;
pub mod writes;

#[cfg(all(test, not(target_arch = "wasm32")))]
pub mod test_support;
