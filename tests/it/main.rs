//! The one integration test binary (`STYLE.md`, "Tests"): checks that read the repository's own
//! files rather than call the crate.

mod docs;
mod layers;
