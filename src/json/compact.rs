//! A reader for JSON in the one form `serde_json::to_string` writes, and our own writers of the
//! same types write (`get_pull_request::snapshot_text`), for a type we wrote ourselves: no
//! whitespace, keys in the order the type declares them, whole numbers without sign, fraction or
//! exponent.
//!
//! Why: [`super::decode`] builds a whole [`serde_json::Value`] tree (a `BTreeMap` per object, a
//! `String` per key) and then takes it apart again. For text we wrote ourselves and read on a hot
//! path (the lean snapshot every save reads: 320 files, ~60 KB; the cached snapshot's header every
//! review page view decodes: 3,000 files, several MB) that tree was a fifth of the save's CPU and
//! half of the page's (issue #19); read here, in order, straight into the typed value, it costs a
//! small fraction. Reading keys in their written order, rather than matching any order, keeps
//! the reader a few straight lines per type (the wasm size budget).
//!
//! What not: it is no general JSON parser. Anything outside that one form (whitespace, keys in
//! another order, `null` for an absent value, negative or fractional numbers) is `None`: for the
//! texts we cache, a damaged or foreign entry, which the caller treats as not cached. So the
//! reader must read everything our writers write (tests write and read back every escape), and
//! never read a text differently from [`super::decode`] (tests on varied and damaged text).

/// A position in compact JSON text. A read that finds something else marks the reader failed
/// and gives an empty value; every read after it fails too, and [`Compact::finish`] says so.
/// (One check at the end, rather than an early return after every read, keeps each type's reader
/// straight-line code: returning early drops what was read so far, a copy per exit.)
pub struct Compact<'a> {
    text: &'a str,
    at: usize,
    failed: bool,
}

impl<'a> Compact<'a> {
    pub fn new(text: &'a str) -> Compact<'a> {
        Compact {
            text,
            at: 0,
            failed: false,
        }
    }

    /// Marks the text as not in the form read; the rest reads as empty.
    fn fail(&mut self) {
        self.failed = true;
        self.at = self.text.len();
    }

    /// The text not read yet.
    fn rest(&self) -> &'a [u8] {
        self.text.as_bytes().get(self.at..).unwrap_or_default()
    }

    /// Reads `word` (punctuation, a key with its quotes and colon, a literal) when it comes next.
    pub fn word(&mut self, word: &str) -> bool {
        let found = self.rest().starts_with(word.as_bytes());
        if found {
            self.at += word.len();
        }
        found
    }

    /// `word` must come next.
    pub fn expect(&mut self, word: &str) {
        if !self.word(word) {
            self.fail();
        }
    }

    /// Every read succeeded and the whole text was read.
    pub fn finish(&self) -> Option<()> {
        (!self.failed && self.at == self.text.len()).then_some(())
    }

    /// `true` or `false` after `key`, which must come next.
    pub fn bool_at(&mut self, key: &str) -> bool {
        self.expect(key);
        if self.word("true") {
            return true;
        }
        self.expect("false");
        false
    }

    /// A whole number of 0 or more, of at most 19 digits (always below `u64::MAX`, so no
    /// overflow check; `decode` reads a 20-digit one that fits).
    pub fn u64(&mut self) -> u64 {
        let digits = self.rest();
        let count = digits.iter().take_while(|d| d.is_ascii_digit()).count();
        // No digits, too many, or a leading zero (not JSON).
        if count == 0 || count > 19 || (count > 1 && digits[0] == b'0') {
            self.fail();
            return 0;
        }
        self.at += count;
        digits[..count]
            .iter()
            .fold(0, |value, digit| value * 10 + u64::from(digit - b'0'))
    }

    /// A whole number that fits `usize` (32 bits in wasm) after `key`, as `decode` reads one.
    pub fn usize_at(&mut self, key: &str) -> usize {
        self.expect(key);
        self.usize()
    }

    /// A whole number that fits `usize`.
    pub fn usize(&mut self) -> usize {
        let wide = self.u64();
        usize::try_from(wide).unwrap_or_else(|_| {
            self.fail();
            0
        })
    }

    /// A string with any escape JSON has: the short ones, and `\u` with four hex digits for
    /// one character (`serde_json` and `quote` write it for control characters only; a
    /// surrogate, half of a pair they never write, fails). A raw control character fails.
    pub fn string(&mut self) -> String {
        let mut out = String::new();
        self.expect("\"");
        while !self.failed {
            let rest = self.rest();
            let Some(length) = rest
                .iter()
                .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)
            else {
                self.fail();
                break;
            };
            out.push_str(self.text.get(self.at..self.at + length).unwrap_or_default());
            self.at += length + 2;
            let escaped = match (rest[length], rest.get(length + 1)) {
                (b'"', _) => {
                    self.at -= 1;
                    break;
                }
                (b'\\', Some(b'"')) => '"',
                (b'\\', Some(b'\\')) => '\\',
                (b'\\', Some(b'/')) => '/',
                (b'\\', Some(b'n')) => '\n',
                (b'\\', Some(b'r')) => '\r',
                (b'\\', Some(b't')) => '\t',
                (b'\\', Some(b'b')) => '\u{8}',
                (b'\\', Some(b'f')) => '\u{c}',
                (b'\\', Some(b'u')) => {
                    let hex = self.text.get(self.at..self.at + 4).unwrap_or_default();
                    self.at += 4;
                    // `from_str_radix` takes a sign too: four hex digits only.
                    match u32::from_str_radix(hex, 16)
                        .ok()
                        .filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))
                        .and_then(char::from_u32)
                    {
                        Some(escaped) => escaped,
                        None => {
                            self.fail();
                            break;
                        }
                    }
                }
                _ => {
                    self.fail();
                    break;
                }
            };
            out.push(escaped);
        }
        out
    }

    /// An array, each item read by `item` (one function for every item type: the wasm size).
    pub fn list(&mut self, item: &mut dyn FnMut(&mut Compact<'a>)) {
        self.expect("[");
        if self.failed || self.word("]") {
            return;
        }
        while !self.failed {
            item(self);
            if !self.word(",") {
                self.expect("]");
                break;
            }
        }
    }

    /// An array of strings.
    pub fn strings(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        self.list(&mut |reader| out.push(reader.string()));
        out
    }

    /// The string after `key` (written `,"name":`), which must come next.
    pub fn string_at(&mut self, key: &str) -> String {
        self.expect(key);
        self.string()
    }

    /// The number after `key`, which must come next.
    pub fn u64_at(&mut self, key: &str) -> u64 {
        self.expect(key);
        self.u64()
    }

    /// The value of an optional key: `None` when `key` (written `,"name":`) isn't next, else its
    /// string.
    pub fn optional_string(&mut self, key: &str) -> Option<String> {
        self.word(key).then(|| self.string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> Option<String> {
        let mut reader = Compact::new(text);
        let out = reader.string();
        reader.finish().map(|()| out)
    }

    fn number(text: &str) -> Option<u64> {
        let mut reader = Compact::new(text);
        let out = reader.u64();
        reader.finish().map(|()| out)
    }

    #[test]
    fn strings_read_as_serde_json_writes_them() {
        for text in [
            "",
            "plain",
            "quote \" backslash \\ slash / tab \t newline \n return \r",
            "\u{7f} é ü 日本 🦀",
            "bell \u{7} backspace \u{8} form feed \u{c} escape \u{1b} nul \u{0} \u{1f}",
        ] {
            let written = serde_json::to_string(text).unwrap_or_default();
            assert_eq!(string(&written).as_deref(), Some(text), "{written}");
            let mut ours = String::new();
            crate::quote::push_json_string(&mut ours, text);
            assert_eq!(string(&ours).as_deref(), Some(text), "{ours}");
        }
        // Escapes neither writer uses, as JSON reads them.
        for (text, read) in [("\"a\\/b\"", "a/b"), ("\"\\u0041\\u00e9\\u65E5\"", "Aé日")] {
            assert_eq!(string(text).as_deref(), Some(read), "{text}");
        }
        for bad in [
            "",
            "\"",
            "\"open",
            "\"a\\\"",
            "\"a\\",
            "\"\\x\"",
            "\"\\u\"",
            "\"\\u00\"",
            "\"\\u+041\"",
            "\"\\u-041\"",
            "\"\\u00g1\"",
            "\"\\ud83e\\udd80\"",
            "\"\\ud83e\"",
            "\"raw \n newline\"",
            "'single'",
            "\"a\" ",
        ] {
            assert_eq!(string(bad), None, "{bad}");
        }
    }

    #[test]
    fn numbers_are_whole_unsigned_and_short() {
        assert_eq!(number("0"), Some(0));
        assert_eq!(number("42"), Some(42));
        assert_eq!(
            number("9999999999999999999"),
            Some(9_999_999_999_999_999_999)
        );
        for bad in [
            "",
            "-1",
            "-0",
            "01",
            "1.0",
            "1e2",
            "18446744073709551615",
            "+1",
            " 1",
        ] {
            assert_eq!(number(bad), None, "{bad}");
        }
    }

    #[test]
    fn lists_and_words() {
        let read = |text: &str| {
            let mut reader = Compact::new(text);
            let mut list = Vec::new();
            reader.list(&mut |reader| list.push(reader.u64()));
            let flag = reader.word(",") && reader.bool_at("");
            reader.finish().map(|()| (list, flag))
        };
        assert_eq!(read("[]"), Some((vec![], false)));
        assert_eq!(read("[1,2],true"), Some((vec![1, 2], true)));
        assert_eq!(read("[3],false"), Some((vec![3], false)));
        for bad in ["[", "[1", "[1,]", "[1 ]", "[,1]", "[1],", "[1],nope", "[]]"] {
            assert_eq!(read(bad), None, "{bad}");
        }
    }
}
