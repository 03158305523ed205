//! Tests of the arrange page shell (escaping, the embedded data round-tripping to the saved order)
//! and of reading the editor's JSON body. The editing itself runs in the browser and is tested
//! end to end (`tests/e2e/review-page.test.mjs`, "arrange on the web").

use serde_json::{json, Value};

use super::{render, submission, ArrangePage, Submission};
use crate::review::model::snapshot::SnapshotFile;
use crate::review::order::Order;

fn order_from(value: Value) -> Order {
    crate::json::read::<Order>(&value).unwrap_or_else(|error| panic!("{error}"))
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

/// An order with everything the editor must keep: layers, checks, focus, split parts, notes with
/// leading and inner newlines and markup, an untitled section.
fn sample() -> Order {
    order_from(json!({
        "overview": "Read `flags` first.\nThen the rest.",
        "sections": [
            { "title": "Flag & <schema>", "layer": "contracts", "note": "\nStarts with a newline </script><!--",
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

fn rendered(order: &Order, files: &[SnapshotFile]) -> String {
    render(&ArrangePage {
        base_url: "https://logikflow.test",
        owner: "acme",
        repo: "app",
        number: 123,
        title: "Add <b>invites</b>",
        order,
        base_version: 4,
        files,
        csrf: "tok\"123",
    })
}

/// The text of the `#arrange-data` element.
fn data_of(html: &str) -> &str {
    let start = "<script type=\"application/json\" id=\"arrange-data\">";
    let from = html
        .find(start)
        .map(|at| at + start.len())
        .unwrap_or_else(|| panic!("{html}"));
    let rest = &html[from..];
    &rest[..rest.find("</script>").unwrap_or_else(|| panic!("{rest}"))]
}

#[test]
fn the_shell_embeds_the_order_and_files() {
    let order = sample();
    let files = [snapshot("lib/flags.ts"), snapshot("new/<file>.ts")];
    let html = rendered(&order, &files);
    let data: Value = serde_json::from_str(data_of(&html)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(data["baseVersion"], 4);
    assert_eq!(data["action"], "/r/acme/app/pull/123/arrange");
    assert_eq!(data["pull"], "/r/acme/app/pull/123");
    // The embedded order is the saved one, every kept field included.
    assert_eq!(order_from(data["order"].clone()), order);
    assert_eq!(
        data["order"]["sections"][0]["files"][1]["hunks"],
        json!(["h1"])
    );
    assert_eq!(data["files"][1]["path"], "new/<file>.ts");
    assert_eq!(data["files"][1]["additions"], 3);
    assert_eq!(data["limits"]["note"], 4000);
    for needle in [
        "<input type=\"hidden\" id=\"arrange-csrf\" value=\"tok&quot;123\">",
        "<script src=\"/static/arrange.js\" defer></script>",
        "<link rel=\"stylesheet\" href=\"/static/arrange.css\">",
        "Saving creates version 5",
    ] {
        assert!(html.contains(needle), "{needle}\n{html}");
    }
}

#[test]
fn agent_text_cannot_leave_the_data_element() {
    let order = sample();
    let html = rendered(&order, &[]);
    let data = data_of(&html);
    assert!(!data.contains('<'), "{data}");
    assert!(data.contains("\\u003c/script>\\u003c!--"), "{data}");
    assert!(html.contains("acme/app#123: Add &lt;b&gt;invites&lt;/b&gt;"));
    assert!(!html.contains("<b>invites"));
    // The only scripts are the data element and the editor.
    assert_eq!(html.matches("<script").count(), 2, "{html}");
}

#[test]
fn without_javascript_the_page_says_so() {
    let html = rendered(&sample(), &[]);
    assert!(
        html.contains("<p class=\"notice\" id=\"arrange-nojs\">Arranging needs JavaScript"),
        "{html}"
    );
    assert!(html.contains("<a href=\"/r/acme/app/pull/123\">Back to the review</a>"));
}

fn check(body: &str, expected: Result<Submission, &str>) {
    assert_eq!(
        submission(body.as_bytes()),
        expected.map_err(str::to_string),
        "{body}"
    );
}

#[test]
fn submissions() {
    check(
        r#"{"base_version": 4, "order": {"sections": []}}"#,
        Ok(Submission {
            base_version: 4,
            order: json!({"sections": []}),
        }),
    );
    let bad = "the request must be a JSON object with base_version and order";
    check("", Err(bad));
    check("csrf=x&base_version=1", Err(bad));
    check("[1]", Err(bad));
    check(r#"{"order": {}}"#, Err("base_version is required"));
    check(
        r#"{"base_version": -1, "order": {}}"#,
        Err("base_version must be a whole number"),
    );
    check(
        r#"{"base_version": "4", "order": {}}"#,
        Err("base_version must be a whole number"),
    );
    check(r#"{"base_version": 4}"#, Err("order is required"));
    check(
        r#"{"base_version": 4, "order": []}"#,
        Err("order must be an object with sections"),
    );
}
