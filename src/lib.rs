//! LogiKFlow: a hosted MCP server that reads GitHub pull requests with reading hints and saves
//! versioned reading orders and flow diagrams for reviewers.
//!
//! The crate is split into a pure core that builds and tests natively (`review`, `mcp`, `tools`,
//! `oauth`, `web`) and thin wasm-only adapters (`store`, `subrequest`, the sending half of `github`,
//! and the entry point) that are the only code naming `worker` types. See ARCHITECTURE.md.

pub mod app;
pub mod config;
pub mod errors;
pub mod github;
pub mod http;
pub mod json;
pub mod kv_parts;
pub mod log;
pub mod mcp;
pub mod oauth;
pub mod person_data;
pub mod ports;
pub mod review;
pub mod router;
pub mod security;
pub mod sorting;
pub mod time;
pub mod tools;
pub mod unicode;
pub mod web;

#[cfg(target_arch = "wasm32")]
pub mod bindings;
#[cfg(target_arch = "wasm32")]
mod body;
#[cfg(target_arch = "wasm32")]
mod entry;
#[cfg(target_arch = "wasm32")]
mod service;
#[cfg(target_arch = "wasm32")]
pub mod store;
#[cfg(target_arch = "wasm32")]
mod subrequest;
