//! Text as a node shows it: cleaned of control characters, word-wrapped and shortened with `…`,
//! and the sizes of edge-label boxes and of the band above a node's title.
//!
//! Why: every box the layout places is sized from its text, and the drawing shows exactly the
//! lines computed here, so wrapping happens once, on the server.
//! What not: no measuring of real fonts; widths are characters times the metrics in `metrics`.

use super::metrics::{DATA_CAP_PX, LABEL_CHAR_PX, LABEL_H_PX, LABEL_PAD_X, NODE_PAD_Y};

/// The width and height of the box drawn behind an edge label.
pub(super) fn label_size(label: &str) -> (f64, f64) {
    let chars = label.chars().count() as f64;
    (chars * LABEL_CHAR_PX + 2.0 * LABEL_PAD_X, LABEL_H_PX)
}

/// `text` on one line of at most `max_chars` characters, ending in `…` when shortened.
pub fn fit(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Control characters become spaces and runs of white space one space.
pub(super) fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| !word.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Word-wraps `text` to `first` characters on the first line and `rest` after, at most `max_lines`
/// lines; words longer than a line are broken, and cut text ends in `…`.
pub(super) fn wrap(text: &str, first: usize, rest: usize, max_lines: usize) -> Vec<String> {
    let width_of = |line: usize| if line == 0 { first.max(1) } else { rest.max(1) };
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut current_len = 0;
    let mut cut = false;
    'words: for word in text.split_whitespace() {
        let chars: Vec<char> = word.chars().collect();
        let mut start = 0;
        while start < chars.len() {
            let width = width_of(lines.len());
            let room = if current_len == 0 {
                width
            } else {
                width.saturating_sub(current_len + 1)
            };
            let remaining = chars.len() - start;
            if remaining <= room {
                if current_len > 0 {
                    current.push(' ');
                    current_len += 1;
                }
                current.extend(chars.iter().skip(start));
                current_len += remaining;
                start = chars.len();
            } else if current_len > 0 && remaining > width_of(lines.len() + 1) && room >= 4 {
                // The word must be broken anyway: start it on this line.
                current.push(' ');
                current.extend(chars.iter().skip(start).take(room));
                current_len += room + 1;
                start += room;
            } else if current_len == 0 {
                // The word alone is wider than a line: break it.
                current.extend(chars.iter().skip(start).take(width));
                current_len = width;
                start += width;
            } else if lines.len() + 1 >= max_lines {
                cut = true;
                break 'words;
            } else {
                lines.push(std::mem::take(&mut current));
                current_len = 0;
                continue;
            }
            if start < chars.len() {
                if lines.len() + 1 >= max_lines {
                    cut = true;
                    break 'words;
                }
                lines.push(std::mem::take(&mut current));
                current_len = 0;
            }
        }
    }
    if current_len > 0 {
        lines.push(current);
    }
    if cut {
        let width = width_of(lines.len().saturating_sub(1));
        if let Some(last) = lines.last_mut() {
            let mut shortened: String = last.chars().take(width.saturating_sub(1)).collect();
            shortened.push('…');
            *last = shortened;
        }
    }
    lines.truncate(max_lines);
    lines
}

/// The y offset, from a node's top, of its first title line.
pub(super) fn content_top(kind: &str) -> f64 {
    NODE_PAD_Y
        + if kind == "data" {
            2.0 * DATA_CAP_PX
        } else {
            0.0
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_cases() {
        let cases: [(&str, usize, usize, &[&str]); 7] = [
            ("", 10, 3, &[]),
            ("short", 10, 3, &["short"]),
            ("one two three four", 9, 3, &["one two", "three", "four"]),
            ("one two three four five six", 9, 2, &["one two", "three…"]),
            ("abcdefghijklmnop", 5, 3, &["abcde", "fghij", "klmn…"]),
            ("abcdefghij", 5, 2, &["abcde", "fghij"]),
            ("  spaced\tout\n words ", 20, 3, &["spaced out words"]),
        ];
        for (text, width, lines, expected) in cases {
            assert_eq!(
                wrap(&clean(text), width, width, lines),
                expected,
                "{text:?}"
            );
        }
        assert_eq!(
            wrap("GET /invite/abc123?redirect=/teams/42", 12, 12, 3),
            ["GET /invite/", "abc123?redir", "ect=/teams/…"]
        );
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(fit("abc", 4), "abc");
        assert_eq!(clean("a\u{0}b\u{7}\r\nc"), "a b c");
    }
}
