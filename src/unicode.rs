//! Characters that change how text around them is shown without being seen themselves.
//!
//! A name shown to a person deciding whether to trust something (the consent page's "Connect
//! Claude Code?", the settings page's list of apps, "saved via …" on a review page) must read the
//! same as the bytes behind it. Format characters (Unicode general category Cf: the bidirectional
//! overrides and isolates, zero-width spaces and joiners, the byte-order mark, tag characters) can
//! reverse a run of text or hide characters, so `Claude Code \u{202E}gnp.exe` reads as
//! "Claude Code exe.png"; control characters (Cc) can break lines or the page. Rust's standard
//! library has no general-category table, so the Cf ranges are listed here (Unicode 16).

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

/// `name` without its format and control characters, for names we store but did not refuse
/// (a client's self-reported `clientInfo`).
pub fn without_hidden(name: &str) -> String {
    name.chars().filter(|&c| !is_hidden(c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
