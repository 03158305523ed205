//! The snapshot's cached text and a listing's JSON copies: read back whole, and a damaged text
//! refused.

use super::*;
use crate::tools::get_pull_request::tests::{every_field_snapshot, varied_snapshots};

fn snapshots() -> Vec<Snapshot> {
    let mut all = varied_snapshots();
    all.push(every_field_snapshot());
    let mut empty_patches = every_field_snapshot();
    empty_patches.files[0].patch = Some(String::new());
    empty_patches.files.push(empty_patches.files[0].clone());
    all.push(empty_patches);
    // Every character class the writer escapes, in every string field: the reader has no
    // fallback, so what it can't read would be a cache miss on every read.
    let mut escaped = every_field_snapshot();
    let hostile = "q\" b\\ s/ t\t n\n r\r \u{0}\u{7}\u{8}\u{c}\u{1b}\u{1f}\u{7f} é 日本 🦀";
    for file in &mut escaped.files {
        file.path = format!("{}{hostile}", file.path);
        file.previous_path = Some(hostile.into());
        file.test_of = Some(hostile.into());
        file.blob_sha = Some(hostile.into());
        file.depends_on.push(hostile.into());
        file.patch = Some(format!("@@ -1 +1 @@\n+{hostile}\n"));
        for change in &mut file.changes {
            change.header = hostile.into();
            change.preview = hostile.into();
        }
    }
    escaped.diagram_preference = hostile.into();
    escaped.conventions_problem = Some(hostile.into());
    all.push(escaped);
    all
}

#[test]
fn cached_snapshots_read_back_whole() {
    for snapshot in snapshots() {
        let text = write_cached(&snapshot);
        assert_eq!(read_cached(&text).as_ref(), Some(&snapshot), "{text:.300}");
        let (header, patches) = text.split_once('\n').unwrap_or_default();
        let whole: String = snapshot
            .files
            .iter()
            .filter_map(|f| f.patch.clone())
            .collect();
        assert_eq!(patches, whole, "the patches follow the header as they are");
        assert!(!header.contains("\"patch\""), "{header:.300}");
    }
}

#[test]
fn a_damaged_cached_text_is_no_snapshot() {
    let snapshot = every_field_snapshot();
    let text = write_cached(&snapshot);
    let (header, patches) = text.split_once('\n').unwrap_or_default();
    assert!(!patches.is_empty());
    // Every text cut short.
    for end in (0..text.len()).filter(|&end| text.is_char_boundary(end)) {
        assert!(read_cached(&text[..end]).is_none(), "{end}");
    }
    let length = snapshot.files[0].patch.as_ref().map_or(0, String::len);
    let with_lengths = |lengths: &str| {
        let header = header.replace(&format!(r#""patch_bytes":[{length}]"#), lengths);
        format!("{header}\n{patches}")
    };
    for bad in [
        String::new(),
        "\n".to_string(),
        format!("{text}x"),
        format!("{header}{patches}"),
        format!("{header}\n{patches}{patches}"),
        format!("[]\n{patches}"),
        format!("{{}}\n{patches}"),
        with_lengths(&format!(r#""patch_bytes":[{}]"#, length - 1)),
        with_lengths(&format!(r#""patch_bytes":[{}]"#, length + 1)),
        with_lengths(r#""patch_bytes":[]"#),
        with_lengths(&format!(r#""patch_bytes":[{length},0]"#)),
        with_lengths(r#""patch_bytes":[-1]"#),
        with_lengths(r#""patch_bytes":["12"]"#),
        with_lengths(r#""patch_bytes":{}"#),
        with_lengths(r#""patch_bytes":[1e400]"#),
        with_lengths(r#""patch_bytes":[18446744073709551615]"#),
        with_lengths(r#""other":1"#),
        header.replace(r#""path":"#, r#""name":"#) + "\n" + patches,
    ] {
        assert!(read_cached(&bad).is_none(), "{bad:.300}");
    }
    // A length that ends inside a character.
    let mut wide = snapshot.clone();
    wide.files[0].patch = Some("é".into());
    let text = write_cached(&wide).replace(r#""patch_bytes":[2]"#, r#""patch_bytes":[1]"#);
    assert!(text.contains(r#""patch_bytes":[1]"#));
    assert!(read_cached(&text).is_none());
}

#[test]
fn the_listing_copies_read_back() {
    for snapshot in snapshots() {
        let written = |form| {
            let mut out = String::new();
            write_json(&mut out, &snapshot, form);
            assert!(!out.contains('\n'), "one line: {out:.200}");
            crate::json::decode::<Snapshot>(&out).unwrap_or_else(|e| panic!("{e}: {out:.200}"))
        };
        let meta = written(Form::Meta);
        assert_eq!(
            meta,
            Snapshot {
                files: Vec::new(),
                ..snapshot.clone()
            }
        );
        let mut lean = snapshot.clone();
        for file in &mut lean.files {
            file.patch = file.patch.as_ref().map(|_| String::new());
            file.blob_sha = None;
            for change in &mut file.changes {
                change.header.clear();
                change.preview.clear();
            }
        }
        assert_eq!(written(Form::Lean), lean);
    }
}

/// The texts stay byte for byte what the hand-written writers before serde's `Serialize` wrote
/// (issue #28): cached snapshots and listings are read back by later builds, and their KV keys'
/// versions (`snapshot:v2`, `listing:v1`) promise that form.
#[test]
fn written_texts_keep_their_form() {
    let snapshot = every_field_snapshot();
    let patch = snapshot.files[0].patch.clone().unwrap_or_default();
    let header = r#"{"files":[{"path":"src/new.rs","status":"renamed","previous_path":"src/old.rs","additions":3,"deletions":1,"changes":[{"id":"c1","header":"fn","preview":"+ x","additions":3,"deletions":1}],"depends_on":["src/b.rs"],"test_of":"src/lib.rs","likely_generated":true,"blob_sha":"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}],"files_truncated_by_github":true,"changed_files":3200,"diagram_preference":"never","conventions_problem":"diagrams: sometimes","patch_bytes":[96]}"#;
    assert_eq!(write_cached(&snapshot), format!("{header}\n{patch}"));
    let files = crate::tools::get_pull_request::files_text(&snapshot);
    let listing = crate::tools::get_pull_request::listing::write_listing(
        &snapshot,
        &files,
        &crate::json::string_inside(&files),
        false,
    );
    let expected = [
        r#"{"files":[],"files_truncated_by_github":true,"changed_files":3200,"diagram_preference":"never","conventions_problem":"diagrams: sometimes"}"#,
        r#"{"files":[{"path":"src/new.rs","status":"renamed","previous_path":"src/old.rs","additions":3,"deletions":1,"changes":[{"id":"c1","header":"","preview":"","additions":3,"deletions":1}],"patch":"","depends_on":["src/b.rs"],"test_of":"src/lib.rs","likely_generated":true}],"files_truncated_by_github":true,"changed_files":3200,"diagram_preference":"never","conventions_problem":"diagrams: sometimes"}"#,
        r#"whole"#,
        r#"[{"additions":3,"deletions":1,"dependsOn":["src/b.rs"],"likelyGenerated":true,"path":"src/new.rs","previousPath":"src/old.rs","status":"renamed","testOf":"src/lib.rs"}]"#,
        r#"[{\"additions\":3,\"deletions\":1,\"dependsOn\":[\"src/b.rs\"],\"likelyGenerated\":true,\"path\":\"src/new.rs\",\"previousPath\":\"src/old.rs\",\"status\":\"renamed\",\"testOf\":\"src/lib.rs\"}]"#,
    ];
    assert_eq!(listing, expected.join("\n"));
}

/// `status: off` (issue #47) is written only when true, and read back; a text from before it
/// (every text written without it) reads as on.
#[test]
fn status_off_is_written_only_when_true_and_read_back() {
    let mut snapshot = every_field_snapshot();
    assert!(!write_cached(&snapshot).contains("commit_status_off"));
    snapshot.commit_status_off = true;
    let text = write_cached(&snapshot);
    assert!(text.contains(r#""commit_status_off":true"#), "{text}");
    assert_eq!(read_cached(&text), Some(snapshot.clone()));
    let mut lean = String::new();
    write_json(&mut lean, &snapshot, Form::Lean);
    assert_eq!(read_json(&lean).map(|s| s.commit_status_off), Some(true));
    snapshot.commit_status_off = false;
    assert_eq!(read_cached(&write_cached(&snapshot)), Some(snapshot));
}
