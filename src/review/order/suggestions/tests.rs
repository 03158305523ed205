//! Suggestion tests: tables of `(case, files, order, expected sentences)` per check, each with
//! cases on both sides of its thresholds and for each escape hatch of suggestions.md; then the
//! ordering guide's worked example (no suggestions) and a messy order that pins the priority
//! order, the rest sentences and the cut to eight.

use serde_json::{json, Value};

use super::{by_check, code, cut_title, list, suggest, suggest_for_current, CODES};
use crate::review::order::{facts_from_json, validate_order, Order};

type Case<'c> = (&'c str, Value, Value, &'c [&'c str]);

fn order(value: &Value) -> Order {
    crate::json::read::<Order>(value).unwrap_or_else(|error| panic!("{error}: {value}"))
}

/// The sentences of check `code` (before the cut), with check 1 included.
fn sentences(code: &str, files: &Value, order_json: &Value) -> Vec<String> {
    let facts = facts_from_json(files);
    by_check(&order(order_json), &facts, true)
        .into_iter()
        .filter(|(c, _)| *c == code)
        .flat_map(|(_, sentences)| sentences)
        .collect()
}

fn check(code: &str, cases: &[Case<'_>]) {
    assert!(CODES.contains(&code), "{code}");
    for (name, files, order_json, expected) in cases {
        assert_eq!(
            sentences(code, files, order_json),
            *expected,
            "{code}: {name}"
        );
    }
}

/// `n` plain changed files named `{prefix}{i}.ts`.
fn many(prefix: &str, n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({ "path": format!("{prefix}{i}.ts") }))
        .collect()
}

/// One titled section listing `paths` in order.
fn one_section(paths: &[&str]) -> Value {
    let files: Vec<Value> = paths.iter().map(|p| json!({ "path": p })).collect();
    json!({ "sections": [{ "title": "All", "files": files }] })
}

#[test]
fn order_out_of_date() {
    let router = json!([
        { "path": "a.ts" },
        { "path": "r.ts", "changes": ["h1", "h2", "h3"] },
    ]);
    check(
        "order-out-of-date",
        &[
            (
                "new files",
                json!([{ "path": "a.ts" }, { "path": "b.ts" }, { "path": "c.ts" }]),
                one_section(&["a.ts"]),
                &["`b.ts` and `c.ts` changed after this order was saved and aren't placed in it; call `get_pull_request`, place them, and save again."],
            ),
            (
                "a new change of a file whose every part names hunks",
                router.clone(),
                json!({ "sections": [{ "title": "All", "files": [
                    { "path": "a.ts" },
                    { "path": "r.ts", "hunks": ["h1"] },
                    { "path": "r.ts", "hunks": ["h2"] }
                ]}]}),
                &["`r.ts` changed after this order was saved and isn't placed in it; call `get_pull_request`, place it, and save again."],
            ),
            (
                "gone files and changes",
                router.clone(),
                json!({ "sections": [{ "title": "All", "files": [
                    { "path": "gone.ts" },
                    { "path": "a.ts" },
                    { "path": "r.ts", "hunks": ["hold"] },
                    { "path": "r.ts" }
                ]}]}),
                &["The order still lists `gone.ts` and `r.ts` as before the latest commits, but they no longer match the pull request; call `get_pull_request` and update them."],
            ),
            (
                "both at once, one each",
                router.clone(),
                json!({ "sections": [{ "title": "All", "files": [
                    { "path": "gone.ts" },
                    { "path": "r.ts" }
                ]}]}),
                &[
                    "`a.ts` changed after this order was saved and isn't placed in it; call `get_pull_request`, place it, and save again.",
                    "The order still lists `gone.ts` as before the latest commits, but it no longer matches the pull request; call `get_pull_request` and update it.",
                ],
            ),
            (
                "a part without hunks takes new changes",
                router.clone(),
                json!({ "sections": [{ "title": "All", "files": [
                    { "path": "a.ts" },
                    { "path": "r.ts", "hunks": ["h1"] },
                    { "path": "r.ts" }
                ]}]}),
                &[],
            ),
        ],
    );
    // Right after a save the check never runs.
    let facts = facts_from_json(&json!([{ "path": "a.ts" }, { "path": "b.ts" }]));
    let stale = order(&one_section(&["a.ts", "gone.ts"]));
    assert!(suggest(&stale, &facts).is_empty());
    assert_eq!(suggest_for_current(&stale, &facts).len(), 2);
}

#[test]
fn dependency_order() {
    let pair = json!([{ "path": "a.ts", "dependsOn": ["lib/b.ts"] }, { "path": "lib/b.ts" }]);
    let with_note = |note: &str| {
        json!({ "sections": [{ "title": "All", "files": [
            { "path": "a.ts", "note": note }, { "path": "lib/b.ts" }
        ]}]})
    };
    check(
        "dependency-order",
        &[
            (
                "one dependency placed later",
                pair.clone(),
                one_section(&["a.ts", "lib/b.ts"]),
                &["`a.ts` is placed before `lib/b.ts`, which it depends on; move `lib/b.ts` earlier."],
            ),
            (
                "dependency first",
                pair.clone(),
                one_section(&["lib/b.ts", "a.ts"]),
                &[],
            ),
            (
                "several dependencies, listed by their place in the order",
                json!([
                    { "path": "a.ts", "dependsOn": ["c.ts", "b.ts", "a.ts", "gone.ts"] },
                    { "path": "b.ts" },
                    { "path": "c.ts" },
                ]),
                one_section(&["a.ts", "b.ts", "c.ts"]),
                &["`a.ts` is placed before `b.ts` and `c.ts`, which it depends on; move them earlier."],
            ),
            (
                "three files: the rest sentence",
                json!([
                    { "path": "x1.ts", "dependsOn": ["y1.ts"] },
                    { "path": "x2.ts", "dependsOn": ["y2.ts"] },
                    { "path": "x3.ts", "dependsOn": ["y3.ts"] },
                    { "path": "y1.ts" }, { "path": "y2.ts" }, { "path": "y3.ts" },
                ]),
                one_section(&["x2.ts", "x1.ts", "x3.ts", "y1.ts", "y2.ts", "y3.ts"]),
                &[
                    "`x2.ts` is placed before `y2.ts`, which it depends on; move `y2.ts` earlier.",
                    "`x1.ts` and `x3.ts` also come before changed files they depend on; move those files earlier.",
                ],
            ),
            (
                "escape: the note names the dependency's file name, in any case",
                pair.clone(),
                with_note("Top-down: read the handler first, then `B.TS`."),
                &[],
            ),
            (
                "escape: the note names the full path",
                pair.clone(),
                with_note("Uses lib/b.ts"),
                &[],
            ),
            (
                "a note about something else doesn't count",
                pair.clone(),
                with_note("Read slowly."),
                &["`a.ts` is placed before `lib/b.ts`, which it depends on; move `lib/b.ts` earlier."],
            ),
            (
                "escape: mutual imports",
                json!([
                    { "path": "a.ts", "dependsOn": ["b.ts"] },
                    { "path": "b.ts", "dependsOn": ["c.ts"] },
                    { "path": "c.ts", "dependsOn": ["a.ts"] },
                ]),
                one_section(&["a.ts", "b.ts", "c.ts"]),
                &[],
            ),
            (
                "a test's subject is check 3's business",
                json!([
                    { "path": "a.test.ts", "dependsOn": ["a.ts"], "testOf": "a.ts" },
                    { "path": "a.ts" },
                ]),
                one_section(&["a.test.ts", "a.ts"]),
                &[],
            ),
            (
                "generated files are left alone",
                json!([
                    { "path": "gen.ts", "dependsOn": ["b.ts"], "likelyGenerated": true },
                    { "path": "a.ts", "dependsOn": ["c.ts"] },
                    { "path": "b.ts" },
                    { "path": "c.ts" },
                ]),
                json!({ "sections": [{ "title": "All", "files": [
                    { "path": "gen.ts", "focus": "generated" },
                    { "path": "a.ts" },
                    { "path": "b.ts" },
                    { "path": "c.ts", "focus": "generated" }
                ]}]}),
                &[],
            ),
        ],
    );
}

#[test]
fn test_before_subject() {
    let pair = json!([
        { "path": "src/s.ts" },
        { "path": "src/s.test.ts", "testOf": "src/s.ts", "dependsOn": ["src/s.ts"] },
    ]);
    check(
        "test-before-subject",
        &[
            (
                "test first",
                pair.clone(),
                one_section(&["src/s.test.ts", "src/s.ts"]),
                &["`src/s.test.ts` tests `src/s.ts` but comes before it; place it right after `src/s.ts`."],
            ),
            (
                "test right after",
                pair.clone(),
                one_section(&["src/s.ts", "src/s.test.ts"]),
                &[],
            ),
            (
                "a closing tests section is fine",
                pair.clone(),
                json!({ "sections": [
                    { "title": "Code", "files": [{ "path": "src/s.ts" }] },
                    { "title": "Tests", "files": [{ "path": "src/s.test.ts" }] }
                ]}),
                &[],
            ),
            (
                "escape: the test is read first as the spec, and says so",
                pair.clone(),
                json!({ "sections": [{ "title": "All", "files": [
                    { "path": "src/s.test.ts", "note": "Read as the spec of s.ts." },
                    { "path": "src/s.ts" }
                ]}]}),
                &[],
            ),
            (
                "a generated subject",
                json!([
                    { "path": "s.pb.go", "likelyGenerated": true },
                    { "path": "s_test.go", "testOf": "s.pb.go" },
                ]),
                one_section(&["s_test.go", "s.pb.go"]),
                &[],
            ),
            (
                "three tests: the rest sentence",
                json!([
                    { "path": "a.ts" }, { "path": "b.ts" }, { "path": "c.ts" },
                    { "path": "a.test.ts", "testOf": "a.ts" },
                    { "path": "b.test.ts", "testOf": "b.ts" },
                    { "path": "c.test.ts", "testOf": "c.ts" },
                ]),
                one_section(&["a.test.ts", "b.test.ts", "c.test.ts", "a.ts", "b.ts", "c.ts"]),
                &[
                    "`a.test.ts` tests `a.ts` but comes before it; place it right after `a.ts`.",
                    "`b.test.ts` and `c.test.ts` also come before the code they test; place each right after its subject.",
                ],
            ),
        ],
    );
}

#[test]
fn split_out_of_order() {
    let router = json!([{ "path": "r.ts", "changes": ["h1", "h2", "h3"] }]);
    let parts = |first: Value, second: Value| {
        json!({ "sections": [
            { "title": "Routes", "files": [first] },
            { "title": "Handlers", "files": [second] }
        ]})
    };
    check(
        "split-out-of-order",
        &[
            (
                "the rest part starts higher",
                router.clone(),
                parts(json!({ "path": "r.ts", "hunks": ["h3"] }), json!({ "path": "r.ts" })),
                &["The parts of `r.ts` are out of file order: part 2 (section 2 \"Handlers\") starts higher in the file than part 1 (section 1 \"Routes\"); put the parts in file order, or give every part a note saying what it covers and where the rest is."],
            ),
            (
                "in file order",
                router.clone(),
                parts(json!({ "path": "r.ts", "hunks": ["h1"] }), json!({ "path": "r.ts" })),
                &[],
            ),
            (
                "one part without a note is enough to fire",
                router.clone(),
                parts(
                    json!({ "path": "r.ts", "hunks": ["h2", "h3"], "note": "Part 1 of 2: routes." }),
                    json!({ "path": "r.ts", "hunks": ["h1"], "note": " " }),
                ),
                &["The parts of `r.ts` are out of file order: part 2 (section 2 \"Handlers\") starts higher in the file than part 1 (section 1 \"Routes\"); put the parts in file order, or give every part a note saying what it covers and where the rest is."],
            ),
            (
                "escape: every part has a note",
                router.clone(),
                parts(
                    json!({ "path": "r.ts", "hunks": ["h3"], "note": "Part 1 of 2: the route; the rest is in Handlers." }),
                    json!({ "path": "r.ts", "note": "Part 2 of 2: the handler." }),
                ),
                &[],
            ),
            (
                "an empty part is skipped",
                router.clone(),
                parts(json!({ "path": "r.ts", "hunks": ["h1", "h2", "h3"] }), json!({ "path": "r.ts" })),
                &[],
            ),
            (
                "the pair with the smallest j, then i",
                router.clone(),
                json!({ "sections": [
                    { "title": "A", "files": [{ "path": "r.ts", "hunks": ["h2"] }] },
                    { "files": [{ "path": "r.ts", "hunks": ["h3"] }] },
                    { "title": "C", "files": [{ "path": "r.ts", "hunks": ["h1"] }] }
                ]}),
                &["The parts of `r.ts` are out of file order: part 3 (section 3 \"C\") starts higher in the file than part 1 (section 1 \"A\"); put the parts in file order, or give every part a note saying what it covers and where the rest is."],
            ),
            (
                "three files: the rest sentence",
                json!([
                    { "path": "a.ts", "changes": ["h1", "h2"] },
                    { "path": "b.ts", "changes": ["h1", "h2"] },
                    { "path": "c.ts", "changes": ["h1", "h2"] },
                ]),
                json!({ "sections": [
                    { "title": "One", "files": [
                        { "path": "b.ts", "hunks": ["h2"] },
                        { "path": "a.ts", "hunks": ["h2"] },
                        { "path": "c.ts", "hunks": ["h2"] }
                    ]},
                    { "title": "Two", "files": [{ "path": "a.ts" }, { "path": "b.ts" }, { "path": "c.ts" }] }
                ]}),
                &[
                    "The parts of `b.ts` are out of file order: part 2 (section 2 \"Two\") starts higher in the file than part 1 (section 1 \"One\"); put the parts in file order, or give every part a note saying what it covers and where the rest is.",
                    "The parts of `a.ts` and `c.ts` are also out of file order; reorder them, or give every part a note.",
                ],
            ),
        ],
    );
}

#[test]
fn generated_placement() {
    let files =
        json!([{ "path": "a.ts" }, { "path": "package-lock.json", "likelyGenerated": true }]);
    let at = |entries: Value| json!({ "sections": [{ "title": "All", "files": entries }] });
    check(
        "generated-placement",
        &[
            (
                "unmarked at the end",
                files.clone(),
                one_section(&["a.ts", "package-lock.json"]),
                &["`package-lock.json` looks generated; mark it `focus: \"generated\"` so reviewers can fold it."],
            ),
            (
                "unmarked and early",
                files.clone(),
                one_section(&["package-lock.json", "a.ts"]),
                &["`package-lock.json` looks generated but has no focus mark and comes before hand-written files; move it to the end of the order and mark it `focus: \"generated\"`."],
            ),
            (
                "marked but early",
                files.clone(),
                at(json!([{ "path": "package-lock.json", "focus": "generated" }, { "path": "a.ts" }])),
                &["`package-lock.json` is generated but comes before hand-written files; move it to the end of the order, or say in its note why it belongs here."],
            ),
            (
                "marked by the agent alone, early",
                json!([{ "path": "client.ts" }, { "path": "a.ts" }]),
                at(json!([{ "path": "client.ts", "focus": "generated" }, { "path": "a.ts" }])),
                &["`client.ts` is generated but comes before hand-written files; move it to the end of the order, or say in its note why it belongs here."],
            ),
            (
                "marked and last",
                files.clone(),
                at(json!([{ "path": "a.ts" }, { "path": "package-lock.json", "focus": "generated" }])),
                &[],
            ),
            (
                "escape: a deliberate key or skim",
                files.clone(),
                at(json!([{ "path": "a.ts" }, { "path": "package-lock.json", "focus": "skim" }])),
                &[],
            ),
            (
                "escape: a generated file with a note, beside its schema",
                files.clone(),
                at(json!([{ "path": "package-lock.json", "focus": "generated", "note": "Pinned with the new client." }, { "path": "a.ts" }])),
                &[],
            ),
            (
                "three files: the rest sentence",
                json!([
                    { "path": "a.ts" },
                    { "path": "x.lock", "likelyGenerated": true },
                    { "path": "y.lock", "likelyGenerated": true },
                    { "path": "z.lock", "likelyGenerated": true },
                ]),
                one_section(&["x.lock", "y.lock", "a.ts", "z.lock"]),
                &[
                    "`x.lock` looks generated but has no focus mark and comes before hand-written files; move it to the end of the order and mark it `focus: \"generated\"`.",
                    "`y.lock` and `z.lock` also look generated but are unmarked or not at the end; move them to the end with `focus: \"generated\"`.",
                ],
            ),
        ],
    );
}

#[test]
fn missing_overview() {
    let with = |n: usize, overview: Option<&str>| {
        let files = Value::Array(many("f", n));
        let paths: Vec<String> = (0..n).map(|i| format!("f{i}.ts")).collect();
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let mut order = one_section(&refs);
        if let Some(overview) = overview {
            order["overview"] = json!(overview);
        }
        (files, order)
    };
    let (f15, o15) = with(15, None);
    let (f16, o16) = with(16, None);
    let (f16b, o16b) = with(16, Some(" \n"));
    let (f16c, o16c) = with(16, Some("Adds a limiter."));
    check(
        "missing-overview",
        &[
            ("15 files", f15, o15, &[]),
            (
                "16 files",
                f16,
                o16,
                &["This pull request changes 16 files and the order has no overview; add two or three sentences on what the change does, the path through it, and where to read slowly."],
            ),
            (
                "a blank overview",
                f16b,
                o16b,
                &["This pull request changes 16 files and the order has no overview; add two or three sentences on what the change does, the path through it, and where to read slowly."],
            ),
            ("an overview", f16c, o16c, &[]),
        ],
    );
}

#[test]
fn section_too_big() {
    let section = |title: &str, prefix: &str, n: usize, extra: &[Value]| {
        let mut files: Vec<Value> = (0..n)
            .map(|i| json!({ "path": format!("{prefix}{i}.ts") }))
            .collect();
        files.extend(extra.iter().cloned());
        json!({ "title": title, "files": files })
    };
    let mut all_files = many("a", 13);
    all_files.extend(many("b", 14));
    all_files.extend(many("c", 15));
    all_files.push(json!({ "path": "lock", "likelyGenerated": true }));
    all_files.push(json!({ "path": "skimmed.ts" }));
    all_files.push(json!({ "path": "marked.ts" }));
    let all_files = Value::Array(all_files);
    let generated_and_skimmed = [
        json!({ "path": "lock", "focus": "generated" }),
        json!({ "path": "skimmed.ts", "focus": "skim" }),
        json!({ "path": "marked.ts", "focus": "generated" }),
    ];
    check(
        "section-too-big",
        &[
            (
                "12 files to read, plus skimmed and generated ones",
                all_files.clone(),
                json!({ "sections": [section("Core", "a", 12, &generated_and_skimmed)] }),
                &[],
            ),
            (
                "13 files to read",
                all_files.clone(),
                json!({ "sections": [
                    section("Small", "b", 2, &[]),
                    section("Core", "a", 13, &generated_and_skimmed)
                ]}),
                &["Section 2 \"Core\" has 13 files to read; split it into sections of about 8–10 files by concern, each with its own title."],
            ),
            (
                "a path counts once; a skimmed part doesn't hide a read one",
                all_files.clone(),
                json!({ "sections": [section("Core", "a", 12, &[
                    json!({ "path": "a0.ts" }),
                    json!({ "path": "skimmed.ts", "focus": "skim" }),
                    json!({ "path": "skimmed.ts" })
                ])] }),
                &["Section 1 \"Core\" has 13 files to read; split it into sections of about 8–10 files by concern, each with its own title."],
            ),
            (
                "three sections: the rest sentence",
                all_files.clone(),
                json!({ "sections": [
                    section("", "a", 13, &[]),
                    section("B", "b", 14, &[]),
                    section("C", "c", 15, &[])
                ]}),
                &[
                    "Section 1 has 13 files to read; split it into sections of about 8–10 files by concern, each with its own title.",
                    "Section 2 \"B\" and section 3 \"C\" also have more than 12 files to read; split them the same way.",
                ],
            ),
        ],
    );
}

/// An order with one file per section and these layers (`-` for none), titled S1, S2, ….
fn layered(layers: &[&str]) -> (Value, Value) {
    let files = Value::Array(many("f", layers.len()));
    let sections: Vec<Value> = layers
        .iter()
        .enumerate()
        .map(|(i, layer)| {
            let mut section = json!({ "title": format!("S{}", i + 1), "files": [{ "path": format!("f{i}.ts") }] });
            if *layer != "-" {
                section["layer"] = json!(layer);
            }
            section
        })
        .collect();
    (files, json!({ "sections": sections }))
}

#[test]
fn layer_backwards() {
    let case = |name: &'static str, layers: &[&str], expected: &'static [&'static str]| {
        let (files, order) = layered(layers);
        (name, files, order, expected)
    };
    let cases = [
        case(
            "ui, contracts, logic: the run before the drop has one section",
            &["ui", "contracts", "logic"],
            &["Section 1 \"S1\" (`ui`) comes before section 2 \"S2\" (`contracts`), against the usual layer order; reorder them so `contracts` comes first, unless they tell separate stories."],
        ),
        case(
            "escape: a second story of two sections",
            &["contracts", "logic", "ui", "contracts", "ui"],
            &[],
        ),
        case(
            "logic, ui, contracts: the run after has one section",
            &["logic", "ui", "contracts"],
            &["Section 2 \"S2\" (`ui`) comes before section 3 \"S3\" (`contracts`), against the usual layer order; reorder them so `contracts` comes first, unless they tell separate stories."],
        ),
        case(
            "ui, logic, contracts fires once",
            &["ui", "logic", "contracts"],
            &["Section 1 \"S1\" (`ui`) comes before section 2 \"S2\" (`logic`), against the usual layer order; reorder them so `logic` comes first, unless they tell separate stories."],
        ),
        case("a drop of 2 is allowed", &["app", "logic"], &[]),
        case("storage then logic is allowed", &["storage", "logic"], &[]),
        case(
            "a drop of 3",
            &["ui", "logic"],
            &["Section 1 \"S1\" (`ui`) comes before section 2 \"S2\" (`logic`), against the usual layer order; reorder them so `logic` comes first, unless they tell separate stories."],
        ),
        case(
            "sections without a layer are ignored",
            &["ui", "-", "-", "logic"],
            &["Section 1 \"S1\" (`ui`) comes before section 4 \"S4\" (`logic`), against the usual layer order; reorder them so `logic` comes first, unless they tell separate stories."],
        ),
        case("one layered section", &["tooling", "-"], &[]),
        case(
            "four drops: the rest sentence",
            &["tooling", "ui", "logic", "tooling", "app", "contracts"],
            &[
                "Section 1 \"S1\" (`tooling`) comes before section 2 \"S2\" (`ui`), against the usual layer order; reorder them so `ui` comes first, unless they tell separate stories.",
                "Section 3 \"S3\", section 5 \"S5\" and section 6 \"S6\" also come after a section of a later layer; move them earlier.",
            ],
        ),
    ];
    check("layer-backwards", &cases);
}

#[test]
fn key_file_unmarked() {
    let one = |file: Value, entry: Value| {
        (
            json!([file, { "path": "other.ts" }]),
            json!({ "sections": [{ "title": "All", "files": [entry, { "path": "other.ts" }] }] }),
        )
    };
    let users = |n: usize| {
        let mut files = vec![json!({ "path": "core.ts" })];
        let mut paths = vec!["core.ts".to_string()];
        for i in 0..n {
            files.push(json!({ "path": format!("u{i}.ts"), "dependsOn": ["core.ts"] }));
            paths.push(format!("u{i}.ts"));
        }
        // A test that imports its subject doesn't count as a user.
        files
            .push(json!({ "path": "core.test.ts", "dependsOn": ["core.ts"], "testOf": "core.ts" }));
        paths.push("core.test.ts".to_string());
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        (Value::Array(files), one_section(&refs))
    };
    let (f99, o99) = one(
        json!({ "path": "big.ts", "additions": 90, "deletions": 9 }),
        json!({ "path": "big.ts" }),
    );
    let (f100, o100) = one(
        json!({ "path": "big.ts", "additions": 90, "deletions": 10 }),
        json!({ "path": "big.ts" }),
    );
    let (fnote, onote) = one(
        json!({ "path": "big.ts", "additions": 500 }),
        json!({ "path": "big.ts", "note": "Check the loop." }),
    );
    let (ffocus, ofocus) = one(
        json!({ "path": "big.ts", "additions": 500 }),
        json!({ "path": "big.ts", "focus": "skim" }),
    );
    let (ftest, otest) = one(
        json!({ "path": "big.test.ts", "additions": 500, "testOf": "other.ts" }),
        json!({ "path": "big.test.ts" }),
    );
    let (fgone, ogone) = one(
        json!({ "path": "big.ts", "deletions": 500, "status": "removed" }),
        json!({ "path": "big.ts" }),
    );
    let (fgen, ogen) = one(
        json!({ "path": "big.ts", "additions": 500, "likelyGenerated": true }),
        json!({ "path": "big.ts" }),
    );
    let (f2, o2) = users(2);
    let (f3, o3) = users(3);
    check(
        "key-file-unmarked",
        &[
            ("99 changed lines", f99, o99, &[]),
            (
                "100 changed lines",
                f100,
                o100,
                &["`big.ts` changes 100 lines but has no note or focus mark; add a note on what to check, and mark it `key` if it carries the risk."],
            ),
            ("escape: a note", fnote, onote, &[]),
            ("escape: a focus mark", ffocus, ofocus, &[]),
            ("tests aside", ftest, otest, &[]),
            ("removed files aside", fgone, ogone, &[]),
            ("generated files aside", fgen, ogen, &[]),
            ("2 users", f2, o2, &[]),
            (
                "3 users",
                f3,
                o3,
                &["`core.ts` is imported by 3 other changed files but has no note or focus mark; add a note on what changed in it, and mark it `key` if it carries the risk."],
            ),
            (
                "ordered by changed lines, then users, then place; the rest sentence",
                json!([
                    { "path": "small.ts", "additions": 1 },
                    { "path": "mid.ts", "additions": 150 },
                    { "path": "huge.ts", "additions": 900 },
                    { "path": "mid2.ts", "additions": 150 },
                    { "path": "u1.ts", "dependsOn": ["small.ts"] },
                    { "path": "u2.ts", "dependsOn": ["small.ts"] },
                    { "path": "u3.ts", "dependsOn": ["small.ts", "mid2.ts"] },
                ]),
                one_section(&["small.ts", "mid.ts", "huge.ts", "mid2.ts", "u1.ts", "u2.ts", "u3.ts"]),
                &[
                    "`huge.ts` changes 900 lines but has no note or focus mark; add a note on what to check, and mark it `key` if it carries the risk.",
                    "`mid2.ts`, `mid.ts` and `small.ts` also are large or widely imported and have no note or focus mark.",
                ],
            ),
        ],
    );
}

#[test]
fn untitled_section() {
    let untitled = |n: usize, sections: &[Option<&str>]| {
        let files = Value::Array(many("f", n));
        let sections: Vec<Value> = sections
            .iter()
            .enumerate()
            .map(|(i, title)| {
                let paths: Vec<Value> = (0..n)
                    .filter(|j| j % sections.len() == i)
                    .map(|j| json!({ "path": format!("f{j}.ts") }))
                    .collect();
                match title {
                    Some(title) => json!({ "title": title, "files": paths }),
                    None => json!({ "files": paths }),
                }
            })
            .collect();
        (files, json!({ "sections": sections }))
    };
    let (f3, o3) = untitled(3, &[None]);
    let (f4, o4) = untitled(4, &[None]);
    let (f2, o2) = untitled(2, &[Some("A"), Some("  ")]);
    let (fs, os) = untitled(5, &[None, Some("B"), None, Some(""), None]);
    let (ft, ot) = untitled(5, &[Some("A"), Some("B")]);
    check(
        "untitled-section",
        &[
            ("a tiny pull request with one group", f3, o3, &[]),
            (
                "4 changed files",
                f4,
                o4,
                &["Section 1 has no title; name it after what it covers, such as a feature, a layer or a behaviour."],
            ),
            (
                "two sections, one blank",
                f2,
                o2,
                &["Section 2 has no title; name it after what it covers, such as a feature, a layer or a behaviour."],
            ),
            (
                "several",
                fs,
                os,
                &["Sections 1, 3, 4 and 1 more have no title; name each after what it covers."],
            ),
            ("all titled", ft, ot, &[]),
        ],
    );
}

#[test]
fn duplicate_section_title() {
    let titled = |titles: &[&str]| {
        let files = Value::Array(many("f", titles.len()));
        let sections: Vec<Value> = titles
            .iter()
            .enumerate()
            .map(|(i, title)| json!({ "title": title, "files": [{ "path": format!("f{i}.ts") }] }))
            .collect();
        (files, json!({ "sections": sections }))
    };
    let (f1, o1) = titled(&["Token  bucket", "Other", "token bucket "]);
    let (f2, o2) = titled(&["Tests", "Tests", "TESTS"]);
    let (f3, o3) = titled(&["A", "B", "a", "b", "C", "c", "D"]);
    let (f4, o4) = titled(&["Token bucket", "Token buckets", " ", ""]);
    check(
        "duplicate-section-title",
        &[
            (
                "two, after normalising",
                f1,
                o1,
                &["Sections 1 and 3 are both titled \"Token  bucket\"; merge them or retitle each to say what it covers."],
            ),
            (
                "three",
                f2,
                o2,
                &["Sections 1, 2 and 3 are all titled \"Tests\"; merge them or retitle each to say what it covers."],
            ),
            (
                "three groups: the rest sentence",
                f3,
                o3,
                &[
                    "Sections 1 and 3 are both titled \"A\"; merge them or retitle each to say what it covers.",
                    "Other sections share titles too: \"B\" and \"C\"; make every title distinct.",
                ],
            ),
            ("distinct, and blank titles aside", f4, o4, &[]),
        ],
    );
}

#[test]
fn key_overused() {
    let keys = |hand_written: usize, keys: usize| {
        let mut files = many("f", hand_written);
        files.push(json!({ "path": "lock", "likelyGenerated": true }));
        let mut entries: Vec<Value> = (0..hand_written)
            .map(|i| {
                if i < keys {
                    json!({ "path": format!("f{i}.ts"), "focus": "key" })
                } else {
                    json!({ "path": format!("f{i}.ts") })
                }
            })
            .collect();
        entries.push(json!({ "path": "lock", "focus": "generated" }));
        (
            Value::Array(files),
            json!({ "sections": [{ "title": "All", "files": entries }] }),
        )
    };
    let (f3, o3) = keys(4, 3);
    let (f4, o4) = keys(15, 4);
    let (f4b, o4b) = keys(16, 4);
    let (f6, o6) = keys(20, 6);
    check(
        "key-overused",
        &[
            ("3 key files", f3, o3, &[]),
            (
                "4 of 15",
                f4,
                o4,
                &["4 of 15 hand-written files are marked `key`; keep `key` for the few that carry the risk (no more than about 3 here) and leave the rest unmarked or `skim`."],
            ),
            ("4 of 16 is a quarter", f4b, o4b, &[]),
            (
                "6 of 20",
                f6,
                o6,
                &["6 of 20 hand-written files are marked `key`; keep `key` for the few that carry the risk (no more than about 5 here) and leave the rest unmarked or `skim`."],
            ),
        ],
    );
}

#[test]
fn rendering() {
    assert_eq!(code("a`b\nc\u{2028}d"), "`a'b c d`");
    let long = format!("{}/file.ts", "d".repeat(200));
    let rendered = code(&long);
    assert!(rendered.starts_with("`…") && rendered.ends_with("/file.ts`"));
    assert_eq!(rendered.chars().count(), 122);
    assert_eq!(code(&"p".repeat(120)), format!("`{}`", "p".repeat(120)));
    assert_eq!(cut_title(&"é".repeat(60)), "é".repeat(60));
    assert_eq!(cut_title(&"é".repeat(61)), format!("{}…", "é".repeat(59)));
    let items: Vec<String> = ["a", "b", "c", "d", "e", "f", "g"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(list(&items[..1]), "a");
    assert_eq!(list(&items[..2]), "a and b");
    assert_eq!(list(&items[..3]), "a, b and c");
    assert_eq!(list(&items), "a, b, c and 4 more");
}

#[test]
fn untrusted_titles_are_sanitised_in_sentences() {
    let files = json!([{ "path": "a.ts" }, { "path": "b.ts" }]);
    let title = format!("x`y\n{}", "z".repeat(80));
    let order_json = json!({ "sections": [
        { "title": title, "files": [{ "path": "a.ts" }] },
        { "title": title, "files": [{ "path": "b.ts" }] }
    ]});
    assert_eq!(
        sentences("duplicate-section-title", &files, &order_json),
        [format!(
            "Sections 1 and 2 are both titled \"x'y {}…\"; merge them or retitle each to say what it covers.",
            "z".repeat(55)
        )]
    );
}

/// The ordering guide's worked example: pull request 481, eight files.
fn worked_example() -> (Value, Value) {
    let files = json!([
        { "path": "src/limits/types.ts", "status": "added", "additions": 14 },
        { "path": "src/limits/token-bucket.ts", "status": "added", "additions": 88, "dependsOn": ["src/limits/types.ts"] },
        { "path": "src/limits/token-bucket.test.ts", "status": "added", "additions": 95, "dependsOn": ["src/limits/token-bucket.ts", "src/limits/types.ts"], "testOf": "src/limits/token-bucket.ts" },
        { "path": "src/auth/reset-password.ts", "additions": 12, "deletions": 3, "dependsOn": ["src/limits/token-bucket.ts"], "changes": ["h1", "h2"] },
        { "path": "src/auth/reset-password.test.ts", "additions": 30, "dependsOn": ["src/auth/reset-password.ts"], "testOf": "src/auth/reset-password.ts" },
        { "path": "config/limits.yaml", "additions": 4 },
        { "path": "package.json", "additions": 1, "deletions": 1 },
        { "path": "pnpm-lock.yaml", "additions": 60, "deletions": 12, "likelyGenerated": true },
    ]);
    let order = json!({
      "owner": "acme", "repo": "app", "number": 481, "base_version": 0,
      "overview": "Caps password reset emails at 3 per address per hour with a new token bucket. Read the bucket and its tests, then its single call site in `requestReset`. The refill arithmetic in `TokenBucket.take` is the part to read slowly.",
      "sections": [
        {
          "title": "Token bucket", "layer": "logic",
          "note": "A self-contained limiter: `take(key)` returns false once a key has spent its budget for the window. The clock is injected.",
          "checks": ["A key that runs out gets tokens back when its window ends, not before", "The tests use the injected clock and never sleep"],
          "files": [
            { "path": "src/limits/types.ts" },
            { "path": "src/limits/token-bucket.ts", "focus": "key", "note": "Refill is computed from elapsed time on each call; check the rounding at window edges." },
            { "path": "src/limits/token-bucket.test.ts" }
          ]
        },
        {
          "title": "Reset requests use the limiter", "layer": "app",
          "note": "Over the limit the endpoint still answers 202, so it can't be used to probe which addresses have accounts.",
          "checks": ["A fourth request for one address within an hour sends no email and still returns 202"],
          "files": [{ "path": "src/auth/reset-password.ts" }, { "path": "src/auth/reset-password.test.ts" }]
        },
        {
          "title": "Limit settings", "layer": "wiring",
          "files": [{ "path": "config/limits.yaml", "note": "Defaults to 3 per hour; operators can change it without a deploy." }]
        },
        {
          "title": "Dependencies", "layer": "tooling",
          "files": [{ "path": "package.json", "focus": "skim" }, { "path": "pnpm-lock.yaml", "focus": "generated" }]
        }
      ]
    });
    (files, order)
}

#[test]
fn worked_example_has_no_suggestions() {
    let (files, order_json) = worked_example();
    let facts = facts_from_json(&files);
    let validated = validate_order(&order_json, &facts)
        .unwrap_or_else(|rejection| panic!("{}", rejection.message()));
    assert_eq!(suggest(&validated, &facts), Vec::<String>::new());
    assert_eq!(
        suggest_for_current(&validated, &facts),
        Vec::<String>::new()
    );
}

#[test]
fn worked_example_with_the_test_first_names_both_files() {
    // The guide: "Had the test come before `token-bucket.ts`, `suggestions` would have said so,
    // naming both files."
    let (files, mut order_json) = worked_example();
    let section = &mut order_json["sections"][0]["files"];
    if let Some(entries) = section.as_array_mut() {
        entries.swap(1, 2);
    }
    let facts = facts_from_json(&files);
    let validated = validate_order(&order_json, &facts)
        .unwrap_or_else(|rejection| panic!("{}", rejection.message()));
    assert_eq!(
        suggest(&validated, &facts),
        ["`src/limits/token-bucket.test.ts` tests `src/limits/token-bucket.ts` but comes before it; place it right after `src/limits/token-bucket.ts`."]
    );
}

#[test]
fn a_messy_order_pins_priority_rest_sentences_and_the_cut() {
    let mut files = vec![
        json!({ "path": "app.ts", "dependsOn": ["svc.ts"], "additions": 120 }),
        json!({ "path": "svc.ts", "additions": 300 }),
        json!({ "path": "svc.test.ts", "testOf": "svc.ts" }),
        json!({ "path": "yarn.lock", "likelyGenerated": true }),
    ];
    files.extend(many("m", 14));
    let mut first: Vec<Value> = vec![
        json!({ "path": "yarn.lock" }),
        json!({ "path": "svc.test.ts" }),
        json!({ "path": "app.ts" }),
    ];
    first.extend((0..14).map(|i| json!({ "path": format!("m{i}.ts") })));
    let order_json = json!({ "sections": [
        { "layer": "ui", "files": first },
        { "title": "Core", "layer": "contracts", "files": [{ "path": "svc.ts" }] }
    ]});
    let facts = facts_from_json(&Value::Array(files));
    let all: Vec<String> = by_check(&order(&order_json), &facts, false)
        .into_iter()
        .flat_map(|(code, sentences)| sentences.into_iter().map(move |s| format!("{code}: {s}")))
        .collect();
    assert_eq!(
        all,
        [
            "dependency-order: `app.ts` is placed before `svc.ts`, which it depends on; move `svc.ts` earlier.",
            "test-before-subject: `svc.test.ts` tests `svc.ts` but comes before it; place it right after `svc.ts`.",
            "generated-placement: `yarn.lock` looks generated but has no focus mark and comes before hand-written files; move it to the end of the order and mark it `focus: \"generated\"`.",
            "missing-overview: This pull request changes 18 files and the order has no overview; add two or three sentences on what the change does, the path through it, and where to read slowly.",
            "section-too-big: Section 1 has 16 files to read; split it into sections of about 8–10 files by concern, each with its own title.",
            "layer-backwards: Section 1 (`ui`) comes before section 2 \"Core\" (`contracts`), against the usual layer order; reorder them so `contracts` comes first, unless they tell separate stories.",
            "key-file-unmarked: `svc.ts` changes 300 lines but has no note or focus mark; add a note on what to check, and mark it `key` if it carries the risk.",
            "key-file-unmarked: `app.ts` changes 120 lines but has no note or focus mark; add a note on what to check, and mark it `key` if it carries the risk.",
            "untitled-section: Section 1 has no title; name it after what it covers, such as a feature, a layer or a behaviour.",
        ]
    );
    let cut = suggest(&order(&order_json), &facts);
    assert_eq!(cut.len(), 8);
    assert!(cut.iter().all(|s| !s.contains("has no title")));
    assert_eq!(suggest_for_current(&order(&order_json), &facts), cut);
}

#[test]
fn same_input_same_sentences() {
    let (files, order_json) = worked_example();
    let facts = facts_from_json(&files);
    let mut shuffled = order(&order_json);
    shuffled.sections.reverse();
    let once = suggest(&shuffled, &facts);
    assert!(!once.is_empty());
    for _ in 0..5 {
        assert_eq!(suggest(&shuffled, &facts), once);
    }
}
