//! Content-derived change ids and one-line previews for the hunks of a file.
//!
//! Why: a saved reading order names hunks by id (`hunks` in `save_reading_order`), and the order must
//! survive new commits. Line numbers and `@@` headers move whenever another hunk or commit adds
//! lines above, so an id hashes only what the hunk changes: its added and removed lines, in order.
//! Context lines are left out too, because an edit next to a hunk changes them.
//! An id is `h` followed by the lowercase base-36 form of the first 40 bits of SHA-256 (at most
//! nine characters, like the reference's `h1pdwiwd`). Two hunks of one file with the same content
//! stay distinct: the second one hashes with a salt of 1, the third with 2, and so on, so the
//! first keeps its plain id and ids do not depend on where other hunks are.
//!
//! What not: no decision about which files show `changes` (the reference shows them only for files
//! with two or more hunks; that is the tools layer's call), no JSON shaping.

use std::collections::{HashMap, HashSet};

use crate::review::patch::{Hunk, LineKind};

/// Longest preview, in characters, marker included.
pub const PREVIEW_MAX_CHARS: usize = 120;

/// One entry of a file's `changes` in `get_pull_request`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub id: String,
    /// The whole `@@` line.
    pub header: String,
    /// The first changed line as `+ text` or `- text`; see [`preview`].
    pub preview: String,
    pub additions: usize,
    pub deletions: usize,
}

/// Describes every hunk of one file, in patch order, with ids unique within the file.
pub fn describe_changes(hunks: &[Hunk<'_>]) -> Vec<Change> {
    let mut used = HashSet::with_capacity(hunks.len());
    // Occurrences so far of each content, by its unsalted id: the k-th repeat starts at salt k, so
    // a file with many identical hunks (a mass rename) costs one hash per hunk.
    let mut seen: HashMap<String, u32> = HashMap::with_capacity(hunks.len());
    let mut content = Vec::new();
    hunks
        .iter()
        .map(|hunk| {
            encode_content(hunk, &mut content);
            let plain = id_of(&content, 0);
            let occurrence = seen.entry(plain.clone()).or_insert(0);
            let mut salt = *occurrence;
            *occurrence = occurrence.saturating_add(1);
            let mut id = if salt == 0 {
                plain
            } else {
                id_of(&content, salt)
            };
            // Only a 40-bit collision with another content gets here; take the next free salt.
            while used.contains(&id) && salt < u32::MAX {
                salt += 1;
                id = id_of(&content, salt);
            }
            used.insert(id.clone());
            Change {
                id,
                header: hunk.header.to_string(),
                preview: preview(hunk),
                additions: hunk.additions(),
                deletions: hunk.deletions(),
            }
        })
        .collect()
}

/// The id of a hunk's content; `salt` is 0 for the first hunk with this content in a file.
pub fn change_id(hunk: &Hunk<'_>, salt: u32) -> String {
    let mut content = Vec::new();
    encode_content(hunk, &mut content);
    id_of(&content, salt)
}

/// Writes the hashed form of a hunk's changed lines into `out`: `+text\n` or `-text\n` per line,
/// and `\` plus a newline after a line without a final newline. Lines never contain `\n`, so the
/// encoding is unambiguous. One buffer hashed at once is much faster than many small updates.
fn encode_content(hunk: &Hunk<'_>, out: &mut Vec<u8>) {
    out.clear();
    for line in hunk.lines.iter().filter(|line| line.is_change()) {
        out.push(if line.kind == LineKind::Added {
            b'+'
        } else {
            b'-'
        });
        out.extend_from_slice(line.text.as_bytes());
        out.push(b'\n');
        if line.no_newline {
            out.extend_from_slice(b"\\\n");
        }
    }
}

fn id_of(content: &[u8], salt: u32) -> String {
    let salt = if salt > 0 {
        format!("#{salt}")
    } else {
        String::new()
    };
    // Unsalted, the content goes alone: two parts would be joined into a copy first.
    let parts: &[&[u8]] = if salt.is_empty() {
        &[content]
    } else {
        &[content, salt.as_bytes()]
    };
    let digest = crate::security::sha256::sha256(parts);
    let bits = digest
        .iter()
        .take(5)
        .fold(0u64, |acc, byte| (acc << 8) | u64::from(*byte));
    format!("h{}", base36(bits))
}

/// The first changed line: marker, a space, then the line with leading whitespace trimmed, cut to
/// [`PREVIEW_MAX_CHARS`] characters (ending in `…` when cut). Empty for a hunk without changes.
pub fn preview(hunk: &Hunk<'_>) -> String {
    let Some(line) = hunk.lines.iter().find(|line| line.is_change()) else {
        return String::new();
    };
    let marker = if line.kind == LineKind::Added {
        '+'
    } else {
        '-'
    };
    let text = line.text.trim_start();
    let budget = PREVIEW_MAX_CHARS - 2;
    let mut out = String::with_capacity(text.len().min(4 * PREVIEW_MAX_CHARS) + 2);
    out.push(marker);
    out.push(' ');
    // At most `budget` bytes is at most `budget` characters: no need to count them.
    if text.len() <= budget || text.chars().nth(budget).is_none() {
        out.push_str(text);
    } else {
        out.extend(text.chars().take(budget - 1));
        out.push('…');
    }
    out
}

fn base36(mut value: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::with_capacity(13);
    loop {
        let digit = DIGITS.get((value % 36) as usize).copied().unwrap_or(b'0');
        out.push(digit);
        value /= 36;
        if value == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{base36, describe_changes, preview, PREVIEW_MAX_CHARS};
    use crate::review::patch::parse_patch;

    /// Renders `id header | preview +a -d` per hunk of the patch.
    fn render(patch: &str) -> Vec<String> {
        let hunks = parse_patch(patch).unwrap_or_else(|error| panic!("{error}: {patch}"));
        describe_changes(&hunks)
            .into_iter()
            .map(|c| {
                format!(
                    "{} {} | {} +{} -{}",
                    c.id, c.header, c.preview, c.additions, c.deletions
                )
            })
            .collect()
    }

    fn ids(patch: &str) -> Vec<String> {
        let hunks = parse_patch(patch).unwrap_or_else(|error| panic!("{error}: {patch}"));
        describe_changes(&hunks).into_iter().map(|c| c.id).collect()
    }

    fn check(patch: &str, expected: &[&str]) {
        assert_eq!(render(patch), expected, "patch:\n{patch}");
    }

    #[test]
    fn ids_are_short_and_well_formed() {
        let got = ids("@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d");
        assert_eq!(got.len(), 2);
        for id in &got {
            assert!(
                id.starts_with('h') && id.len() >= 2 && id.len() <= 10,
                "{id}"
            );
            assert!(id[1..]
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()));
        }
        assert_ne!(got[0], got[1]);
    }

    #[test]
    fn snapshot_of_a_router_change() {
        check(
            "@@ -12,2 +12,3 @@ import\n import { a } from \"./a\";\n+import { invites } from \"./invites\";\n import { b } from \"./b\";\n@@ -40,3 +41,4 @@ export const routes\n   { path: \"/\", view: home },\n-  { path: \"/x\", view: x },\n+  { path: \"/invites\", view: invites },\n+  { path: \"/x\", view: x },\n ];",
            &[
                "h8qp32w06 @@ -12,2 +12,3 @@ import | + import { invites } from \"./invites\"; +1 -0",
                "hb5y0eiqu @@ -40,3 +41,4 @@ export const routes | - { path: \"/x\", view: x }, +2 -1",
            ],
        );
    }

    #[test]
    fn same_content_at_other_line_numbers_keeps_its_id() {
        let before = ids("@@ -10,2 +10,3 @@ fn a\n x\n+let y = 1;\n z\n@@ -50 +51 @@\n-old\n+new");
        let shifted =
            ids("@@ -14,2 +30,3 @@ fn b\n q\n+let y = 1;\n r\n@@ -90 +120 @@ other\n-old\n+new");
        assert_eq!(before, shifted);
    }

    #[test]
    fn different_content_gets_a_different_id() {
        let a = ids("@@ -1 +1 @@\n-a\n+b");
        let b = ids("@@ -1 +1 @@\n-a\n+c");
        let swapped = ids("@@ -1 +1 @@\n+b\n-a");
        let added_not_removed = ids("@@ -1,0 +1 @@\n+a");
        let removed_not_added = ids("@@ -1 +1,0 @@\n-a");
        assert_ne!(a, b);
        assert_ne!(a, swapped);
        assert_ne!(added_not_removed, removed_not_added);
    }

    #[test]
    fn eof_newline_change_differs_from_plain_change() {
        let plain = ids("@@ -1 +1 @@\n-}\n+}");
        let eof = ids("@@ -1 +1 @@\n-}\n\\ No newline at end of file\n+}");
        assert_ne!(plain, eof);
    }

    #[test]
    fn identical_twins_are_distinct_and_stable() {
        let twin = "@@ -{n} +{n} @@\n-log(x)\n+log(x, y)";
        let other = "@@ -{n} +{n} @@\n-a\n+b";
        let patch = |parts: &[(&str, u32)]| -> String {
            parts
                .iter()
                .map(|(text, n)| text.replace("{n}", &n.to_string()))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let first = ids(&patch(&[(twin, 1), (other, 5), (twin, 9)]));
        let moved = ids(&patch(&[(other, 1), (twin, 5), (twin, 9)]));
        assert_ne!(first[0], first[2]);
        assert_eq!(first[0], moved[1], "first twin keeps its id");
        assert_eq!(first[2], moved[2], "second twin keeps its id");
        assert_eq!(first[1], moved[0]);
        let single = ids(&patch(&[(twin, 1)]));
        assert_eq!(single[0], first[0], "first twin equals a lone hunk");
        let triple = ids(&patch(&[(twin, 1), (twin, 2), (twin, 3)]));
        let many: Vec<(&str, u32)> = (1..=2000).map(|n| (twin, n)).collect();
        let many = ids(&patch(&many));
        assert_eq!(
            many.iter().collect::<std::collections::HashSet<_>>().len(),
            2000
        );
        assert_eq!(many[..3], triple[..]);
        assert_eq!(triple[..2], [first[0].clone(), first[2].clone()]);
        assert_eq!(
            triple
                .iter()
                .collect::<std::collections::HashSet<_>>()
                .len(),
            3
        );
    }

    fn check_preview(line: &str, expected: &str) {
        let header = if line.starts_with('+') {
            "@@ -1 +1,2 @@"
        } else {
            "@@ -1,2 +1 @@"
        };
        let patch = format!("{header}\n unchanged\n{line}");
        let hunks = parse_patch(&patch).unwrap_or_else(|error| panic!("{error}: {patch}"));
        let got = hunks.first().map(preview).unwrap_or_default();
        assert_eq!(got, expected);
        assert!(got.chars().count() <= PREVIEW_MAX_CHARS);
    }

    #[test]
    fn previews() {
        check_preview("+    indented();", "+ indented();");
        check_preview("+\tlet x = 1;  ", "+ let x = 1;  ");
        check_preview("+", "+ ");
        let exact = format!("+{}", "a".repeat(118));
        check_preview(&exact, &format!("+ {}", "a".repeat(118)));
        let long = format!("+{}", "b".repeat(119));
        check_preview(&long, &format!("+ {}…", "b".repeat(117)));
    }

    #[test]
    fn preview_cuts_on_char_boundaries() {
        // 'é' is two bytes and '🦀' four; the cut counts characters.
        let accents = format!("+{}", "é".repeat(200));
        check_preview(&accents, &format!("+ {}…", "é".repeat(117)));
        let crabs = format!("+x{}", "🦀".repeat(130));
        check_preview(&crabs, &format!("+ x{}…", "🦀".repeat(116)));
    }

    #[test]
    fn removed_first_line_and_no_changes() {
        check_preview("-  gone", "- gone");
        let hunks = parse_patch("@@ -1 +1 @@\n same").unwrap_or_default();
        assert_eq!(hunks.first().map(preview), Some(String::new()));
    }

    #[test]
    fn base36_digits() {
        assert_eq!(base36(0), "0");
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
        assert_eq!(base36((1 << 40) - 1), "e13wu1of");
    }
}
