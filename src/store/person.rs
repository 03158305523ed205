//! The Durable Object that owns one person's grants, tokens and rate-limit window.

use worker::{durable_object, DurableObject, Env, Request, Response, Result, State};

#[durable_object]
pub struct PersonStore {
    #[allow(dead_code)]
    state: State,
}

impl DurableObject for PersonStore {
    fn new(state: State, _env: Env) -> Self {
        PersonStore { state }
    }

    async fn fetch(&self, _req: Request) -> Result<Response> {
        Response::error("no such operation", 404)
    }
}
