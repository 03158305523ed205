//! The review page at `/r/{owner}/{repo}/pull/{n}`: a pull request read in its saved reading order,
//! with per-reviewer ticks, progress, the order's versions and the **Diagram** tab (issue 6; MCP
//! reference: `save_reading_order`, "Splitting a file into parts" and `save_diagram`).
//!
//! Why: the order is only worth saving if reviewers are glad to read it. The page shows the
//! overview, then each section with its note and checklist, then each file entry with exactly the
//! diff of its part: the changes its `hunks` name, or, for the appearance without `hunks`, every
//! change no other appearance names (new commits land there). Files the order does not place yet,
//! and new changes of a file whose every part names its hunks, are listed at the end, so the page
//! hides nothing even after new commits.
//!
//! Everything agents and GitHub wrote (titles, notes, checks, paths, patches, logins, times) is
//! untrusted: it goes through `html::escape` or `safe_markdown::code_spans`, nothing else.
//! The page works without JavaScript: tabs are anchors switched with CSS `:target`, skim and
//! generated diffs fold with `<details>`, and each tick is a small form with its own submit button.
//! The diagram tab lists the diagram's steps; `/static/diagram.js` draws the diagram in their place
//! from the layout the page carries as JSON ([`DIAGRAM_JS_PATH`]).
//! `src/static/review.js`, served as a static asset at [`REVIEW_JS_PATH`], only upgrades those forms to
//! background `fetch` posts with the same fields and keeps the "X of Y done" counter current.
//! The page then needs `script-src 'self'; connect-src 'self'` in its CSP (`html::CSP` has neither).
//!
//! A large pull request's page renders one window of [`WINDOW_ENTRIES`] entries (`?from=`); the
//! other windows are one "Load more files" link per section, which `/static/review-view.js`
//! replaces with the same run of entries from that window's page (`&fragment=1`), so a 3,000-file
//! page is its outline and a window, not 3,000 entries with their tick forms.
//!
//! Anchors: each file entry has `id="file-<slug>"`; later appearances of a split file add
//! `-part-N` (N counts appearances from 1 in reading order, so the first one has no suffix). The
//! slug keeps ASCII letters, digits, `.`, `_`, `-` and `/` and writes every other byte as `~XX`, so
//! different paths never share an anchor. [`file_anchor`] finds the entry of a file and change, for
//! the diagram's links.
//!
//! What not: no fetching, sessions, permission checks or CSRF token minting (the Worker passes
//! `can_arrange`, `viewer` and `csrf`), no storage of ticks, no routing, no `worker` types.

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use serde_json::Value;

use crate::github::api::ReviewComment;
use crate::review::change_id::describe_changes;
use crate::review::coverage::{Coverage, EntryCoverage, EntryItems, OrderItems, SectionItems};
use crate::review::layout::METRICS;
use crate::review::layout::{self, Layout};
use crate::review::model::saved::VersionSummary;
use crate::review::model::snapshot::SnapshotFile;
use crate::review::order::{checklist_ids, ChecklistItem, FileEntry, Focus, Order};
use crate::review::patch::{parse_patch, Hunk};
use crate::web::html::{self, escape, escape_into};
use crate::web::review_state::{self, ReviewState};
use crate::web::safe_markdown::code_spans;
use crate::web::template::fragment;

pub mod context_lines;
pub mod diff_view;
pub mod discussion;
pub mod team;

/// The keyboard help dialog, shown by `?`.
const REVIEW_KEYS: &str = fragment(include_str!("review-keys.html"));

/// The outline's end, with its line on the keys.
const REVIEW_KEYS_HINT: &str = fragment(include_str!("review-keys-hint.html"));

/// The notice when no order is saved.
const REVIEW_NO_ORDER: &str = fragment(include_str!("review-no-order.html"));

/// The diagram's drawing code, `src/static/diagram.js`, served as a static asset (the MCP Apps
/// view carries the same file inlined).
pub const DIAGRAM_JS_PATH: &str = "/static/diagram.js";

/// The review page's script, `src/static/review.js`, served as a static asset.
pub const REVIEW_JS_PATH: &str = "/static/review.js";

/// One saved version of the order, for the version picker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionInfo {
    pub version: u64,
    /// GitHub login of the person who saved it.
    pub person: String,
    /// `agent` or `web`.
    pub source: String,
    /// RFC 3339 time of the save.
    pub saved_at: String,
}

impl From<&VersionSummary> for VersionInfo {
    fn from(summary: &VersionSummary) -> Self {
        VersionInfo {
            version: summary.version,
            person: summary.person.clone(),
            source: summary.source.clone(),
            saved_at: summary.saved_at.clone(),
        }
    }
}

/// Everything the review page shows. All text is untrusted and escaped by [`render`].
pub struct ReviewPage<'a> {
    pub base_url: &'a str,
    pub owner: &'a str,
    pub repo: &'a str,
    pub number: u64,
    /// The pull request's title.
    pub title: &'a str,
    /// `open`, `closed` or `merged`.
    pub state: &'a str,
    pub author: &'a str,
    /// The pull request on GitHub; linked only when it is an `https://` URL.
    pub github_url: &'a str,
    /// The signed-in reviewer's login.
    pub viewer: &'a str,
    /// The viewer has write access: show "Arrange on the web".
    pub can_arrange: bool,
    /// The order of `order_version`, or `None` when nothing was saved yet.
    pub order: Option<&'a Order>,
    /// The order's checklist items with their ids; computed from `order` when empty.
    pub checklist: &'a [ChecklistItem],
    /// The version shown.
    pub order_version: u64,
    /// The newest version; `order_version < latest_version` shows an older one, read-only.
    pub latest_version: u64,
    /// Every saved version, in the order to list them (newest first, usually).
    pub versions: &'a [VersionInfo],
    /// Who saved the version shown.
    pub updated_by: &'a str,
    /// How the version shown was saved: `agent` or `web`.
    pub source: &'a str,
    /// When the version shown was saved (RFC 3339).
    pub saved_at: &'a str,
    /// Commits pushed after the version shown was saved; a banner when above 0.
    pub commits_since: Option<u64>,
    /// The pull request's files now, with patches.
    pub files: &'a [SnapshotFile],
    /// The viewer's review state: what they ticked, what changed since they reviewed it, and
    /// what is new since their last visit ([`review_state`]).
    pub review_state: &'a ReviewState,
    /// Which entries the page shows: all, only what's left, or only what's new since the
    /// viewer's last visit.
    pub view: View,
    /// Commits after the head the viewer last reviewed at, when GitHub could say.
    pub visit_commits: Option<u64>,
    /// The saved diagram (the `diagram` object of `save_diagram`), if any.
    pub diagram: Option<&'a Value>,
    /// The token every tick form posts back as `csrf`.
    pub csrf: &'a str,
    /// GitHub's review comments on the pull request, shown under their lines.
    pub comments: &'a [ReviewComment],
    /// Which window of [`WINDOW_ENTRIES`] shown entries the page renders in full (`?from=`,
    /// 0 for the first); the other windows are a "Load more files" link each.
    pub window: usize,
    /// Only the entries (`&fragment=1`): what the script puts in place of a window's links.
    pub fragment: bool,
    /// The viewer's drafts and threads and the forms to comment (issue 29); `None` shows
    /// GitHub's comments read-only.
    pub discussion: Option<&'a discussion::Discussion<'a>>,
    /// Who has reviewed what, across reviewers, of the order shown (issue #47); shown only when
    /// somebody other than the viewer has ticked something.
    pub coverage: Option<&'a Coverage>,
}

/// Entries a page renders in full: a page with more shows them in windows of this many, the
/// others as one "Load more files" link per window and section (`?from=`), which the script
/// fetches in place. A rendered entry costs ~1.4 KB of HTML without its diff, so a window stays
/// ~150 KB plus its inlined diffs, and a 3,000-file page is its outline and 30 links.
pub const WINDOW_ENTRIES: usize = 100;

/// The window of the `from` query value (the number of its first entry, from 1).
pub fn window_of(from: Option<&str>) -> usize {
    from.and_then(|value| value.parse::<usize>().ok())
        .map_or(0, |from| from.saturating_sub(1) / WINDOW_ENTRIES)
}

/// Which entries a review page shows (`?view=left`, `?view=since`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    #[default]
    All,
    /// Only entries not yet reviewed (and checks not yet done).
    Left,
    /// Only files and changes new or changed since the viewer's last visit.
    Since,
    /// Only files and changes nobody has reviewed yet (issue #47).
    Unread,
}

impl View {
    /// Reads the `view` query value; anything else shows everything.
    pub fn parse(value: Option<&str>) -> View {
        match value {
            Some("left") => View::Left,
            Some("since") => View::Since,
            Some("unread") => View::Unread,
            _ => View::All,
        }
    }
}

/// The path of the review page, `/r/{owner}/{repo}/pull/{n}` (not escaped).
pub fn pull_path(owner: &str, repo: &str, number: u64) -> String {
    format!("/r/{owner}/{repo}/pull/{number}")
}

/// The tick id of a file entry: `file:<path>`, or for a part naming `hunks`,
/// `file:<path>#<ids>` with the ids sorted, deduplicated and comma-joined (the scope that
/// `checklist_ids` gives the part's checks).
pub fn file_item_id(path: &str, hunks: Option<&[String]>) -> String {
    match hunks {
        None => format!("file:{path}"),
        Some(hunks) => {
            let mut ids: Vec<&str> = hunks.iter().map(String::as_str).collect();
            crate::sorting::sort(&mut ids);
            ids.dedup();
            format!("file:{path}#{}", ids.join(","))
        }
    }
}

/// The `id` (without `#`) of the file entry that shows `path` and, when given, the change `hunk`:
/// the part naming that change, else the part without `hunks` (it takes every change no other
/// part names), else the file's first appearance. A path the order does not list gets the anchor
/// it has under "Not in the order yet".
pub fn file_anchor(path: &str, hunk: Option<&str>, order: &Order) -> String {
    let mut anchors = Anchors::default();
    let entries: Vec<(&FileEntry, String)> = order
        .sections
        .iter()
        .flat_map(|section| &section.files)
        .map(|entry| (entry, anchors.next(&entry.path).0))
        .collect();
    let candidates: Vec<Candidate<'_>> = entries
        .iter()
        .map(|(entry, anchor)| Candidate {
            path: &entry.path,
            hunks: entry.hunks.as_deref(),
            anchor,
        })
        .collect();
    match pick_anchor(&candidates, path, hunk) {
        Some(anchor) => anchor.to_string(),
        None => anchors.next(path).0,
    }
}

/// Renders the review page as a full document.
pub fn render(page: &ReviewPage<'_>) -> String {
    let computed;
    let items: &[ChecklistItem] = match page.order {
        Some(order) if page.checklist.is_empty() => {
            computed = checklist_ids(order);
            &computed
        }
        _ => page.checklist,
    };
    let plan =
        Plan::new(page.order, page.files, items, page.review_state).with_coverage(page.coverage);
    let read_only = page.order.is_some() && page.order_version < page.latest_version;
    let pull = pull_path(page.owner, page.repo, page.number);
    let mut ctx = Ctx {
        state: page.review_state,
        view: page.view,
        action: escape(&format!(
            "{}/ticks",
            pull_path(page.owner, page.repo, page.number)
        )),
        csrf: escape(page.csrf),
        writable: !read_only,
        next_id: 0,
        named: &plan.named,
        diff: diff_view::View::new(&pull, page.github_url, page.comments)
            .with_discussion(page.discussion),
        window: page.window,
        windowed: false,
        shown: 0,
        window_base: match page.view {
            View::All => "?from=",
            View::Left => "?view=left&from=",
            View::Since => "?view=since&from=",
            View::Unread => "?view=unread&from=",
        },
        team: team::Team::of(page.coverage, page.viewer),
    };
    ctx.windowed = plan.entries().filter(|entry| ctx.shows(entry)).count() > WINDOW_ENTRIES;

    let title = format!(
        "{} · {}/{}#{}",
        page.title, page.owner, page.repo, page.number
    );
    let mut out = String::with_capacity(16 * 1024);
    if page.fragment {
        order_panel(&mut out, page, &plan, &mut ctx);
        return html::page(&title, &out, page.base_url);
    }
    let (done, total) = plan.progress(page.review_state);
    out.push_str("<link rel=\"stylesheet\" href=\"/static/review.css\">\n");
    diff_view::page_extras(&mut out);
    header(
        &mut out,
        page,
        read_only,
        done,
        total,
        !plan.leftovers.is_empty(),
        ctx.team.as_ref(),
    );
    out.push_str("<div class=\"layout\">\n");
    outline(&mut out, page, &plan, &ctx);
    out.push_str("<div class=\"content\">\n");
    diagram_panel(&mut out, page, &plan);
    order_panel(&mut out, page, &plan, &mut ctx);
    out.push_str("</div>\n</div>\n");
    if let Some(discussion) = page.discussion {
        discussion::box_template(&mut out, discussion.forms.is_read_only());
    }
    // The keyboard help, shown by `?` (the script opens it; without the script it stays hidden).
    out.push_str(REVIEW_KEYS);
    if ctx.writable {
        out.push_str("<p id=\"tick-status\" class=\"tick-status\" role=\"status\" aria-live=\"polite\"></p>\n");
        let _ = writeln!(out, "<script src=\"{REVIEW_JS_PATH}\" defer></script>");
    }
    html::page(&title, &out, page.base_url)
}

/// Every item id the page for the latest version offers a tick for: its checklist items, its
/// file entries (including those under "Not in the order yet") and each of their changes. A
/// tick naming anything else is refused, so nobody can store made-up items in a pull
/// request's object.
pub fn tickable_items(order: Option<&Order>, files: &[SnapshotFile]) -> HashSet<String> {
    let checklist = order.map(checklist_ids).unwrap_or_default();
    let plan = Plan::new(order, files, &checklist, &ReviewState::default());
    plan.section_checks
        .iter()
        .flatten()
        .chain(plan.entries().flat_map(|entry| &entry.checks))
        .map(|item| item.id.clone())
        .chain(
            plan.entries()
                .filter(|entry| entry.items > 0)
                .map(EntryPlan::tick_id),
        )
        .chain(plan.entries().flat_map(|entry| entry.items(&plan.named)))
        .collect()
}

/// What a tick on the latest version's page stores: a checklist item itself, a file entry as
/// the content items of the changes it shows (so marking a file marks each of its changes), a
/// change as itself. `None` for anything the page doesn't offer.
pub fn expand_tick(
    item: &str,
    order: Option<&Order>,
    files: &[SnapshotFile],
) -> Option<Vec<String>> {
    let checklist = order.map(checklist_ids).unwrap_or_default();
    if checklist.iter().any(|check| check.id == item) {
        return Some(vec![item.to_string()]);
    }
    let plan = Plan::new(order, files, &checklist, &ReviewState::default());
    // An entry's tick id and items start with its path after their kind, so only entries of
    // that path make theirs (all of them was most of a tick's CPU on a large pull request).
    let of_path = |entry: &&EntryPlan<'_>, kinds: &[&str]| {
        kinds
            .iter()
            .filter_map(|kind| item.strip_prefix(kind))
            .any(|rest| rest.starts_with(entry.path))
    };
    let mut entries = plan.entries().filter(|entry| of_path(entry, &["file:"]));
    if let Some(entry) = entries.find(|entry| entry.items > 0 && entry.tick_id() == item) {
        return Some(entry.items(&plan.named));
    }
    let offered = plan
        .entries()
        .filter(|entry| of_path(entry, &["change:", "blob:"]))
        .any(|entry| entry.items(&plan.named).iter().any(|own| own == item));
    offered.then(|| vec![item.to_string()])
}

/// Each file entry's tick id with the content items it stands for at the current head.
pub fn entry_items(order: Option<&Order>, files: &[SnapshotFile]) -> HashMap<String, Vec<String>> {
    let checklist = order.map(checklist_ids).unwrap_or_default();
    let plan = Plan::new(order, files, &checklist, &ReviewState::default());
    plan.entries()
        .map(|entry| (entry.tick_id(), entry.items(&plan.named)))
        .collect()
}

/// Every entry of the order, per section, and those under "Not in the order yet", each with the
/// content items it shows at the head: what coverage across reviewers is computed over
/// (`review::coverage`), from the same plan the page renders, so both agree on every entry.
pub fn coverage_entries(order: Option<&Order>, files: &[SnapshotFile]) -> OrderItems {
    let checklist = order.map(checklist_ids).unwrap_or_default();
    let plan = Plan::new(order, files, &checklist, &ReviewState::default());
    let items = |entry: &EntryPlan<'_>| EntryItems {
        path: entry.path.to_string(),
        items: entry.items(&plan.named),
    };
    let titles = order.map_or(&[][..], |order| order.sections.as_slice());
    OrderItems {
        sections: plan
            .sections
            .iter()
            .zip(titles)
            .map(|(entries, section)| SectionItems {
                title: section.title.clone(),
                entries: entries.iter().map(items).collect(),
            })
            .collect(),
        not_in_order: plan.leftovers.iter().map(items).collect(),
    }
}

/// The content items of the changes an entry shows: its named changes, or for the appearance
/// without `hunks` every change no other appearance names; a file without hunks is one blob
/// item; a file no longer in the pull request has none.
fn content_items(
    path: &str,
    file: Option<&SnapshotFile>,
    select: &Select<'_>,
    named: &HashMap<&str, HashSet<&str>>,
) -> Vec<String> {
    let Some(file) = file else {
        return Vec::new();
    };
    if file.changes.is_empty() {
        return review_state::file_items(file);
    }
    file.changes
        .iter()
        .filter(|change| select.takes(&change.id, named.get(path)))
        .map(|change| review_state::change_item(path, &change.id))
        .collect()
}

/// One file entry of the order (or of "Not in the order yet") for an anchor search.
struct Candidate<'b> {
    path: &'b str,
    hunks: Option<&'b [String]>,
    anchor: &'b str,
}

fn pick_anchor<'c>(
    candidates: &'c [Candidate<'_>],
    path: &str,
    hunk: Option<&str>,
) -> Option<&'c str> {
    let mut first = None;
    let mut rest = None;
    for candidate in candidates.iter().filter(|c| c.path == path) {
        first.get_or_insert(candidate.anchor);
        match (candidate.hunks, hunk) {
            (Some(hunks), Some(wanted)) if hunks.iter().any(|id| id == wanted) => {
                return Some(candidate.anchor);
            }
            (None, _) => {
                rest.get_or_insert(candidate.anchor);
            }
            _ => {}
        }
    }
    if hunk.is_some() {
        rest.or(first)
    } else {
        first
    }
}

/// Hands out unique entry anchors in reading order; see the module docs.
#[derive(Default)]
struct Anchors<'p> {
    /// Per path, the appearances so far.
    seen: HashMap<&'p str, usize>,
    /// The anchors made that end in `-part-<digits>` (then perhaps `~`s): only those can meet
    /// another, as paths' slugs differ and never end in `~`.
    used: HashSet<String>,
}

impl<'p> Anchors<'p> {
    /// The anchor of the next appearance of `path`, and which appearance it is (from 1).
    fn next(&mut self, path: &'p str) -> (String, usize) {
        let count = self.seen.entry(path).or_insert(0);
        *count += 1;
        let count = *count;
        // Joined by hand, as `review_state::item` (one per entry of a 3,000-file page).
        let mut anchor = String::with_capacity(path.len() + 8);
        anchor.push_str("file-");
        slug_into(&mut anchor, path);
        if count > 1 {
            anchor.push_str("-part-");
            anchor.push_str(&count.to_string());
        }
        // Only a path that itself ends in `-part-N` can collide; a trailing `~` is never made
        // by `slug`, so appending it gives a fresh id.
        let may_meet = anchor
            .rsplit_once("-part-")
            .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if may_meet {
            while self.used.contains(&anchor) {
                anchor.push('~');
            }
            self.used.insert(anchor.clone());
        }
        (anchor, count)
    }
}

/// [`slug_into`] on its own (for the tests).
#[cfg(test)]
fn slug(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    slug_into(&mut out, path);
    out
}

/// Appends `path` as an id fragment to `out`: ASCII letters, digits, `.`, `_`, `-` and `/` kept,
/// other bytes `~XX`.
fn slug_into(out: &mut String, path: &str) {
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'_' | b'-' | b'/') {
            out.push(char::from(byte));
        } else {
            out.push('~');
            for nibble in [byte >> 4, byte & 15] {
                if let Some(digit) = char::from_digit(u32::from(nibble), 16) {
                    out.push(digit.to_ascii_uppercase());
                }
            }
        }
    }
}

/// Which changes of a file an entry shows.
enum Select<'b> {
    /// The changes with these ids.
    Only(&'b [String]),
    /// Every change that no appearance of the file names.
    Rest,
}

impl Select<'_> {
    /// Whether the entry shows the change `id`; `named` holds the ids its file's appearances
    /// name.
    fn takes(&self, id: &str, named: Option<&HashSet<&str>>) -> bool {
        match self {
            Select::Only(wanted) => wanted.iter().any(|w| w == id),
            Select::Rest => !named.is_some_and(|set| set.contains(id)),
        }
    }
}

/// One file entry as the page shows it.
struct EntryPlan<'b> {
    path: &'b str,
    /// The order's entry; `None` under "Not in the order yet".
    entry: Option<&'b FileEntry>,
    file: Option<&'b SnapshotFile>,
    select: Select<'b>,
    /// `(n, of)` for a file listed more than once.
    part: Option<(usize, usize)>,
    anchor: String,
    /// How many content items the entry stands for ([`content_items`], made only for the
    /// entries a page renders: [`EntryPlan::items`]).
    items: usize,
    /// The viewer's state of them.
    state: EntryState,
    /// One of them is new since the viewer's last visit.
    new_since_visit: bool,
    checks: Vec<&'b ChecklistItem>,
    /// Under "Not in the order yet": changes of a file whose every part names its hunks, with
    /// their ids.
    new_changes: Option<Vec<String>>,
    /// Who has reviewed it, across reviewers ([`Plan::with_coverage`]).
    team: Option<&'b EntryCoverage>,
}

impl EntryPlan<'_> {
    /// The content items of the changes the entry shows.
    fn items(&self, named: &HashMap<&str, HashSet<&str>>) -> Vec<String> {
        content_items(self.path, self.file, &self.select, named)
    }

    /// The entry's tick ([`file_item_id`]).
    fn tick_id(&self) -> String {
        match (self.entry, &self.new_changes) {
            (Some(entry), _) => file_item_id(self.path, entry.hunks.as_deref()),
            (None, unnamed) => file_item_id(self.path, unnamed.as_deref()),
        }
    }
}

/// A viewer's ticks of changes, per path: the change ids ticked. Change ids never hold `#`, so
/// `change:<path>#<id>` splits at its last one.
type TickedChanges<'s> = HashMap<&'s str, HashSet<&'s str>>;

fn ticked_changes(state: &ReviewState) -> TickedChanges<'_> {
    let mut ticked: TickedChanges<'_> = HashMap::new();
    for item in &state.ticked {
        if let Some((path, id)) = item
            .strip_prefix("change:")
            .and_then(|rest| rest.rsplit_once('#'))
        {
            ticked.entry(path).or_default().insert(id);
        }
    }
    ticked
}

/// An entry's item count, review state and whether it is new since the last visit, as
/// [`content_items`] and `state` would tell of its items, without making them: a view shows
/// every entry's state but renders only a window of entries, and making every entry's items
/// and looking each up was most of a 3,000-file page (issue #30).
fn entry_status(
    path: &str,
    file: Option<&SnapshotFile>,
    select: &Select<'_>,
    named: Option<&HashSet<&str>>,
    state: &ReviewState,
    ticked: &TickedChanges<'_>,
) -> (usize, EntryState, bool) {
    let Some(file) = file else {
        return (0, EntryState::Todo, false);
    };
    let of = |reviewed: bool, changed: bool| {
        if reviewed {
            EntryState::Reviewed
        } else if changed {
            EntryState::Changed
        } else {
            EntryState::Todo
        }
    };
    if file.changes.is_empty() {
        let items = review_state::file_items(file);
        let changed = items
            .iter()
            .any(|item| state.is_changed_since_reviewed(item));
        let new = items.iter().any(|item| state.is_new_since_visit(item));
        return (items.len(), of(state.all_ticked(&items), changed), new);
    }
    let ticked = ticked.get(path);
    let changed = state.changed.get(path);
    let new_keys = state
        .since
        .as_ref()
        .filter(|since| since.known)
        .and_then(|since| since.new_keys.get(path));
    let (mut count, mut all_ticked, mut any_changed, mut any_new) = (0, true, false, false);
    for change in file.changes.iter().filter(|c| select.takes(&c.id, named)) {
        let id = change.id.as_str();
        count += 1;
        all_ticked &= ticked.is_some_and(|ids| ids.contains(id));
        any_changed |= changed.is_some_and(|ids| ids.contains(id));
        any_new |= new_keys.is_some_and(|ids| ids.contains(id));
    }
    (count, of(count > 0 && all_ticked, any_changed), any_new)
}

/// What [`Plan::new`] knows of a path: its file (the first of that path), how many entries of
/// the order show it and whether one shows its rest, and whether "Not in the order yet" has
/// looked at it.
#[derive(Clone, Copy, Default)]
struct PathFacts<'b> {
    file: Option<&'b SnapshotFile>,
    appearances: usize,
    has_rest: bool,
    listed: bool,
}

/// The page's entries, computed once: anchors, parts, checks and what is not in the order yet.
struct Plan<'b> {
    sections: Vec<Vec<EntryPlan<'b>>>,
    section_checks: Vec<Vec<&'b ChecklistItem>>,
    leftovers: Vec<EntryPlan<'b>>,
    /// Per path, the change ids that some appearance names in `hunks`.
    named: HashMap<&'b str, HashSet<&'b str>>,
}

impl<'b> Plan<'b> {
    /// The plan of every entry; `state` gives each its review state (a default one for none).
    fn new(
        order: Option<&'b Order>,
        files: &'b [SnapshotFile],
        items: &'b [ChecklistItem],
        state: &ReviewState,
    ) -> Self {
        let mut by_place: HashMap<(usize, Option<usize>), Vec<&'b ChecklistItem>> = HashMap::new();
        for item in items {
            by_place
                .entry((item.section, item.entry))
                .or_default()
                .push(item);
        }
        // What the plan asks of each path, in one map (a view plans every entry).
        let mut paths: HashMap<&'b str, PathFacts<'b>> = HashMap::with_capacity(files.len());
        for file in files {
            paths
                .entry(file.path.as_str())
                .or_default()
                .file
                .get_or_insert(file);
        }
        let mut named: HashMap<&'b str, HashSet<&'b str>> = HashMap::new();
        let sections_in: &'b [crate::review::order::Section] =
            order.map_or(&[], |order| order.sections.as_slice());
        for entry in sections_in.iter().flat_map(|section| &section.files) {
            let facts = paths.entry(entry.path.as_str()).or_default();
            facts.appearances += 1;
            match &entry.hunks {
                Some(hunks) => named
                    .entry(entry.path.as_str())
                    .or_default()
                    .extend(hunks.iter().map(String::as_str)),
                None => facts.has_rest = true,
            }
        }

        let ticked = ticked_changes(state);
        let mut anchors = Anchors::default();
        let mut plan = |path: &'b str, file: Option<&'b SnapshotFile>, select: Select<'b>| {
            let (items, state, new_since_visit) =
                entry_status(path, file, &select, named.get(path), state, &ticked);
            let (anchor, nth) = anchors.next(path);
            let plan = EntryPlan {
                path,
                entry: None,
                file,
                select,
                part: None,
                anchor,
                items,
                state,
                new_since_visit,
                checks: Vec::new(),
                new_changes: None,
                team: None,
            };
            (plan, nth)
        };
        let mut sections = Vec::with_capacity(sections_in.len());
        let mut section_checks = Vec::with_capacity(sections_in.len());
        for (s, section) in sections_in.iter().enumerate() {
            section_checks.push(by_place.remove(&(s, None)).unwrap_or_default());
            let mut entries = Vec::with_capacity(section.files.len());
            for (e, entry) in section.files.iter().enumerate() {
                let path = entry.path.as_str();
                let facts = paths.get(path).copied().unwrap_or_default();
                let select = match &entry.hunks {
                    Some(hunks) => Select::Only(hunks),
                    None => Select::Rest,
                };
                let (plan, nth) = plan(path, facts.file, select);
                let total = facts.appearances;
                let checks = if by_place.is_empty() {
                    Vec::new()
                } else {
                    by_place.remove(&(s, Some(e))).unwrap_or_default()
                };
                entries.push(EntryPlan {
                    entry: Some(entry),
                    part: (total > 1).then_some((nth, total)),
                    checks,
                    ..plan
                });
            }
            sections.push(entries);
        }

        let mut leftovers = Vec::new();
        for file in files {
            let path = file.path.as_str();
            let Some(facts) = paths.get_mut(path).filter(|facts| !facts.listed) else {
                continue;
            };
            facts.listed = true;
            if facts.appearances == 0 {
                leftovers.push(plan(path, Some(file), Select::Rest).0);
                continue;
            }
            if facts.has_rest {
                continue;
            }
            // Every part names its hunks: changes from later commits belong to no part.
            let unnamed = unnamed_changes(file, named.get(path));
            if !unnamed.is_empty() {
                leftovers.push(EntryPlan {
                    new_changes: Some(unnamed),
                    ..plan(path, Some(file), Select::Rest).0
                });
            }
        }
        Plan {
            sections,
            section_checks,
            leftovers,
            named,
        }
    }

    fn entries(&self) -> impl Iterator<Item = &EntryPlan<'b>> {
        self.sections.iter().flatten().chain(&self.leftovers)
    }

    /// Gives each entry its coverage: `coverage` was computed over this same plan
    /// ([`coverage_entries`]), entry for entry.
    fn with_coverage(mut self, coverage: Option<&'b Coverage>) -> Self {
        let Some(coverage) = coverage else {
            return self;
        };
        for (entries, covered) in self.sections.iter_mut().zip(&coverage.entries) {
            for (entry, covered) in entries.iter_mut().zip(covered) {
                entry.team = Some(covered);
            }
        }
        for (entry, covered) in self.leftovers.iter_mut().zip(&coverage.not_in_order) {
            entry.team = Some(covered);
        }
        self
    }

    /// `(done, total)` over the checklist items and file entries the page shows; an entry is
    /// done when every change it shows is reviewed.
    fn progress(&self, state: &ReviewState) -> (usize, usize) {
        let checks = self
            .section_checks
            .iter()
            .flatten()
            .chain(self.entries().flat_map(|entry| &entry.checks))
            .map(|item| state.ticked.contains(&item.id));
        let files = self
            .entries()
            .filter(|entry| entry.items > 0)
            .map(|entry| entry.state == EntryState::Reviewed);
        checks.chain(files).fold((0, 0), |(done, total), ticked| {
            (done + usize::from(ticked), total + 1)
        })
    }

    /// Every entry, for [`pick_anchor`].
    fn candidates(&self) -> Vec<Candidate<'_>> {
        self.entries()
            .map(|entry| Candidate {
                path: entry.path,
                hunks: match &entry.select {
                    Select::Only(hunks) => Some(hunks),
                    Select::Rest => None,
                },
                anchor: &entry.anchor,
            })
            .collect()
    }
}

/// Change ids of `file` that `named` does not hold, in diff order.
fn unnamed_changes(file: &SnapshotFile, named: Option<&HashSet<&str>>) -> Vec<String> {
    let Some(patch) = file.patch.as_deref() else {
        return Vec::new();
    };
    let Ok(hunks) = parse_patch(patch) else {
        return Vec::new();
    };
    change_ids(file, &hunks)
        .into_iter()
        .filter(|id| !named.is_some_and(|named| named.contains(id.as_str())))
        .collect()
}

/// The change ids of `file`, whose patch parsed into `hunks`, in diff order: the snapshot's own,
/// which `describe_changes` worked out from these same hunks when the snapshot was built (hashing
/// every hunk again was a fifteenth of a 320-file review page's CPU, issue #19); worked out again
/// only if they don't line up with the hunks.
fn change_ids(file: &SnapshotFile, hunks: &[Hunk<'_>]) -> Vec<String> {
    if file.changes.len() == hunks.len() {
        return file
            .changes
            .iter()
            .map(|change| change.id.clone())
            .collect();
    }
    describe_changes(hunks)
        .into_iter()
        .map(|change| change.id)
        .collect()
}

/// What rendering entries needs besides the plan.
struct Ctx<'b> {
    state: &'b ReviewState,
    view: View,
    /// The tick form's `action`, escaped.
    action: String,
    /// The CSRF token, escaped.
    csrf: String,
    /// Ticks can be changed (not an older version).
    writable: bool,
    next_id: usize,
    named: &'b HashMap<&'b str, HashSet<&'b str>>,
    /// Line links, comments and which diffs load on demand.
    diff: diff_view::View<'b>,
    /// The window of entries rendered in full ([`WINDOW_ENTRIES`]).
    window: usize,
    /// The page shows more than one window of entries.
    windowed: bool,
    /// Entries the view shows, counted so far in reading order.
    shown: usize,
    /// `?[view=…&]from=`: a window's link (relative to the page) without its number.
    window_base: &'static str,
    /// The other reviewers' coverage, when there are others.
    team: Option<team::Team<'b>>,
}

/// What a tick stands for, for the script: a checklist item or file entry counts toward
/// progress; a change doesn't, but completes its entry.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Check,
    Entry,
    Change,
}

impl Scope {
    fn as_str(self) -> &'static str {
        match self {
            Scope::Check => "check",
            Scope::Entry => "entry",
            Scope::Change => "change",
        }
    }
}

impl Ctx<'_> {
    /// A tick: a form with `csrf`, `item` and `done` (the state a submit sets), a checkbox that
    /// the script enables, a label and a submit button; or, when read-only, a disabled checkbox.
    fn tick(&mut self, out: &mut String, item: &str, label_html: &str, done: bool, scope: Scope) {
        self.next_id += 1;
        // Windows loaded into one page must not share ids: the first window's are `t{n}`.
        let id = match self.window {
            0 => self.next_id.to_string(),
            window => format!("{window}-{}", self.next_id),
        };
        let checked = if done { " checked" } else { "" };
        let scope = scope.as_str();
        if !self.writable {
            let _ = write!(
                out,
                "<div class=\"tick\" data-scope=\"{scope}\"><input type=\"checkbox\" id=\"t{id}\" class=\"tick-box\"{checked} disabled>\
                 <label for=\"t{id}\">{label_html}</label></div>"
            );
            return;
        }
        let class = if done { "tick is-done" } else { "tick" };
        let _ = write!(
            out,
            "<form class=\"{class}\" data-scope=\"{scope}\" method=\"post\" action=\"{action}\">\
             <input type=\"hidden\" name=\"csrf\" value=\"{csrf}\">\
             <input type=\"hidden\" name=\"item\" value=\"{item}\">\
             <input type=\"hidden\" name=\"done\" value=\"{next}\">\
             <input type=\"checkbox\" id=\"t{id}\" class=\"tick-box\"{checked} disabled>\
             <label id=\"t{id}-l\" for=\"t{id}\">{label_html}</label>\
             <button type=\"submit\" class=\"tick-save\" aria-describedby=\"t{id}-l\">{button}</button>\
             </form>",
            action = self.action,
            csrf = self.csrf,
            item = escape(item),
            next = if done { "0" } else { "1" },
            button = if done { "Undo" } else { "Mark done" },
        );
    }

    /// An entry's review state: reviewed, changed since the viewer reviewed it, or not yet.
    fn entry_state(&self, entry: &EntryPlan<'_>) -> EntryState {
        entry.state
    }

    /// Appends the link to `window` of the page, at `anchor`, escaped.
    fn window_href(&self, out: &mut String, window: usize, anchor: &str) {
        escape_into(out, self.window_base);
        out.push_str(&(window * WINDOW_ENTRIES + 1).to_string());
        out.push('#');
        escape_into(out, anchor);
    }

    /// Whether the current view shows this entry.
    fn shows(&self, entry: &EntryPlan<'_>) -> bool {
        match self.view {
            View::All => true,
            View::Left => entry.items > 0 && entry.state != EntryState::Reviewed,
            View::Since => entry.new_since_visit,
            View::Unread => entry.team.is_some_and(|team| !team.unread.is_empty()),
        }
    }
}

/// An entry's state as the outline and its header say it, in words and a symbol, never by
/// colour alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EntryState {
    Reviewed,
    Changed,
    Todo,
}

impl EntryState {
    fn key(self) -> &'static str {
        match self {
            EntryState::Reviewed => "reviewed",
            EntryState::Changed => "changed",
            EntryState::Todo => "todo",
        }
    }

    fn label(self) -> &'static str {
        match self {
            EntryState::Reviewed => "Reviewed",
            EntryState::Changed => "Changed since you reviewed",
            EntryState::Todo => "Not reviewed yet",
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            EntryState::Reviewed => "✓",
            EntryState::Changed => "◐",
            EntryState::Todo => "○",
        }
    }
}

fn header(
    out: &mut String,
    page: &ReviewPage<'_>,
    read_only: bool,
    done: usize,
    total: usize,
    leftovers: bool,
    team: Option<&team::Team<'_>>,
) {
    let github = safe_github(page.github_url);
    let pull = pull_path(page.owner, page.repo, page.number);
    out.push_str("<header class=\"pr\">\n<p class=\"pr-meta\">");
    let (state_label, state_class) = match page.state.to_ascii_lowercase().as_str() {
        "open" => ("Open".to_string(), "state-open"),
        "closed" => ("Closed".to_string(), "state-closed"),
        "merged" => ("Merged".to_string(), "state-merged"),
        _ => (page.state.to_string(), "state-other"),
    };
    let _ = write!(
        out,
        "<span class=\"badge {state_class}\">{}</span> ",
        escape(&state_label)
    );
    let label = format!("{}/{}#{}", page.owner, page.repo, page.number);
    match github {
        Some(url) => {
            let _ = write!(out, "<a href=\"{}\">{}</a>", escape(url), escape(&label));
        }
        None => escape_into(out, &label),
    }
    let _ = write!(
        out,
        " <span>by <strong>{}</strong></span>",
        escape(page.author)
    );
    if !page.viewer.is_empty() {
        let _ = write!(
            out,
            " <span class=\"viewer\">Signed in as {}</span>",
            escape(page.viewer)
        );
    }
    out.push_str("</p>\n");
    let _ = writeln!(out, "<h1 class=\"pr-title\">{}</h1>", escape(page.title));

    if page.order.is_some() {
        let source = if page.source.is_empty() {
            String::new()
        } else {
            format!(" ({})", escape(page.source))
        };
        let _ = writeln!(
            out,
            "<p class=\"saved\">Saved by <strong>{}</strong>{source} at {}, version {}</p>",
            escape(page.updated_by),
            time_html(page.saved_at),
            page.order_version
        );
        versions(out, page, &pull);
    }

    out.push_str("<p class=\"actions\">");
    if let Some(url) = github {
        let _ = write!(
            out,
            "<a class=\"button\" href=\"{}\">View on GitHub</a>",
            escape(url)
        );
    }
    if page.can_arrange && page.order.is_some() && !read_only {
        let _ = write!(
            out,
            "<a class=\"button\" href=\"{}/arrange\">Arrange on the web</a>",
            escape(&pull)
        );
    }
    out.push_str("</p>\n");
    if let Some(discussion) = page.discussion {
        let patch_of = |path: &str| {
            page.files
                .iter()
                .find(|f| f.path == path)
                .and_then(|f| f.patch.clone())
        };
        discussion::finish_panel(out, discussion, &patch_of);
    }

    if read_only {
        let _ = writeln!(
            out,
            "<p class=\"notice\" role=\"note\">You are viewing version {}, an earlier version of this \
             order. It is read-only: ticks can't be changed here. \
             <a href=\"{}\">Go to the latest version ({})</a>.</p>",
            page.order_version,
            escape(&pull),
            page.latest_version
        );
    }
    if let (Some(_), Some(commits)) = (page.order, page.commits_since.filter(|n| *n > 0)) {
        let latest = if commits == 1 {
            "the latest commit".to_string()
        } else {
            format!("the latest {commits} commits")
        };
        let place = if leftovers {
            "<a href=\"#not-in-order\">“Not in the order yet”</a>"
        } else {
            "“Not in the order yet”"
        };
        let _ = writeln!(
            out,
            "<p class=\"notice warn\" role=\"note\">This order was saved before {latest}; \
             new changes are listed under the part without hunks or in {place}.</p>"
        );
    }

    since_banner(out, page);
    let _ = writeln!(
        out,
        "<div class=\"progress\"><p><strong><span id=\"progress-done\" data-total=\"{total}\">{done}</span> \
         of {total}</strong> done</p><progress id=\"progress-bar\" max=\"{max}\" value=\"{done}\" \
         aria-label=\"Review progress\"></progress></div>",
        max = total.max(1)
    );
    if let Some(team) = team {
        team::summary(out, team, &pull, &time_html);
    }
    out.push_str("</header>\n");
}

/// "Since your last visit": the head the viewer last reviewed at, the commits and files since,
/// files that left, and the switch between everything and only what's new.
fn since_banner(out: &mut String, page: &ReviewPage<'_>) {
    let Some(since) = page.review_state.since.as_ref() else {
        return;
    };
    let pull = pull_path(page.owner, page.repo, page.number);
    let short: String = since.head_sha.chars().take(7).collect();
    let _ = write!(
        out,
        "<div class=\"notice since\" role=\"note\"><p>You last reviewed this pull request at <code>{}</code>",
        escape(&short)
    );
    if let Some(commits) = page.visit_commits {
        let _ = write!(
            out,
            "; {commits} {} came after it",
            if commits == 1 { "commit" } else { "commits" }
        );
    }
    if !since.known {
        out.push_str(". What changed since then can't be told: that head's record is no longer kept.</p></div>\n");
        return;
    }
    let files = since.new_keys.len();
    let _ = write!(
        out,
        "; {files} {} changed since.</p>",
        if files == 1 { "file has" } else { "files have" }
    );
    if !since.left.is_empty() {
        out.push_str("<p>Left the pull request since: ");
        for (index, path) in since.left.iter().enumerate() {
            if index > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "<code>{}</code>", escape(path));
        }
        out.push_str(".</p>");
    }
    if page.view == View::Since {
        let _ = write!(
            out,
            "<p><a class=\"button\" href=\"{}\">Show everything</a></p>",
            escape(&pull)
        );
    } else if files > 0 {
        let _ = write!(
            out,
            "<p><a class=\"button\" href=\"{}?view=since\">Show only what's new since then</a></p>",
            escape(&pull)
        );
    }
    out.push_str("</div>\n");
}

/// The outline beside the diff: sections and files in order with each file's state, "X of Y"
/// per section with its open review threads (issue #38), and the view switch. A labelled
/// landmark; folded on phones.
fn outline(out: &mut String, page: &ReviewPage<'_>, plan: &Plan<'_>, ctx: &Ctx<'_>) {
    let Some(order) = page.order else {
        return;
    };
    let pull = escape(&pull_path(page.owner, page.repo, page.number));
    let reviewable = |entries: &[EntryPlan<'_>]| -> (usize, usize) {
        entries
            .iter()
            .filter(|entry| entry.items > 0)
            .fold((0, 0), |(done, total), entry| {
                (
                    done + usize::from(ctx.entry_state(entry) == EntryState::Reviewed),
                    total + 1,
                )
            })
    };
    let all: Vec<&EntryPlan<'_>> = plan.entries().collect();
    let (done, total) =
        all.iter()
            .filter(|entry| entry.items > 0)
            .fold((0, 0), |(done, total), entry| {
                (
                    done + usize::from(ctx.entry_state(entry) == EntryState::Reviewed),
                    total + 1,
                )
            });
    let _ = write!(
        out,
        "<nav class=\"outline\" aria-label=\"Outline\"><details class=\"outline-box\" open>\
         <summary>Outline <span class=\"muted\">· {done} of {total} files reviewed</span></summary>\n\
         <p class=\"views\">"
    );
    let view_link = |out: &mut String, view: View, href: &str, text: &str| {
        let current = if page.view == view {
            " aria-current=\"page\""
        } else {
            ""
        };
        let _ = write!(out, "<a href=\"{href}\"{current}>{text}</a>");
    };
    view_link(out, View::All, &pull, "Everything");
    view_link(
        out,
        View::Left,
        &format!("{pull}?view=left"),
        "Only what's left",
    );
    if page
        .review_state
        .since
        .as_ref()
        .is_some_and(|since| since.known)
    {
        view_link(
            out,
            View::Since,
            &format!("{pull}?view=since"),
            "New since your last visit",
        );
    }
    if ctx.team.is_some() {
        view_link(
            out,
            View::Unread,
            &format!("{pull}?view=unread"),
            "What nobody has read",
        );
    }
    out.push_str("</p>\n<ol class=\"outline-sections\">\n");
    let names = team::outline_names(all.iter().map(|entry| entry.path));
    // One line per file, as short as it can be: a 3,000-file outline is most of its page. The
    // symbol comes from the style sheet (by `data-state`); the state is said in words.
    let mut shown: usize = 0;
    let mut file_link = |out: &mut String, entry: &EntryPlan<'_>| {
        let state = if entry.items == 0 {
            "none"
        } else {
            ctx.entry_state(entry).key()
        };
        let hidden = if ctx.shows(entry) {
            shown += 1;
            ""
        } else {
            " class=\"filtered\""
        };
        let name = names
            .get(entry.path)
            .copied()
            .unwrap_or_else(|| entry.path.rsplit('/').next().unwrap_or(entry.path));
        // Written piece by piece: one line per entry of every window.
        out.push_str("<li data-state=\"");
        out.push_str(state);
        out.push('"');
        out.push_str(hidden);
        out.push_str("><a href=\"");
        // An entry of another window links to that window's page; the script loads it in place.
        let window = shown.saturating_sub(1) / WINDOW_ENTRIES;
        if !ctx.windowed || !hidden.is_empty() || window == ctx.window {
            out.push('#');
            escape_into(out, &entry.anchor);
        } else {
            ctx.window_href(out, window, &entry.anchor);
        }
        out.push_str("\" title=\"");
        escape_into(out, entry.path);
        out.push_str("\"><span class=\"vh\">");
        out.push_str(if entry.items == 0 {
            "Nothing to review"
        } else {
            ctx.entry_state(entry).label()
        });
        out.push_str(": </span>");
        escape_into(out, name);
        if let Some((nth, of)) = entry.part {
            let _ = write!(out, " <span class=\"muted\">({nth}/{of})</span>");
        }
        out.push_str("</a>");
        if let (Some(team), Some(covered)) = (ctx.team.as_ref(), entry.team) {
            team::outline_mark(out, team, covered);
        }
        out.push_str("</li>\n");
    };
    let open =
        discussion::open_threads_by_section(page.files, order, page.comments, page.discussion);
    for (index, section) in order.sections.iter().enumerate() {
        let entries = plan.sections.get(index).map_or(&[][..], Vec::as_slice);
        let (done, total) = reviewable(entries);
        let _ = write!(
            out,
            "<li><a href=\"#section-{}\">{}. ",
            index + 1,
            index + 1
        );
        section_title(out, section.title.as_deref());
        let _ = write!(out, "</a> <span class=\"count\">{done} of {total}</span>");
        if let Some(&count) = open.get(index).filter(|&&count| count > 0) {
            discussion::open_threads_html(out, count);
        }
        out.push_str("<ol class=\"outline-files\">\n");
        for entry in entries {
            file_link(out, entry);
        }
        out.push_str("</ol></li>\n");
    }
    if !plan.leftovers.is_empty() {
        let (done, total) = reviewable(&plan.leftovers);
        let _ = writeln!(
            out,
            "<li><a href=\"#not-in-order\">Not in the order yet</a> <span class=\"count\">{done} of {total}</span><ol class=\"outline-files\">"
        );
        for entry in &plan.leftovers {
            file_link(out, entry);
        }
        out.push_str("</ol></li>\n");
    }
    // The outline's end and its hint of the keys.
    out.push_str(REVIEW_KEYS_HINT);
}

/// The version picker: every version linked as `?version=N`, the one shown marked.
fn versions(out: &mut String, page: &ReviewPage<'_>, pull: &str) {
    if page.versions.len() < 2 {
        return;
    }
    let _ = writeln!(
        out,
        "<details class=\"versions\"><summary>Version history ({} versions)</summary>\n<ol class=\"version-list\">",
        page.versions.len()
    );
    for info in page.versions {
        let current = info.version == page.order_version;
        let _ = write!(
            out,
            "<li><a href=\"{}?version={}\"{}>Version {}</a> · {} ({}) · {}",
            escape(pull),
            info.version,
            if current {
                " aria-current=\"page\" class=\"current\""
            } else {
                ""
            },
            info.version,
            escape(&info.person),
            escape(&info.source),
            time_html(&info.saved_at)
        );
        if info.version == page.latest_version {
            out.push_str(" <span class=\"badge\">latest</span>");
        }
        if current {
            out.push_str(" <span class=\"badge\">viewing</span>");
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol></details>\n");
}

fn tabs(out: &mut String, current: &str) {
    let mark = |id: &str| {
        if id == current {
            " aria-current=\"true\""
        } else {
            ""
        }
    };
    let _ = writeln!(
        out,
        "<nav class=\"tabs\" aria-label=\"Views\"><a href=\"#order\"{}>Reading order</a>\
         <a href=\"#diagram\"{}>Diagram</a></nav>",
        mark("order"),
        mark("diagram")
    );
}

fn diagram_panel(out: &mut String, page: &ReviewPage<'_>, plan: &Plan<'_>) {
    out.push_str("<section id=\"diagram\" class=\"panel\" aria-labelledby=\"diagram-title\">\n");
    tabs(out, "diagram");
    out.push_str("<h2 id=\"diagram-title\" class=\"vh\">Diagram</h2>\n");
    match page.diagram {
        Some(diagram) => {
            let layout = layout::layout(&layout::input_from_json(diagram));
            let candidates = plan.candidates();
            let links: Vec<Option<String>> = layout
                .nodes
                .iter()
                .map(|node| {
                    let file = node.file.as_deref()?;
                    pick_anchor(&candidates, file, node.hunk.as_deref())
                        .map(|anchor| format!("#{anchor}"))
                })
                .collect();
            diagram_drawing(out, &layout, &links);
            out.push_str("<p class=\"muted\">Steps tied to a file link to it in the reading order.</p>\n");
        }
        None => out.push_str(
            "<p class=\"empty\">No diagram yet.</p>\n<p class=\"muted\">An agent can draw one with the \
             <code>save_diagram</code> tool when a flow helps reviewers follow the change.</p>\n",
        ),
    }
    out.push_str("</section>\n");
}

/// The diagram's place: its steps in order as a list, which [`DIAGRAM_JS_PATH`] replaces with
/// the drawing, then the data it draws from (the layout, the text metrics and each node's link,
/// `links[i]` for `layout.nodes[i]`) as a JSON block. In that block every `<` is written
/// `\u003c`, so no text can end the `<script>` element; JSON data is no script, so the CSP's
/// `script-src 'self'` allows it.
fn diagram_drawing(out: &mut String, layout: &Layout, links: &[Option<String>]) {
    out.push_str(
        "<div id=\"diagram-drawing\" class=\"diagram-wrap\" role=\"region\" aria-label=\"Diagram\" tabindex=\"0\">\n\
         <p>The diagram\u{2019}s steps, in order:</p>\n<ol class=\"diagram-steps\">\n",
    );
    for (node, link) in layout.nodes.iter().zip(links) {
        out.push_str("<li>");
        match link {
            Some(href) => {
                let _ = write!(
                    out,
                    "<a href=\"{}\">{}</a>",
                    escape(href),
                    escape(&node.title)
                );
            }
            None => escape_into(out, &node.title),
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n</div>\n<script type=\"application/json\" id=\"diagram-layout\">");
    let data = format!(
        "{{\"metrics\":{},\"links\":{},\"layout\":{}}}",
        METRICS,
        serde_json::to_string(links).unwrap_or_else(|_| "[]".into()),
        serde_json::to_string(layout).unwrap_or_else(|_| "null".into()),
    );
    out.push_str(&data.replace('<', "\\u003c"));
    let _ = writeln!(
        out,
        "</script>\n<script src=\"{DIAGRAM_JS_PATH}\" defer></script>"
    );
}

fn order_panel(out: &mut String, page: &ReviewPage<'_>, plan: &Plan<'_>, ctx: &mut Ctx<'_>) {
    out.push_str("<section id=\"order\" class=\"panel\" aria-labelledby=\"order-title\">\n");
    tabs(out, "order");
    out.push_str("<h2 id=\"order-title\" class=\"vh\">Reading order</h2>\n");
    let Some(order) = page.order else {
        out.push_str(REVIEW_NO_ORDER);
        if !plan.leftovers.is_empty() {
            out.push_str("<section id=\"not-in-order\" class=\"order-section\" aria-labelledby=\"not-in-order-title\">\n\
                          <h2 id=\"not-in-order-title\">Files</h2>\n");
            entries(out, &plan.leftovers, "rest", ctx);
            out.push_str("</section>\n");
        }
        out.push_str("</section>\n");
        return;
    };

    if let Some(overview) = order
        .overview
        .as_deref()
        .filter(|text| !text.trim().is_empty())
    {
        let _ = writeln!(
            out,
            "<div class=\"overview\" role=\"note\" aria-label=\"Overview\"><p>{}</p></div>",
            code_spans(overview)
        );
    }

    for (index, section) in order.sections.iter().enumerate() {
        let number = index + 1;
        let entries_of = plan.sections.get(index).map_or(&[][..], Vec::as_slice);
        let section_checks = plan
            .section_checks
            .get(index)
            .map_or(&[][..], Vec::as_slice);
        if ctx.view != View::All
            && !entries_of.iter().any(|entry| ctx.shows(entry))
            && (matches!(ctx.view, View::Since | View::Unread)
                || section_checks
                    .iter()
                    .chain(entries_of.iter().flat_map(|entry| &entry.checks))
                    .all(|check| ctx.state.ticked.contains(&check.id)))
        {
            continue;
        }
        let _ = write!(
            out,
            "<section class=\"order-section\" id=\"section-{number}\" aria-labelledby=\"section-{number}-title\">\n\
             <h2 id=\"section-{number}-title\"><span class=\"num\">{number}.</span> "
        );
        section_title(out, section.title.as_deref());
        if let Some(layer) = section.layer {
            let _ = write!(
                out,
                " <span class=\"badge layer\"><span class=\"vh\">layer: </span>{}</span>",
                layer.as_str()
            );
        }
        out.push_str("</h2>\n");
        if let Some(team) = ctx.team.as_ref() {
            team::section_note(out, team, index);
        }
        if let Some(note) = section
            .note
            .as_deref()
            .filter(|text| !text.trim().is_empty())
        {
            let _ = writeln!(out, "<p class=\"note\">{}</p>", code_spans(note));
        }
        checks(
            out,
            plan.section_checks.get(index).map_or(&[], Vec::as_slice),
            ctx,
        );
        entries(out, entries_of, &number.to_string(), ctx);
        out.push_str("</section>\n");
    }

    if ctx.view != View::All && !plan.entries().any(|entry| ctx.shows(entry)) {
        out.push_str(match ctx.view {
            View::Since => {
                "<p class=\"notice\" role=\"note\">Nothing is new since your last visit.</p>\n"
            }
            View::Unread => {
                "<p class=\"notice\" role=\"note\">Every change has been reviewed by someone.</p>\n"
            }
            _ => "<p class=\"notice\" role=\"note\">Every file is reviewed.</p>\n",
        });
    }
    if plan.leftovers.iter().any(|entry| ctx.shows(entry)) {
        out.push_str(
            "<section id=\"not-in-order\" class=\"order-section\" aria-labelledby=\"not-in-order-title\">\n\
             <h2 id=\"not-in-order-title\">Not in the order yet</h2>\n\
             <p class=\"muted\">These files, or these changes of files, came after the order was saved.</p>\n",
        );
        entries(out, &plan.leftovers, "rest", ctx);
        out.push_str("</section>\n");
    }
    out.push_str("</section>\n");
}

/// The entries of one section (`key` names it among the page's sections): all of them on a
/// page of one window; else the current window's entries in full, in a `div.run`, and each run
/// of another window's entries as a "Load files" link to that window, which the script replaces
/// with the same run of that window's page (`data-run` pairs them).
fn entries(out: &mut String, list: &[EntryPlan<'_>], key: &str, ctx: &mut Ctx<'_>) {
    if !ctx.windowed {
        for entry in list {
            file_entry(out, entry, ctx);
        }
        return;
    }
    // The run being written: its window, first and last entry number, its reviewed entries and
    // its first entry's anchor.
    let mut run: Option<(usize, usize, usize, usize, &str)> = None;
    for entry in list {
        if !ctx.shows(entry) {
            continue;
        }
        let window = ctx.shown / WINDOW_ENTRIES;
        ctx.shown += 1;
        if run.is_some_and(|(open, ..)| open != window) {
            close_run(out, run.take(), key, ctx);
        }
        let (_, _, last, reviewed, _) = run.get_or_insert_with(|| {
            if window == ctx.window {
                let _ = writeln!(out, "<div class=\"run\" data-run=\"{key}-{window}\">");
            }
            (window, ctx.shown, ctx.shown, 0, entry.anchor.as_str())
        });
        *last = ctx.shown;
        if window == ctx.window {
            file_entry(out, entry, ctx);
        } else if entry.items > 0 && ctx.entry_state(entry) == EntryState::Reviewed {
            *reviewed += 1;
        }
    }
    close_run(out, run, key, ctx);
}

fn close_run(
    out: &mut String,
    run: Option<(usize, usize, usize, usize, &str)>,
    key: &str,
    ctx: &Ctx<'_>,
) {
    let Some((window, first, last, reviewed, anchor)) = run else {
        return;
    };
    if window == ctx.window {
        out.push_str("</div>\n");
        return;
    }
    let count = last + 1 - first;
    let _ = write!(
        out,
        "<div class=\"run more\" data-run=\"{key}-{window}\">\
         <a class=\"button load-files\" href=\""
    );
    ctx.window_href(out, window, anchor);
    let _ = writeln!(
        out,
        "\">Load {count} more {}</a> \
         <span class=\"muted\">files {first} to {last} of the page · {reviewed} reviewed</span></div>",
        if count == 1 { "file" } else { "files" }
    );
}

fn section_title(out: &mut String, title: Option<&str>) {
    match title.filter(|text| !text.trim().is_empty()) {
        Some(title) => escape_into(out, title),
        None => out.push_str("<span class=\"untitled\">Untitled</span>"),
    }
}

fn checks(out: &mut String, items: &[&ChecklistItem], ctx: &mut Ctx<'_>) {
    if items.is_empty() {
        return;
    }
    let left_only = ctx.view == View::Left;
    if left_only && items.iter().all(|item| ctx.state.ticked.contains(&item.id)) {
        return;
    }
    out.push_str("<ul class=\"checks\" aria-label=\"Checklist\">\n");
    for item in items {
        let done = ctx.state.ticked.contains(&item.id);
        if left_only && done {
            continue;
        }
        out.push_str("<li>");
        ctx.tick(out, &item.id, &code_spans(&item.text), done, Scope::Check);
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n");
}

/// The diff lines an entry shows, parsed from the file's patch.
pub enum Shown<'p> {
    /// The file is no longer part of the pull request.
    Gone,
    /// GitHub gave no patch (binary or too large).
    NoPatch,
    /// The patch could not be read.
    Unreadable,
    Hunks {
        hunks: Vec<crate::review::patch::Hunk<'p>>,
        /// The change id of each of `hunks`, computed over the whole file (ids of repeated
        /// content depend on the hunks before them).
        ids: Vec<String>,
        additions: usize,
        deletions: usize,
        /// Ids the entry names that the file no longer has.
        missing: usize,
    },
}

fn shown<'p>(
    entry: &EntryPlan<'_>,
    file: Option<&'p SnapshotFile>,
    named: &HashMap<&str, HashSet<&str>>,
    only_new: Option<&ReviewState>,
) -> Shown<'p> {
    let Some(file) = file else {
        return Shown::Gone;
    };
    let Some(patch) = file.patch.as_deref() else {
        return Shown::NoPatch;
    };
    let Ok(hunks) = parse_patch(patch) else {
        return Shown::Unreadable;
    };
    let ids = change_ids(file, &hunks);
    let keep = |id: &str| match &entry.select {
        Select::Only(wanted) => wanted.iter().any(|w| w == id),
        Select::Rest => !named.get(entry.path).is_some_and(|set| set.contains(id)),
    };
    let missing = match &entry.select {
        Select::Only(wanted) => wanted.iter().filter(|w| !ids.contains(w)).count(),
        Select::Rest => 0,
    };
    let new_since_visit = |id: &str| {
        only_new.is_none_or(|state| {
            state.is_new_since_visit(&review_state::change_item(entry.path, id))
        })
    };
    let (kept, kept_ids): (Vec<_>, Vec<String>) = hunks
        .into_iter()
        .zip(ids)
        .filter(|(_, id)| keep(id) && new_since_visit(id))
        .unzip();
    Shown::Hunks {
        additions: kept.iter().map(|hunk| hunk.additions()).sum(),
        deletions: kept.iter().map(|hunk| hunk.deletions()).sum(),
        hunks: kept,
        ids: kept_ids,
        missing,
    }
}

fn file_entry(out: &mut String, plan: &EntryPlan<'_>, ctx: &mut Ctx<'_>) {
    if !ctx.shows(plan) {
        return;
    }
    let focus = plan.entry.and_then(|entry| entry.focus);
    let only_new = (ctx.view == View::Since).then_some(ctx.state);
    let shown = shown(plan, plan.file, ctx.named, only_new);
    let state = ctx.entry_state(plan);
    let class = match focus {
        Some(Focus::Key) => "file focus-key",
        Some(Focus::Skim) => "file focus-skim",
        Some(Focus::Generated) => "file focus-generated",
        None => "file",
    };
    let anchor = escape(&plan.anchor);
    let _ = write!(
        out,
        "<article class=\"{class}\" id=\"{anchor}\" aria-labelledby=\"{anchor}-h\" data-state=\"{}\" tabindex=\"-1\">\n<header class=\"file-head\">\
         <h3 id=\"{anchor}-h\" class=\"path\"><code>{}</code></h3>",
        state.key(),
        escape(plan.path)
    );
    if let Some(previous) = plan.file.and_then(|file| file.previous_path.as_deref()) {
        let _ = write!(
            out,
            "<p class=\"renamed\">Renamed from <code>{}</code></p>",
            escape(previous)
        );
    }
    out.push_str("<p class=\"meta\">");
    if let Some(file) = plan.file {
        let _ = write!(
            out,
            "<span class=\"badge status\">{}</span> ",
            escape(&file.status)
        );
    }
    let counts = match (&shown, plan.file) {
        (
            Shown::Hunks {
                additions,
                deletions,
                ..
            },
            _,
        ) if plan.part.is_some() || plan.entry.is_none() => {
            Some((*additions as u64, *deletions as u64))
        }
        (_, Some(file)) => Some((file.additions, file.deletions)),
        _ => None,
    };
    if let Some((additions, deletions)) = counts {
        let _ = write!(
            out,
            "<span class=\"adds\">+{additions}<span class=\"vh\"> added lines</span></span> \
             <span class=\"dels\">−{deletions}<span class=\"vh\"> removed lines</span></span>"
        );
    }
    if let Some((nth, of)) = plan.part {
        let _ = write!(out, " <span class=\"badge part\">Part {nth} of {of}</span>");
    }
    if plan.new_changes.is_some() {
        out.push_str(" <span class=\"badge part\">New changes</span>");
    }
    if plan.items > 0 {
        let _ = write!(
            out,
            " <span class=\"badge state state-{}\"><span aria-hidden=\"true\">{}</span> {}</span>",
            state.key(),
            state.symbol(),
            state.label()
        );
    }
    match focus {
        Some(Focus::Key) => out.push_str(" <span class=\"badge focus key\">Key file</span>"),
        Some(Focus::Skim) => out.push_str(" <span class=\"badge focus\">Skim</span>"),
        Some(Focus::Generated) => out.push_str(" <span class=\"badge focus\">Generated</span>"),
        None => {}
    }
    out.push_str("</p>");
    if let (Some(team), Some(covered)) = (ctx.team.as_ref(), plan.team) {
        team::entry_note(out, team, covered);
    }
    out.push_str("</header>\n<div class=\"file-body\">\n");
    if plan.items > 0 {
        let label = format!(
            "Reviewed{}<span class=\"vh\"> {}</span>",
            if plan.items > 1 {
                " (every change)"
            } else {
                ""
            },
            escape(plan.path)
        );
        let done = state == EntryState::Reviewed;
        ctx.tick(out, &plan.tick_id(), &label, done, Scope::Entry);
        out.push('\n');
    }
    if let Some(note) = plan
        .entry
        .and_then(|entry| entry.note.as_deref())
        .filter(|text| !text.trim().is_empty())
    {
        let _ = writeln!(out, "<p class=\"note\">{}</p>", code_spans(note));
    }
    checks(out, &plan.checks, ctx);
    let folded = match focus {
        Some(Focus::Skim) => Some("skim"),
        Some(Focus::Generated) => Some("generated file"),
        _ => None,
    };
    if let Some(kind) = folded {
        let _ = writeln!(
            out,
            "<details class=\"fold\"><summary>Show the diff <span class=\"muted\">({kind}, folded)</span></summary>"
        );
    }
    let links = ctx.diff.links(plan.path, diff_view::first_of_file(plan));
    let generated =
        focus == Some(Focus::Generated) || plan.file.is_some_and(|file| file.likely_generated);
    match ctx.diff.defer(&shown, generated) {
        None => {
            let controls = hunk_controls(plan, &shown, ctx);
            let hunk_controls =
                |index: usize, _: &str| controls.get(index).cloned().unwrap_or_default();
            diff_view::diff(out, plan.path, &shown, &hunk_controls, &links);
        }
        Some(why) => {
            let states = change_states(plan, &shown, ctx);
            ctx.diff
                .load_button(out, plan.path, why, &shown, &links, &states);
        }
    }
    if folded.is_some() {
        out.push_str("</details>\n");
    }
    out.push_str("</div>\n</article>\n");
}

/// Each shown hunk's own tick, with "New" when it is new since the viewer reviewed the file or
/// since their last visit. Only for files with two or more changes in the entry: with one, the
/// entry's tick is that change's tick.
fn hunk_controls(plan: &EntryPlan<'_>, shown: &Shown<'_>, ctx: &mut Ctx<'_>) -> Vec<String> {
    let Shown::Hunks { ids, .. } = shown else {
        return Vec::new();
    };
    if plan.items < 2 {
        return ids.iter().map(|_| String::new()).collect();
    }
    ids.iter()
        .enumerate()
        .map(|(index, id)| {
            let item = review_state::change_item(plan.path, id);
            let mut html = String::new();
            let new =
                ctx.state.is_changed_since_reviewed(&item) || ctx.state.is_new_since_visit(&item);
            html.push_str("<div class=\"hunk-tick\">");
            if new {
                html.push_str("<span class=\"badge new\">New</span>");
            }
            let label = format!(
                "Reviewed<span class=\"vh\"> change {} of {}</span>",
                index + 1,
                escape(plan.path)
            );
            let done = ctx.state.ticked.contains(&item);
            ctx.tick(&mut html, &item, &label, done, Scope::Change);
            html.push_str("</div>");
            html
        })
        .collect()
}

/// For a diff that loads on demand, what its changes' own ticks need (the script makes them
/// from the entry's tick once the diff is in place, as [`hunk_controls`] would): the ids of the
/// shown changes already reviewed (`data-done`) and of those that are new (`data-new`). Empty
/// when the entry's tick is its only change's tick.
fn change_states(plan: &EntryPlan<'_>, shown: &Shown<'_>, ctx: &Ctx<'_>) -> String {
    let Shown::Hunks { ids, .. } = shown else {
        return String::new();
    };
    if plan.items < 2 {
        return String::new();
    }
    let mut done = Vec::new();
    let mut new = Vec::new();
    for id in ids {
        let item = review_state::change_item(plan.path, id);
        if ctx.state.ticked.contains(&item) {
            done.push(id.as_str());
        }
        if ctx.state.is_changed_since_reviewed(&item) || ctx.state.is_new_since_visit(&item) {
            new.push(id.as_str());
        }
    }
    let mut out = format!(" data-done=\"{}\"", escape(&done.join(",")));
    if !new.is_empty() {
        let _ = write!(out, " data-new=\"{}\"", escape(&new.join(",")));
    }
    out
}

/// The GitHub link, only when it is an `https://` URL.
fn safe_github(url: &str) -> Option<&str> {
    url.starts_with("https://").then_some(url)
}

/// `2026-11-29T10:00:00Z` as `<time datetime="…">2026-11-29 10:00 UTC</time>`; other text as is.
fn time_html(value: &str) -> String {
    let pretty = match (value.get(..10), value.get(10..11), value.get(11..16)) {
        (Some(date), Some("T"), Some(clock)) if value.ends_with('Z') => {
            format!("{date} {clock} UTC")
        }
        _ => value.to_string(),
    };
    format!(
        "<time datetime=\"{}\">{}</time>",
        escape(value),
        escape(&pretty)
    )
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod window_tests;
