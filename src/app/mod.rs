//! The application layer: what the Durable Objects do for a request, as plain functions over the
//! ports the core defines (`ports`: SQL, the GitHub transport, the clock), so it builds and is
//! tested natively (DESIGN §2, "Objects are shells; their work is the application's"; issue #37).
//!
//! One sub-folder per object. The object shells in `store` decode a request, call in here and
//! encode the reply; they keep nothing but the platform's side of the ports.
//! What not: no `worker`, `web_sys` or `wasm_bindgen` name (`tests/it/layers.rs` holds it); no
//! page or tool shaping, which stays in `web` and `tools`.

pub mod pull_request;
