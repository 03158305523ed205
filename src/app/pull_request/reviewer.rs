//! Runs a reviewer route's typed call (`calls::RouteCall`) in the object: the page, a diff or
//! lines of context, ticks, a review write, the arrange editor or its save, each its own module
//! beside this one.
//!
//! What not: no decoding (the Worker sent the values decoded), no platform names.

use super::calls::RouteCall;
use super::diff::Asked;
use super::object::{Object, Storage, Viewer};
use super::{arrange, diff, page, ticks, writes};
use crate::http::HttpReply;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::SqlError;

/// The route's answer as the viewer may see it.
pub async fn run<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    viewer: &Viewer<'_, T>,
    route: &RouteCall,
) -> Result<HttpReply, SqlError> {
    match route {
        RouteCall::Page(query) => page::page(object, viewer, query).await,
        RouteCall::Diff(query) => diff::diff(object, viewer, Asked::Diff(query)).await,
        RouteCall::Context(query) => diff::diff(object, viewer, Asked::Context(query)).await,
        RouteCall::Ticks(items) => ticks::tick_batch(object, viewer, items).await,
        RouteCall::Write(write) => writes::write(object, viewer, write).await,
        RouteCall::Arrange => arrange::arrange(object, viewer, None).await,
        RouteCall::ArrangeSave(submitted) => {
            arrange::arrange(object, viewer, Some(submitted)).await
        }
    }
}
