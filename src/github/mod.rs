//! GitHub's REST API, called with the person's own token: a pure half (`api`: requests, shapes,
//! error classification) and a wasm-only half (`client`) that sends requests over the Worker's
//! fetch with a timeout and one retry for transient failures. `graphql` builds the GraphQL
//! request that reads several small files of a commit at once; `reviews` the requests that write
//! a review (comments, replies, the verdict, resolving threads) and reads GitHub's refusals.

pub mod api;
#[cfg(target_arch = "wasm32")]
pub mod client;
pub mod graphql;
pub mod reviews;
