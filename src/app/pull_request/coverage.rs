//! Coverage across reviewers (issue #47), read from the pull request's object: every reviewer's
//! ticks and login and the recorded heads, in three statements, then `review::coverage` over the
//! order's entries as the review page plans them (`web::review_page::coverage_entries`).
//!
//! Why here: coverage is the team's view of ticks the object already holds, so a page view or a
//! feedback call costs no GitHub request for it. Whoever is shown it has passed their own GitHub
//! read of this pull request first (the page's and the tool's callers do that before calling in).
//! Drafts are not read: they stay their writer's alone.
//!
//! Each reviewer's "changed since they reviewed" is the page's own rule
//! (`web::review_state::review_state`), so a colleague who read an earlier version is named on
//! the same files the page marks for that colleague themselves.
//! What not: no decisions of its own (`review::coverage`), no rendering.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::records::{Records, TeamTick};
use crate::ports::sql::{Sql, SqlError};
use crate::review::coverage::{self, Coverage, ReviewerTicks};
use crate::review::model::snapshot::SnapshotFile;
use crate::review::model::ticks::TickRow;
use crate::review::order::Order;
use crate::web::{review_page, review_state};

/// Coverage of `order` (the version shown, or the latest) at `head`, over `files` at that head.
pub fn coverage<S: Sql>(
    records: &Records<'_, S>,
    order: Option<&Order>,
    files: &[SnapshotFile],
    head: &str,
) -> Result<Coverage, SqlError> {
    let ticks = records.team_ticks()?;
    of_ticks(records, ticks, order, files, head)
}

/// Coverage for `person`'s review page, or `None` when nobody else holds a tick: the page then
/// shows no team ([`crate::web::review_page::team::Team::of`]), and a one-reviewer view costs
/// only the read of its ticks (coverage at 3,000 files is about 12 ms natively, the view's own
/// work about 15; issue #47's bench).
pub fn for_page<S: Sql>(
    records: &Records<'_, S>,
    order: Option<&Order>,
    files: &[SnapshotFile],
    head: &str,
    person: &str,
) -> Result<Option<Coverage>, SqlError> {
    let ticks = records.team_ticks()?;
    if ticks.iter().all(|tick| tick.person == person) {
        return Ok(None);
    }
    of_ticks(records, ticks, order, files, head).map(Some)
}

fn of_ticks<S: Sql>(
    records: &Records<'_, S>,
    ticks: Vec<TeamTick>,
    order: Option<&Order>,
    files: &[SnapshotFile],
    head: &str,
) -> Result<Coverage, SqlError> {
    let logins: HashMap<String, String> = records
        .reviewer_logins()?
        .into_iter()
        .map(|row| (row.person, row.login))
        .collect();
    let mut shas: Vec<&str> = ticks
        .iter()
        .filter_map(|tick| tick.head_sha.as_deref())
        .filter(|sha| *sha != head)
        .collect();
    crate::sorting::sort(&mut shas);
    shas.dedup();
    // Every earlier head any reviewer ticked at, decoded once for all of them.
    let heads = records.heads(&shas)?;
    let by_path: HashMap<&str, &SnapshotFile> = files
        .iter()
        .map(|file| (file.path.as_str(), file))
        .collect();
    let reviewers = by_person(ticks)
        .into_iter()
        .map(|(person, ticks)| reviewer(&person, ticks, &logins, &heads, &by_path, head))
        .collect();
    let entries = review_page::coverage_entries(order, files);
    Ok(coverage::coverage(&entries, reviewers))
}

/// The ticks grouped per person (they come sorted by person).
fn by_person(ticks: Vec<TeamTick>) -> Vec<(String, Vec<TickRow>)> {
    let mut grouped: Vec<(String, Vec<TickRow>)> = Vec::new();
    for tick in ticks {
        let row = TickRow {
            item: tick.item,
            head_sha: tick.head_sha,
            at: tick.at,
        };
        match grouped.last_mut() {
            Some((person, rows)) if *person == tick.person => rows.push(row),
            _ => grouped.push((tick.person, vec![row])),
        }
    }
    grouped
}

/// One reviewer's ticks as coverage reads them. Their login is the one the object last saw; a row
/// keyed by a login (from before person ids) is named by it; anyone else is "a reviewer".
fn reviewer(
    person: &str,
    ticks: Vec<TickRow>,
    logins: &HashMap<String, String>,
    heads: &BTreeMap<String, Value>,
    files: &HashMap<&str, &SnapshotFile>,
    head: &str,
) -> ReviewerTicks {
    let login = match logins.get(person) {
        Some(login) => login.clone(),
        None if !person.contains(':') => person.to_string(),
        None => "a reviewer".to_string(),
    };
    let last_active = ticks
        .iter()
        .map(|tick| tick.at.as_str())
        .max()
        .unwrap_or("")
        .to_string();
    let changed = review_state::changed_since_reviewed(&ticks, heads, files, head)
        .iter()
        .flat_map(|(path, keys)| {
            keys.iter().map(move |key| match key.strip_prefix("blob:") {
                Some(blob) => review_state::blob_item(path, blob),
                None => review_state::change_item(path, key),
            })
        })
        .collect();
    ReviewerTicks {
        login,
        ticked: ticks.into_iter().map(|tick| tick.item).collect(),
        changed,
        last_active,
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
