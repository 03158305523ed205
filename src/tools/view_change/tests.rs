//! `view_change`: numbering, paging, cut lines and the messages for what can't be shown.

use serde_json::json;

use super::*;
use crate::tools::show_reading_order::tests::snapshot;

/// The answer parsed, as the view reads it.
fn shape_result(args: &Args, files: &[SnapshotFile]) -> Result<Value, String> {
    super::shape_result(args, files).map(|text| serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn args(path: &str, change: Option<&str>, page: u64) -> Args {
    Args {
        target: crate::tools::show_reading_order::tests::target(None),
        path: path.into(),
        change: change.map(str::to_string),
        page,
    }
}

#[test]
fn arguments() {
    let value = json!({ "owner": "acme", "repo": "app", "number": 7, "path": "a.rs", "change": "h1", "page": 2 });
    let parsed = parse_args(value.as_object().unwrap_or(&Map::new()));
    assert_eq!(
        parsed.map(|a| (a.path, a.change, a.page)),
        Ok(("a.rs".into(), Some("h1".into()), 2))
    );
    let value = json!({ "owner": "acme", "repo": "app", "number": 7, "path": "a.rs" });
    assert_eq!(
        parse_args(value.as_object().unwrap_or(&Map::new())).map(|a| a.page),
        Ok(1)
    );
    let value = json!({ "owner": "acme", "repo": "app", "number": 7, "page": 0, "hunk": "x" });
    let message = parse_args(value.as_object().unwrap_or(&Map::new())).unwrap_err();
    for part in [
        "path is required",
        "page must be a positive integer",
        "\"hunk\" is not an argument",
    ] {
        assert!(message.contains(part), "{part}: {message}");
    }
}

#[test]
fn lines_are_numbered_in_both_files() {
    let files = snapshot().files;
    let router = files
        .iter()
        .find(|f| f.path == "app/router.ts")
        .cloned()
        .unwrap_or_else(|| files[0].clone());
    let second = router.changes[1].id.clone();
    let result = shape_result(&args("app/router.ts", Some(&second), 1), &files);
    let result = result.unwrap_or_default();
    assert_eq!(result["index"], 2);
    assert_eq!(result["changes"], 2);
    assert_eq!(result["pages"], 1);
    assert_eq!(
        (result["oldStart"].clone(), result["newStart"].clone()),
        (json!(40), json!(41))
    );
    assert_eq!(
        result["lines"],
        json!([
            "-  { path: '/old' },",
            "+  { path: '/invites' },",
            "   { path: '/' },"
        ])
    );
}

#[test]
fn a_single_change_needs_no_id() {
    let files = snapshot().files;
    let result = shape_result(&args("lib/flags.ts", None, 1), &files).unwrap_or_default();
    assert_eq!(result["index"], 1);
    assert_eq!(result["lines"].as_array().map(Vec::len), Some(3));
    let message = shape_result(&args("app/router.ts", None, 1), &files).unwrap_err();
    assert!(message.contains("has no change (none given)"), "{message}");
}

#[test]
fn what_cannot_be_shown_is_said() {
    let files = snapshot().files;
    let message = shape_result(&args("nope.rs", None, 1), &files).unwrap_err();
    assert!(
        message.starts_with("nope.rs is not a changed file of acme/app#7"),
        "{message}"
    );
    let message = shape_result(&args("package-lock.json", None, 1), &files).unwrap_err();
    assert!(
        message.starts_with("GitHub gives no diff for package-lock.json"),
        "{message}"
    );
    let message = shape_result(&args("lib/flags.ts", Some("hzzzz"), 1), &files).unwrap_err();
    assert!(message.contains("has no change hzzzz"), "{message}");
    let message = shape_result(&args("lib/flags.ts", None, 2), &files).unwrap_err();
    assert!(message.contains("page 2 does not exist"), "{message}");
}

#[test]
fn long_changes_come_in_pages_and_long_lines_are_cut() {
    let count = PAGE_LINES + 5;
    let mut patch = format!("@@ -0,0 +1,{count} @@\n");
    for i in 0..count {
        if i == 3 {
            patch.push_str(&format!("+{}\n", "x".repeat(LINE_CHARS + 10)));
        } else {
            patch.push_str(&format!("+line {i}\n"));
        }
    }
    let mut files = snapshot().files;
    files[0].patch = Some(patch);
    let path = files[0].path.clone();
    let first = shape_result(&args(&path, None, 1), &files).unwrap_or_default();
    assert_eq!(first["pages"], 2);
    assert_eq!(first["lines"].as_array().map(Vec::len), Some(PAGE_LINES));
    let long = first["lines"][3].as_str().unwrap_or_default();
    assert_eq!(long.chars().count(), LINE_CHARS + 1, "marker and cut text");
    assert!(long.starts_with('+') && long.ends_with('…'));
    assert_eq!(
        (first["oldStart"].clone(), first["newStart"].clone()),
        (json!(0), json!(1))
    );
    let second = shape_result(&args(&path, None, 2), &files).unwrap_or_default();
    assert_eq!(second["lines"].as_array().map(Vec::len), Some(5));
    assert_eq!(second["lines"][0], json!(format!("+line {PAGE_LINES}")));
    // Only `+` lines came before: the old number stays, the new one moved on a page.
    assert_eq!(second["oldStart"], json!(0));
    assert_eq!(second["newStart"], json!(PAGE_LINES + 1));
}
