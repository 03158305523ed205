//! The review's model: the pull request's file snapshot, its saved versions and its ticks.
//!
//! Why: these are what the review is about, read by the review page (`web`), the object
//! (`store`, `app`) and the tools alike; they lived in tool modules, which made `web` import
//! `tools` (issue #37). What not: how they are built, stored or sent.

pub mod saved;
pub mod snapshot;
pub mod ticks;
