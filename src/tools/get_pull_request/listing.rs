//! The listing: what a repeat `get_pull_request` needs from a snapshot, written once when the
//! snapshot is built and cached beside it.
//!
//! Why: a repeat read used to decode the whole cached snapshot (patches included), shape every
//! file as a JSON value, measure it and write it again: for a 320-file pull request that was
//! about three quarters of the request's CPU, and ten times the free plan's 10 ms for 3,000 files
//! (issue #19). The listing keeps the result's `files` already written, so a repeat read decodes
//! a few hundred bytes and splices the rest in.
//!
//! Five lines (compact JSON never holds a raw newline, nor does a JSON string's inside):
//! 1. the snapshot's own fields without files (truncation, counts, diagram preference,
//!    conventions problem);
//! 2. the snapshot without patch text, change headers or previews: what validation and
//!    suggestions need (`facts_from_snapshot`), decoded only when an order is saved;
//! 3. `whole`, or `trimmed` when the list was over the response cap and was cut to fit it;
//! 4. the result's `files` as written by [`super::files_text`], or as trimmed;
//! 5. the same escaped as the inside of a JSON string: the result goes out as text too, and
//!    quoting a large list was a quarter of a repeat read's CPU.
//!
//! A trimmed list was cut for the room its first result left; a later result with less room
//! (a longer saved order) doesn't fit it and is shaped from the snapshot again, one with more
//! room gets the list a little more trimmed than it would need. Both stay under the cap and
//! list every file.
//!
//! It is derived from the snapshot and from how `files` is written: the key's version must
//! change with either (`LISTING_KEY_PREFIX`).

use super::snapshot_text::{read_json, write_json, Form};
use super::Snapshot;

/// The KV key prefix; the rest is the snapshot key's. Bump the version when the snapshot's
/// content or the way `files` is written changes, so old listings are never spliced in.
pub const LISTING_KEY_PREFIX: &str = "listing:v1:";

/// The KV key of a snapshot's listing: the snapshot key's version and names stay in it
/// (`listing:v1:v2:owner/repo:base:head`), so a new snapshot version gives new listings too.
pub fn listing_key(snapshot_key: &str) -> String {
    let rest = snapshot_key
        .strip_prefix("snapshot:")
        .unwrap_or(snapshot_key);
    format!("{LISTING_KEY_PREFIX}{rest}")
}

/// Writes the listing of a snapshot, reusing its `files` already written (`trimmed` when they
/// were cut to the response cap) and quoted (`json::string_inside`; the first read's result
/// needs the same quoting, so it is done once for both).
pub fn write_listing(snapshot: &Snapshot, files: &str, quoted: &str, trimmed: bool) -> String {
    let mut out = String::with_capacity(files.len() + quoted.len() + 128 * snapshot.files.len());
    write_json(&mut out, snapshot, Form::Meta);
    out.push('\n');
    write_json(&mut out, snapshot, Form::Lean);
    out.push('\n');
    out.push_str(if trimmed { TRIMMED } else { WHOLE });
    out.push('\n');
    out.push_str(files);
    out.push('\n');
    out.push_str(quoted);
    out
}

/// A listing read back from its text.
pub struct Listing<'a> {
    /// The snapshot's own fields; `files` is empty.
    pub meta: Snapshot,
    lean: &'a str,
    /// The result's `files`, written.
    pub files: &'a str,
    /// The files were cut to the response cap.
    pub trimmed: bool,
    /// `files` escaped as the inside of a JSON string.
    pub quoted_files: &'a str,
}

const WHOLE: &str = "whole";
const TRIMMED: &str = "trimmed";

impl<'a> Listing<'a> {
    /// `None` for text that isn't a listing (then the snapshot is read instead).
    pub fn read(text: &'a str) -> Option<Listing<'a>> {
        let mut lines = text.splitn(5, '\n');
        let (meta, lean) = (lines.next()?, lines.next()?);
        let trimmed = match lines.next()? {
            WHOLE => false,
            TRIMMED => true,
            _ => return None,
        };
        let (files, quoted_files) = (lines.next()?, lines.next()?);
        if !files.starts_with('[') || !files.ends_with(']') || !quoted_files.starts_with('[') {
            return None;
        }
        let meta = read_json(meta)?;
        Some(Listing {
            meta,
            lean,
            files,
            trimmed,
            quoted_files,
        })
    }

    /// The snapshot without patch text, headers or previews: enough for
    /// `facts_from_snapshot`, never for showing a diff.
    pub fn lean_snapshot(&self) -> Option<Snapshot> {
        read_json(self.lean)
    }
}

#[cfg(test)]
mod tests;
