//! The ports: what the application layer needs from the platform, as traits the core defines
//! (DESIGN §2, "Objects are shells; their work is the application's"; issue #37).
//!
//! Each port has two sides: the platform's, in the adapters (`store`, `github::fetch`, `bindings`), and a
//! stand-in for native tests, here beside the trait. The application is written against the
//! traits only, so `cargo test` runs what the Durable Objects do without workerd.
//! What not: no policy lives here; a port carries values, it decides nothing.

pub mod clock;
pub mod edge;
pub mod github;
pub mod person;
pub mod pull_request;
pub mod sql;
