//! Stable ids for checklist items, so reviewers' ticks survive a re-arranged order.
//!
//! The reference promises: "A checklist item with the same text in the same section or file keeps
//! its identity across saves". An id is therefore derived from content, never from position alone:
//!
//! - **Scope.** A section's checks have the scope `section:<title>`, the title normalised like text
//!   below and lower-cased; an untitled (blank) section uses its 1-based position, `section:#3`.
//!   A file's checks have the scope `file:<path>`; a part of a split file adds its change ids,
//!   sorted and comma-joined: `file:app/router.ts#h1pdwiwd,hyzm99a`. A section can move or be
//!   re-titled in case or spacing, and a file can move between sections, without losing ticks.
//! - **Text.** Trimmed, with inner runs of whitespace collapsed to one space; case is kept.
//! - **Id.** `c` followed by the lowercase base-36 form of the first 40 bits of SHA-256 over the
//!   scope's length in bytes as decimal, `:`, the scope, then the text. The length prefix keeps the
//!   encoding unambiguous whatever the scope contains.
//! - **Repeats.** Like change ids (`review::change_id`), the second item with the same scope and
//!   text hashes with a salt of 1 (`#1` appended), the third with 2, and so on, so the first keeps
//!   its plain id. Two sections with the same title share a scope, and their repeats are salted
//!   the same way, so every id in one order is distinct. A 40-bit collision between different
//!   contents takes the next free salt.
//!
//! What not: no storage of ticks and no matching of old ids to new ones; an item whose text,
//! section title or file changes gets a new id, and its ticks are lost on purpose.

use std::collections::{HashMap, HashSet};

use super::Order;

/// One checklist item of an order, in reading order: a section's own checks, then those of each of
/// its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecklistItem {
    /// `c` + base-36 of 40 bits of the hash; see the module docs.
    pub id: String,
    /// `section:<title>`, `section:#<n>`, `file:<path>` or `file:<path>#<ids>`.
    pub scope: String,
    /// The text as written.
    pub text: String,
    /// Index of the section (0-based) the item appears in.
    pub section: usize,
    /// Index of the file entry within the section, or `None` for the section's own checks.
    pub entry: Option<usize>,
}

/// Gives every checklist item of `order` its id (reference: `save_reading_order`, last paragraph).
pub fn checklist_ids(order: &Order) -> Vec<ChecklistItem> {
    let mut items = Vec::new();
    let mut seen: HashMap<(String, String), u32> = HashMap::new();
    let mut used: HashSet<String> = HashSet::new();
    let mut add = |scope: &str, text: &str, section: usize, entry: Option<usize>| {
        let normal = normalize(text);
        let occurrence = seen.entry((scope.to_string(), normal.clone())).or_insert(0);
        let mut salt = *occurrence;
        *occurrence = occurrence.saturating_add(1);
        let mut id = id_of(scope, &normal, salt);
        while used.contains(&id) && salt < u32::MAX {
            salt += 1;
            id = id_of(scope, &normal, salt);
        }
        used.insert(id.clone());
        items.push(ChecklistItem {
            id,
            scope: scope.to_string(),
            text: text.to_string(),
            section,
            entry,
        });
    };
    for (section_index, section) in order.sections.iter().enumerate() {
        let title = section.title.as_deref().map(normalize).unwrap_or_default();
        let scope = if title.is_empty() {
            format!("section:#{}", section_index + 1)
        } else {
            format!("section:{}", title.to_lowercase())
        };
        for check in &section.checks {
            add(&scope, check, section_index, None);
        }
        for (entry_index, entry) in section.files.iter().enumerate() {
            if entry.checks.is_empty() {
                continue;
            }
            let scope = match &entry.hunks {
                None => format!("file:{}", entry.path),
                Some(hunks) => {
                    let mut ids: Vec<&str> = hunks.iter().map(String::as_str).collect();
                    crate::sorting::sort(&mut ids);
                    ids.dedup();
                    format!("file:{}#{}", entry.path, ids.join(","))
                }
            };
            for check in &entry.checks {
                add(&scope, check, section_index, Some(entry_index));
            }
        }
    }
    items
}

/// Trims and collapses inner whitespace to single spaces.
fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn id_of(scope: &str, text: &str, salt: u32) -> String {
    let length = format!("{}:", scope.len());
    let salt = if salt > 0 {
        format!("#{salt}")
    } else {
        String::new()
    };
    let digest = crate::security::sha256::sha256(&[
        length.as_bytes(),
        scope.as_bytes(),
        text.as_bytes(),
        salt.as_bytes(),
    ]);
    let bits = digest
        .iter()
        .take(5)
        .fold(0u64, |acc, byte| (acc << 8) | u64::from(*byte));
    format!("c{}", base36(bits))
}

fn base36(mut value: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::with_capacity(13);
    loop {
        out.push(char::from(
            DIGITS.get((value % 36) as usize).copied().unwrap_or(b'0'),
        ));
        value /= 36;
        if value == 0 {
            break;
        }
    }
    out.iter().rev().collect()
}

#[cfg(test)]
mod tests {
    use super::{base36, checklist_ids};
    use crate::review::order::Order;
    use serde_json::json;

    fn order(value: serde_json::Value) -> Order {
        crate::json::read::<Order>(&value).unwrap_or_else(|error| panic!("{error}"))
    }

    /// `scope | text | id` per item.
    fn ids(value: serde_json::Value) -> Vec<(String, String)> {
        checklist_ids(&order(value))
            .into_iter()
            .map(|item| (item.scope, item.id))
            .collect()
    }

    #[test]
    fn scopes() {
        let items = checklist_ids(&order(json!({ "sections": [
            { "title": "  Token   Bucket ", "checks": ["a"], "files": [
                { "path": "x.ts", "checks": ["b"] },
                { "path": "y.ts", "hunks": ["h2", "h1"], "checks": ["c"] }
            ]},
            { "checks": ["d"], "files": [{ "path": "z.ts" }] }
        ]})));
        let got: Vec<(String, String, usize, Option<usize>)> = items
            .into_iter()
            .map(|i| (i.scope, i.text, i.section, i.entry))
            .collect();
        let expected = [
            ("section:token bucket", "a", 0, None),
            ("file:x.ts", "b", 0, Some(0)),
            ("file:y.ts#h1,h2", "c", 0, Some(1)),
            ("section:#2", "d", 1, None),
        ];
        let expected: Vec<(String, String, usize, Option<usize>)> = expected
            .iter()
            .map(|(s, t, i, e)| (s.to_string(), t.to_string(), *i, *e))
            .collect();
        assert_eq!(got, expected);
    }

    /// Titles are lower-cased by Unicode's default case conversion, final sigma included, as
    /// every saved id was made (the wasm once lowered through JavaScript's `toLowerCase`).
    #[test]
    fn section_scopes_lower_case_beyond_ascii() {
        let scopes: Vec<String> = checklist_ids(&order(json!({ "sections": [
            { "title": "ÜBERBLICK Σ", "checks": ["a"], "files": [{ "path": "x" }] },
            { "title": "ΟΔΟΣ", "checks": ["b"], "files": [{ "path": "y" }] }
        ]})))
        .into_iter()
        .map(|item| item.scope)
        .collect();
        assert_eq!(scopes, ["section:überblick σ", "section:οδος"]);
    }

    #[test]
    fn ids_survive_moves_and_spacing() {
        let before = ids(json!({ "sections": [
            { "title": "Limits", "checks": ["Refill  is lazy"], "files": [
                { "path": "a.ts", "checks": ["No sleeps"] }
            ]},
            { "title": "Other", "files": [{ "path": "b.ts" }] }
        ]}));
        let after = ids(json!({ "sections": [
            { "title": "Other", "files": [{ "path": "b.ts" }, { "path": "a.ts", "checks": [" No sleeps "] }] },
            { "title": "limits", "checks": ["Refill is lazy"], "files": [{ "path": "c.ts" }] }
        ]}));
        let mut sorted_before = before.clone();
        sorted_before.sort();
        let mut sorted_after = after.clone();
        sorted_after.sort();
        assert_eq!(sorted_before, sorted_after);
        assert!(before
            .iter()
            .all(|(_, id)| id.starts_with('c') && id.len() <= 10));
    }

    #[test]
    fn text_case_and_scope_matter() {
        let a = ids(
            json!({ "sections": [{ "title": "T", "checks": ["x", "X"], "files": [{ "path": "p", "checks": ["x"] }] }] }),
        );
        let ids: Vec<&String> = a.iter().map(|(_, id)| id).collect();
        assert_ne!(ids[0], ids[1]);
        assert_ne!(ids[0], ids[2]);
    }

    #[test]
    fn repeats_are_salted_and_first_keeps_its_id() {
        let one = ids(
            json!({ "sections": [{ "title": "T", "checks": ["x"], "files": [{ "path": "p" }] }] }),
        );
        let three = ids(json!({ "sections": [
            { "title": "T", "checks": ["x", "x"], "files": [{ "path": "p" }] },
            { "title": "t", "checks": ["x"], "files": [{ "path": "q" }] }
        ]}));
        assert_eq!(one[0], three[0]);
        let distinct: std::collections::HashSet<&String> = three.iter().map(|(_, id)| id).collect();
        assert_eq!(distinct.len(), 3);
    }

    #[test]
    fn untitled_sections_go_by_position() {
        let first = ids(json!({ "sections": [{ "checks": ["x"], "files": [{ "path": "p" }] }] }));
        let second = ids(json!({ "sections": [
            { "title": "New", "files": [{ "path": "q" }] },
            { "title": " ", "checks": ["x"], "files": [{ "path": "p" }] }
        ]}));
        assert_ne!(first[0].1, second[0].1);
        assert_eq!(second[0].0, "section:#2");
    }

    #[test]
    fn base36_digits() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(36), "10");
        assert_eq!(base36((1 << 40) - 1), "e13wu1of");
    }
}
