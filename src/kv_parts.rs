//! How a text larger than one KV value is laid out over several keys: a head under the key
//! itself, naming a write id and a part count, and the parts under `<key>:part:<n>`, each opening
//! with the write id.
//!
//! Why: a Workers KV value holds at most 25 MiB, and the snapshot of a pull request with
//! thousands of large patches can pass that. Refused by KV, such a snapshot was never cached, so
//! every read of that pull request paid the full GitHub request budget again.
//! Why a write id in every part: two writers of one key (two first reads at once) may split
//! slightly different texts; a reader that finds a part from another write treats the whole as
//! missing instead of stitching two texts together. The parts are written before the head, so a
//! reader that finds the head finds its parts (KV is eventually consistent across locations; a
//! part not yet visible is a miss, never a wrong answer).
//! What not: no KV access (the wasm adapter in `store::kv` does that), no compression.

/// Marks a head value. Values stored whole never start with it (see [`lay_out`]).
const HEAD_PREFIX: &str = "lkf-parts:v1:";

/// KV's own limit is 25 MiB a value; parts stay well under it.
pub const DEFAULT_PART_BYTES: usize = 20 * 1024 * 1024;

/// The largest text stored: a Worker has 128 MB of memory, and a larger text read back would
/// not fit beside its decoded form.
pub const MAX_TEXT_BYTES: usize = 100 * 1024 * 1024;

/// The most parts one value may take (each is a KV read): 5 at the default part size; the
/// bound matters only for a small configured part size or a damaged head.
pub const MAX_PARTS: usize = 256;

/// How to store one text.
#[derive(Debug, PartialEq, Eq)]
pub enum Layout<'a> {
    /// Under the key as it is.
    Whole(&'a str),
    /// The parts (key, value) first, then the head under the key.
    Parts {
        head: String,
        parts: Vec<(String, String)>,
    },
    /// Over [`MAX_TEXT_BYTES`], or more than [`MAX_PARTS`] parts: not stored.
    TooLarge,
}

/// What a value read under a key is.
#[derive(Debug, PartialEq, Eq)]
pub enum Head<'a> {
    /// The text itself.
    Whole(&'a str),
    /// A head: read the parts and [`join`] them.
    Parts {
        write_id: &'a str,
        keys: Vec<String>,
    },
}

/// The key of part `index` (from 1) of the value under `key`.
pub fn part_key(key: &str, index: usize) -> String {
    format!("{key}:part:{index}")
}

/// Lays `text` out in values of at most `part_bytes` bytes (at least 1 KiB, so a misconfigured
/// size cannot make thousands of parts), cut on character boundaries. `write_id` must be unique
/// per write and free of `:` and newlines (a random base64url id is).
pub fn lay_out<'a>(key: &str, text: &'a str, part_bytes: usize, write_id: &str) -> Layout<'a> {
    let part_bytes = part_bytes.max(1024);
    if text.len() > MAX_TEXT_BYTES {
        return Layout::TooLarge;
    }
    if text.len() <= part_bytes && !text.starts_with(HEAD_PREFIX) {
        return Layout::Whole(text);
    }
    let room = part_bytes.saturating_sub(write_id.len() + 1).max(512);
    let mut parts = Vec::new();
    let mut rest = text;
    while !rest.is_empty() || parts.is_empty() {
        if parts.len() == MAX_PARTS {
            return Layout::TooLarge;
        }
        let mut cut = rest.len().min(room);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (piece, after) = rest.split_at(cut);
        parts.push((
            part_key(key, parts.len() + 1),
            format!("{write_id}\n{piece}"),
        ));
        rest = after;
    }
    Layout::Parts {
        head: format!("{HEAD_PREFIX}{write_id}:{}", parts.len()),
        parts,
    }
}

/// Reads a value found under `key`: the text itself, or the head of parts. A head that does not
/// parse, or names more parts than are ever written, counts as the text itself, which will then
/// fail to decode like any damaged value.
pub fn read_head<'a>(key: &str, value: &'a str) -> Head<'a> {
    let Some(rest) = value.strip_prefix(HEAD_PREFIX) else {
        return Head::Whole(value);
    };
    let Some((write_id, count)) = rest.rsplit_once(':') else {
        return Head::Whole(value);
    };
    match count.parse::<usize>() {
        Ok(count) if (1..=MAX_PARTS).contains(&count) && !write_id.is_empty() => Head::Parts {
            write_id,
            keys: (1..=count).map(|index| part_key(key, index)).collect(),
        },
        _ => Head::Whole(value),
    }
}

/// The text put back together from its parts, in order; `None` when a part is missing or
/// belongs to another write.
pub fn join(write_id: &str, parts: &[Option<String>]) -> Option<String> {
    let mut text = String::with_capacity(parts.iter().flatten().map(String::len).sum());
    for part in parts {
        let piece = part
            .as_deref()?
            .strip_prefix(write_id)?
            .strip_prefix('\n')?;
        text.push_str(piece);
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lays out, then reads back as a reader would.
    fn round_trip(text: &str, part_bytes: usize) -> Option<String> {
        match lay_out("k", text, part_bytes, "w1") {
            Layout::Whole(whole) => match read_head("k", whole) {
                Head::Whole(read) => Some(read.to_string()),
                Head::Parts { .. } => None,
            },
            Layout::Parts { head, parts } => match read_head("k", &head) {
                Head::Parts { write_id, keys } => {
                    let stored: Vec<Option<String>> = keys
                        .iter()
                        .map(|key| {
                            parts
                                .iter()
                                .find(|(k, _)| k == key)
                                .map(|(_, value)| value.clone())
                        })
                        .collect();
                    join(write_id, &stored)
                }
                Head::Whole(_) => None,
            },
            Layout::TooLarge => None,
        }
    }

    #[test]
    fn a_small_text_is_stored_whole() {
        assert_eq!(
            lay_out("k", "{\"a\":1}", 1024, "w"),
            Layout::Whole("{\"a\":1}")
        );
        assert_eq!(read_head("k", "{\"a\":1}"), Head::Whole("{\"a\":1}"));
    }

    #[test]
    fn a_large_text_comes_back_whole_from_its_parts() {
        let text: String = (0..2_000).map(|i| format!("{{\"line\":{i}}},")).collect();
        assert_eq!(round_trip(&text, 8192).as_deref(), Some(text.as_str()));
        let Layout::Parts { head, parts } = lay_out("snap", &text, 8192, "id") else {
            panic!("expected parts");
        };
        assert_eq!(parts.len(), 4, "{} bytes", text.len());
        assert_eq!(head, "lkf-parts:v1:id:4");
        assert_eq!(parts[0].0, "snap:part:1");
        assert_eq!(parts[3].0, "snap:part:4");
        assert!(parts.iter().all(|(_, value)| value.len() <= 8192));
    }

    #[test]
    fn parts_are_cut_on_character_boundaries() {
        let text = "é€😀".repeat(1_000); // 2, 3 and 4 bytes
        assert_eq!(round_trip(&text, 2048).as_deref(), Some(text.as_str()));
    }

    #[test]
    fn a_text_that_looks_like_a_head_is_stored_in_parts() {
        let text = "lkf-parts:v1:x:2";
        assert!(matches!(
            lay_out("k", text, 1024, "w"),
            Layout::Parts { .. }
        ));
        assert_eq!(round_trip(text, 1024).as_deref(), Some(text));
    }

    #[test]
    fn too_many_parts_are_not_stored() {
        let text = "x".repeat(1022 * MAX_PARTS + 1);
        assert_eq!(lay_out("k", &text, 1024, "w"), Layout::TooLarge);
        let fits = "x".repeat(1022 * MAX_PARTS); // 1 KiB parts less "w\n"
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
        assert_eq!(parts.len(), 6, "20 MiB parts less the id's bytes");
    }

    #[test]
    fn a_missing_or_foreign_part_reads_as_missing() {
        assert_eq!(join("w", &[Some("w\nab".into()), None]), None);
        assert_eq!(
            join("w", &[Some("w\nab".into()), Some("v\ncd".into())]),
            None
        );
        assert_eq!(join("w", &[Some("wx\nab".into())]), None);
        assert_eq!(
            join("w", &[Some("w\nab".into()), Some("w\ncd".into())]).as_deref(),
            Some("abcd")
        );
    }

    #[test]
    fn a_damaged_head_reads_as_a_whole_value() {
        for value in [
            "lkf-parts:v1:",
            "lkf-parts:v1:w",
            "lkf-parts:v1:w:0",
            "lkf-parts:v1:w:257",
            "lkf-parts:v1::2",
            "lkf-parts:v1:w:two",
        ] {
            assert_eq!(read_head("k", value), Head::Whole(value), "{value}");
        }
        assert_eq!(
            read_head("k", "lkf-parts:v1:w:2"),
            Head::Parts {
                write_id: "w",
                keys: vec!["k:part:1".into(), "k:part:2".into()]
            }
        );
    }
}
