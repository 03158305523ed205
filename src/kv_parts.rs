//! How a text larger than one KV value is laid out over several keys: a head under the key
//! itself naming a write id and a part count, and the parts under `<key>:part:<write id>:<n>`.
//!
//! Why: a Workers KV value holds at most 25 MiB, and the snapshot of a pull request with
//! thousands of large patches can pass that. Refused by KV, such a snapshot was never cached, so
//! every read of that pull request paid the full GitHub request budget again.
//! Why the write id in the part keys: two writers of one key (two first reads at once) may split
//! slightly different texts; a reader only ever reads the parts its head names, so it never
//! stitches two writes together. The parts are written before the head, so a reader that finds
//! the head finds its parts (KV is eventually consistent across locations; a part not yet
//! visible is a miss, never a wrong answer).
//! Why parts are ranges of the text: a part is handed to KV straight from the text, and a reader
//! appends each part as it arrives, so no step holds the text twice in wasm memory.
//! What not: no KV access (the wasm adapter in `store::kv` does that), no compression.

use std::ops::Range;

/// Marks a head value. Values stored whole never start with it (see [`lay_out`]).
const HEAD_PREFIX: &str = "lkf-parts:v2:";

/// KV's own limit is 25 MiB a value; parts stay well under it.
pub const DEFAULT_PART_BYTES: usize = 20 * 1024 * 1024;

/// The largest text stored. A Worker has 128 MB of memory; reading a text back holds the text,
/// one part in flight (twice: as a JS string and as the Rust copy appended), and then its
/// decoded form, so 32 MiB of text stays near half of it.
pub const MAX_TEXT_BYTES: usize = 32 * 1024 * 1024;

/// The most parts one value may take (each is a KV read): 2 at the default part size; the bound
/// matters only for a small configured part size or a damaged head.
pub const MAX_PARTS: usize = 256;

/// How to store one text.
#[derive(Debug, PartialEq, Eq)]
pub enum Layout {
    /// Under the key as it is.
    Whole,
    /// The parts (key, byte range of the text) first, then the head under the key.
    Parts {
        head: String,
        parts: Vec<(String, Range<usize>)>,
    },
    /// Over [`MAX_TEXT_BYTES`], or more than [`MAX_PARTS`] parts: not stored.
    TooLarge,
}

/// What a value read under a key is.
#[derive(Debug, PartialEq, Eq)]
pub enum Head {
    /// The text itself.
    Whole,
    /// A head: read these keys in order and append their values.
    Parts(Vec<String>),
}

/// The key of part `index` (from 1) of the write `write_id` of the value under `key`.
fn part_key(key: &str, write_id: &str, index: usize) -> String {
    format!("{key}:part:{write_id}:{index}")
}

/// Lays `text` out in values of at most `part_bytes` bytes (at least 1 KiB, so a misconfigured
/// size cannot make thousands of parts), cut on character boundaries. `write_id` must be unique
/// per write and free of `:` (a random base64url id is).
pub fn lay_out(key: &str, text: &str, part_bytes: usize, write_id: &str) -> Layout {
    let part_bytes = part_bytes.max(1024);
    if text.len() > MAX_TEXT_BYTES {
        return Layout::TooLarge;
    }
    if text.len() <= part_bytes && !text.starts_with(HEAD_PREFIX) {
        return Layout::Whole;
    }
    let mut parts = Vec::new();
    let mut start = 0;
    while start < text.len() || parts.is_empty() {
        if parts.len() == MAX_PARTS {
            return Layout::TooLarge;
        }
        let mut end = (start + part_bytes).min(text.len());
        // A character is at most 4 bytes and a part at least 1 KiB, so this always advances.
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        parts.push((part_key(key, write_id, parts.len() + 1), start..end));
        start = end;
    }
    Layout::Parts {
        head: format!("{HEAD_PREFIX}{write_id}:{}", parts.len()),
        parts,
    }
}

/// Reads a value found under `key`: the text itself, or the head of parts. A head that does not
/// parse, or names more parts than are ever written, counts as the text itself, which will then
/// fail to decode like any damaged value.
pub fn read_head(key: &str, value: &str) -> Head {
    let Some(rest) = value.strip_prefix(HEAD_PREFIX) else {
        return Head::Whole;
    };
    let Some((write_id, count)) = rest.rsplit_once(':') else {
        return Head::Whole;
    };
    match count.parse::<usize>() {
        Ok(count)
            if (1..=MAX_PARTS).contains(&count)
                && !write_id.is_empty()
                && !write_id.contains(':') =>
        {
            Head::Parts(
                (1..=count)
                    .map(|index| part_key(key, write_id, index))
                    .collect(),
            )
        }
        _ => Head::Whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lays out, stores in a map, then reads back as a reader would.
    fn round_trip(text: &str, part_bytes: usize) -> Option<String> {
        let mut stored = std::collections::HashMap::new();
        match lay_out("k", text, part_bytes, "w1") {
            Layout::Whole => {
                stored.insert("k".to_string(), text.to_string());
            }
            Layout::Parts { head, parts } => {
                for (key, range) in parts {
                    stored.insert(key, text[range].to_string());
                }
                stored.insert("k".to_string(), head);
            }
            Layout::TooLarge => return None,
        }
        let value = stored.get("k")?;
        match read_head("k", value) {
            Head::Whole => Some(value.clone()),
            Head::Parts(keys) => keys
                .iter()
                .map(|key| stored.get(key).cloned())
                .collect::<Option<Vec<_>>>()
                .map(|parts| parts.concat()),
        }
    }

    #[test]
    fn a_small_text_is_stored_whole() {
        assert_eq!(lay_out("k", "{\"a\":1}", 1024, "w"), Layout::Whole);
        assert_eq!(read_head("k", "{\"a\":1}"), Head::Whole);
    }

    #[test]
    fn a_large_text_comes_back_whole_from_its_parts() {
        let text: String = (0..2_000).map(|i| format!("{{\"line\":{i}}},")).collect();
        assert_eq!(round_trip(&text, 8192).as_deref(), Some(text.as_str()));
        let Layout::Parts { head, parts } = lay_out("snap", &text, 8192, "id") else {
            panic!("expected parts");
        };
        assert_eq!(parts.len(), 4, "{} bytes", text.len());
        assert_eq!(head, "lkf-parts:v2:id:4");
        assert_eq!(parts[0], ("snap:part:id:1".to_string(), 0..8192));
        assert_eq!(parts[3].0, "snap:part:id:4");
        assert_eq!(parts[3].1.end, text.len());
        assert!(parts.iter().all(|(_, range)| range.len() <= 8192));
    }

    #[test]
    fn parts_are_cut_on_character_boundaries() {
        let text = "é€😀".repeat(1_000); // 2, 3 and 4 bytes
        assert_eq!(round_trip(&text, 2048).as_deref(), Some(text.as_str()));
    }

    #[test]
    fn a_text_that_looks_like_a_head_is_stored_in_parts() {
        let text = "lkf-parts:v2:x:2";
        assert!(matches!(
            lay_out("k", text, 1024, "w"),
            Layout::Parts { .. }
        ));
        assert_eq!(round_trip(text, 1024).as_deref(), Some(text));
    }

    #[test]
    fn too_many_parts_are_not_stored() {
        let text = "x".repeat(1024 * MAX_PARTS + 1);
        assert_eq!(lay_out("k", &text, 1024, "w"), Layout::TooLarge);
        let fits = "x".repeat(1024 * MAX_PARTS);
        let Layout::Parts { parts, .. } = lay_out("k", &fits, 1024, "w") else {
            panic!("expected parts");
        };
        assert_eq!(parts.len(), MAX_PARTS);
    }

    #[test]
    fn a_text_over_the_memory_bound_is_not_stored() {
        let text = "x".repeat(MAX_TEXT_BYTES + 1);
        assert_eq!(
            lay_out("k", &text, DEFAULT_PART_BYTES, "w"),
            Layout::TooLarge
        );
        let fits = "x".repeat(MAX_TEXT_BYTES);
        let Layout::Parts { parts, .. } = lay_out("k", &fits, DEFAULT_PART_BYTES, "w") else {
            panic!("expected parts");
        };
        assert_eq!(parts.len(), 2);
    }

    #[test]
    fn a_reader_reads_only_the_parts_its_head_names() {
        // Two writes of one key: each head names its own write's parts.
        let Head::Parts(first) = read_head("k", "lkf-parts:v2:a:2") else {
            panic!("expected parts");
        };
        let Head::Parts(second) = read_head("k", "lkf-parts:v2:b:2") else {
            panic!("expected parts");
        };
        assert_eq!(first, ["k:part:a:1", "k:part:a:2"]);
        assert!(first.iter().all(|key| !second.contains(key)));
    }

    #[test]
    fn a_damaged_head_reads_as_a_whole_value() {
        for value in [
            "lkf-parts:v2:",
            "lkf-parts:v2:w",
            "lkf-parts:v2:w:0",
            "lkf-parts:v2:w:257",
            "lkf-parts:v2::2",
            "lkf-parts:v2:w:x:2",
            "lkf-parts:v2:w:two",
        ] {
            assert_eq!(read_head("k", value), Head::Whole, "{value}");
        }
    }
}
