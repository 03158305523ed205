//! Tests of the arrange form: escaping, the fields a browser submits, and `apply_form` round trips,
//! moves, reordering, edits and rejected numbers.

use serde_json::{json, Value};

use super::{apply_form, form_base_version, render, ArrangePage};
use crate::json::FromJson;
use crate::review::order::Order;
use crate::tools::get_pull_request::SnapshotFile;

fn order_from(value: Value) -> Order {
    Order::from_json(value).unwrap_or_else(|error| panic!("{error}"))
}

fn snapshot(path: &str) -> SnapshotFile {
    SnapshotFile {
        path: path.to_string(),
        status: "modified".into(),
        previous_path: None,
        additions: 3,
        deletions: 1,
        changes: Vec::new(),
        patch: None,
        depends_on: Vec::new(),
        test_of: None,
        likely_generated: false,
        blob_sha: None,
    }
}

/// An order with everything the form must keep: layers, checks, focus, split parts, notes with
/// leading and inner newlines and markup, an untitled section.
fn sample() -> Order {
    order_from(json!({
        "overview": "Read `flags` first.\nThen the rest.",
        "sections": [
            { "title": "Flag & <schema>", "layer": "contracts", "note": "\nStarts with a newline.",
              "checks": ["Flag is off"],
              "files": [
                { "path": "lib/flags.ts", "focus": "key", "note": "Line one\nline <two>", "checks": ["Default is false"] },
                { "path": "app/router.ts", "hunks": ["h1"] }
              ] },
            { "title": "Logic", "layer": "logic",
              "files": [
                { "path": "src/service.ts" },
                { "path": "app/router.ts", "note": "The rest." }
              ] },
            { "files": [{ "path": "package-lock.json", "focus": "generated" }] }
        ]
    }))
}

fn files_of(order: &Order) -> Vec<SnapshotFile> {
    let mut files: Vec<SnapshotFile> = Vec::new();
    for entry in order.sections.iter().flat_map(|s| &s.files) {
        if !files.iter().any(|f| f.path == entry.path) {
            files.push(snapshot(&entry.path));
        }
    }
    files
}

fn page<'a>(
    order: &'a Order,
    files: &'a [SnapshotFile],
    error: Option<&'a str>,
) -> ArrangePage<'a> {
    ArrangePage {
        base_url: "https://logikflow.test",
        owner: "acme",
        repo: "app",
        number: 123,
        title: "Add <b>invites</b>",
        order,
        base_version: 4,
        files,
        csrf: "tok\"123",
        error,
    }
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let marker = format!(" {name}=\"");
    let start = tag.find(&marker)? + marker.len();
    let end = tag[start..].find('"')? + start;
    Some(unescape(&tag[start..end]))
}

/// The fields a browser submits for the first form of `html`: text, number and hidden inputs,
/// textareas (minus the newline the parser drops, with CRLF line breaks) and selected options.
fn submitted(html: &str) -> Vec<(String, String)> {
    let start = html.find("<form").unwrap_or_else(|| panic!("no form"));
    let end = html.find("</form>").unwrap_or(html.len());
    let form = &html[start..end];
    let mut fields = Vec::new();
    let mut rest = form;
    while let Some(at) = rest.find('<') {
        rest = &rest[at..];
        let tag_end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..tag_end];
        if tag.starts_with("<input") {
            if let (Some(name), Some(value)) = (attribute(tag, "name"), attribute(tag, "value")) {
                fields.push((name, value));
            }
        } else if tag.starts_with("<textarea") {
            let name = attribute(tag, "name").unwrap_or_default();
            let body_start = tag_end + 1;
            let body_end = rest.find("</textarea>").unwrap_or(rest.len());
            let raw = &rest[body_start..body_end];
            let raw = raw.strip_prefix('\n').unwrap_or(raw);
            fields.push((name, unescape(raw).replace('\n', "\r\n")));
        } else if tag.starts_with("<select") {
            let name = attribute(tag, "name").unwrap_or_default();
            let close = rest.find("</select>").unwrap_or(rest.len());
            let options = &rest[..close];
            let selected = options
                .split("<option")
                .find(|option| option.contains(" selected>"))
                .and_then(|option| attribute(option, "value"))
                .unwrap_or_default();
            fields.push((name, selected));
        }
        rest = &rest[1..];
    }
    fields
}

fn set(fields: &mut Vec<(String, String)>, name: &str, value: &str) {
    match fields.iter_mut().find(|(n, _)| n == name) {
        Some(field) => field.1 = value.to_string(),
        None => fields.push((name.to_string(), value.to_string())),
    }
}

/// Renders `order`, submits its form with `edits` applied and compares `apply_form`'s result with
/// `expected` (an order in JSON) or an error containing the expected text.
fn check(order: &Order, edits: &[(&str, &str)], expected: Result<Value, &str>) {
    let files = files_of(order);
    let html = render(&page(order, &files, None));
    let mut fields = submitted(&html);
    for (name, value) in edits {
        set(&mut fields, name, value);
    }
    let got = apply_form(order, &fields);
    match (got, expected) {
        (Ok(got), Ok(expected)) => assert_eq!(got, expected, "edits {edits:?}"),
        (Err(got), Err(expected)) => assert!(got.contains(expected), "{got:?} lacks {expected:?}"),
        (got, expected) => panic!("edits {edits:?}: got {got:?}, expected {expected:?}"),
    }
}

fn json_of(order: &Order) -> Value {
    serde_json::to_value(order).unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn unchanged_form_gives_the_same_order() {
    let order = sample();
    check(&order, &[], Ok(json_of(&order)));
    let plain = order_from(json!({ "sections": [{ "files": [{ "path": "a.ts" }] }] }));
    check(&plain, &[], Ok(json_of(&plain)));
}

#[test]
fn form_has_the_fields() {
    let order = sample();
    let files = files_of(&order);
    let html = render(&page(&order, &files, None));
    for needle in [
        "<form class=\"arrange\" method=\"post\" action=\"/r/acme/app/pull/123/arrange\">",
        "<input type=\"hidden\" name=\"csrf\" value=\"tok&quot;123\">",
        "<input type=\"hidden\" name=\"base_version\" value=\"4\">",
        "name=\"section.0.position\" value=\"1\"",
        "name=\"section.2.position\" value=\"3\"",
        "name=\"section.0.title\" value=\"Flag &amp; &lt;schema&gt;\"",
        "<textarea id=\"s0-note\" name=\"section.0.note\" rows=\"3\" maxlength=\"4000\">\n\nStarts with a newline.</textarea>",
        "<select id=\"e1-1-sec\" name=\"entry.1.1.section\"><option value=\"0\">1. Flag &amp; &lt;schema&gt;</option><option value=\"1\" selected>2. Logic</option><option value=\"2\">3. Untitled</option></select>",
        "name=\"entry.1.1.position\" value=\"2\"",
        "name=\"entry.0.0.note\"",
        "Kept as saved: layer contracts, 1 checklist item.",
        "part: 1 change",
        "part: the rest of the file",
        "<button type=\"submit\" class=\"button primary\">Save order</button>",
        "Add &lt;b&gt;invites&lt;/b&gt;",
    ] {
        assert!(html.contains(needle), "missing {needle:?} in:\n{html}");
    }
    assert!(!html.contains("<b>invites"));
    assert!(!html.contains("<script"));
    assert!(!html.contains("role=\"alert\""));
}

#[test]
fn agent_text_is_escaped() {
    let script = "<script>alert(1)</script>";
    let order = order_from(json!({
        "overview": script,
        "sections": [{ "title": script, "note": script,
            "files": [{ "path": script, "note": script }] }]
    }));
    let files = vec![snapshot(script), snapshot(&format!("new/{script}"))];
    let html = render(&page(&order, &files, Some(script)));
    assert!(!html.contains("<script"), "{html}");
    assert!(
        html.matches("&lt;script&gt;alert(1)&lt;/script&gt;")
            .count()
            >= 8,
        "{html}"
    );
    assert!(html.contains("<div class=\"error\" role=\"alert\">"));
}

#[test]
fn moving_a_file_between_sections() {
    let order = sample();
    let mut expected = order.clone();
    let moved = expected.sections[0].files.remove(0);
    expected.sections[1].files.insert(0, moved);
    // Position 1 puts it first, before the file already there.
    check(
        &order,
        &[("entry.0.0.section", "1"), ("entry.0.0.position", "1")],
        Ok(json_of(&expected)),
    );
    // A position past the end appends it.
    let mut expected = order.clone();
    let moved = expected.sections[0].files.remove(0);
    expected.sections[2].files.push(moved);
    check(
        &order,
        &[("entry.0.0.section", "2"), ("entry.0.0.position", "9")],
        Ok(json_of(&expected)),
    );
}

#[test]
fn reordering_files_within_a_section() {
    let order = order_from(json!({ "sections": [{ "files": [
        { "path": "a" }, { "path": "b" }, { "path": "c" }, { "path": "d" }
    ]}]}));
    let paths = |list: &[&str]| json!({ "sections": [{ "files": list.iter().map(|p| json!({ "path": p })).collect::<Vec<_>>() }] });
    check(
        &order,
        &[("entry.0.0.position", "3")],
        Ok(paths(&["b", "c", "a", "d"])),
    );
    check(
        &order,
        &[("entry.0.3.position", "1")],
        Ok(paths(&["d", "a", "b", "c"])),
    );
    check(
        &order,
        &[("entry.0.1.position", "9")],
        Ok(paths(&["a", "c", "d", "b"])),
    );
    check(
        &order,
        &[
            ("entry.0.0.position", "4"),
            ("entry.0.1.position", "3"),
            ("entry.0.2.position", "2"),
            ("entry.0.3.position", "1"),
        ],
        Ok(paths(&["d", "c", "b", "a"])),
    );
}

#[test]
fn reordering_sections() {
    let order = sample();
    let mut expected = order.clone();
    let last = expected.sections.remove(2);
    expected.sections.insert(0, last);
    check(
        &order,
        &[("section.2.position", "1")],
        Ok(json_of(&expected)),
    );

    let mut expected = order.clone();
    expected.sections.swap(0, 1);
    check(
        &order,
        &[("section.0.position", "2"), ("section.1.position", "1")],
        Ok(json_of(&expected)),
    );
}

#[test]
fn sections_left_empty_are_dropped() {
    let order = sample();
    let mut expected = order.clone();
    let moved = expected.sections.remove(2).files.remove(0);
    // It keeps its position, 1, in the section it moves to.
    expected.sections[1].files.insert(0, moved);
    check(
        &order,
        &[("entry.2.0.section", "1")],
        Ok(json_of(&expected)),
    );
}

#[test]
fn editing_titles_and_notes() {
    let order = sample();
    let mut expected = order.clone();
    expected.overview = None;
    expected.sections[0].title = Some("Feature flag".into());
    expected.sections[1].title = None;
    expected.sections[1].note = Some("Now with a note.\nTwo lines.".into());
    expected.sections[0].files[0].note = None;
    expected.sections[1].files[0].note = Some("`InviteService` owns it.".into());
    check(
        &order,
        &[
            ("overview", "  "),
            ("section.0.title", "Feature flag"),
            ("section.1.title", ""),
            ("section.1.note", "Now with a note.\r\nTwo lines."),
            ("entry.0.0.note", "\r\n"),
            ("entry.1.0.note", "`InviteService` owns it."),
        ],
        Ok(json_of(&expected)),
    );
}

#[test]
fn missing_fields_keep_the_order() {
    let order = sample();
    assert_eq!(apply_form(&order, &[]), Ok(json_of(&order)));
    let only_csrf = vec![("csrf".to_string(), "x".to_string())];
    assert_eq!(apply_form(&order, &only_csrf), Ok(json_of(&order)));
}

#[test]
fn bad_numbers_are_rejected() {
    let order = sample();
    for bad in [
        "abc",
        "1.5",
        "",
        " ",
        "0",
        "-1",
        "+2",
        "10000",
        "99999999999999999999",
        "1e2",
        "２",
    ] {
        check(
            &order,
            &[("section.1.position", bad)],
            Err("Section 2 (“Logic”): the position must be a whole number from 1 to 9999"),
        );
        check(
            &order,
            &[("entry.0.1.position", bad)],
            Err("app/router.ts in section 1: the position must be a whole number from 1 to 9999"),
        );
    }
    for bad in ["3", "x", "", "-1", "1.0", "18446744073709551616"] {
        check(
            &order,
            &[("entry.1.0.section", bad)],
            Err("src/service.ts in section 2: choose one of the 3 sections"),
        );
    }
    // Every problem is named.
    let files = files_of(&order);
    let mut fields = submitted(&render(&page(&order, &files, None)));
    set(&mut fields, "section.0.position", "x");
    set(&mut fields, "entry.2.0.position", "y");
    let error = apply_form(&order, &fields).err().unwrap_or_default();
    assert!(
        error.contains("Section 1") && error.contains("package-lock.json"),
        "{error}"
    );
    assert!(error.contains("; "), "{error}");
    // Long values are shortened in the message.
    let long = "9".repeat(100);
    set(&mut fields, "section.0.position", &long);
    let error = apply_form(&order, &fields).err().unwrap_or_default();
    assert!(error.contains('…') && error.len() < 400, "{error}");
}

#[test]
fn new_files_can_be_placed() {
    let order = sample();
    let mut files = files_of(&order);
    files.push(snapshot("new/file.ts"));
    let html = render(&page(&order, &files, None));
    assert!(html.contains("<legend>Not in the order yet</legend>"));
    assert!(html.contains("<input type=\"hidden\" name=\"new.0.path\" value=\"new/file.ts\">"));
    let mut fields = submitted(&html);
    // Unchanged: it goes to the end of the last section.
    let mut expected = order.clone();
    expected.sections[2].files.push(
        order_from(json!({ "sections": [{ "files": [{ "path": "new/file.ts" }] }] })).sections[0]
            .files[0]
            .clone(),
    );
    assert_eq!(apply_form(&order, &fields), Ok(json_of(&expected)));
    // Placed first in the first section, with a note.
    set(&mut fields, "new.0.section", "0");
    set(&mut fields, "new.0.position", "1");
    set(&mut fields, "new.0.note", "Fresh.");
    let mut expected = order.clone();
    expected.sections[0].files.insert(
        0,
        order_from(
            json!({ "sections": [{ "files": [{ "path": "new/file.ts", "note": "Fresh." }] }] }),
        )
        .sections[0]
            .files[0]
            .clone(),
    );
    assert_eq!(apply_form(&order, &fields), Ok(json_of(&expected)));
}

#[test]
fn base_version_is_read() {
    let field = |value: &str| vec![("base_version".to_string(), value.to_string())];
    assert_eq!(form_base_version(&field("4")), Ok(4));
    assert_eq!(form_base_version(&field(" 0 ")), Ok(0));
    assert!(form_base_version(&field("x")).is_err());
    assert!(form_base_version(&field("-1")).is_err());
    assert!(form_base_version(&field("99999999999999999999")).is_err());
    assert!(form_base_version(&[]).is_err());
}
