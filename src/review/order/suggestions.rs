//! Suggestions: plain sentences telling the agent what would make a saved order easier to follow.
//!
//! This implements `src/guide/suggestions.md` exactly: its twelve checks in priority order, their
//! thresholds, sentence templates and "rest" sentences, the rendering rules for paths, titles and
//! lists, and the cut to eight sentences. The agent-facing summary is the Suggestions section of
//! the ordering guide; the MCP reference returns the sentences as `suggestions` after
//! `save_reading_order` and as `currentOrder.suggestions` in `get_pull_request`.
//!
//! Why: validation only guarantees that an order is complete. Whether it reads well (dependencies
//! first, tests after their subject, generated files folded at the end, sections of a readable
//! size) is advice, and the agent decides what to apply. A check that fires on a good order is a
//! bug, so every check has an escape hatch: a note that names the other file, a focus mark, a
//! second story.
//!
//! [`suggest`] runs right after a save, against the files the save was validated with, so check 1
//! (`order-out-of-date`) can't fire and is skipped. [`suggest_for_current`] runs all twelve,
//! against the files as they are now, for an order read back after new commits.
//!
//! What not: no time, randomness, storage or network; the same input gives the same sentences.
//! No judgement of prose (vague titles or checks), no check of tests far from their subject, of
//! missing layers, or of diagrams; suggestions.md explains why.

use std::collections::{HashMap, HashSet};

use super::{FileEntry, Focus, Order, PullFacts, PullFileFacts};
use crate::review::files::FileStatus;

/// Most sentences returned (suggestions.md, output rule 4).
pub const MAX_SUGGESTIONS: usize = 8;
/// `missing-overview` fires above this many changed files.
pub const OVERVIEW_FILES: usize = 15;
/// `section-too-big` fires above this many files to read in one section.
pub const SECTION_FILES: usize = 12;
/// `layer-backwards`: the smallest rank drop that counts.
pub const LAYER_DROP: u8 = 3;
/// `layer-backwards`: both runs around a drop need this many sections to be a second story.
pub const STORY_SECTIONS: usize = 2;
/// `key-file-unmarked`: changed lines that make a file key.
pub const KEY_LINES: u64 = 100;
/// `key-file-unmarked`: importers that make a file key.
pub const KEY_USERS: usize = 3;
/// `untitled-section`: the title is only optional up to this many changed files.
pub const UNTITLED_FILES: usize = 3;
/// `key-overused`: more than this many `key` files can be too many.
pub const KEY_FILES: usize = 3;

/// The check codes, in priority order.
pub const CODES: [&str; 12] = [
    "order-out-of-date",
    "dependency-order",
    "test-before-subject",
    "split-out-of-order",
    "generated-placement",
    "missing-overview",
    "section-too-big",
    "layer-backwards",
    "key-file-unmarked",
    "untitled-section",
    "duplicate-section-title",
    "key-overused",
];

/// Suggestions for an order just saved, against the files it was validated with.
pub fn suggest(order: &Order, facts: &PullFacts) -> Vec<String> {
    cut(by_check(order, facts, false))
}

/// Suggestions for a stored order against the pull request as it is now; adds `order-out-of-date`
/// for files and changes that arrived or disappeared after the save.
pub fn suggest_for_current(order: &Order, facts: &PullFacts) -> Vec<String> {
    cut(by_check(order, facts, true))
}

fn cut(checks: Vec<(&'static str, Vec<String>)>) -> Vec<String> {
    let mut sentences: Vec<String> = checks
        .into_iter()
        .flat_map(|(_, sentences)| sentences)
        .collect();
    sentences.truncate(MAX_SUGGESTIONS);
    sentences
}

/// Every check's sentences, in priority order, before the cut; checks without findings are left
/// out. `current` includes check 1.
pub(crate) fn by_check(
    order: &Order,
    facts: &PullFacts,
    current: bool,
) -> Vec<(&'static str, Vec<String>)> {
    let ctx = Ctx::new(order, facts);
    let mut checks: Vec<(&'static str, Vec<String>)> = Vec::new();
    if current {
        checks.push((CODES[0], ctx.order_out_of_date()));
    }
    checks.push((CODES[1], ctx.dependency_order()));
    checks.push((CODES[2], ctx.test_before_subject()));
    checks.push((CODES[3], ctx.split_out_of_order()));
    checks.push((CODES[4], ctx.generated_placement()));
    checks.push((CODES[5], ctx.missing_overview()));
    checks.push((CODES[6], ctx.section_too_big()));
    checks.push((CODES[7], ctx.layer_backwards()));
    checks.push((CODES[8], ctx.key_file_unmarked()));
    checks.push((CODES[9], ctx.untitled_section()));
    checks.push((CODES[10], ctx.duplicate_section_title()));
    checks.push((CODES[11], ctx.key_overused()));
    checks.retain(|(_, sentences)| !sentences.is_empty());
    checks
}

/// The order and files, indexed once for every check.
struct Ctx<'a> {
    order: &'a Order,
    /// N: the number of entries in the files list.
    n: usize,
    /// Entries in reading order, with their section index; the index here is the position.
    entries: Vec<(usize, &'a FileEntry)>,
    /// Distinct entry paths, in order of first(X).
    paths: Vec<&'a str>,
    /// Positions of each path's entries, ascending; the first is first(X).
    positions: HashMap<&'a str, Vec<usize>>,
    /// Distinct changed files, in files order.
    files: Vec<&'a PullFileFacts>,
    changed: HashMap<&'a str, &'a PullFileFacts>,
    /// Paths with an entry marked `focus: "generated"`.
    marked_generated: HashSet<&'a str>,
    /// has-note(X) and has-focus(X).
    noted: HashSet<&'a str>,
    focused: HashSet<&'a str>,
    /// Lower-cased notes of each path's entries, for explains(X, Y).
    notes: HashMap<&'a str, Vec<String>>,
    /// users(X) for changed files.
    users: HashMap<&'a str, usize>,
}

impl<'a> Ctx<'a> {
    fn new(order: &'a Order, facts: &'a PullFacts) -> Ctx<'a> {
        let mut entries = Vec::new();
        let mut paths = Vec::new();
        let mut positions: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut marked_generated = HashSet::new();
        let mut noted = HashSet::new();
        let mut focused = HashSet::new();
        let mut notes: HashMap<&str, Vec<String>> = HashMap::new();
        for (section_index, section) in order.sections.iter().enumerate() {
            for entry in &section.files {
                let path = entry.path.as_str();
                let position = entries.len();
                entries.push((section_index, entry));
                let list = positions.entry(path).or_default();
                if list.is_empty() {
                    paths.push(path);
                }
                list.push(position);
                if entry.focus == Some(Focus::Generated) {
                    marked_generated.insert(path);
                }
                if entry.focus.is_some() {
                    focused.insert(path);
                }
                if let Some(note) = entry.note.as_deref().filter(|note| !is_blank(note)) {
                    noted.insert(path);
                    notes.entry(path).or_default().push(note.to_lowercase());
                }
            }
        }
        let mut changed: HashMap<&str, &PullFileFacts> = HashMap::new();
        let mut files = Vec::new();
        for file in &facts.files {
            if let std::collections::hash_map::Entry::Vacant(slot) =
                changed.entry(file.path.as_str())
            {
                slot.insert(file);
                files.push(file);
            }
        }
        let mut users: HashMap<&str, usize> = HashMap::new();
        for user in &files {
            let mut counted = HashSet::new();
            for used in &user.hints.depends_on {
                let used = used.as_str();
                if used != user.path
                    && user.hints.test_of.as_deref() != Some(used)
                    && counted.insert(used)
                {
                    *users.entry(used).or_default() += 1;
                }
            }
        }
        Ctx {
            order,
            n: facts.files.len(),
            entries,
            paths,
            positions,
            files,
            changed,
            marked_generated,
            noted,
            focused,
            notes,
            users,
        }
    }

    fn first(&self, path: &str) -> Option<usize> {
        self.positions
            .get(path)
            .and_then(|positions| positions.first().copied())
    }

    fn entries_of(&self, path: &str) -> impl Iterator<Item = &(usize, &'a FileEntry)> + '_ {
        self.positions
            .get(path)
            .into_iter()
            .flatten()
            .filter_map(|position| self.entries.get(*position))
    }

    fn generated(&self, path: &str) -> bool {
        self.marked_generated.contains(path)
            || self
                .changed
                .get(path)
                .is_some_and(|file| file.hints.likely_generated)
    }

    fn has_note(&self, path: &str) -> bool {
        self.noted.contains(path)
    }

    fn has_focus(&self, path: &str) -> bool {
        self.focused.contains(path)
    }

    /// explains(X, Y): a note of X names Y's path or its last segment, ignoring case.
    fn explains(&self, x: &str, y: &str) -> bool {
        let Some(notes) = self.notes.get(x) else {
            return false;
        };
        // Only files with notes get here, so Y is lower-cased only for the few pairs that need it.
        let full = y.to_lowercase();
        let last = full.rsplit('/').next().unwrap_or(&full);
        notes.iter().any(|note| {
            (!full.is_empty() && note.contains(full.as_str()))
                || (!last.is_empty() && note.contains(last))
        })
    }

    fn changed_lines(file: &PullFileFacts) -> u64 {
        file.additions.saturating_add(file.deletions)
    }

    fn users(&self, path: &str) -> usize {
        self.users.get(path).copied().unwrap_or(0)
    }

    /// A section reference: `section 3 "Title"`, or `section 3` when untitled.
    fn section(&self, index: usize) -> String {
        let title = self
            .order
            .sections
            .get(index)
            .and_then(|section| section.title.as_deref())
            .filter(|title| !is_blank(title));
        match title {
            Some(title) => format!("section {} \"{}\"", index + 1, cut_title(title)),
            None => format!("section {}", index + 1),
        }
    }

    /// Check 1, `order-out-of-date`.
    fn order_out_of_date(&self) -> Vec<String> {
        let mut missing = Vec::new();
        for file in &self.files {
            let path = file.path.as_str();
            let placed: Vec<&FileEntry> = self.entries_of(path).map(|(_, entry)| *entry).collect();
            let unplaced_change =
                !placed.is_empty() && placed.iter().all(|entry| entry.hunks.is_some()) && {
                    let named: HashSet<&str> = placed
                        .iter()
                        .flat_map(|entry| entry.hunks.iter().flatten())
                        .map(String::as_str)
                        .collect();
                    file.change_ids
                        .iter()
                        .any(|id| !named.contains(id.as_str()))
                };
            if placed.is_empty() || unplaced_change {
                missing.push(code(path));
            }
        }
        let mut stale = Vec::new();
        for path in &self.paths {
            let gone = match self.changed.get(path) {
                None => true,
                Some(file) => {
                    let current: HashSet<&str> =
                        file.change_ids.iter().map(String::as_str).collect();
                    self.entries_of(path).any(|(_, entry)| {
                        entry
                            .hunks
                            .iter()
                            .flatten()
                            .any(|id| !current.contains(id.as_str()))
                    })
                }
            };
            if gone {
                stale.push(code(path));
            }
        }
        let mut sentences = Vec::new();
        if !missing.is_empty() {
            let one = missing.len() == 1;
            sentences.push(format!(
                "{} changed after this order was saved and {} placed in it; call `get_pull_request`, place {}, and save again.",
                list(&missing),
                pick(one, "isn't", "aren't"),
                pick(one, "it", "them"),
            ));
        }
        if !stale.is_empty() {
            let one = stale.len() == 1;
            sentences.push(format!(
                "The order still lists {} as before the latest commits, but {} the pull request; call `get_pull_request` and update {}.",
                list(&stale),
                pick(one, "it no longer matches", "they no longer match"),
                pick(one, "it", "them"),
            ));
        }
        sentences
    }

    /// Check 2, `dependency-order`.
    fn dependency_order(&self) -> Vec<String> {
        let component = self.components();
        let mut findings: Vec<(&str, Vec<&str>)> = Vec::new();
        for &a in &self.paths {
            let (Some(file), Some(first_a)) = (self.changed.get(a), self.first(a)) else {
                continue;
            };
            if self.generated(a) {
                continue;
            }
            let mut bs: Vec<(usize, &str)> = Vec::new();
            let mut seen: HashSet<&str> = HashSet::new();
            for b in &file.hints.depends_on {
                let b = b.as_str();
                if b == a
                    || !self.changed.contains_key(b)
                    || self.generated(b)
                    || file.hints.test_of.as_deref() == Some(b)
                    || !seen.insert(b)
                {
                    continue;
                }
                if component.contains_key(a) && component.get(a) == component.get(b) {
                    continue;
                }
                let Some(first_b) = self.first(b) else {
                    continue;
                };
                if first_a < first_b && !self.explains(a, b) {
                    bs.push((first_b, b));
                }
            }
            if !bs.is_empty() {
                crate::sorting::sort_by(&mut bs, &Ord::cmp);
                findings.push((a, bs.into_iter().map(|(_, b)| b).collect()));
            }
        }
        with_rest(
            &findings,
            |(a, bs)| match bs.as_slice() {
                [b] => format!(
                    "{} is placed before {}, which it depends on; move {} earlier.",
                    code(a),
                    code(b),
                    code(b)
                ),
                _ => format!(
                    "{} is placed before {}, which it depends on; move them earlier.",
                    code(a),
                    list(&bs.iter().map(|b| code(b)).collect::<Vec<_>>())
                ),
            },
            |rest| {
                let one = rest.len() == 1;
                format!(
                    "{} also {} before changed files {} on; move those files earlier.",
                    list(&rest.iter().map(|(a, _)| code(a)).collect::<Vec<_>>()),
                    pick(one, "comes", "come"),
                    pick(one, "it depends", "they depend"),
                )
            },
        )
    }

    /// Strongly connected components of the graph from each changed file to the changed files in
    /// its `dependsOn` (Tarjan's algorithm, iterative so deep chains can't overflow the stack).
    fn components(&self) -> HashMap<&'a str, usize> {
        let index_of: HashMap<&str, usize> = self
            .files
            .iter()
            .enumerate()
            .map(|(index, file)| (file.path.as_str(), index))
            .collect();
        let graph: Vec<Vec<usize>> = self
            .files
            .iter()
            .map(|file| {
                file.hints
                    .depends_on
                    .iter()
                    .filter_map(|dep| index_of.get(dep.as_str()).copied())
                    .collect()
            })
            .collect();
        let count = graph.len();
        const UNSEEN: usize = usize::MAX;
        let mut order = vec![UNSEEN; count];
        let mut low = vec![0; count];
        let mut on_stack = vec![false; count];
        let mut stack: Vec<usize> = Vec::new();
        let mut component = vec![0; count];
        let (mut next_order, mut next_component) = (0, 0);
        for root in 0..count {
            if order.get(root) != Some(&UNSEEN) {
                continue;
            }
            let mut calls: Vec<(usize, usize)> = vec![(root, 0)];
            visit(
                root,
                &mut next_order,
                &mut order,
                &mut low,
                &mut stack,
                &mut on_stack,
            );
            while let Some(&(v, edge)) = calls.last() {
                let next = graph.get(v).and_then(|edges| edges.get(edge)).copied();
                if let Some(call) = calls.last_mut() {
                    call.1 += 1;
                }
                match next {
                    Some(w) if order.get(w) == Some(&UNSEEN) => {
                        visit(
                            w,
                            &mut next_order,
                            &mut order,
                            &mut low,
                            &mut stack,
                            &mut on_stack,
                        );
                        calls.push((w, 0));
                    }
                    Some(w) => {
                        if on_stack.get(w) == Some(&true) {
                            let seen = order.get(w).copied().unwrap_or(UNSEEN);
                            if let Some(l) = low.get_mut(v) {
                                *l = (*l).min(seen);
                            }
                        }
                    }
                    None => {
                        calls.pop();
                        let low_v = low.get(v).copied().unwrap_or(0);
                        if let Some(&(u, _)) = calls.last() {
                            if let Some(l) = low.get_mut(u) {
                                *l = (*l).min(low_v);
                            }
                        }
                        if Some(&low_v) == order.get(v) {
                            while let Some(w) = stack.pop() {
                                if let Some(flag) = on_stack.get_mut(w) {
                                    *flag = false;
                                }
                                if let Some(c) = component.get_mut(w) {
                                    *c = next_component;
                                }
                                if w == v {
                                    break;
                                }
                            }
                            next_component += 1;
                        }
                    }
                }
            }
        }
        self.files
            .iter()
            .zip(component)
            .map(|(file, c)| (file.path.as_str(), c))
            .collect()
    }

    /// Check 3, `test-before-subject`.
    fn test_before_subject(&self) -> Vec<String> {
        let mut findings: Vec<(&str, &str)> = Vec::new();
        for &test in &self.paths {
            let Some(subject) = self
                .changed
                .get(test)
                .and_then(|file| file.hints.test_of.as_deref())
            else {
                continue;
            };
            if subject == test || !self.changed.contains_key(subject) || self.generated(subject) {
                continue;
            }
            let (Some(first_t), Some(first_s)) = (self.first(test), self.first(subject)) else {
                continue;
            };
            if first_t < first_s && !self.explains(test, subject) {
                findings.push((test, subject));
            }
        }
        with_rest(
            &findings,
            |(t, s)| {
                format!(
                    "{} tests {} but comes before it; place it right after {}.",
                    code(t),
                    code(s),
                    code(s)
                )
            },
            |rest| {
                let one = rest.len() == 1;
                format!(
                    "{} also {} before the code {}; place each right after its subject.",
                    list(&rest.iter().map(|(t, _)| code(t)).collect::<Vec<_>>()),
                    pick(one, "comes", "come"),
                    pick(one, "it tests", "they test"),
                )
            },
        )
    }

    /// Check 4, `split-out-of-order`.
    fn split_out_of_order(&self) -> Vec<String> {
        // (file, part j, section of j, part i, section of i), parts 1-based.
        let mut findings: Vec<(&str, usize, usize, usize, usize)> = Vec::new();
        for &path in &self.paths {
            let parts: Vec<&(usize, &FileEntry)> = self.entries_of(path).collect();
            if parts.len() < 2 {
                continue;
            }
            let ids: &[String] = self
                .changed
                .get(path)
                .map(|file| file.change_ids.as_slice())
                .unwrap_or(&[]);
            let mut index_of: HashMap<&str, usize> = HashMap::new();
            for (index, id) in ids.iter().enumerate() {
                index_of.entry(id.as_str()).or_insert(index);
            }
            let named: HashSet<&str> = parts
                .iter()
                .flat_map(|(_, entry)| entry.hunks.iter().flatten())
                .map(String::as_str)
                .collect();
            let starts: Vec<Option<usize>> = parts
                .iter()
                .map(|(_, entry)| match &entry.hunks {
                    Some(hunks) => hunks
                        .iter()
                        .filter_map(|id| index_of.get(id.as_str()).copied())
                        .min(),
                    None => ids
                        .iter()
                        .enumerate()
                        .find(|(_, id)| !named.contains(id.as_str()))
                        .map(|(index, _)| index),
                })
                .collect();
            let pair = (1..starts.len()).find_map(|j| {
                let start_j = starts.get(j).copied().flatten()?;
                (0..j).find_map(|i| {
                    let start_i = starts.get(i).copied().flatten()?;
                    (start_j < start_i).then_some((i, j))
                })
            });
            let Some((i, j)) = pair else {
                continue;
            };
            let some_blank = parts
                .iter()
                .any(|(_, entry)| entry.note.as_deref().is_none_or(is_blank));
            if some_blank {
                let section_of = |k: usize| parts.get(k).map(|(s, _)| *s).unwrap_or(0);
                findings.push((path, j + 1, section_of(j), i + 1, section_of(i)));
            }
        }
        with_rest(
            &findings,
            |(f, j, section_j, i, section_i)| {
                format!(
                    "The parts of {} are out of file order: part {j} ({}) starts higher in the file than part {i} ({}); put the parts in file order, or give every part a note saying what it covers and where the rest is.",
                    code(f),
                    self.section(*section_j),
                    self.section(*section_i),
                )
            },
            |rest| {
                format!(
                    "The parts of {} are also out of file order; reorder them, or give every part a note.",
                    list(&rest.iter().map(|(f, ..)| code(f)).collect::<Vec<_>>())
                )
            },
        )
    }

    /// Check 5, `generated-placement`.
    fn generated_placement(&self) -> Vec<String> {
        let last_hand_written = self
            .entries
            .iter()
            .enumerate()
            .rev()
            .find(|(_, (_, entry))| !self.generated(&entry.path))
            .map(|(position, _)| position);
        // (file, unmarked, early)
        let mut findings: Vec<(&str, bool, bool)> = Vec::new();
        for &path in &self.paths {
            let unmarked = self
                .changed
                .get(path)
                .is_some_and(|file| file.hints.likely_generated)
                && !self.has_focus(path);
            let early = self.generated(path)
                && !self.has_note(path)
                && matches!((last_hand_written, self.first(path)), (Some(last), Some(first)) if last > first);
            if unmarked || early {
                findings.push((path, unmarked, early));
            }
        }
        with_rest(
            &findings,
            |(x, unmarked, early)| {
                match (unmarked, early) {
                (true, true) => format!(
                    "{} looks generated but has no focus mark and comes before hand-written files; move it to the end of the order and mark it `focus: \"generated\"`.",
                    code(x)
                ),
                (true, false) => format!(
                    "{} looks generated; mark it `focus: \"generated\"` so reviewers can fold it.",
                    code(x)
                ),
                _ => format!(
                    "{} is generated but comes before hand-written files; move it to the end of the order, or say in its note why it belongs here.",
                    code(x)
                ),
            }
            },
            |rest| {
                let one = rest.len() == 1;
                format!(
                    "{} also {} generated but {} unmarked or not at the end; move {} to the end with `focus: \"generated\"`.",
                    list(&rest.iter().map(|(x, ..)| code(x)).collect::<Vec<_>>()),
                    pick(one, "looks", "look"),
                    pick(one, "is", "are"),
                    pick(one, "it", "them"),
                )
            },
        )
    }

    /// Check 6, `missing-overview`.
    fn missing_overview(&self) -> Vec<String> {
        let blank = self.order.overview.as_deref().is_none_or(is_blank);
        if self.n > OVERVIEW_FILES && blank {
            vec![format!(
                "This pull request changes {} files and the order has no overview; add two or three sentences on what the change does, the path through it, and where to read slowly.",
                self.n
            )]
        } else {
            Vec::new()
        }
    }

    /// Check 7, `section-too-big`.
    fn section_too_big(&self) -> Vec<String> {
        let mut findings: Vec<(usize, usize)> = Vec::new();
        for (index, section) in self.order.sections.iter().enumerate() {
            // Per hand-written path: whether every entry of it in this section is skimmed.
            let mut skimmed: HashMap<&str, bool> = HashMap::new();
            for entry in &section.files {
                let path = entry.path.as_str();
                if !self.generated(path) {
                    let all = skimmed.entry(path).or_insert(true);
                    *all = *all && entry.focus == Some(Focus::Skim);
                }
            }
            let load = skimmed.values().filter(|all| !**all).count();
            if load > SECTION_FILES {
                findings.push((index, load));
            }
        }
        with_rest(
            &findings,
            |(index, load)| {
                format!(
                    "{} has {load} files to read; split it into sections of about 8–10 files by concern, each with its own title.",
                    capitalize(&self.section(*index))
                )
            },
            |rest| {
                let one = rest.len() == 1;
                format!(
                    "{} also {} more than 12 files to read; split {} the same way.",
                    capitalize(&list(
                        &rest
                            .iter()
                            .map(|(s, _)| self.section(*s))
                            .collect::<Vec<_>>()
                    )),
                    pick(one, "has", "have"),
                    pick(one, "it", "them"),
                )
            },
        )
    }

    /// Check 8, `layer-backwards`.
    fn layer_backwards(&self) -> Vec<String> {
        let layered: Vec<(usize, super::Layer)> = self
            .order
            .sections
            .iter()
            .enumerate()
            .filter_map(|(index, section)| section.layer.map(|layer| (index, layer)))
            .collect();
        // Drops k: between layered[k] and layered[k + 1].
        let drops: Vec<usize> = layered
            .windows(2)
            .enumerate()
            .filter(|(_, pair)| match pair {
                [(_, a), (_, b)] => a.rank() >= b.rank().saturating_add(LAYER_DROP),
                _ => false,
            })
            .map(|(k, _)| k)
            .collect();
        let mut findings: Vec<((usize, super::Layer), (usize, super::Layer))> = Vec::new();
        for (d, &k) in drops.iter().enumerate() {
            let run_start = if d == 0 {
                0
            } else {
                drops.get(d - 1).map_or(0, |previous| previous + 1)
            };
            let run_end = drops
                .get(d + 1)
                .copied()
                .unwrap_or(layered.len().saturating_sub(1));
            let before = k + 1 - run_start;
            let after = run_end - k;
            if before >= STORY_SECTIONS && after >= STORY_SECTIONS {
                continue;
            }
            if let (Some(a), Some(b)) = (layered.get(k), layered.get(k + 1)) {
                findings.push((*a, *b));
            }
        }
        with_rest(
            &findings,
            |((a, layer_a), (b, layer_b))| {
                format!(
                    "{} (`{}`) comes before {} (`{}`), against the usual layer order; reorder them so `{}` comes first, unless they tell separate stories.",
                    capitalize(&self.section(*a)),
                    layer_a.as_str(),
                    self.section(*b),
                    layer_b.as_str(),
                    layer_b.as_str(),
                )
            },
            |rest| {
                let one = rest.len() == 1;
                format!(
                    "{} also {} after a section of a later layer; move {} earlier.",
                    capitalize(&list(
                        &rest
                            .iter()
                            .map(|(_, (b, _))| self.section(*b))
                            .collect::<Vec<_>>()
                    )),
                    pick(one, "comes", "come"),
                    pick(one, "it", "them"),
                )
            },
        )
    }

    /// Check 9, `key-file-unmarked`.
    fn key_file_unmarked(&self) -> Vec<String> {
        // (changed, users, first, path)
        let mut findings: Vec<(u64, usize, usize, &str)> = Vec::new();
        for file in &self.files {
            let path = file.path.as_str();
            let Some(first) = self.first(path) else {
                continue;
            };
            let lines = Self::changed_lines(file);
            let users = self.users(path);
            let key = !self.generated(path)
                && file.hints.test_of.is_none()
                && file.status != FileStatus::Removed
                && (lines >= KEY_LINES || users >= KEY_USERS);
            if key && !self.has_note(path) && !self.has_focus(path) {
                findings.push((lines, users, first, path));
            }
        }
        crate::sorting::sort_by(&mut findings, &|a, b| {
            b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2))
        });
        with_rest(
            &findings,
            |(lines, users, _, x)| {
                if *lines >= KEY_LINES {
                    format!(
                        "{} changes {lines} lines but has no note or focus mark; add a note on what to check, and mark it `key` if it carries the risk.",
                        code(x)
                    )
                } else {
                    format!(
                        "{} is imported by {users} other changed files but has no note or focus mark; add a note on what changed in it, and mark it `key` if it carries the risk.",
                        code(x)
                    )
                }
            },
            |rest| {
                let one = rest.len() == 1;
                format!(
                    "{} also {} large or widely imported and {} no note or focus mark.",
                    list(&rest.iter().map(|(.., x)| code(x)).collect::<Vec<_>>()),
                    pick(one, "is", "are"),
                    pick(one, "has", "have"),
                )
            },
        )
    }

    /// Check 10, `untitled-section`.
    fn untitled_section(&self) -> Vec<String> {
        let untitled: Vec<usize> = self
            .order
            .sections
            .iter()
            .enumerate()
            .filter(|(_, section)| section.title.as_deref().is_none_or(is_blank))
            .map(|(index, _)| index)
            .collect();
        if untitled.is_empty() || (self.n <= UNTITLED_FILES && self.order.sections.len() <= 1) {
            return Vec::new();
        }
        match untitled.as_slice() {
            [one] => vec![format!(
                "{} has no title; name it after what it covers, such as a feature, a layer or a behaviour.",
                capitalize(&self.section(*one))
            )],
            several => vec![format!(
                "Sections {} have no title; name each after what it covers.",
                list(
                    &several
                        .iter()
                        .map(|index| (index + 1).to_string())
                        .collect::<Vec<_>>()
                )
            )],
        }
    }

    /// Check 11, `duplicate-section-title`.
    fn duplicate_section_title(&self) -> Vec<String> {
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        let mut group_of: HashMap<String, usize> = HashMap::new();
        for (index, section) in self.order.sections.iter().enumerate() {
            let Some(title) = section.title.as_deref().filter(|title| !is_blank(title)) else {
                continue;
            };
            let normal = title
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            match group_of.get(&normal).and_then(|g| groups.get_mut(*g)) {
                Some((_, members)) => members.push(index),
                None => {
                    group_of.insert(normal, groups.len());
                    groups.push((title.to_string(), vec![index]));
                }
            }
        }
        groups.retain(|(_, members)| members.len() >= 2);
        with_rest(
            &groups,
            |(title, members)| {
                format!(
                    "Sections {} are {} titled \"{}\"; merge them or retitle each to say what it covers.",
                    list(
                        &members
                            .iter()
                            .map(|index| (index + 1).to_string())
                            .collect::<Vec<_>>()
                    ),
                    pick(members.len() == 2, "both", "all"),
                    cut_title(title),
                )
            },
            |rest| {
                format!(
                    "Other sections share titles too: {}; make every title distinct.",
                    list(
                        &rest
                            .iter()
                            .map(|(title, _)| format!("\"{}\"", cut_title(title)))
                            .collect::<Vec<_>>()
                    )
                )
            },
        )
    }

    /// Check 12, `key-overused`.
    fn key_overused(&self) -> Vec<String> {
        let keys: HashSet<&str> = self
            .entries
            .iter()
            .filter(|(_, entry)| entry.focus == Some(Focus::Key))
            .map(|(_, entry)| entry.path.as_str())
            .collect();
        let k = keys.len();
        let h = self
            .files
            .iter()
            .filter(|file| !self.generated(&file.path))
            .count();
        if k > KEY_FILES && 4 * k > h {
            let limit = KEY_FILES.max(h / 4);
            vec![format!(
                "{k} of {h} hand-written files are marked `key`; keep `key` for the few that carry the risk (no more than about {limit} here) and leave the rest unmarked or `skim`."
            )]
        } else {
            Vec::new()
        }
    }
}

/// Marks a node seen by Tarjan's algorithm and pushes it on the stack.
fn visit(
    node: usize,
    next_order: &mut usize,
    order: &mut [usize],
    low: &mut [usize],
    stack: &mut Vec<usize>,
    on_stack: &mut [bool],
) {
    if let Some(slot) = order.get_mut(node) {
        *slot = *next_order;
    }
    if let Some(slot) = low.get_mut(node) {
        *slot = *next_order;
    }
    if let Some(slot) = on_stack.get_mut(node) {
        *slot = true;
    }
    stack.push(node);
    *next_order += 1;
}

/// Output rule 3: one sentence per finding for one or two findings; otherwise the first finding's
/// sentence and the rest sentence over all the others.
fn with_rest<T>(
    findings: &[T],
    one: impl Fn(&T) -> String,
    rest: impl Fn(&[T]) -> String,
) -> Vec<String> {
    match findings {
        [] => Vec::new(),
        [a] => vec![one(a)],
        [a, b] => vec![one(a), one(b)],
        [a, others @ ..] => vec![one(a), rest(others)],
    }
}

/// Blank: empty or only whitespace (absent is handled by the callers).
fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

/// `{a|b}`: the first form for one item.
fn pick(one: bool, first: &'static str, second: &'static str) -> &'static str {
    if one {
        first
    } else {
        second
    }
}

/// Replaces control characters (and the Unicode line and paragraph separators) with a space and
/// backticks with `'`, so text from others can't break a sentence or its code spans.
fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '`' => '\'',
            '\u{2028}' | '\u{2029}' => ' ',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// A title, sanitised and cut to 59 characters and `…` when longer than 60.
fn cut_title(title: &str) -> String {
    let clean = sanitize(title);
    if clean.chars().count() > 60 {
        let mut cut: String = clean.chars().take(59).collect();
        cut.push('…');
        cut
    } else {
        clean
    }
}

/// A path in backticks, sanitised and cut to `…` and its last 119 characters when longer than
/// 120, which keeps the file name.
fn code(path: &str) -> String {
    let clean = sanitize(path);
    let count = clean.chars().count();
    if count > 120 {
        let tail: String = clean.chars().skip(count - 119).collect();
        format!("`…{tail}`")
    } else {
        format!("`{clean}`")
    }
}

/// list(items): `a`; `a and b`; `a, b and c`; `a, b, c and 4 more`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [a, b] => format!("{a} and {b}"),
        [a, b, c] => format!("{a}, {b} and {c}"),
        [a, b, c, rest @ ..] => format!("{a}, {b}, {c} and {} more", rest.len()),
    }
}

/// Upper-cases the first character, for a section reference that starts a sentence. References
/// start with the ASCII word "section", so ASCII upper-casing suffices.
fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests;
