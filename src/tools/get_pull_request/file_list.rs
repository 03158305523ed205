//! The result's `files`, written as JSON text straight from the snapshot's typed files, and cut
//! to the response cap on the typed files before they are written.
//!
//! Why: a first read of a 3,000-file pull request built every file as a `serde_json::Value`,
//! wrote the list to measure it, built and measured it again to trim it, and wrote it twice
//! more (the result, the cached listing): a third of the request's 204 ms of isolate time
//! (issue #19; 141 ms after this change). Here each part's written length decides what is cut,
//! by the rules of [`cut_to`], and the list is written once more only when something was.
//!
//! Each file is written through serde's `Serialize` from a view of the typed file ([`Entry`]),
//! its keys in alphabetical order: byte for byte what serde_json wrote for the same files as
//! values (a `Value` object's order), so a cached listing and a result from either path stay
//! alike (`tests::reference`). Measured against the hand-written writer it replaced (issue #28,
//! native, opt-level 3): the whole list of 3,000 files in 0.16 ms rather than 0.07 ms, next to
//! a first read's 100+ ms.
//! It does not decide the room (`super::file_list_budget`) nor write the result around it.

use serde::Serialize;

use super::{cut_patch, SnapshotChange, SnapshotFile, MAX_PATCH_CHARS, PER_FILE_OVERHEAD};

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
    let mut out = Vec::with_capacity(cuts.len.max(64 * files.len()));
    let entries = files.iter().enumerate().map(|(index, file)| {
        let cut = cuts.files.get(index).copied().unwrap_or_default();
        Entry::of(file, cut, !cuts.previews, patches.get(index))
    });
    // Writing to a `Vec` cannot fail, and serde_json writes UTF-8.
    let _ = serde_json::to_writer(&mut out, &Seq(std::cell::Cell::new(Some(entries))));
    String::from_utf8(out).unwrap_or_default()
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
    let mut scratch = Vec::new();
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
            if let Some(length) = field.written_len(&mut scratch, file) {
                longest_first.push((index, length));
            }
        }
        crate::sorting::sort_by_key(&mut longest_first, &|&(_, length)| {
            std::cmp::Reverse(length)
        });
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
    let mut scratch = Vec::new();
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

    /// The written length of the field's value as the cut list shows it (changes without
    /// previews); `None` when the file has no such field.
    fn written_len(self, scratch: &mut Vec<u8>, file: &SnapshotFile) -> Option<usize> {
        match self {
            Field::Changes if shows_changes(file) => Some(written_len(
                scratch,
                &Changes {
                    changes: &file.changes,
                    previews: false,
                },
            )),
            Field::DependsOn if !file.depends_on.is_empty() => {
                Some(written_len(scratch, &file.depends_on))
            }
            Field::TestOf => file.test_of.as_ref().map(|t| written_len(scratch, t)),
            _ => None,
        }
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

/// The written length of `value` as JSON.
fn written_len<T: Serialize + ?Sized>(scratch: &mut Vec<u8>, value: &T) -> usize {
    scratch.clear();
    // Writing to a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *scratch, value);
    scratch.len()
}

/// An iterator written as a JSON array (once).
struct Seq<I>(std::cell::Cell<Option<I>>);

impl<I: Iterator<Item = T>, T: Serialize> Serialize for Seq<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.take().into_iter().flatten())
    }
}

/// One file's entry, its keys in alphabetical order (as a `Value` object wrote them).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Entry<'a> {
    additions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    changes: Option<Changes<'a>>,
    deletions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    depends_on: Option<&'a [String]>,
    #[serde(skip_serializing_if = "is_false")]
    likely_generated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    patch: Option<&'a str>,
    #[serde(skip_serializing_if = "is_false")]
    patch_truncated: bool,
    #[serde(skip_serializing_if = "is_false")]
    patch_unavailable: bool,
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous_path: Option<&'a str>,
    status: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    test_of: Option<&'a str>,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl<'a> Entry<'a> {
    fn of(
        file: &'a SnapshotFile,
        cut: FileCuts,
        previews: bool,
        patch: Option<&Patch<'a>>,
    ) -> Entry<'a> {
        let (text, truncated, unavailable) = match patch {
            Some(Patch::Text(text, truncated)) => (Some(*text), *truncated, false),
            Some(Patch::Dropped) => (None, true, false),
            Some(Patch::Unavailable) => (None, false, true),
            None => (None, false, false),
        };
        Entry {
            additions: file.additions,
            changes: (shows_changes(file) && !cut.changes).then_some(Changes {
                changes: &file.changes,
                previews,
            }),
            deletions: file.deletions,
            depends_on: (!file.depends_on.is_empty() && !cut.depends_on)
                .then_some(&file.depends_on[..]),
            likely_generated: file.likely_generated,
            patch: text,
            patch_truncated: truncated,
            patch_unavailable: unavailable,
            path: &file.path,
            previous_path: file.previous_path.as_deref(),
            status: &file.status,
            test_of: file.test_of.as_deref().filter(|_| !cut.test_of),
        }
    }
}

/// A file's changes, each with its keys in alphabetical order, previews when kept.
struct Changes<'a> {
    changes: &'a [SnapshotChange],
    previews: bool,
}

#[derive(Serialize)]
struct ChangeEntry<'a> {
    additions: usize,
    deletions: usize,
    header: &'a str,
    id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    preview: Option<&'a str>,
}

impl Serialize for Changes<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let previews = self.previews;
        serializer.collect_seq(self.changes.iter().map(|change| ChangeEntry {
            additions: change.additions,
            deletions: change.deletions,
            header: &change.header,
            id: &change.id,
            preview: previews.then_some(change.preview.as_str()),
        }))
    }
}
