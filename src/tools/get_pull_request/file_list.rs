//! The result's `files`, written as JSON text straight from the snapshot's typed files, and cut
//! to the response cap on the typed files before they are written.
//!
//! Why: a first read of a 3,000-file pull request built every file as a `serde_json::Value`,
//! wrote the list to measure it, built and measured it again to trim it, and wrote it twice
//! more (the result, the cached listing): a third of the request's 204 ms of isolate time
//! (issue #19; 141 ms after this change). Here each part's written length decides what is cut,
//! by the rules of [`cut_to`], and the list is written once more only when something was.
//!
//! The text is byte for byte what serde_json wrote for the same files as values: keys in
//! alphabetical order (a `Value` object's order), strings escaped as serde_json escapes them
//! (`quote::push_json_string`), so a cached listing and a result from either path stay alike.
//! It does not decide the room (`super::file_list_budget`) nor write the result around it.

use super::{cut_patch, SnapshotChange, SnapshotFile, MAX_PATCH_CHARS, PER_FILE_OVERHEAD};
use crate::quote::push_json_string;

/// What of the list is left out to fit the cap.
#[derive(Debug, Default)]
pub struct Cuts {
    /// The changes' previews are left out (all of them, the first thing cut).
    pub previews: bool,
    /// Per file (in the list's order, or empty when nothing more was cut).
    pub files: Vec<FileCuts>,
    /// Something was left out.
    pub trimmed: bool,
    /// The list's written length with these cuts.
    pub len: usize,
}

/// What one file's entry leaves out.
#[derive(Debug, Default, Clone, Copy)]
pub struct FileCuts {
    pub changes: bool,
    pub depends_on: bool,
    pub test_of: bool,
}

/// A file's patch as the result shows it when patches are asked for.
#[derive(Debug, Clone, Copy)]
pub enum Patch<'a> {
    /// `patchUnavailable`: GitHub gave no patch (binary, too large).
    Unavailable,
    /// The patch text, and `patchTruncated` when it was cut.
    Text(&'a str, bool),
    /// `patchTruncated` without any text: no room was left for it.
    Dropped,
}

/// The list without cuts or patches: what a result that fits and the cached listing hold.
pub fn write_whole(files: &[SnapshotFile]) -> String {
    write(files, &Cuts::default(), &[])
}

/// Writes the list with `cuts` and, when given (one per file), `patches`.
pub fn write(files: &[SnapshotFile], cuts: &Cuts, patches: &[Patch<'_>]) -> String {
    let mut out = String::with_capacity(cuts.len.max(64 * files.len()));
    out.push('[');
    for (index, file) in files.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        let cut = cuts.files.get(index).copied().unwrap_or_default();
        write_file(&mut out, file, cut, !cuts.previews, patches.get(index));
    }
    out.push(']');
    out
}

/// Keeps a very large pull request's file list (written `whole_len` long) within `budget`
/// characters (the response cap), in this order: without the changes' previews; then without
/// the `changes` of the files whose lists are longest; then without the `dependsOn` of the files
/// whose lists are longest (a Go import depends on every changed file of its package, so these
/// can run to hundreds); then without the longest `testOf`s, until it fits. Every file stays
/// listed with its path, status and, when renamed, `previousPath` (the spec promises it on every
/// renamed file), since an order must name them all; a file that lost its `changes` can still be
/// placed whole. A list whose paths alone pass the cap (thousands of long renamed paths) stays
/// over it: no file may be left out.
pub fn cut_to(files: &[SnapshotFile], whole_len: usize, budget: usize) -> Cuts {
    let mut cuts = Cuts {
        len: whole_len,
        ..Cuts::default()
    };
    if whole_len <= budget {
        return cuts;
    }
    let mut scratch = String::new();
    cuts.previews = true;
    for change in files
        .iter()
        .filter(|f| shows_changes(f))
        .flat_map(|f| &f.changes)
    {
        // `,"preview":` goes with the text.
        cuts.len = cuts
            .len
            .saturating_sub(written_len(&mut scratch, &change.preview) + r#","preview":"#.len());
        cuts.trimmed = true;
    }
    cuts.files = vec![FileCuts::default(); files.len()];
    for field in [Field::Changes, Field::DependsOn, Field::TestOf] {
        let mut longest_first: Vec<(usize, usize)> = Vec::new();
        for (index, file) in files.iter().enumerate() {
            scratch.clear();
            if field.write(&mut scratch, file) {
                longest_first.push((index, scratch.len()));
            }
        }
        longest_first.sort_by_key(|&(_, length)| std::cmp::Reverse(length));
        for (index, length) in longest_first {
            if cuts.len <= budget {
                return cuts;
            }
            field.cut(&mut cuts.files[index]);
            // `,"field":` goes with the list.
            cuts.len = cuts.len.saturating_sub(length + field.name().len() + 4);
            cuts.trimmed = true;
        }
    }
    cuts
}

/// Each file's patch within the per-file cap and `budget`, the room left in the response
/// (measured as the patch's written length; every file's field names and flags, and the
/// top-level flag, are reserved before any text). Returns them and whether any patch was cut
/// or left out for the budget.
pub fn fit_patches(files: &[SnapshotFile], budget: usize) -> (Vec<Patch<'_>>, bool) {
    let mut budget = budget.saturating_sub(files.len() * PER_FILE_OVERHEAD + PER_FILE_OVERHEAD);
    let mut truncated_for_budget = false;
    let mut scratch = String::new();
    let mut patches = Vec::with_capacity(files.len());
    for file in files {
        let Some(patch) = &file.patch else {
            patches.push(Patch::Unavailable);
            continue;
        };
        let (capped, cut) = cut_patch(patch, MAX_PATCH_CHARS);
        let cost = written_len(&mut scratch, capped);
        if cost <= budget {
            budget -= cost;
            patches.push(Patch::Text(capped, cut));
            continue;
        }
        truncated_for_budget = true;
        // Escaping can double a character's length, so half the room in characters always fits.
        let (partial, _) = cut_patch(capped, budget / 2);
        let cost = written_len(&mut scratch, partial);
        if !partial.is_empty() && cost <= budget {
            budget -= cost;
            patches.push(Patch::Text(partial, true));
        } else {
            patches.push(Patch::Dropped);
        }
    }
    (patches, truncated_for_budget)
}

/// The fields [`cut_to`] takes out whole, in the order it takes them.
#[derive(Clone, Copy)]
enum Field {
    Changes,
    DependsOn,
    TestOf,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Changes => "changes",
            Field::DependsOn => "dependsOn",
            Field::TestOf => "testOf",
        }
    }

    /// Writes the field's value as the cut list shows it (changes without previews); false
    /// when the file has no such field.
    fn write(self, out: &mut String, file: &SnapshotFile) -> bool {
        match self {
            Field::Changes if shows_changes(file) => write_changes(out, &file.changes, false),
            Field::DependsOn if !file.depends_on.is_empty() => write_strings(out, &file.depends_on),
            Field::TestOf => match &file.test_of {
                Some(test_of) => push_json_string(out, test_of),
                None => return false,
            },
            _ => return false,
        }
        true
    }

    fn cut(self, cuts: &mut FileCuts) {
        match self {
            Field::Changes => cuts.changes = true,
            Field::DependsOn => cuts.depends_on = true,
            Field::TestOf => cuts.test_of = true,
        }
    }
}

/// Only a file split in two or more changes lists them.
fn shows_changes(file: &SnapshotFile) -> bool {
    file.changes.len() >= 2
}

/// The written length of `text`'s JSON string literal.
fn written_len(scratch: &mut String, text: &str) -> usize {
    scratch.clear();
    push_json_string(scratch, text);
    scratch.len()
}

/// One file's object, its keys in alphabetical order.
fn write_file(
    out: &mut String,
    file: &SnapshotFile,
    cut: FileCuts,
    previews: bool,
    patch: Option<&Patch<'_>>,
) {
    out.push_str(r#"{"additions":"#);
    push_number(out, file.additions);
    if shows_changes(file) && !cut.changes {
        out.push_str(r#","changes":"#);
        write_changes(out, &file.changes, previews);
    }
    out.push_str(r#","deletions":"#);
    push_number(out, file.deletions);
    if !file.depends_on.is_empty() && !cut.depends_on {
        out.push_str(r#","dependsOn":"#);
        write_strings(out, &file.depends_on);
    }
    if file.likely_generated {
        out.push_str(r#","likelyGenerated":true"#);
    }
    match patch {
        Some(Patch::Text(text, truncated)) => {
            out.push_str(r#","patch":"#);
            push_json_string(out, text);
            if *truncated {
                out.push_str(r#","patchTruncated":true"#);
            }
        }
        Some(Patch::Dropped) => out.push_str(r#","patchTruncated":true"#),
        Some(Patch::Unavailable) => out.push_str(r#","patchUnavailable":true"#),
        None => {}
    }
    out.push_str(r#","path":"#);
    push_json_string(out, &file.path);
    if let Some(previous) = &file.previous_path {
        out.push_str(r#","previousPath":"#);
        push_json_string(out, previous);
    }
    out.push_str(r#","status":"#);
    push_json_string(out, &file.status);
    if let Some(test_of) = file.test_of.as_ref().filter(|_| !cut.test_of) {
        out.push_str(r#","testOf":"#);
        push_json_string(out, test_of);
    }
    out.push('}');
}

/// A file's changes, each with its keys in alphabetical order.
fn write_changes(out: &mut String, changes: &[SnapshotChange], previews: bool) {
    out.push('[');
    for (index, change) in changes.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(r#"{"additions":"#);
        push_number(out, change.additions as u64);
        out.push_str(r#","deletions":"#);
        push_number(out, change.deletions as u64);
        out.push_str(r#","header":"#);
        push_json_string(out, &change.header);
        out.push_str(r#","id":"#);
        push_json_string(out, &change.id);
        if previews {
            out.push_str(r#","preview":"#);
            push_json_string(out, &change.preview);
        }
        out.push('}');
    }
    out.push(']');
}

fn write_strings(out: &mut String, items: &[String]) {
    out.push('[');
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        push_json_string(out, item);
    }
    out.push(']');
}

/// A number in decimal, as serde_json writes it (without the formatting machinery's padding
/// checks).
pub(super) fn push_number(out: &mut String, mut number: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (number % 10) as u8;
        number /= 10;
        if number == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        out.push(char::from(digit));
    }
}
