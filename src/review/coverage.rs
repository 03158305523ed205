//! Coverage across reviewers (issue #47): who has reviewed which part of a reading order at the
//! pull request's current head, from the ticks every reviewer already keeps in the pull request's
//! object.
//!
//! Why: ticks were private, so with two or three reviewers nobody could see that a colleague had
//! read the storage section, or that nobody had read the migration. Ticks are content-keyed
//! (`change:<path>#<id>`, `blob:<path>#<sha>`), so "reviewed at the head" is exact: a reviewer has
//! read an entry when every content item it shows is among their ticks. A reviewer who ticked an
//! entry at an earlier head whose content has changed since has read *an earlier version*; they
//! are named as such, never as having read what is there now.
//!
//! The cost is linear in the ticks plus the items times the words of a reviewer bitset: each tick
//! is looked at once to build an item → readers map, then each item of the order once. At 3,000
//! files and 20 reviewers that is one pass over at most 100,000 ticks and one over the order's
//! items (the route bench measures it).
//!
//! What not: no storage and no GitHub request (`app::pull_request::coverage` reads the ticks),
//! no rendering (`web::review_page`, `tools::get_review_feedback`), no checklist items (they are a
//! reviewer's own notes on a section, not parts of the diff).

use std::collections::HashMap;

use serde::Serialize;

/// One file entry of the order at the head: its path and the content items it shows (the
/// review page's own, `web::review_page::coverage_entries`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryItems {
    pub path: String,
    pub items: Vec<String>,
}

/// One section of the order: its title and entries, in reading order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionItems {
    pub title: Option<String>,
    pub entries: Vec<EntryItems>,
}

/// The order as coverage reads it: its sections, and the entries under "Not in the order yet"
/// (files and changes the order doesn't place, for example after a push).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderItems {
    pub sections: Vec<SectionItems>,
    pub not_in_order: Vec<EntryItems>,
}

/// One reviewer with any tick on the pull request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReviewerTicks {
    /// Their GitHub login, as the object last saw it.
    pub login: String,
    /// Every content item they have ticked (at any head: items are content), each once.
    pub ticked: Vec<String>,
    /// Content items at the head that are new or changed since they reviewed their file at an
    /// earlier head (the review page's "changed since you reviewed").
    pub changed: Vec<String>,
    /// When they last ticked (RFC 3339).
    pub last_active: String,
}

/// A set of reviewers, by their place in [`Coverage::reviewers`]: a bitset whose first 64 places
/// are held inline, so the map from every ticked item to its readers allocates nothing for a
/// team of up to 64 (issue #47's bench: 100,000 ticks of 20 reviewers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Readers {
    first: u64,
    rest: Vec<u64>,
}

impl Readers {
    fn word(&self, at: usize) -> u64 {
        match at {
            0 => self.first,
            _ => self.rest.get(at - 1).copied().unwrap_or(0),
        }
    }

    fn words(&self) -> usize {
        1 + self.rest.len()
    }

    fn from_words(words: impl Iterator<Item = u64>) -> Readers {
        let mut words = words;
        let first = words.next().unwrap_or(0);
        let mut rest: Vec<u64> = words.collect();
        while rest.last() == Some(&0) {
            rest.pop();
        }
        Readers { first, rest }
    }

    fn with(&mut self, reviewer: usize) {
        let bit = 1u64 << (reviewer % 64);
        match reviewer / 64 {
            0 => self.first |= bit,
            word => {
                if self.rest.len() < word {
                    self.rest.resize(word, 0);
                }
                if let Some(bits) = self.rest.get_mut(word - 1) {
                    *bits |= bit;
                }
            }
        }
    }

    fn and(&self, other: &Readers) -> Readers {
        let words = self.words().min(other.words());
        Readers::from_words((0..words).map(|at| self.word(at) & other.word(at)))
    }

    fn or(&mut self, other: &Readers) {
        self.first |= other.first;
        if self.rest.len() < other.rest.len() {
            self.rest.resize(other.rest.len(), 0);
        }
        for (a, b) in self.rest.iter_mut().zip(&other.rest) {
            *a |= b;
        }
    }

    fn without(&self, other: &Readers) -> Readers {
        Readers::from_words((0..self.words()).map(|at| self.word(at) & !other.word(at)))
    }

    /// Whether `reviewer` is in the set.
    pub fn has(&self, reviewer: usize) -> bool {
        self.word(reviewer / 64) & (1 << (reviewer % 64)) != 0
    }

    /// Whether nobody is in the set.
    pub fn is_empty(&self) -> bool {
        self.first == 0 && self.rest.iter().all(|bits| *bits == 0)
    }

    /// The reviewers in the set, in their order.
    pub fn members(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.words()).flat_map(move |at| {
            let bits = self.word(at);
            (0..64)
                .filter(move |bit| bits & (1u64 << bit) != 0)
                .map(move |bit| at * 64 + bit)
        })
    }
}

/// Who has reviewed one entry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryCoverage {
    pub path: String,
    /// Reviewed every change it shows at the head.
    pub read: Readers,
    /// Reviewed it at an earlier head, and some of it changed since.
    pub earlier: Readers,
    /// Reviewed some of its changes, not all (and not an earlier version of the rest).
    pub partly: Readers,
    /// The content items nobody has ticked.
    pub unread: Vec<String>,
    /// How many content items it shows.
    pub items: usize,
}

/// One reviewer in the team summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewerSummary {
    pub login: String,
    /// Files every change of which they reviewed at the head.
    pub files_read: usize,
    /// When they last ticked (RFC 3339).
    pub last_active: String,
}

/// A file (or the part of it an entry shows) that nobody has reviewed, with its unreviewed
/// change ids; `changes` is empty for a file without hunks (binary, renamed without changes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnreadFile {
    pub path: String,
    pub changes: Vec<String>,
}

/// One section's coverage, as the agent reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SectionCoverage {
    /// 1-based, as `get_review_feedback`'s `section.index`.
    pub index: usize,
    pub title: Option<String>,
    /// Reviewed every change of the section at the head.
    pub read_by: Vec<String>,
    /// Reviewed some of it, or an earlier version of it.
    pub partly_read_by: Vec<String>,
    /// What nobody has reviewed (in a [`report`], the first [`MAX_UNREAD_NAMED`]).
    pub unread: Vec<UnreadFile>,
    /// How many more unread files than `unread` names (in a [`report`]).
    pub more_unread: usize,
}

/// Counts over the whole order (its sections and what is not in it yet).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    /// Files with something to review.
    pub files: usize,
    /// Files of which nobody has reviewed anything.
    pub files_unread: usize,
    /// Files every change of which somebody reviewed (one reviewer or several together).
    pub files_read: usize,
    /// Content items (changes, and files without hunks).
    pub changes: usize,
    pub changes_unread: usize,
    pub sections: usize,
    /// Sections of which nobody has reviewed anything.
    pub sections_unread: usize,
}

/// Coverage of one order at one head.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Every reviewer with a tick, by login.
    pub reviewers: Vec<ReviewerSummary>,
    /// Per section, per entry.
    pub entries: Vec<Vec<EntryCoverage>>,
    /// The entries under "Not in the order yet".
    pub not_in_order: Vec<EntryCoverage>,
    pub sections: Vec<SectionCoverage>,
    /// What nobody has reviewed among the files the order doesn't place.
    pub unread_not_in_order: Vec<UnreadFile>,
    pub totals: Totals,
}

impl Coverage {
    /// The logins of a set of readers.
    pub fn logins(&self, readers: &Readers) -> Vec<String> {
        readers
            .members()
            .filter_map(|at| self.reviewers.get(at))
            .map(|reviewer| reviewer.login.clone())
            .collect()
    }

    /// The reviewer with this login, by place.
    pub fn reviewer(&self, login: &str) -> Option<usize> {
        self.reviewers
            .iter()
            .position(|reviewer| reviewer.login.eq_ignore_ascii_case(login))
    }
}

/// Files a [`report`] names as unread per section (and among those not in the order); the rest
/// are counted, so a 3,000-file pull request nobody has opened stays a short answer.
pub const MAX_UNREAD_NAMED: usize = 25;

/// Coverage as `get_review_feedback` reports it (issue #47).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub sections: Vec<SectionCoverage>,
    /// What nobody has reviewed among the files the order doesn't place.
    pub not_in_order: Vec<UnreadFile>,
    pub more_not_in_order: usize,
    pub reviewers: Vec<ReviewerSummary>,
    pub totals: Totals,
}

/// The agent's view of `coverage`, each unread list cut at [`MAX_UNREAD_NAMED`] files.
pub fn report(coverage: &Coverage) -> Report {
    let cut = |files: &[UnreadFile]| -> (Vec<UnreadFile>, usize) {
        let named = files.iter().take(MAX_UNREAD_NAMED).cloned().collect();
        (named, files.len().saturating_sub(MAX_UNREAD_NAMED))
    };
    let sections = coverage
        .sections
        .iter()
        .map(|section| {
            let (unread, more_unread) = cut(&section.unread);
            SectionCoverage {
                unread,
                more_unread,
                ..section.clone()
            }
        })
        .collect();
    let (not_in_order, more_not_in_order) = cut(&coverage.unread_not_in_order);
    Report {
        sections,
        not_in_order,
        more_not_in_order,
        reviewers: coverage.reviewers.clone(),
        totals: coverage.totals.clone(),
    }
}

/// Sections with something to review of which nobody has reviewed anything: `(index, title)`.
pub fn unread_sections(report: &Report) -> Vec<(usize, Option<&str>)> {
    report
        .sections
        .iter()
        .filter(|section| section.read_by.is_empty() && section.partly_read_by.is_empty())
        .filter(|section| !section.unread.is_empty())
        .map(|section| (section.index, section.title.as_deref()))
        .collect()
}

/// Computes coverage of `order` from every reviewer's ticks.
pub fn coverage(order: &OrderItems, mut reviewers: Vec<ReviewerTicks>) -> Coverage {
    crate::sorting::sort_by(&mut reviewers, &|a: &ReviewerTicks, b: &ReviewerTicks| {
        a.login.to_lowercase().cmp(&b.login.to_lowercase())
    });
    let ticked = readers_by_item(reviewers.iter().map(|r| &r.ticked));
    let changed = readers_by_item(reviewers.iter().map(|r| &r.changed));
    let entry = |entry: &EntryItems| entry_coverage(entry, &ticked, &changed);
    let entries: Vec<Vec<EntryCoverage>> = order
        .sections
        .iter()
        .map(|section| section.entries.iter().map(entry).collect())
        .collect();
    let not_in_order: Vec<EntryCoverage> = order.not_in_order.iter().map(entry).collect();

    let mut coverage = Coverage {
        reviewers: Vec::new(),
        sections: Vec::new(),
        unread_not_in_order: unread_files(&order.not_in_order, &not_in_order),
        totals: Totals::default(),
        entries,
        not_in_order,
    };
    coverage.reviewers = reviewers
        .iter()
        .map(|reviewer| ReviewerSummary {
            login: reviewer.login.clone(),
            files_read: 0,
            last_active: reviewer.last_active.clone(),
        })
        .collect();
    coverage.sections = order
        .sections
        .iter()
        .zip(&coverage.entries)
        .enumerate()
        .map(|(at, (section, entries))| section_coverage(at, section, entries, &coverage))
        .collect();
    count_files(order, &ticked, &mut coverage);
    coverage.totals.sections = order.sections.len();
    coverage.totals.sections_unread = coverage
        .entries
        .iter()
        .filter(|entries| entries.iter().any(|e| e.items > 0))
        .filter(|entries| entries.iter().all(|e| e.unread.len() == e.items))
        .count();
    coverage
}

/// Per content item, the reviewers whose set holds it.
fn readers_by_item<'s>(sets: impl Iterator<Item = &'s Vec<String>>) -> HashMap<&'s str, Readers> {
    let mut by_item: HashMap<&str, Readers> = HashMap::new();
    for (reviewer, set) in sets.enumerate() {
        for item in set {
            by_item.entry(item.as_str()).or_default().with(reviewer);
        }
    }
    by_item
}

fn entry_coverage(
    entry: &EntryItems,
    ticked: &HashMap<&str, Readers>,
    changed: &HashMap<&str, Readers>,
) -> EntryCoverage {
    let none = Readers::default();
    let mut read: Option<Readers> = None;
    let mut any = Readers::default();
    let mut earlier = Readers::default();
    let mut unread = Vec::new();
    for item in &entry.items {
        let by = ticked.get(item.as_str()).unwrap_or(&none);
        read = Some(match read {
            None => by.clone(),
            Some(so_far) => so_far.and(by),
        });
        any.or(by);
        if let Some(by) = changed.get(item.as_str()) {
            earlier.or(by);
        }
        if by.is_empty() {
            unread.push(item.clone());
        }
    }
    let read = read.unwrap_or_default();
    let earlier = earlier.without(&read);
    let partly = any.without(&read).without(&earlier);
    EntryCoverage {
        path: entry.path.clone(),
        read,
        earlier,
        partly,
        unread,
        items: entry.items.len(),
    }
}

fn section_coverage(
    at: usize,
    section: &SectionItems,
    entries: &[EntryCoverage],
    coverage: &Coverage,
) -> SectionCoverage {
    let mut read: Option<Readers> = None;
    let mut any = Readers::default();
    for entry in entries.iter().filter(|entry| entry.items > 0) {
        read = Some(match read {
            None => entry.read.clone(),
            Some(so_far) => so_far.and(&entry.read),
        });
        any.or(&entry.read);
        any.or(&entry.earlier);
        any.or(&entry.partly);
    }
    let read = read.unwrap_or_default();
    SectionCoverage {
        index: at + 1,
        title: section.title.clone(),
        read_by: coverage.logins(&read),
        partly_read_by: coverage.logins(&any.without(&read)),
        unread: unread_files(&section.entries, entries),
        more_unread: 0,
    }
}

/// The entries' unread items as files with their change ids.
fn unread_files(entries: &[EntryItems], coverage: &[EntryCoverage]) -> Vec<UnreadFile> {
    entries
        .iter()
        .zip(coverage)
        .filter(|(_, coverage)| !coverage.unread.is_empty())
        .map(|(entry, coverage)| UnreadFile {
            path: entry.path.clone(),
            changes: coverage
                .unread
                .iter()
                .filter_map(|item| item.strip_prefix("change:"))
                .filter_map(|rest| rest.rsplit_once('#').map(|(_, id)| id.to_string()))
                .collect(),
        })
        .collect()
}

/// Files (by path, over every entry that shows a part of one) read by each reviewer, by anyone,
/// and by nobody; and the changes.
fn count_files(order: &OrderItems, ticked: &HashMap<&str, Readers>, coverage: &mut Coverage) {
    let mut by_path: HashMap<&str, (Option<Readers>, Readers, bool)> = HashMap::new();
    let mut paths: Vec<&str> = Vec::new();
    let none = Readers::default();
    let all = order
        .sections
        .iter()
        .flat_map(|section| &section.entries)
        .chain(&order.not_in_order);
    for entry in all {
        for item in &entry.items {
            let by = ticked.get(item.as_str()).unwrap_or(&none);
            let facts = by_path.entry(entry.path.as_str()).or_insert_with(|| {
                paths.push(entry.path.as_str());
                (None, Readers::default(), true)
            });
            facts.0 = Some(match facts.0.take() {
                None => by.clone(),
                Some(so_far) => so_far.and(by),
            });
            facts.1.or(by);
            facts.2 &= !by.is_empty();
            coverage.totals.changes += 1;
            coverage.totals.changes_unread += usize::from(by.is_empty());
        }
    }
    for path in paths {
        let Some((read, any, every_item_read)) = by_path.get(path) else {
            continue;
        };
        coverage.totals.files += 1;
        coverage.totals.files_unread += usize::from(any.is_empty());
        coverage.totals.files_read += usize::from(*every_item_read);
        for reviewer in read.iter().flat_map(Readers::members) {
            if let Some(summary) = coverage.reviewers.get_mut(reviewer) {
                summary.files_read += 1;
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::panic)]
mod tests;
