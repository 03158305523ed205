//! The compact reader against `json::decode`: the same snapshot from every text our writers and
//! `serde_json` write, and never a different answer on text in any other form or damaged (which
//! it may refuse: a cached text it can't read is read as not cached).

use super::*;
use crate::quote::push_json_string;
use crate::tools::get_pull_request::listing::write_listing;

/// A whole snapshot (patch texts, headers and previews included) as JSON in the fields' declared
/// order, the way serde wrote the cached snapshot before it kept its patches raw: the compact
/// reader must read any such text, not only the lean line.
fn whole_json(snapshot: &Snapshot) -> String {
    let text = |out: &mut String, key: &str, value: &str| {
        out.push_str(&format!(",\"{key}\":"));
        push_json_string(out, value);
    };
    let list = |items: &[String]| {
        let mut out = String::from("[");
        for (index, item) in items.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            push_json_string(&mut out, item);
        }
        out + "]"
    };
    let mut out = String::from("{\"files\":[");
    for (index, file) in snapshot.files.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str("{\"path\":");
        push_json_string(&mut out, &file.path);
        text(&mut out, "status", &file.status);
        if let Some(previous) = &file.previous_path {
            text(&mut out, "previous_path", previous);
        }
        out.push_str(&format!(
            ",\"additions\":{},\"deletions\":{},\"changes\":[",
            file.additions, file.deletions
        ));
        for (at, change) in file.changes.iter().enumerate() {
            if at > 0 {
                out.push(',');
            }
            out.push_str("{\"id\":");
            push_json_string(&mut out, &change.id);
            text(&mut out, "header", &change.header);
            text(&mut out, "preview", &change.preview);
            out.push_str(&format!(
                ",\"additions\":{},\"deletions\":{}}}",
                change.additions, change.deletions
            ));
        }
        out.push(']');
        if let Some(patch) = &file.patch {
            text(&mut out, "patch", patch);
        }
        out.push_str(&format!(",\"depends_on\":{}", list(&file.depends_on)));
        if let Some(test_of) = &file.test_of {
            text(&mut out, "test_of", test_of);
        }
        out.push_str(&format!(",\"likely_generated\":{}", file.likely_generated));
        if let Some(blob) = &file.blob_sha {
            text(&mut out, "blob_sha", blob);
        }
        out.push('}');
    }
    out.push_str(&format!(
        "],\"files_truncated_by_github\":{},\"changed_files\":{}",
        snapshot.files_truncated_by_github, snapshot.changed_files
    ));
    text(&mut out, "diagram_preference", &snapshot.diagram_preference);
    if let Some(problem) = &snapshot.conventions_problem {
        text(&mut out, "conventions_problem", problem);
    }
    out + "}"
}

fn change(id: &str, additions: usize) -> SnapshotChange {
    SnapshotChange {
        id: id.into(),
        header: "@@ -1,2 +1,3 @@ fn header".into(),
        preview: "é 日本 🦀 \u{7f} a/b".into(),
        additions,
        deletions: 0,
    }
}

fn file(path: &str) -> SnapshotFile {
    SnapshotFile {
        path: path.into(),
        status: "modified".into(),
        previous_path: None,
        additions: 3,
        deletions: 1,
        changes: vec![change("h1abcde", 2)],
        patch: Some(String::new()),
        depends_on: Vec::new(),
        test_of: None,
        likely_generated: false,
        blob_sha: None,
    }
}

fn snapshot() -> Snapshot {
    let mut renamed = file("src/new name.rs");
    renamed.status = "renamed".into();
    renamed.previous_path = Some("src/old name.rs".into());
    renamed.changes = vec![change("h2", 0), change("h3", 18_000)];
    renamed.depends_on = vec!["src/a.rs".into(), "src/b c.rs".into()];
    let mut test = file("tests/a_test.rs");
    test.test_of = Some("src/a.rs".into());
    test.blob_sha = Some("b".repeat(40));
    let mut binary = file("logo.png");
    binary.patch = None;
    binary.changes = Vec::new();
    binary.likely_generated = true;
    binary.additions = 0;
    Snapshot {
        files: vec![file("src/a.rs"), renamed, test, binary, file("ünï/кот.md")],
        files_truncated_by_github: false,
        changed_files: 5,
        diagram_preference: "sometimes".into(),
        conventions_problem: Some("line 2: diagrams must be one of …".into()),
    }
}

/// The snapshot with escapes: the common ones, and with `rare` control characters written as
/// `\b`, `\f` and `\u00xx`.
fn escaped(rare: bool) -> Snapshot {
    let mut snapshot = snapshot();
    snapshot.files[0].patch = Some("@@ -1 +1 @@\n-old\n+new \"x\"\r\n".into());
    snapshot.files[1].changes[0].header = "@@ -1,2 +1,3 @@ fn \"quoted\"\tand\\slash".into();
    snapshot.files[1].depends_on.push("src/b \"c\".rs".into());
    snapshot.conventions_problem = Some("line 2: \"diagrams\" must be one of …".into());
    if rare {
        snapshot.files[2]
            .depends_on
            .push("src/a bell \u{7} and a form feed \u{c}.rs".into());
        snapshot.files[1].changes[1].preview = "\u{1b}[31mred\u{1b}[0m \u{8} \u{0}".into();
    }
    snapshot
}

fn decoded(text: &str) -> Option<Snapshot> {
    crate::json::decode::<Snapshot>(text).ok()
}

/// The one property: the compact reader answers only what `decode` answers.
fn check(text: &str) {
    if let Some(read) = read_snapshot(text) {
        assert_eq!(Some(read), decoded(text), "{text}");
    }
}

/// The snapshot's texts as they are written: whole, lean (the listing's second line), empty.
fn written() -> Vec<String> {
    let whole = snapshot();
    let listing = write_listing(&whole, "[]", false);
    let lean = listing.split('\n').nth(1).unwrap_or_default().to_string();
    let mut empty = snapshot();
    empty.files = Vec::new();
    empty.conventions_problem = None;
    vec![whole_json(&whole), lean, whole_json(&empty)]
}

#[test]
fn every_escape_the_writers_write_reads_back() {
    for rare in [false, true] {
        let escaped = escaped(rare);
        let whole = whole_json(&escaped);
        let listing = write_listing(&escaped, "[]", false);
        let lean = listing.split('\n').nth(1).unwrap_or_default().to_string();
        assert_eq!(read_snapshot(&whole).as_ref(), Some(&escaped), "{whole}");
        for text in [whole, lean] {
            assert!(read_snapshot(&text).is_some(), "{text}");
            check(&text);
        }
    }
}

#[test]
fn what_the_writers_write_reads() {
    for text in written() {
        assert!(read_snapshot(&text).is_some(), "{text}");
        check(&text);
    }
    let whole = &written()[0];
    assert_eq!(read_snapshot(whole), Some(snapshot()));
}

#[test]
fn the_cached_header_reads_with_its_patch_lengths() {
    let mut snapshot = escaped(true);
    snapshot.files[0].patch = Some("@@ -1 +1 @@\n-é\n+日本\n".into());
    let text = super::super::write_cached(&snapshot);
    let (header, _) = text.split_once('\n').unwrap_or_default();
    let (read, lengths) = cached_header(header).unwrap_or_else(|| panic!("{header}"));
    let expected: Vec<Option<usize>> = snapshot
        .files
        .iter()
        .map(|file| file.patch.as_ref().map(String::len))
        .collect();
    assert_eq!(lengths, expected);
    assert!(lengths.contains(&None) && lengths.contains(&Some(0)));
    assert_eq!(read.files.len(), snapshot.files.len());
    assert!(read.files.iter().all(|file| file.patch.is_none()));
    // Without `patch_bytes` it is no cached header (a listing's line, say).
    assert_eq!(cached_header(&written()[0]), None);
    let at = header.find(r#","patch_bytes":"#).unwrap_or_default();
    for bad in [
        r#","patch_bytes":[1,]}"#,
        r#","patch_bytes":[-1]}"#,
        r#","patch_bytes":[1.5]}"#,
        r#","patch_bytes":null}"#,
    ] {
        let damaged = format!("{}{bad}", &header[..at]);
        assert_eq!(cached_header(&damaged), None, "{damaged}");
    }
}

#[test]
fn other_forms_are_never_read_differently() {
    let cases = [
        // Whitespace, an unknown key, nulls and missing fields where they default.
        r#" {"files":[],"files_truncated_by_github":true,"changed_files":0,"diagram_preference":"never"} "#,
        r#"{"files":[],"files_truncated_by_github":true,"changed_files":0,"diagram_preference":"never","later":1}"#,
        r#"{"files":[{"path":"a","status":"added","additions":1,"deletions":0}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":[{"path":"a","status":"added","additions":1,"deletions":0,"changes":null,"patch":null,"depends_on":null,"test_of":null,"likely_generated":null,"blob_sha":null,"previous_path":null}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x","conventions_problem":null}"#,
        // Duplicate keys: the last one counts.
        r#"{"files":[],"files":[],"files_truncated_by_github":true,"changed_files":1,"changed_files":2,"diagram_preference":"a","diagram_preference":"b"}"#,
        r#"{"files":[{"path":"a","path":"b","status":"added","additions":1,"deletions":0,"test_of":"x","test_of":null}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":[],"files_truncated_by_github":false,"changed_files":-1,"changed_files":2,"diagram_preference":"x"}"#,
        // Wrong types, numbers out of form, missing required fields.
        r#"{"files":[],"files_truncated_by_github":false,"changed_files":1.0,"diagram_preference":"x"}"#,
        r#"{"files":[],"files_truncated_by_github":false,"changed_files":-0,"diagram_preference":"x"}"#,
        r#"{"files":[],"files_truncated_by_github":false,"changed_files":1e2,"diagram_preference":"x"}"#,
        r#"{"files":[],"files_truncated_by_github":false,"changed_files":18446744073709551616,"diagram_preference":"x"}"#,
        r#"{"files":[],"files_truncated_by_github":null,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":null,"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":[],"files_truncated_by_github":false,"changed_files":1}"#,
        r#"{"files":[{"path":"a","status":"added","additions":1}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":[{"path":"a","status":"added","additions":1,"deletions":0,"changes":[{"id":"h","header":"","preview":"","additions":1}]}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":[{"path":"a","status":"added","additions":1,"deletions":0,"changes":[{"id":"h","header":"","preview":"","additions":1,"deletions":4294967296}]}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":[{"path":"a","status":"added","additions":1,"deletions":0,"depends_on":["a",null]}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":[{"path":"\ud83e\udd80","status":"added","additions":1,"deletions":0}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"\u00e9\/"}"#,
        r#"{"files":[{"path":"\ud83e","status":"added","additions":1,"deletions":0}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"files":[{"path":"a\u0001\b\f","status":"added","additions":1,"deletions":0,"changes":[],"depends_on":[],"likely_generated":false}],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"{"fil\u0065s":[],"files_truncated_by_github":false,"changed_files":1,"diagram_preference":"x"}"#,
        r#"[]"#,
        r#"null"#,
        "",
    ];
    for text in cases {
        check(text);
    }
}

#[test]
fn damaged_text_is_never_read_differently() {
    // Every cut, and every ASCII byte replaced by each of a few that change the meaning.
    for text in written() {
        for end in 0..text.len() {
            if let Some(cut) = text.get(..end) {
                check(cut);
            }
        }
        let bytes = text.as_bytes();
        for at in 0..bytes.len() {
            if !bytes[at].is_ascii() {
                continue;
            }
            for byte in *b" \"0-9n{}[],:\\tx\n" {
                let mut damaged = bytes.to_vec();
                damaged[at] = byte;
                if let Ok(damaged) = String::from_utf8(damaged) {
                    check(&damaged);
                }
            }
        }
    }
}
