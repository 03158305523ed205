//! A reviewer's state on one pull request, keyed by content rather than by path.
//!
//! Why: a push changes some hunks of some files and leaves the rest alone. A tick keyed by path
//! would stay on a file whose code changed; GitHub's "Viewed" resets but says nothing about what
//! is new. Here a reviewed file is stored as its change ids (content-derived, so they survive
//! lines moving) or, for a file without hunks, its blob, together with the head it was ticked
//! at. A page view then tells, per file, whether everything is still reviewed, which of its
//! hunks are new since the reviewer last ticked it, and, for the whole pull request, what is new
//! since the head they last reviewed at.
//!
//! Items: checklist ids as `checklist_ids` makes them; `change:<path>#<id>` for one change;
//! `blob:<path>#<sha>` for a file without hunks. Paths may hold `#`; ids never do, so an item
//! splits at its last `#`. Ticks from before content keys (`file:<path>[#ids]`, no head) are
//! migrated by [`migrate_legacy`].

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{Map, Value};

use crate::review::model::snapshot::SnapshotFile;
use crate::review::model::ticks::{ReviewerState, TickRow};

/// A reviewer's ticks and the recorded heads, borrowed.
struct Stored<'s> {
    ticks: &'s [TickRow],
    heads: &'s BTreeMap<String, Value>,
}

/// The item of one change of a file.
pub fn change_item(path: &str, id: &str) -> String {
    item("change:", path, id)
}

/// The item of a file without hunks, by its content identity.
pub fn blob_item(path: &str, identity: &str) -> String {
    item("blob:", path, identity)
}

/// `{kind}{path}#{key}`, joined by hand: a review page makes one per change of every file, and
/// `format!`'s machinery was a tenth of a 3,000-file page's time (issue #19).
fn item(kind: &str, path: &str, key: &str) -> String {
    let mut out = String::with_capacity(kind.len() + path.len() + 1 + key.len());
    out.push_str(kind);
    out.push_str(path);
    out.push('#');
    out.push_str(key);
    out
}

/// The path of a `change:` or `blob:` item.
pub fn item_path(item: &str) -> Option<&str> {
    let rest = item
        .strip_prefix("change:")
        .or_else(|| item.strip_prefix("blob:"))?;
    rest.rfind('#').map(|at| &rest[..at])
}

/// The content key of an item within its file: the change id, or `blob:<sha>`.
fn item_key(item: &str) -> Option<String> {
    if let Some(rest) = item.strip_prefix("change:") {
        return rest.rfind('#').map(|at| rest[at + 1..].to_string());
    }
    let rest = item.strip_prefix("blob:")?;
    rest.rfind('#')
        .map(|at| format!("blob:{}", &rest[at + 1..]))
}

/// A file's content identity when it has no hunks: its blob at the head, or, when GitHub gave
/// none, its status (a removed file has no blob; removing it is the whole change).
fn blob_identity(file: &SnapshotFile) -> String {
    file.blob_sha
        .clone()
        .unwrap_or_else(|| format!("{}-{}-{}", file.status, file.additions, file.deletions))
}

/// The content keys of a whole file at the head (its items' [`item_key`]s): its change ids, or
/// `blob:<identity>`; borrowed from the snapshot, as a view compares every file's keys.
fn file_keys(file: &SnapshotFile) -> Vec<Cow<'_, str>> {
    if file.changes.is_empty() {
        vec![Cow::Owned(format!("blob:{}", blob_identity(file)))]
    } else {
        file.changes
            .iter()
            .map(|change| Cow::Borrowed(change.id.as_str()))
            .collect()
    }
}

/// The content items of a whole file at the head: one per change, or its blob item.
pub fn file_items(file: &SnapshotFile) -> Vec<String> {
    if file.changes.is_empty() {
        vec![blob_item(&file.path, &blob_identity(file))]
    } else {
        file.changes
            .iter()
            .map(|change| change_item(&file.path, &change.id))
            .collect()
    }
}

/// The content keys of every file at a head, `{path: [change ids or "blob:<sha>"]}`: what the
/// pull request's object records once per head, so a later visit can tell what is new.
pub fn head_files(files: &[SnapshotFile]) -> Value {
    // Inserted one by one rather than collected: `collect` into the map compiles a sort of
    // `(String, Value)` pairs of its own (about 6 KB of wasm); the map is the same either way.
    let mut map = Map::new();
    for file in files {
        let keys: Vec<Value> = file_keys(file)
            .into_iter()
            .map(|key| Value::from(key.into_owned()))
            .collect();
        map.insert(file.path.clone(), Value::Array(keys));
    }
    Value::Object(map)
}

/// What changed since the head a reviewer last reviewed at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SinceVisit {
    /// The head of their latest tick made before the current head.
    pub head_sha: String,
    /// Whether that head's content was recorded; without it nothing below can be told.
    pub known: bool,
    /// Per path, the content keys (change ids, `blob:<sha>`) new or changed since then; a file
    /// that is new to the pull request has all of its keys here.
    pub new_keys: HashMap<String, HashSet<String>>,
    /// Files that were in the pull request then and are not now.
    pub left: Vec<String>,
}

/// A reviewer's state for one page view.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReviewState {
    /// Every item they have ticked (checklist ids and content items).
    pub ticked: HashSet<String>,
    /// Files they reviewed at an earlier head that now have changes they haven't reviewed and
    /// that weren't there then: path → those content keys.
    pub changed: HashMap<String, HashSet<String>>,
    /// Set when they reviewed anything at an earlier head.
    pub since: Option<SinceVisit>,
}

impl ReviewState {
    /// Whether every one of `items` is ticked (and there is at least one).
    pub fn all_ticked(&self, items: &[String]) -> bool {
        !items.is_empty() && items.iter().all(|item| self.ticked.contains(item))
    }

    /// Whether the content key of `item` is new since the reviewer last reviewed its file.
    pub fn is_changed_since_reviewed(&self, item: &str) -> bool {
        match (item_path(item), item_key(item)) {
            (Some(path), Some(key)) => self.changed.get(path).is_some_and(|k| k.contains(&key)),
            _ => false,
        }
    }

    /// Whether the content key of `item` is new since the reviewer's last visit.
    pub fn is_new_since_visit(&self, item: &str) -> bool {
        let Some(since) = self.since.as_ref().filter(|since| since.known) else {
            return false;
        };
        match (item_path(item), item_key(item)) {
            (Some(path), Some(key)) => since.new_keys.get(path).is_some_and(|k| k.contains(&key)),
            _ => false,
        }
    }
}

/// The keys of `now` (a file's keys at the head) that are neither in `then` (its keys in a
/// recorded head's files, `{path: [keys]}`; all are new when the file or the record is missing)
/// nor in `done`.
fn new_keys(
    now: &[Cow<'_, str>],
    then: Option<&Map<String, Value>>,
    path: &str,
    done: Option<&HashSet<String>>,
) -> HashSet<String> {
    let before = then
        .and_then(|then| then.get(path))
        .map(|keys| keys.as_array().map_or(&[][..], Vec::as_slice));
    // Most files are as they were: the same keys in the same order, nothing to look up.
    let same = before.is_some_and(|before| {
        before.len() == now.len() && before.iter().zip(now).all(|(b, n)| b.as_str() == Some(n))
    });
    if same {
        return HashSet::new();
    }
    let before: Option<HashSet<&str>> =
        before.map(|before| before.iter().filter_map(Value::as_str).collect());
    now.iter()
        .filter(|key| !done.is_some_and(|done| done.contains(key.as_ref())))
        .filter(|key| before.as_ref().is_none_or(|b| !b.contains(key.as_ref())))
        .map(|key| key.to_string())
        .collect()
}

/// Computes a reviewer's state at `head_sha` from what their pull request's object holds.
///
/// Linear in the files and the ticks: each tick and each file is looked at once, and a head's
/// record only for the paths asked about (per path, a pass over every tick or a decoding of the
/// whole record took 280 ms for a reviewer of 500 files of a 3,000-file pull request, issue #30).
pub fn review_state(stored: &ReviewerState, files: &[SnapshotFile], head_sha: &str) -> ReviewState {
    review_state_over(&stored.ticks, &stored.heads, files, head_sha)
}

/// [`review_state`] of one reviewer's `ticks` with the recorded `heads` given apart, so coverage
/// across reviewers decodes each recorded head once for all of them (issue #47).
pub fn review_state_over(
    ticks: &[TickRow],
    heads: &BTreeMap<String, Value>,
    files: &[SnapshotFile],
    head_sha: &str,
) -> ReviewState {
    let stored = Stored { ticks, heads };
    let ticked: HashSet<String> = stored.ticks.iter().map(|tick| tick.item.clone()).collect();
    let earlier = |tick: &&TickRow| tick.head_sha.as_deref().is_some_and(|sha| sha != head_sha);
    // Every file's keys now are needed only to compare with an earlier head; a reviewer who
    // ticked nothing before this head (most views) skips them.
    let current: HashMap<&str, Vec<Cow<'_, str>>> =
        if stored.ticks.iter().any(|tick| earlier(&tick)) {
            files
                .iter()
                .map(|file| (file.path.as_str(), file_keys(file)))
                .collect()
        } else {
            HashMap::new()
        };

    let recorded = |sha: &str| match stored.heads.get(sha) {
        Some(Value::Object(files)) => Some(files),
        _ => None,
    };
    let changed = changed_over(stored.ticks, stored.heads, head_sha, &|path| {
        current.get(path).cloned()
    });

    let since = stored
        .ticks
        .iter()
        .filter(earlier)
        .max_by(|a, b| a.at.cmp(&b.at))
        .and_then(|tick| tick.head_sha.clone())
        .map(|sha| match recorded(&sha) {
            Some(then) => {
                let mut new_keys_all = HashMap::new();
                for (path, now) in &current {
                    let new = new_keys(now, Some(then), path, None);
                    if !new.is_empty() {
                        new_keys_all.insert((*path).to_string(), new);
                    }
                }
                let mut left: Vec<String> = then
                    .keys()
                    .filter(|path| !current.contains_key(path.as_str()))
                    .cloned()
                    .collect();
                crate::sorting::sort_by(&mut left, &Ord::cmp);
                SinceVisit {
                    head_sha: sha,
                    known: true,
                    new_keys: new_keys_all,
                    left,
                }
            }
            None => SinceVisit {
                head_sha: sha,
                known: false,
                ..SinceVisit::default()
            },
        });
    ReviewState {
        ticked,
        changed,
        since,
    }
}

/// The files a reviewer reviewed at an earlier head that now have changes they haven't reviewed
/// and that weren't there then: path → those content keys ([`ReviewState::changed`]).
/// `keys_now(path)` gives a file's keys at the head (`None` when it left the pull request); it
/// is asked only for paths ticked at an earlier head, so coverage across reviewers
/// ([`changed_since_reviewed`]) asks only what each reviewer touched.
fn changed_over<'k>(
    ticks: &[TickRow],
    heads: &BTreeMap<String, Value>,
    head_sha: &str,
    keys_now: &dyn Fn(&str) -> Option<Vec<Cow<'k, str>>>,
) -> HashMap<String, HashSet<String>> {
    let earlier = |tick: &&TickRow| tick.head_sha.as_deref().is_some_and(|sha| sha != head_sha);
    // Per path, the earlier head of the latest tick on it.
    let mut last_head: HashMap<&str, (&str, &str)> = HashMap::new();
    for tick in ticks.iter().filter(earlier) {
        let (Some(path), Some(sha)) = (item_path(&tick.item), tick.head_sha.as_deref()) else {
            continue;
        };
        let entry = last_head.entry(path).or_insert((sha, tick.at.as_str()));
        if tick.at.as_str() > entry.1 {
            *entry = (sha, tick.at.as_str());
        }
    }
    let mut changed = HashMap::new();
    if last_head.is_empty() {
        return changed;
    }
    // Per path of those, the keys ticked (at any head).
    let mut done: HashMap<&str, HashSet<String>> = HashMap::new();
    for tick in ticks {
        if let (Some(path), Some(key)) = (item_path(&tick.item), item_key(&tick.item)) {
            if last_head.contains_key(path) {
                done.entry(path).or_default().insert(key);
            }
        }
    }
    let recorded = |sha: &str| match heads.get(sha) {
        Some(Value::Object(files)) => Some(files),
        _ => None,
    };
    for (path, (sha, _)) in &last_head {
        let Some(now) = keys_now(path) else {
            continue;
        };
        let new = new_keys(&now, recorded(sha), path, done.get(path));
        if !new.is_empty() {
            changed.insert((*path).to_string(), new);
        }
    }
    changed
}

/// [`ReviewState::changed`] of one reviewer for coverage across reviewers (issue #47), without
/// the rest of their state: `files` indexed by path once for every reviewer of a view.
pub fn changed_since_reviewed(
    ticks: &[TickRow],
    heads: &BTreeMap<String, Value>,
    files: &HashMap<&str, &SnapshotFile>,
    head_sha: &str,
) -> HashMap<String, HashSet<String>> {
    changed_over(ticks, heads, head_sha, &|path| {
        files.get(path).map(|file| file_keys(file))
    })
}

/// How path-keyed ticks (`file:<path>[#ids]`, from before content keys) become content items.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Migration {
    pub add: Vec<TickRow>,
    pub remove: Vec<String>,
}

/// Maps a reviewer's path-keyed ticks to the content they covered at `order_head`, the head of
/// the order they were made under. `entry_items` gives each entry tick id's content items at the
/// current head; `unchanged(path)` says whether the file is the same at `order_head` and now
/// (then its current content is what was reviewed). A changed file's `#ids` still name exactly
/// the changes reviewed (ids are content); a changed file ticked whole gets a marker that keeps
/// it "changed since you reviewed" without claiming any current change was read.
pub fn migrate_legacy(
    ticks: &[TickRow],
    entry_items: &HashMap<String, Vec<String>>,
    order_head: &str,
    unchanged: &dyn Fn(&str) -> bool,
) -> Migration {
    let mut migration = Migration::default();
    for tick in ticks
        .iter()
        .filter(|t| t.head_sha.is_none() && t.item.starts_with("file:"))
    {
        let Some(rest) = tick.item.strip_prefix("file:") else {
            continue;
        };
        let (path, ids) = split_entry_id(rest);
        let row = |item: String| TickRow {
            item,
            head_sha: Some(order_head.to_string()),
            at: tick.at.clone(),
        };
        match (entry_items.get(&tick.item), unchanged(path)) {
            (Some(items), true) => migration.add.extend(items.iter().cloned().map(row)),
            _ => match ids {
                Some(ids) => migration.add.extend(
                    ids.split(',')
                        .filter(|id| !id.is_empty())
                        .map(|id| row(change_item(path, id))),
                ),
                None => migration
                    .add
                    .push(row(blob_item(path, &format!("reviewed-at-{order_head}")))),
            },
        }
        migration.remove.push(tick.item.clone());
    }
    migration
}

/// Splits an entry tick id (after `file:`) into its path and, for a part naming hunks, its
/// comma-joined change ids: a `#` followed only by ids ends the path.
fn split_entry_id(rest: &str) -> (&str, Option<&str>) {
    let is_id = |id: &str| {
        id.len() > 1
            && id.starts_with('h')
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    match rest.rfind('#') {
        Some(at) if rest[at + 1..].split(',').all(is_id) => (&rest[..at], Some(&rest[at + 1..])),
        _ => (rest, None),
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;
