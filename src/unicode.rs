//! Characters that change how text around them is shown without being seen themselves.
//!
//! A name shown to a person deciding whether to trust something (the consent page's "Connect
//! Claude Code?", the settings page's list of apps, "saved via …" on a review page) must read the
//! same as the bytes behind it. Format characters (Unicode general category Cf: the bidirectional
//! overrides and isolates, zero-width spaces and joiners, the byte-order mark, tag characters) can
//! reverse a run of text or hide characters, so `Claude Code \u{202E}gnp.exe` reads as
//! "Claude Code exe.png"; control characters (Cc) can break lines or the page. Rust's standard
//! library has no general-category table, so the Cf ranges are listed here (Unicode 16).
//!
//! A name must also show something: white space and characters that draw nothing (Hangul
//! fillers, the blank braille pattern, variation selectors) make a name that reads as none.

/// Unicode general category Cf, as inclusive ranges in code point order.
const FORMAT_RANGES: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Whether `c` is a format character (general category Cf).
pub fn is_format(c: char) -> bool {
    let code = u32::from(c);
    FORMAT_RANGES
        .binary_search_by(|&(start, end)| {
            if end < code {
                std::cmp::Ordering::Less
            } else if start > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whether `c` would change how a displayed name reads: a format or a control character.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || is_format(c)
}

/// Whether a name can be shown to a person as it is: no format or control characters.
pub fn is_plain_name(name: &str) -> bool {
    !name.chars().any(is_hidden)
}

/// Characters that draw nothing without being white space, format or control characters:
/// Unicode's other default-ignorable code points (DerivedCoreProperties, Unicode 16: the
/// combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian and other
/// variation selectors, the unassigned ignorables) and the blank braille pattern, as inclusive
/// ranges in code point order. A name made of these reads as no name at all (issue #31).
const BLANK_RANGES: &[(u32, u32)] = &[
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE0FFF),
];

/// Whether `c` shows something a reader can see: not white space, not a format or control
/// character, not another character that draws nothing ([`BLANK_RANGES`]).
pub fn is_visible(c: char) -> bool {
    let code = u32::from(c);
    !c.is_whitespace()
        && !is_hidden(c)
        && !BLANK_RANGES
            .iter()
            .any(|&(start, end)| (start..=end).contains(&code))
}

/// Whether a name has at least one visible character, so a person shown it sees a name.
pub fn has_visible(name: &str) -> bool {
    name.chars().any(is_visible)
}

/// `name` without its format and control characters, for names we store but did not refuse
/// (a client's self-reported `clientInfo`).
pub fn without_hidden(name: &str) -> String {
    name.chars().filter(|&c| !is_hidden(c)).collect()
}

/// Whether `c` is a bidirectional control: the embeddings and overrides (U+202A–U+202E), the
/// isolates (U+2066–U+2069) and the direction marks (U+200E, U+200F, U+061C). They reorder
/// the text around them unseen, so `approve\u{202E}txt.exe` reads otherwise than it is.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `text` without its bidirectional controls (issue 36), for text longer than a name that keeps
/// its lines and every other character: an order's overview, titles, notes and checks as they
/// are stored, and comment bodies as the review page shows them. Names lose every hidden
/// character instead ([`without_hidden`]).
pub fn without_bidi_controls(text: &str) -> String {
    text.chars().filter(|&c| !is_bidi_control(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_controls_go_and_lines_stay() {
        let text = "Approve\u{202E}exe.txt\u{202C}\n\u{2067}a\u{2069} \u{200F}b\u{061C}\tc";
        assert_eq!(without_bidi_controls(text), "Approveexe.txt\na b\tc");
        for c in [
            '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2069}',
        ] {
            assert!(is_bidi_control(c) && is_format(c), "{c:?}");
        }
        assert_eq!(without_bidi_controls("مرحبا\n"), "مرحبا\n");
    }

    #[test]
    fn bidi_and_zero_width_characters_are_format_characters() {
        for c in [
            '\u{202E}',
            '\u{202C}',
            '\u{200B}',
            '\u{200D}',
            '\u{2066}',
            '\u{2069}',
            '\u{FEFF}',
            '\u{00AD}',
            '\u{061C}',
            '\u{E0041}',
            '\u{110BD}',
        ] {
            assert!(is_format(c), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn ordinary_letters_and_marks_are_not() {
        for c in [
            'a',
            ' ',
            'é',
            'ß',
            '中',
            '\u{0301}',
            '\u{2028}',
            '\u{1F600}',
            '\u{2065}',
            '\u{E0080}',
        ] {
            assert!(!is_format(c), "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn ranges_are_sorted_and_disjoint() {
        for pair in FORMAT_RANGES.windows(2) {
            assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:?}");
        }
    }

    #[test]
    fn blank_ranges_are_sorted_and_disjoint() {
        for pair in BLANK_RANGES.windows(2) {
            assert!(pair[0].0 <= pair[0].1 && pair[0].1 < pair[1].0, "{pair:?}");
        }
    }

    #[test]
    fn visible_characters() {
        for name in ["a", " Zed ", "中", "é", "\u{3164}x", "\u{1F600}", "·"] {
            assert!(has_visible(name), "{name:?}");
        }
        for name in [
            "",
            " ",
            "\t\n",
            "\u{00A0}\u{2007}\u{3000}",
            "\u{200B}",
            "\u{3164}",
            "\u{115F}\u{1160}",
            "\u{2800}",
            "\u{034F}",
            " \u{FE0F} ",
            "\u{E0041}\u{E0100}",
            "\u{180E}\u{17B4}",
        ] {
            assert!(!has_visible(name), "{name:?}");
        }
    }

    #[test]
    fn names() {
        assert!(is_plain_name("Claude Code"));
        assert!(is_plain_name("Visual Studio Code — Insiders"));
        assert!(!is_plain_name(
            "Claude Code \u{202E}gnp.exe\u{202C} \u{200B}"
        ));
        assert!(!is_plain_name("line\nbreak"));
        assert!(!is_plain_name("bell\u{7}"));
        assert_eq!(without_hidden("Cur\u{200B}sor\u{202E}"), "Cursor");
    }
}
