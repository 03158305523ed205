//! The application layer: what the Durable Objects do for a request, as plain functions over
//! the ports (`crate::ports`), so it compiles and is tested natively (DESIGN §2, "Objects are
//! shells; their work is the application's"; issue #37).
//!
//! One sub-folder per object. The objects in `store` decode a request, call in here, and
//! encode the reply; every decision and every record written is made here.
//! What not: no platform names (`worker`, `web_sys`, `wasm_bindgen`): the layer test
//! (`tests/it/layers.rs`) holds this folder to the core's rules.

pub mod oauth;
pub mod person;
pub mod pull_request;
