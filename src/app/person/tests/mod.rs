//! In-process tests of the person's object (issue #37): each operation run through
//! `Person::answer`'s pieces on the real SQL (`MemorySql`), a fixed clock, a reversible sealer
//! and a scripted GitHub, so expiry is a clock moved, not a sleep, and each limit has a test
//! that fails when the limit is removed.
//!
//! [`support`] is this part's one test-support module (the poll loop and the world).

mod support;

mod checks;
mod codes;
mod consent;
mod data;
mod github_token;
mod records;
mod refresh;
mod settings;
