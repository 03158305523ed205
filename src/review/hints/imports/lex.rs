//! A small, configurable lexer that turns a hunk's visible lines into tokens without comments.
//!
//! Why: imports in comments or docs are not imports, and string literals may contain `//` or the
//! word `import`; every language reader needs the same comment and string handling, so it lives
//! here once, configured per language by a [`Syntax`] table.
//! Tokens borrow from the hunk: identifiers (ASCII letters, digits, `_`, `$` and any non-ASCII
//! character, so slices always fall on character boundaries), single-line string contents,
//! punctuation bytes, and a start-of-line marker with the line's indentation.
//! State (inside a block comment or a multi-line string) carries across the visible lines of one
//! hunk and resets at the next hunk, whose start we cannot place. A hunk may start inside a block
//! comment: lines starting with `*` are taken as doc-comment continuations when the syntax says so.
//!
//! What not: no numbers, operators or keywords as such, no nested block comments, no raw-string
//! or heredoc forms, no template-literal interpolation. Good enough for import lines, not a parser.

use crate::review::patch::Hunk;

/// How a language writes comments and strings.
#[derive(Debug, Clone, Copy)]
pub struct Syntax {
    /// Openers of comments that run to the end of the line.
    pub line_comments: &'static [&'static str],
    /// Whether `/* … */` comments exist.
    pub block_comments: bool,
    /// Quote bytes of strings that end on their line.
    pub quotes: &'static [u8],
    /// A quote byte whose strings may span lines (JavaScript template literals, Go raw strings).
    pub multiline_quote: Option<u8>,
    /// Whether `"""` and `'''` strings (spanning lines) exist.
    pub triple_quotes: bool,
    /// Whether `#[` starts an attribute rather than a comment (PHP 8).
    pub hash_bracket_is_code: bool,
    /// Whether `=begin` … `=end` lines are a comment (Ruby).
    pub begin_end_comments: bool,
    /// Whether a line starting with `*` is a doc-comment continuation.
    pub star_lines_are_comments: bool,
}

/// One token of a visible line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok<'a> {
    /// Start of a line, with the byte length of its leading whitespace.
    Bol(usize),
    Ident(&'a str),
    /// A string literal's contents, escapes left as written.
    Str(&'a str),
    Punct(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    BlockComment,
    /// Inside a string that ends with this delimiter.
    String(&'static str),
    BeginEnd,
}

/// Appends the tokens of a hunk's visible lines to `out`.
pub fn tokens<'a>(hunk: &Hunk<'a>, syntax: &Syntax, out: &mut Vec<Tok<'a>>) {
    let mut state = State::Code;
    for line in hunk.lines.iter().filter(|line| line.is_visible()) {
        state = lex_line(line.text, syntax, state, out);
    }
}

/// Appends the tokens of a whole file's text to `out` (a file read at the head, where the state
/// is known from the first line).
pub fn text_tokens<'a>(text: &'a str, syntax: &Syntax, out: &mut Vec<Tok<'a>>) {
    let mut state = State::Code;
    for line in text.lines() {
        state = lex_line(line, syntax, state, out);
    }
}

/// Whether `tokens[at]` is the word `keyword` at the start of a line (the first token after a
/// line break): how Java's and Scala's `import` statements are found.
pub fn starts_line(tokens: &[Tok<'_>], at: usize, keyword: &str) -> bool {
    let before = at.checked_sub(1).and_then(|before| tokens.get(before));
    matches!(before, Some(Tok::Bol(_))) && tokens.get(at) == Some(&Tok::Ident(keyword))
}

/// Whether any visible line of the hunk contains one of `words` (none empty); a cheap filter run
/// before lexing. Why not `str::contains` per word: it sets up a two-way searcher on every call,
/// which for short words on short lines cost more than the search, and this filter was a fifth
/// of the hints' time on a 3,000-file pull request (#19). Instead one pass over each line stops
/// only at bytes that may start a word and compares there.
pub fn mentions(hunk: &Hunk<'_>, words: &[&str]) -> bool {
    // The words' first bytes, as a set of their low six bits (a false hit only costs a compare).
    let starts = words
        .iter()
        .filter_map(|word| word.as_bytes().first())
        .fold(0u64, |set, byte| set | 1 << (byte & 63));
    hunk.lines
        .iter()
        .filter(|line| line.is_visible())
        .any(|line| {
            let bytes = line.text.as_bytes();
            bytes.iter().enumerate().any(|(at, byte)| {
                starts >> (byte & 63) & 1 == 1
                    && words.iter().any(|word| {
                        // The first byte compared inline: most candidates fail it, and a call
                        // to `memcmp` for each was a tenth of the hints' time (issue #32).
                        word.as_bytes().first() == Some(byte)
                            && bytes
                                .get(at..)
                                .is_some_and(|rest| rest.starts_with(word.as_bytes()))
                    })
            })
        })
}

fn lex_line<'a>(line: &'a str, syntax: &Syntax, mut state: State, out: &mut Vec<Tok<'a>>) -> State {
    let bytes = line.as_bytes();
    let indent = bytes
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .count();
    out.push(Tok::Bol(indent));
    let mut i = match state {
        State::Code => {
            let rest = line.get(indent..).unwrap_or("");
            if syntax.begin_end_comments && indent == 0 && rest.starts_with("=begin") {
                return State::BeginEnd;
            }
            if syntax.star_lines_are_comments && rest.starts_with('*') {
                return State::Code;
            }
            0
        }
        State::BeginEnd => {
            return if line.starts_with("=end") {
                State::Code
            } else {
                State::BeginEnd
            };
        }
        State::BlockComment => match find(bytes, 0, b"*/") {
            Some(end) => {
                state = State::Code;
                end + 2
            }
            None => return State::BlockComment,
        },
        State::String(delimiter) => match find_unescaped(bytes, 0, delimiter.as_bytes()) {
            Some(end) => {
                state = State::Code;
                end + delimiter.len()
            }
            None => return state,
        },
    };
    while let Some(&byte) = bytes.get(i) {
        if is_ident_byte(byte) {
            let start = i;
            while bytes.get(i).is_some_and(|b| is_ident_byte(*b)) {
                i += 1;
            }
            if let Some(text) = line.get(start..i) {
                out.push(Tok::Ident(text));
            }
            continue;
        }
        if byte == b' ' || byte == b'\t' || byte == b'\r' {
            i += 1;
            continue;
        }
        let rest = bytes.get(i..).unwrap_or(&[]);
        let opens_comment = syntax.line_comments.iter().any(|opener| {
            opener.as_bytes().first() == Some(&byte) && rest.starts_with(opener.as_bytes())
        });
        if opens_comment && !(syntax.hash_bracket_is_code && rest.get(1) == Some(&b'[')) {
            return State::Code;
        }
        if syntax.block_comments && byte == b'/' && rest.get(1) == Some(&b'*') {
            match find(bytes, i + 2, b"*/") {
                Some(end) => {
                    i = end + 2;
                    continue;
                }
                None => return State::BlockComment,
            }
        }
        let triple = (byte == b'"' || byte == b'\'')
            && rest.get(1) == Some(&byte)
            && rest.get(2) == Some(&byte);
        if syntax.triple_quotes && triple {
            let delimiter = if byte == b'"' { "\"\"\"" } else { "'''" };
            match find_unescaped(bytes, i + 3, delimiter.as_bytes()) {
                Some(end) => {
                    if let Some(text) = line.get(i + 3..end) {
                        out.push(Tok::Str(text));
                    }
                    i = end + 3;
                    continue;
                }
                None => return State::String(delimiter),
            }
        }
        let multiline = syntax.multiline_quote == Some(byte);
        if multiline || syntax.quotes.contains(&byte) {
            let delimiter = [byte];
            match find_unescaped(bytes, i + 1, &delimiter) {
                Some(end) => {
                    if let Some(text) = line.get(i + 1..end) {
                        out.push(Tok::Str(text));
                    }
                    i = end + 1;
                    continue;
                }
                None if multiline => return State::String(if byte == b'`' { "`" } else { "\"" }),
                // An unterminated string ends at the end of the line.
                None => return State::Code,
            }
        }
        out.push(Tok::Punct(byte));
        i += 1;
    }
    state
}

/// Identifier bytes: ASCII letters and digits, `_`, `$`, and every byte of a non-ASCII character.
const IDENT_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
        byte += 1;
    }
    table
};

fn is_ident_byte(byte: u8) -> bool {
    IDENT_BYTES[usize::from(byte)]
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    let haystack = bytes.get(from..)?;
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
        .map(|at| at + from)
}

/// Finds `delimiter` from `from`, skipping bytes escaped with a backslash.
fn find_unescaped(bytes: &[u8], from: usize, delimiter: &[u8]) -> Option<usize> {
    if delimiter.is_empty() {
        return None;
    }
    let mut i = from;
    while let Some(&byte) = bytes.get(i) {
        if byte == b'\\' {
            i += 2;
            continue;
        }
        if bytes
            .get(i..)
            .is_some_and(|rest| rest.starts_with(delimiter))
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Iterates tokens skipping start-of-line markers, for languages where lines do not matter.
pub fn code<'a>(tokens: &[Tok<'a>]) -> Vec<Tok<'a>> {
    tokens
        .iter()
        .copied()
        .filter(|token| !matches!(token, Tok::Bol(_)))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{mentions, tokens, Syntax, Tok};
    use crate::review::hints::testing::patch_from_body;
    use crate::review::patch::parse_patch;

    pub(crate) const C_LIKE: Syntax = Syntax {
        line_comments: &["//"],
        block_comments: true,
        quotes: b"\"'",
        multiline_quote: Some(b'`'),
        triple_quotes: false,
        hash_bracket_is_code: false,
        begin_end_comments: false,
        star_lines_are_comments: true,
    };

    /// Renders tokens compactly: `|` for a line start, `'x'` for strings, words and bytes as-is.
    fn check(syntax: &Syntax, body: &str, expected: &str) {
        let patch = patch_from_body(body).unwrap_or_default();
        let hunks = parse_patch(&patch).unwrap_or_else(|error| panic!("{error}"));
        let mut out = Vec::new();
        for hunk in &hunks {
            tokens(hunk, syntax, &mut out);
        }
        let got: Vec<String> = out
            .iter()
            .map(|token| match token {
                Tok::Bol(_) => "|".to_string(),
                Tok::Ident(text) => text.to_string(),
                Tok::Str(text) => format!("'{text}'"),
                Tok::Punct(byte) => (*byte as char).to_string(),
            })
            .collect();
        assert_eq!(got.join(" "), expected, "{body}");
    }

    #[test]
    fn mentions_agrees_with_str_contains() {
        let lines = [
            "",
            "i",
            "import",
            "imimport x",
            "  from 'a'\r",
            "é import 🦀 require",
            "reimport",
            "impor",
            "fn main() {",
            "\u{0}\u{7f}\u{80}ÿ",
            // Bytes whose low six bits match a word's first byte (`)` is `i` less 64).
            ")mport Ire",
            "use crate::x;",
            "macro_rules! m",
        ];
        let long = format!("{}import", "i".repeat(5000));
        let word_lists: [&[&str]; 5] = [
            &["import", "require", "from"],
            &["use", "mod", "crate", "fn", "macro_rules"],
            &["@import", "@use", "@forward"],
            &["🦀"],
            &["é"],
        ];
        let mut all: Vec<&str> = lines.to_vec();
        all.push(&long);
        for first in &all {
            for second in &all {
                for (marker, header) in [("+", "-1 +1,2"), (" ", "-1,2 +1,2"), ("-", "-1,2 +1")] {
                    let patch = format!("@@ {header} @@\n {first}\n{marker}{second}\n");
                    let hunks = parse_patch(&patch).unwrap_or_else(|e| panic!("{e}: {patch}"));
                    let hunk = &hunks[0];
                    for words in word_lists {
                        let expected = hunk
                            .lines
                            .iter()
                            .filter(|line| line.is_visible())
                            .any(|line| words.iter().any(|word| line.text.contains(word)));
                        assert_eq!(mentions(hunk, words), expected, "{words:?} in {patch:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn comments_and_strings() {
        check(
            &C_LIKE,
            "+import x from 'http://a/b'; // import y from 'z'\n+/* import q from 'q' */ import r from \"r\"",
            "| import x from 'http://a/b' ; | import r from 'r'",
        );
        check(
            &C_LIKE,
            "+/**\n+ * import a from 'a'\n+ */\n+export * from './b'",
            "| | | | export * from './b'",
        );
        check(&C_LIKE, "+ * import a from 'a'", "|");
        check(
            &C_LIKE,
            "+const s = 'it\\'s // fine'; f()",
            "| const s = 'it\\'s // fine' ; f ( )",
        );
        check(
            &C_LIKE,
            "+const t = `a\n+import x from 'y'\n+`; z",
            "| const t = | | ; z",
        );
        check(
            &C_LIKE,
            "+const u = 'unterminated\n+next",
            "| const u = | next",
        );
        check(&C_LIKE, "+é_ident2 $x", "| é_ident2 $x");
    }

    #[test]
    fn hash_comments_triple_quotes_and_ruby_blocks() {
        let python = Syntax {
            line_comments: &["#"],
            block_comments: false,
            quotes: b"\"'",
            multiline_quote: None,
            triple_quotes: true,
            hash_bracket_is_code: false,
            begin_end_comments: false,
            star_lines_are_comments: false,
        };
        check(
            &python,
            "+\"\"\"Docs.\n+import os\n+\"\"\"\n+import sys  # import re\n+x = '''one'''",
            "| | | | import sys | x = 'one'",
        );
        let ruby = Syntax {
            begin_end_comments: true,
            ..python
        };
        check(
            &ruby,
            "+=begin\n+require 'x'\n+=end\n+require 'y'",
            "| | | | require 'y'",
        );
        let php = Syntax {
            line_comments: &["//", "#"],
            hash_bracket_is_code: true,
            ..C_LIKE
        };
        check(&php, "+#[Attr] use A; # use B;", "| # [ Attr ] use A ;");
    }

    #[test]
    fn removed_lines_are_not_tokens() {
        check(&C_LIKE, "+a\n-b\n c", "| a | c");
    }
}
