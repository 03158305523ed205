//! Ticks as the pull request's object stores them for the review page (`POST …/ticks`, one tick
//! or a batch; `web::tick_batch` reads the form in the Worker), over the ports.
//!
//! In this order, so a refused tick touches no storage: the viewer's own GitHub read of the pull
//! request (the same read as the page, so nobody ticks on a pull request they can't see or one
//! that doesn't exist; refused, no tick of the batch is stored); each item against what the
//! latest version's page offers; the note in the person's index of ticked pull requests
//! ("Delete my data" walks it), once, before any tick is stored, so no tick is ever stored that
//! the index does not list, and only when some tick passed, so a refused batch grows no one's
//! storage; then every tick, with no await between them (the object's writes of one
//! synchronous run are committed together), each against the cap of
//! [`MAX_TICKS_PER_PERSON`] ticks a person holds here. The reply gives one result per tick.
//!
//! Ticks (and drafts) are keyed by the person id (`gh:<id>`), not the login (issue 36); rows from
//! before, under a login, move to the rightful account's id on its first request here
//! (`object::Object::adopt_login_rows`, `person_data::adopts_login_rows`).

use super::calls::results_json;
use super::object::{Object, Storage, Viewer};
use super::read::PullRead;
use super::records::{HeadRecord, Tick};
use crate::http::HttpReply;
use crate::ports::github::GitHubTransport;
use crate::ports::pull_request::Surroundings;
use crate::ports::sql::SqlError;
use crate::review::model::ticks::{TickItem, TickResult};
use crate::review::model::ticks::{TickOutcome, MAX_TICKS_PER_PERSON};
use crate::review::order::Order;
use crate::web::review_state;
use crate::web::tick_batch::{self, MAX_BATCH_ITEMS, NOT_ON_PAGE};

/// Stores `ticks` for the viewer; one [`TickResult`] per tick, in order.
pub async fn tick_batch<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    viewer: &Viewer<'_, T>,
    ticks: &[TickItem],
) -> Result<HttpReply, SqlError> {
    let all = |result: TickResult| vec![result; ticks.len()];
    let results = if ticks.is_empty() || ticks.len() > MAX_BATCH_ITEMS {
        all(TickResult::refused(400, "Too many ticks in one request."))
    } else {
        match object.viewer_read(viewer).await? {
            Err(message) => all(TickResult::refused(404, &message)),
            Ok(read) => store_ticks(object, viewer, ticks, &read).await?,
        }
    };
    Ok(HttpReply::new(
        200,
        "application/json",
        results_json(&results),
    ))
}

async fn store_ticks<St: Storage, P: Surroundings, T: GitHubTransport>(
    object: &Object<'_, St, P>,
    viewer: &Viewer<'_, T>,
    ticks: &[TickItem],
    read: &PullRead,
) -> Result<Vec<TickResult>, SqlError> {
    let call = viewer.call;
    let records = object.records();
    let order = records
        .current()?
        .order
        .and_then(|record| crate::json::read::<Order>(&record.body).ok());
    let names: Vec<&str> = ticks.iter().map(|tick| tick.item.as_str()).collect();
    let expanded = tick_batch::expand_all(&names, order.as_ref(), &read.snapshot.files);
    let not_on_page = || TickResult::refused(404, NOT_ON_PAGE);
    if expanded.iter().all(Option::is_none) {
        return Ok(expanded.iter().map(|_| not_on_page()).collect());
    }
    if let Err(error) = object.note_ticked(viewer).await {
        object
            .platform
            .error(&format!("noting a ticked pull request failed: {error}"));
        let unavailable = TickResult::refused(503, "Ticks are unavailable right now; try again.");
        return Ok(expanded
            .iter()
            .map(|items| match items {
                Some(_) => unavailable.clone(),
                None => not_on_page(),
            })
            .collect());
    }
    // From here to the end, no await: the ticks of the batch are one run of the object.
    let head = read.pull.head.sha.as_str();
    let at = crate::time::rfc3339(object.clock.now_ms());
    let known_head = records.knows_head(head)?;
    let full = format!("You already hold {MAX_TICKS_PER_PERSON} ticks on this pull request; undo some before adding more.");
    let mut stored_any = false;
    let mut results = Vec::with_capacity(expanded.len());
    for (tick, items) in ticks.iter().zip(expanded) {
        let Some(items) = items else {
            results.push(not_on_page());
            continue;
        };
        let reply = records.tick(&Tick {
            // Keyed by the person id, not the login (issue 36).
            person: call.person.clone(),
            items,
            done: tick.done,
            head_sha: head.to_string(),
            at: at.clone(),
        })?;
        results.push(match reply.outcome {
            TickOutcome::Full => TickResult::refused(409, &full),
            TickOutcome::Stored => {
                stored_any = true;
                TickResult::stored()
            }
        });
    }
    if stored_any {
        // Coverage names reviewers by login (issue #47); written only when new or changed.
        records.note_reviewer(&call.person, &call.login, &at)?;
    }
    if stored_any && !known_head {
        // The first tick at this head: record what every file holds now, so a later visit
        // can tell what is new. A failure only costs that later view its "since" detail.
        let record = HeadRecord {
            head_sha: head.to_string(),
            files: review_state::head_files(&read.snapshot.files),
            at,
        };
        if let Err(error) = records.record_head(&record) {
            object
                .platform
                .warn(&format!("recording head {head} failed: {error}"));
        }
    }
    object.sweep.run(&records, object.clock)?;
    Ok(results)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
