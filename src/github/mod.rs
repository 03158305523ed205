//! GitHub's REST API, called with the person's own token: a pure half (`api`: requests, shapes,
//! error classification; `client`: headers, one retry of a read, one attempt of a write, over the
//! GitHub transport port) and a wasm-only half (`fetch`) that sends one exchange over the Worker's
//! fetch with a timeout. `graphql` builds the GraphQL
//! request that reads several small files of a commit at once; `reviews` the requests that write
//! a review (comments, replies, the verdict, resolving threads) and reads GitHub's refusals;
//! `review_threads` reads the review threads and reviews back (GraphQL) for the page and the tools;
//! `statuses` the commit status that puts the reading order on the pull request.

pub mod api;
pub mod client;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
pub mod graphql;
pub mod review_threads;
pub mod reviews;
pub mod statuses;
