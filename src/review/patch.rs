//! Parses the `patch` text GitHub gives each file of a pull request into hunks.
//!
//! Why: change ids, previews and reading hints all read hunk lines, so one parser owns the format.
//! GitHub's `patch` is a unified diff without file headers: it starts at the first `@@` line.
//! The parser is strict about what it reads (header syntax, line markers, the counts each header
//! declares) so a truncated or mangled patch is reported as an error value, not turned into wrong
//! hunks; the caller then shows the file without changes, as it does for binary files.
//! Lines before the first `@@` (`diff --git`, `---`, `+++` of a full `git diff`) are skipped.
//! Hunks borrow their text from the patch: no copy of a large diff is made.
//!
//! What not: no combined (`@@@`) diffs, no applying patches, no file headers interpreted.

use std::fmt;

/// What a line of a hunk does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// `+`: the line exists only in the new file.
    Added,
    /// `-`: the line exists only in the old file.
    Removed,
    /// ` `: the line is in both files.
    Context,
}

/// One line of a hunk, without its marker and without a trailing `\r`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLine<'a> {
    pub kind: LineKind,
    pub text: &'a str,
    /// A `\ No newline at end of file` line followed this one.
    pub no_newline: bool,
}

impl DiffLine<'_> {
    /// Lines a reader of the new file sees: added and context lines.
    pub fn is_visible(&self) -> bool {
        self.kind != LineKind::Removed
    }

    /// Added and removed lines.
    pub fn is_change(&self) -> bool {
        self.kind != LineKind::Context
    }
}

/// One `@@ -a,b +c,d @@` hunk of a file's patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk<'a> {
    /// The whole `@@` line, section heading included.
    pub header: &'a str,
    pub old_start: u32,
    pub old_lines: u32,
    pub new_start: u32,
    pub new_lines: u32,
    pub lines: Vec<DiffLine<'a>>,
}

impl<'a> Hunk<'a> {
    /// How many `+` lines the hunk has.
    pub fn additions(&self) -> usize {
        self.count(LineKind::Added)
    }

    /// How many `-` lines the hunk has.
    pub fn deletions(&self) -> usize {
        self.count(LineKind::Removed)
    }

    /// The section heading after the closing `@@`, trimmed: the nearest line above the hunk that
    /// git's rule picks (a line starting with a letter, `_` or `$`), often the enclosing function,
    /// and the opening line of an import block the hunk starts inside of (`import (`), which the
    /// hints read (issue #32).
    pub fn section(&self) -> &'a str {
        // A byte scan rather than `split_once("@@")`: that sets up a substring searcher on each
        // call, and hints ask every hunk of a pull request.
        let bytes = self.header.as_bytes();
        let close = (2..bytes.len().saturating_sub(1))
            .find(|&at| bytes.get(at) == Some(&b'@') && bytes.get(at + 1) == Some(&b'@'));
        close
            .and_then(|at| self.header.get(at + 2..))
            .map_or("", str::trim)
    }

    /// Visible lines (added and context) with their line number in the new file.
    pub fn visible_lines(&self) -> impl Iterator<Item = (u32, &DiffLine<'a>)> + '_ {
        let mut number = self.new_start;
        self.lines
            .iter()
            .filter(|line| line.is_visible())
            .map(move |line| {
                let current = number;
                number = number.saturating_add(1);
                (current, line)
            })
    }

    /// Every line with its number in the old file (`None` for an added line) and in the new
    /// file (`None` for a removed one): how GitHub anchors comments and the page numbers lines.
    pub fn numbered_lines(
        &self,
    ) -> impl Iterator<Item = (Option<u32>, Option<u32>, &DiffLine<'a>)> + '_ {
        let (mut old, mut new) = (self.old_start, self.new_start);
        self.lines.iter().map(move |line| {
            let (old_no, new_no) = match line.kind {
                LineKind::Added => (None, Some(new)),
                LineKind::Removed => (Some(old), None),
                LineKind::Context => (Some(old), Some(new)),
            };
            if old_no.is_some() {
                old = old.saturating_add(1);
            }
            if new_no.is_some() {
                new = new.saturating_add(1);
            }
            (old_no, new_no, line)
        })
    }

    fn count(&self, kind: LineKind) -> usize {
        self.lines.iter().filter(|line| line.kind == kind).count()
    }
}

/// Why a patch could not be read. Lines are 1-based positions in the patch text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    /// The patch has text but no `@@` line.
    NoHunks,
    /// A line starts with `@@` but is not `@@ -a[,b] +c[,d] @@…`.
    BadHeader { line: usize },
    /// A line inside a hunk has no `+`, `-`, ` ` or `\` marker, or comes after the hunk is complete.
    UnexpectedLine { line: usize },
    /// A hunk's lines do not add up to the counts its header (on `line`) declares.
    CountMismatch {
        line: usize,
        expected_old: u32,
        expected_new: u32,
        found_old: u64,
        found_new: u64,
    },
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::NoHunks => write!(f, "patch has no hunk header"),
            PatchError::BadHeader { line } => write!(f, "bad hunk header on patch line {line}"),
            PatchError::UnexpectedLine { line } => {
                write!(f, "unexpected text on patch line {line}")
            }
            PatchError::CountMismatch {
                line,
                expected_old,
                expected_new,
                found_old,
                found_new,
            } => write!(
                f,
                "hunk on patch line {line} declares {expected_old} old and {expected_new} new lines \
                 but has {found_old} and {found_new}"
            ),
        }
    }
}

impl std::error::Error for PatchError {}

/// Parses one file's `patch` into hunks. An empty (or blank) patch has no hunks.
pub fn parse_patch(patch: &str) -> Result<Vec<Hunk<'_>>, PatchError> {
    let mut hunks = Vec::new();
    let mut open: Option<OpenHunk<'_>> = None;
    let mut preamble_text = false;
    for (index, raw) in patch.split('\n').enumerate() {
        let number = index + 1;
        // A `&str` suffix is a byte compare; a `char` one encodes the char on every line.
        let line = raw.strip_suffix("\r").unwrap_or(raw);
        if line.as_bytes().starts_with(b"@@") {
            if let Some(done) = open.take() {
                hunks.push(done.finish()?);
            }
            open = Some(OpenHunk::start(line, number)?);
            continue;
        }
        match open.as_mut() {
            Some(hunk) => hunk.push(line, number)?,
            None => preamble_text |= !line.trim().is_empty(),
        }
    }
    if let Some(done) = open {
        hunks.push(done.finish()?);
    }
    if hunks.is_empty() && preamble_text {
        return Err(PatchError::NoHunks);
    }
    Ok(hunks)
}

/// A hunk being read, with the counts seen so far.
struct OpenHunk<'a> {
    hunk: Hunk<'a>,
    header_line: usize,
    old_seen: u64,
    new_seen: u64,
}

impl<'a> OpenHunk<'a> {
    fn start(header: &'a str, number: usize) -> Result<Self, PatchError> {
        let (old_start, old_lines, new_start, new_lines) =
            parse_header(header).ok_or(PatchError::BadHeader { line: number })?;
        Ok(OpenHunk {
            hunk: Hunk {
                header,
                old_start,
                old_lines,
                new_start,
                new_lines,
                // The counts bound the lines; the cap keeps a lying header from reserving much.
                lines: Vec::with_capacity(
                    usize::try_from(old_lines.saturating_add(new_lines)).map_or(0, |n| n.min(256)),
                ),
            },
            header_line: number,
            old_seen: 0,
            new_seen: 0,
        })
    }

    fn complete(&self) -> bool {
        self.old_seen >= u64::from(self.hunk.old_lines)
            && self.new_seen >= u64::from(self.hunk.new_lines)
    }

    fn push(&mut self, line: &'a str, number: usize) -> Result<(), PatchError> {
        if line.starts_with('\\') {
            // `\ No newline at end of file`, in whatever language git was run in.
            if let Some(last) = self.hunk.lines.last_mut() {
                last.no_newline = true;
            }
            return Ok(());
        }
        if self.complete() {
            // Blank lines after a complete hunk are trailing newlines of the patch text.
            return if line.is_empty() {
                Ok(())
            } else {
                Err(PatchError::UnexpectedLine { line: number })
            };
        }
        let (kind, text) = match line.as_bytes().first() {
            Some(b'+') => (LineKind::Added, line.get(1..).unwrap_or("")),
            Some(b'-') => (LineKind::Removed, line.get(1..).unwrap_or("")),
            Some(b' ') => (LineKind::Context, line.get(1..).unwrap_or("")),
            // An empty context line whose space was stripped by an editor or a copy.
            None => (LineKind::Context, ""),
            Some(_) => return Err(PatchError::UnexpectedLine { line: number }),
        };
        match kind {
            LineKind::Added => self.new_seen += 1,
            LineKind::Removed => self.old_seen += 1,
            LineKind::Context => {
                self.old_seen += 1;
                self.new_seen += 1;
            }
        }
        self.hunk.lines.push(DiffLine {
            kind,
            text,
            no_newline: false,
        });
        Ok(())
    }

    fn finish(self) -> Result<Hunk<'a>, PatchError> {
        if self.old_seen != u64::from(self.hunk.old_lines)
            || self.new_seen != u64::from(self.hunk.new_lines)
        {
            return Err(PatchError::CountMismatch {
                line: self.header_line,
                expected_old: self.hunk.old_lines,
                expected_new: self.hunk.new_lines,
                found_old: self.old_seen,
                found_new: self.new_seen,
            });
        }
        Ok(self.hunk)
    }
}

/// Reads `@@ -a[,b] +c[,d] @@…` into `(a, b, c, d)`; a missing count means 1.
fn parse_header(line: &str) -> Option<(u32, u32, u32, u32)> {
    let rest = line.strip_prefix("@@ -")?;
    let (old, rest) = rest.split_once(" +")?;
    let (new, _heading) = rest.split_once(" @@")?;
    let (old_start, old_lines) = parse_range(old)?;
    let (new_start, new_lines) = parse_range(new)?;
    Some((old_start, old_lines, new_start, new_lines))
}

fn parse_range(range: &str) -> Option<(u32, u32)> {
    match range.split_once(',') {
        Some((start, count)) => Some((parse_number(start)?, parse_number(count)?)),
        None => Some((parse_number(range)?, 1)),
    }
}

fn parse_number(digits: &str) -> Option<u32> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::{parse_patch, LineKind, PatchError};

    /// Renders hunks as `header` lines followed by `kind|text` lines, or the error.
    fn check(patch: &str, expected: &str) {
        let got = match parse_patch(patch) {
            Ok(hunks) => {
                let mut out = String::new();
                for hunk in &hunks {
                    out.push_str(&format!(
                        "{} -{},{} +{},{} +{} -{} [{}]\n",
                        hunk.header,
                        hunk.old_start,
                        hunk.old_lines,
                        hunk.new_start,
                        hunk.new_lines,
                        hunk.additions(),
                        hunk.deletions(),
                        hunk.section()
                    ));
                    for line in &hunk.lines {
                        let kind = match line.kind {
                            LineKind::Added => "add",
                            LineKind::Removed => "del",
                            LineKind::Context => "ctx",
                        };
                        let eof = if line.no_newline { " (no newline)" } else { "" };
                        out.push_str(&format!("  {kind}|{}{eof}\n", line.text));
                    }
                }
                out
            }
            Err(error) => format!("error: {error}\n"),
        };
        assert_eq!(got.trim_end(), expected.trim_end(), "patch:\n{patch}");
    }

    #[test]
    fn two_hunks_with_section_headings() {
        // From facebook/react packages/react-dom/src/client/ReactDOMRoot.js, shortened.
        check(
            "@@ -12,5 +12,6 @@ import type {\n import {\n   isContainerMarkedAsRoot,\n+  markContainerAsRoot,\n } from './ReactDOMComponentTree';\n \n import {\n@@ -40,3 +41,4 @@ function ReactDOMRoot(internalRoot) {\n   this._internalRoot = internalRoot;\n-  return;\n+  warnIfReactDOMContainerInDEV(container);\n+  return this;\n }",
            "@@ -12,5 +12,6 @@ import type { -12,5 +12,6 +1 -0 [import type {]
  ctx|import {
  ctx|  isContainerMarkedAsRoot,
  add|  markContainerAsRoot,
  ctx|} from './ReactDOMComponentTree';
  ctx|
  ctx|import {
@@ -40,3 +41,4 @@ function ReactDOMRoot(internalRoot) { -40,3 +41,4 +2 -1 [function ReactDOMRoot(internalRoot) {]
  ctx|  this._internalRoot = internalRoot;
  del|  return;
  add|  warnIfReactDOMContainerInDEV(container);
  add|  return this;
  ctx|}",
        );
    }

    #[test]
    fn missing_counts_mean_one() {
        check(
            "@@ -1 +1 @@\n-old\n+new",
            "@@ -1 +1 @@ -1,1 +1,1 +1 -1 []\n  del|old\n  add|new",
        );
    }

    #[test]
    fn new_file_and_deleted_file() {
        check(
            "@@ -0,0 +1,2 @@\n+package main\n+",
            "@@ -0,0 +1,2 @@ -0,0 +1,2 +2 -0 []\n  add|package main\n  add|",
        );
        check(
            "@@ -1,2 +0,0 @@\n-a\n-b",
            "@@ -1,2 +0,0 @@ -1,2 +0,0 +0 -2 []\n  del|a\n  del|b",
        );
    }

    #[test]
    fn no_newline_at_end_of_file() {
        check(
            "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n\\ No newline at end of file",
            "@@ -1,2 +1,2 @@ -1,2 +1,2 +1 -1 []\n  ctx|a\n  del|b (no newline)\n  add|b (no newline)",
        );
    }

    #[test]
    fn crlf_is_stripped() {
        check(
            "@@ -1,2 +1,2 @@ Main\r\n a\r\n-b\r\n+c\r\n",
            "@@ -1,2 +1,2 @@ Main -1,2 +1,2 +1 -1 [Main]\n  ctx|a\n  del|b\n  add|c",
        );
    }

    #[test]
    fn empty_and_blank_patches_have_no_hunks() {
        check("", "");
        check("\n\n", "");
    }

    #[test]
    fn stripped_blank_context_line_counts_as_context() {
        check(
            "@@ -1,3 +1,3 @@\n a\n\n-b\n+c",
            "@@ -1,3 +1,3 @@ -1,3 +1,3 +1 -1 []\n  ctx|a\n  ctx|\n  del|b\n  add|c",
        );
    }

    #[test]
    fn file_headers_before_the_first_hunk_are_skipped() {
        check(
            "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b",
            "@@ -1 +1 @@ -1,1 +1,1 +1 -1 []\n  del|a\n  add|b",
        );
    }

    #[test]
    fn marker_characters_inside_text_stay() {
        check(
            "@@ -1,2 +1,2 @@\n-@@ not a header\n+-- sql comment\n ++i;",
            "@@ -1,2 +1,2 @@ -1,2 +1,2 +1 -1 []\n  del|@@ not a header\n  add|-- sql comment\n  ctx|++i;",
        );
    }

    #[test]
    fn garbage_is_an_error_value() {
        check("hello world", "error: patch has no hunk header");
        check("@@ nope @@\n+a", "error: bad hunk header on patch line 1");
        check(
            "@@ -1,x +1 @@\n+a",
            "error: bad hunk header on patch line 1",
        );
        check(
            "@@ -1 +99999999999 @@\n+a",
            "error: bad hunk header on patch line 1",
        );
        check(
            "@@@ -1 -1 +1 @@@\n+a",
            "error: bad hunk header on patch line 1",
        );
        check(
            "@@ -1,2 +1,2 @@\n a\n*b",
            "error: unexpected text on patch line 3",
        );
        check(
            "@@ -1 +1 @@\n-a\n+b\n+c",
            "error: unexpected text on patch line 4",
        );
    }

    #[test]
    fn truncated_hunk_is_a_count_mismatch() {
        assert_eq!(
            parse_patch("@@ -1,5 +1,6 @@\n a\n+b\n@@ -20 +21 @@\n-x\n+y"),
            Err(PatchError::CountMismatch {
                line: 1,
                expected_old: 5,
                expected_new: 6,
                found_old: 1,
                found_new: 2
            })
        );
        check(
            "@@ -1,4000000000 +1 @@\n a",
            "error: hunk on patch line 1 declares 4000000000 old and 1 new lines but has 1 and 1",
        );
    }

    #[test]
    fn section_text_is_what_follows_the_closing_at_signs() {
        // Issue #32: an import block's opening line above the hunk.
        let patch = "@@ -11,2 +11,3 @@   import (  \n \t\"a\"\n+\t\"b\"\n )\n@@ -30 +31 @@\n-x\n+y";
        let hunks = parse_patch(patch).unwrap_or_default();
        let sections: Vec<&str> = hunks.iter().map(|hunk| hunk.section()).collect();
        assert_eq!(sections, ["import (", ""]);
        let odd = parse_patch("@@ -1 +1 @@@ x\n-a\n+b").unwrap_or_default();
        assert_eq!(odd.first().map(|hunk| hunk.section()), Some("@ x"));
    }

    #[test]
    fn visible_lines_carry_new_line_numbers() {
        let hunks = parse_patch("@@ -10,3 +20,3 @@\n a\n-b\n+c\n d").unwrap_or_default();
        let visible: Vec<(u32, &str)> = hunks
            .iter()
            .flat_map(|hunk| hunk.visible_lines().map(|(n, line)| (n, line.text)))
            .collect();
        assert_eq!(visible, vec![(20, "a"), (21, "c"), (22, "d")]);
    }

    #[test]
    fn never_panics_on_odd_bytes() {
        let inputs = [
            "@@",
            "@@ -",
            "@@ -1",
            "@@ -1 +",
            "@@ -1 +1",
            "@@ -1 +1 @",
            "@@ -1 +1 @@",
            "@@ -1 +1 @@\n\\",
            "@@ -0,0 +0,0 @@\n\\ x\n",
            "@@ -1 +1 @@ é\n-é\n+ü",
            "\u{feff}@@ -1 +1 @@",
            "@@ -1 +1 @@\r",
            "\r\r\r",
        ];
        for input in inputs {
            let _ = parse_patch(input);
        }
    }
}
