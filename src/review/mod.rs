//! The review core: diff parsing, change ids, reading hints, order and diagram validation.
//!
//! Everything here is synchronous, pure Rust with no platform imports, so it builds and tests natively.

pub mod change_id;
pub mod coverage;
pub mod diagram;
pub mod drafts;
pub mod feedback;
pub mod files;
pub mod hints;
pub mod layout;
pub mod model;
pub mod order;
pub mod patch;
pub mod receipt;
