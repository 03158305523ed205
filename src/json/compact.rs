//! A reader for JSON in the one form `serde_json::to_string` writes: no whitespace, whole
//! numbers without sign, fraction or exponent, strings with only the escapes it writes.
//!
//! Why: [`super::decode`] builds a whole [`serde_json::Value`] tree (a `BTreeMap` per object, a
//! `String` per key) and then takes it apart again. For text we wrote ourselves and read on a hot
//! path (the lean snapshot every save reads: 320 files, ~60 KB) that tree was a fifth of the
//! save's CPU (issue #19); read here, straight into the typed value, it costs a small fraction.
//!
//! What not: it is no general JSON parser. Anything outside that one form (whitespace, negative
//! or fractional numbers, a lone surrogate, a key with an escape, a key the reader does not
//! expect) is `None`, and the caller falls back to [`super::decode`], which reads every JSON and
//! names what is wrong. So a type read both ways must come out the same, which its tests check
//! against `decode` on varied and damaged text.

/// A position in compact JSON text.
pub struct Compact<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Compact<'a> {
    pub fn new(text: &'a str) -> Compact<'a> {
        Compact { text, at: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn word(&mut self, word: &str) -> bool {
        let found = self.text.as_bytes()[self.at..].starts_with(word.as_bytes());
        if found {
            self.at += word.len();
        }
        found
    }

    /// The whole text was read.
    pub fn end(&self) -> Option<()> {
        (self.at == self.text.len()).then_some(())
    }

    /// Reads `null` when it comes next.
    pub fn null(&mut self) -> bool {
        self.word("null")
    }

    pub fn bool(&mut self) -> Option<bool> {
        if self.word("true") {
            Some(true)
        } else if self.word("false") {
            Some(false)
        } else {
            None
        }
    }

    /// A whole number of 0 or more that fits `u64` (`decode` reads a larger one as a float).
    pub fn u64(&mut self) -> Option<u64> {
        let digits = self.text.as_bytes()[self.at..]
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        let text = self.text.get(self.at..self.at + digits)?;
        if digits == 0 || (digits > 1 && text.starts_with('0')) {
            return None;
        }
        self.at += digits;
        text.parse().ok()
    }

    /// A key without escapes, borrowed, and its colon.
    fn key(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        let length = self.text.as_bytes()[start..]
            .iter()
            .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)?;
        self.at += length;
        self.eat(b'"')?;
        self.eat(b':')?;
        self.text.get(start..start + length)
    }

    pub fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let mut out = String::new();
        loop {
            let start = self.at;
            let length = self.text.as_bytes()[start..]
                .iter()
                .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20)?;
            out.push_str(self.text.get(start..start + length)?);
            self.at += length;
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.at += 1;
                    out.push(self.escape()?);
                }
                // A raw control character: not JSON.
                _ => return None,
            }
        }
    }

    /// The character of an escape, after its backslash; `None` for a surrogate, which
    /// `serde_json` never writes alone and which pairs would need more code than they are worth.
    fn escape(&mut self) -> Option<char> {
        let byte = self.peek()?;
        self.at += 1;
        Some(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hex = self.text.get(self.at..self.at + 4)?;
                if !hex.bytes().all(|byte| byte.is_ascii_hexdigit()) {
                    return None;
                }
                self.at += 4;
                char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
            }
            _ => return None,
        })
    }

    /// An object: `field` reads each value after its key (and answers `None` for a key it does
    /// not know).
    pub fn object(
        &mut self,
        field: &mut dyn FnMut(&mut Compact<'a>, &str) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            let key = self.key()?;
            field(self, key)?;
            if self.eat(b',').is_none() {
                return self.eat(b'}');
            }
        }
    }

    /// An array: `item` reads each element.
    pub fn array(&mut self, item: &mut dyn FnMut(&mut Compact<'a>) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        if self.eat(b']').is_some() {
            return Some(());
        }
        loop {
            item(self)?;
            if self.eat(b',').is_none() {
                return self.eat(b']');
            }
        }
    }

    /// A string or `null`.
    pub fn optional_string(&mut self) -> Option<Option<String>> {
        if self.null() {
            Some(None)
        } else {
            self.string().map(Some)
        }
    }

    /// An array of strings.
    pub fn strings(&mut self) -> Option<Vec<String>> {
        let mut out = Vec::new();
        self.array(&mut |reader| {
            out.push(reader.string()?);
            Some(())
        })?;
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str) -> Option<String> {
        let mut reader = Compact::new(text);
        let out = reader.string()?;
        reader.end()?;
        Some(out)
    }

    fn number(text: &str) -> Option<u64> {
        let mut reader = Compact::new(text);
        let out = reader.u64()?;
        reader.end()?;
        Some(out)
    }

    #[test]
    fn strings_read_as_serde_json_writes_them() {
        for text in [
            "",
            "plain",
            "quote \" backslash \\ slash / tab \t newline \n return \r",
            "\u{8}\u{c}\u{1}\u{1f}\u{7f}",
            "é ü 日本 🦀",
        ] {
            let written = serde_json::to_string(text).unwrap_or_default();
            assert_eq!(string(&written).as_deref(), Some(text), "{written}");
        }
        assert_eq!(string(r#""\u00e9\u65e5""#).as_deref(), Some("é日"));
        for bad in [
            "",
            "\"",
            "\"open",
            "\"a\\\"",
            "\"\\x\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"\\ud83e\"",
            "\"\\ud83e\\udd80\"",
            "\"raw \n newline\"",
            "'single'",
            "\"a\" ",
        ] {
            assert_eq!(string(bad), None, "{bad}");
        }
    }

    #[test]
    fn numbers_are_whole_and_unsigned() {
        assert_eq!(number("0"), Some(0));
        assert_eq!(number("42"), Some(42));
        assert_eq!(number("18446744073709551615"), Some(u64::MAX));
        for bad in [
            "",
            "-1",
            "-0",
            "01",
            "1.0",
            "1e2",
            "18446744073709551616",
            "+1",
            " 1",
        ] {
            assert_eq!(number(bad), None, "{bad}");
        }
    }

    #[test]
    fn objects_and_arrays() {
        let mut reader = Compact::new(r#"{"a":[1,2],"b":{},"c":[],"d":null,"e":true}"#);
        let mut seen = Vec::new();
        let read = reader.object(&mut |reader, key| {
            seen.push(key.to_string());
            match key {
                "a" => reader.array(&mut |reader| reader.u64().map(drop)),
                "b" => reader.object(&mut |_, _| None),
                "c" => reader.array(&mut |_| None),
                "d" => reader.null().then_some(()),
                "e" => reader.bool().map(drop),
                _ => None,
            }
        });
        assert_eq!(read.and_then(|()| reader.end()), Some(()));
        assert_eq!(seen, ["a", "b", "c", "d", "e"]);
        for bad in [
            "{",
            "{\"a\":1",
            "{\"a\":1,}",
            "{\"a\" :1}",
            "{\"a\\n\":1}",
            "[1,]",
            "[1 ]",
            "[1",
            "{}}",
        ] {
            let mut reader = Compact::new(bad);
            let read = match bad.as_bytes()[0] {
                b'{' => reader.object(&mut |reader, _| reader.u64().map(drop)),
                _ => reader.array(&mut |reader| reader.u64().map(drop)),
            };
            assert_eq!(read.and_then(|()| reader.end()), None, "{bad}");
        }
    }
}
