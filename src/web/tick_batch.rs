//! The tick form, one tick or a batch (`POST …/ticks`): reading the form into ticks whose shape
//! is checked, expanding them against the page, and the JSON reply of a batch.
//!
//! Why batches: the review page's script sends the ticks of the last second in one request, so
//! a busy review costs one request, one check of the viewer and one write of the pull
//! request's object per second rather than per tick (docs/capacity.md, "What would change
//! first"). A form without the script sends one `item` and one `done`, and gets the answer it
//! always got. A batch (`batch=1`) repeats `item` and `done` in pairs, in order, at most
//! [`MAX_BATCH_ITEMS`]; each tick is refused or stored on its own, so one bad tick never costs
//! the others, and the reply says per tick which (see [`batch_reply`]).
//!
//! What not: the viewer's GitHub read and the write happen in the pull request's object
//! (`store::pull_request`); this module is pure.

use std::collections::{HashMap, HashSet};

use serde_json::{json, Value};

use crate::review::model::snapshot::SnapshotFile;
use crate::review::model::ticks::{TickItem, TickResult};
use crate::review::order::{checklist_ids, Order};
use crate::web::review_page::{entry_items, expand_tick};

/// The longest tick item id accepted: a checklist id, or `file:` with a path (GitHub paths run to
/// 4,096 bytes) and a part's change ids.
pub const MAX_TICK_ITEM_BYTES: usize = 8 * 1024;

/// The most ticks one request carries: a second of quick ticking, and a bound on the work one
/// request asks of the pull request's object. (A batch of 100 items of the longest size is
/// 2.4 MB percent-encoded, past the form cap; the cap binds first for such items.)
pub const MAX_BATCH_ITEMS: usize = 100;

/// A refusal: its HTTP status and the message for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub status: u16,
    pub message: String,
}

fn refused(status: u16, message: impl Into<String>) -> Refused {
    Refused {
        status,
        message: message.into(),
    }
}

/// The message for an item id that is missing or too long.
pub fn bad_item() -> Refused {
    refused(
        400,
        format!("item is required: the id of a checklist item or file entry, at most {MAX_TICK_ITEM_BYTES} bytes."),
    )
}

/// The message for a `done` that is neither 1 nor 0.
pub fn bad_done() -> Refused {
    refused(400, "done must be 1 (mark done) or 0 (undo).")
}

/// The message for an item the current page doesn't offer.
pub const NOT_ON_PAGE: &str = "This item is not on the pull request's current review page (the order or the pull request changed); reload the page and tick again.";

/// A tick form, read: whether it is a batch, and each tick with its shape checked (the item id
/// as sent, for the reply, and the tick or why not).
#[derive(Debug, PartialEq, Eq)]
pub struct TickForm {
    pub batch: bool,
    pub ticks: Vec<(String, Result<TickItem, Refused>)>,
}

/// Reads a tick form's pairs. A request-level refusal (a batch with no ticks, too many, or
/// `item` and `done` not in pairs) refuses every tick: nothing is saved.
pub fn read_form(form: &[(String, String)]) -> Result<TickForm, Refused> {
    let value = |name: &str| crate::security::form::value(form, name);
    if value("batch") != Some("1") {
        let item = value("item").unwrap_or_default();
        return Ok(TickForm {
            batch: false,
            ticks: vec![(item.to_string(), check(item, value("done")))],
        });
    }
    let items: Vec<&str> = all(form, "item");
    let dones: Vec<&str> = all(form, "done");
    if items.is_empty() || items.len() != dones.len() {
        return Err(refused(
            400,
            "A batch of ticks sends item and done in pairs, one done after each item.",
        ));
    }
    if items.len() > MAX_BATCH_ITEMS {
        return Err(refused(
            400,
            format!("At most {MAX_BATCH_ITEMS} ticks a request; send the rest in another request."),
        ));
    }
    let ticks = items
        .iter()
        .zip(dones)
        .map(|(item, done)| (item.to_string(), check(item, Some(done))))
        .collect();
    Ok(TickForm { batch: true, ticks })
}

fn all<'f>(form: &'f [(String, String)], name: &str) -> Vec<&'f str> {
    form.iter()
        .filter(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
        .collect()
}

fn check(item: &str, done: Option<&str>) -> Result<TickItem, Refused> {
    if item.is_empty() || item.len() > MAX_TICK_ITEM_BYTES {
        return Err(bad_item());
    }
    let done = match done {
        Some("1") => true,
        Some("0") => false,
        _ => return Err(bad_done()),
    };
    Ok(TickItem {
        item: item.to_string(),
        done,
    })
}

/// What each tick stores, as `review_page::expand_tick` says for one (`None`: not on the
/// page). A batch builds the page's entries once rather than once per tick.
pub fn expand_all(
    items: &[&str],
    order: Option<&Order>,
    files: &[SnapshotFile],
) -> Vec<Option<Vec<String>>> {
    if let [item] = items {
        return vec![expand_tick(item, order, files)];
    }
    let checklist: HashSet<String> = order
        .map(checklist_ids)
        .unwrap_or_default()
        .into_iter()
        .map(|check| check.id)
        .collect();
    let entries: HashMap<String, Vec<String>> = entry_items(order, files);
    let offered: HashSet<&str> = entries.values().flatten().map(String::as_str).collect();
    items
        .iter()
        .map(|item| {
            if checklist.contains(*item) {
                return Some(vec![item.to_string()]);
            }
            match entries.get(*item) {
                Some(own) if !own.is_empty() => Some(own.clone()),
                _ => offered.contains(item).then(|| vec![item.to_string()]),
            }
        })
        .collect()
}

/// A batch's reply: `{"results": [{"item", "done", "status"} | {"item", "status", "error"}]}`,
/// one per tick sent, in order. `results` are the object's for the ticks whose shape passed,
/// in order; `None` when the object could not be asked (every such tick then failed).
pub fn batch_reply(form: &TickForm, results: Option<&[TickResult]>) -> Value {
    let mut answered = results.unwrap_or(&[]).iter();
    let unavailable = TickResult::refused(503, "Ticks are unavailable right now; try again.");
    let results: Vec<Value> = form
        .ticks
        .iter()
        .map(|(item, tick)| match tick {
            Err(refusal) => {
                json!({ "item": item, "status": refusal.status, "error": refusal.message })
            }
            Ok(tick) => match answered.next().unwrap_or(&unavailable) {
                TickResult { error: None, .. } => {
                    json!({ "item": item, "done": tick.done, "status": 200 })
                }
                TickResult {
                    status,
                    error: Some(error),
                } => json!({ "item": item, "status": status, "error": error }),
            },
        })
        .collect();
    json!({ "results": results })
}

#[cfg(test)]
mod tests;
