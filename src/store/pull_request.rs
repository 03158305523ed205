//! The Durable Object that owns one pull request's saved orders and diagrams.

use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

#[durable_object]
pub struct PullRequestStore {
    #[allow(dead_code)]
    state: State,
}

impl DurableObject for PullRequestStore {
    fn new(state: State, _env: Env) -> Self {
        PullRequestStore { state }
    }

    async fn fetch(&self, _req: Request) -> Result<Response> {
        Response::error("no such operation", 404)
    }
}
