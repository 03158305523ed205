//! Validation tests: one `check(files, order, expected)` per case, where `expected` is `ok` (and
//! the counts) or the whole rejection message.

use serde_json::{json, Value};

use super::{facts_from_json, order_counts, validate_order, Order, RejectionKind};

/// The router file of the reference, split into two changes, plus two plain files.
fn files() -> Value {
    json!([
        { "path": "models/invite.ts" },
        { "path": "services/invite-service.ts", "dependsOn": ["models/invite.ts"] },
        { "path": "app/router.ts", "changes": ["h1pdwiwd", "hyzm99a"] },
        { "path": "logo.png", "noDiff": true },
    ])
}

fn check(files: &Value, order: Value, expected: &str) {
    let facts = facts_from_json(files);
    let got = match validate_order(&order, &facts) {
        Ok(order) => {
            let counts = order_counts(&order);
            format!(
                "ok sections={} files={} checklistItems={} overview={}",
                counts.sections, counts.files, counts.checklist_items, counts.overview
            )
        }
        Err(rejection) => rejection.message(),
    };
    assert_eq!(got, expected, "order: {order}");
}

/// Sections with the four files in order, the router given by `router` entries.
fn plain_order() -> Value {
    json!({ "sections": [{ "title": "All", "files": [
        { "path": "models/invite.ts" },
        { "path": "services/invite-service.ts" },
        { "path": "app/router.ts" },
        { "path": "logo.png" }
    ]}]})
}

#[test]
fn a_complete_order_is_accepted() {
    check(
        &files(),
        plain_order(),
        "ok sections=1 files=4 checklistItems=0 overview=false",
    );
}

#[test]
fn reference_example_is_accepted_with_its_counts() {
    let files = json!([
        { "path": "lib/flags.ts" },
        { "path": "db/migrations/0003_invites.sql" },
        { "path": "models/invite.ts" },
        { "path": "services/invite-service.ts" },
    ]);
    let order = json!({
      "owner": "acme", "repo": "app", "number": 123, "base_version": 0,
      "overview": "Adds team invites behind the `invitesEnabled` flag. Start with the flag and migration, then the model and service, then the dialog that calls it. The replace-on-reinvite rule in `InviteService` is the part to read slowly.",
      "sections": [
        {
          "title": "Flag and schema",
          "layer": "contracts",
          "note": "Everything new is behind `invitesEnabled`, off by default.",
          "checks": ["With the flag off, the members page is unchanged"],
          "files": [{ "path": "lib/flags.ts" }, { "path": "db/migrations/0003_invites.sql" }]
        },
        {
          "title": "Invite model and service",
          "layer": "logic",
          "note": "Builds on the schema above. `InviteService` owns the lifecycle; the model is a plain record.",
          "files": [
            { "path": "models/invite.ts" },
            { "path": "services/invite-service.ts", "note": "Re-inviting the same email replaces the open invite.", "focus": "key" }
          ]
        }
      ]
    });
    check(
        &files,
        order,
        "ok sections=2 files=4 checklistItems=1 overview=true",
    );
}

#[test]
fn parsed_order_round_trips_through_serde() {
    let facts = facts_from_json(&files());
    let input = json!({ "overview": "x", "sections": [
        { "title": "A", "layer": "ui", "note": "n", "checks": ["c"], "files": [
            { "path": "models/invite.ts", "focus": "skim", "checks": ["d"] },
            { "path": "services/invite-service.ts" },
            { "path": "app/router.ts", "hunks": ["hyzm99a"] },
            { "path": "logo.png" }
        ]},
        { "files": [{ "path": "app/router.ts", "note": "rest" }] }
    ]});
    let order = validate_order(&input, &facts).unwrap_or_else(|e| panic!("{}", e.message()));
    let value = serde_json::to_value(&order).unwrap_or_default();
    let back = crate::json::read::<Order>(&value).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, order);
    assert_eq!(value, input);
}

/// The reader takes back exactly what the serializer writes, with every field set and with every
/// optional field left out, so a misspelled field name fails here.
#[test]
fn order_reads_back_what_it_writes() {
    use super::{FileEntry, Focus, Layer, Section};
    let full = Order {
        overview: Some("o".into()),
        sections: vec![Section {
            title: Some("t".into()),
            layer: Some(Layer::Storage),
            note: Some("n".into()),
            checks: vec!["c".into()],
            files: vec![FileEntry {
                path: "p".into(),
                note: Some("m".into()),
                checks: vec!["d".into()],
                focus: Some(Focus::Generated),
                hunks: Some(vec!["h".into()]),
            }],
        }],
    };
    let bare = Order {
        overview: None,
        sections: vec![Section {
            title: None,
            layer: None,
            note: None,
            checks: vec![],
            files: vec![FileEntry {
                path: "p".into(),
                note: None,
                checks: vec![],
                focus: None,
                hunks: None,
            }],
        }],
    };
    for order in [full, bare] {
        let mut value = serde_json::to_value(&order).unwrap_or_default();
        // The stored form's extra key is ignored.
        value["checklist"] = json!([]);
        assert_eq!(crate::json::read::<Order>(&value), Ok(order));
    }
    for (name, layer) in Layer::ALL {
        assert_eq!(serde_json::to_value(layer).ok(), Some(json!(name)));
        assert_eq!(crate::json::read::<Layer>(&json!(name)), Ok(layer));
    }
    for (name, focus) in Focus::ALL {
        assert_eq!(serde_json::to_value(focus).ok(), Some(json!(name)));
        assert_eq!(crate::json::read::<Focus>(&json!(name)), Ok(focus));
    }
}

/// Missing required fields and unknown names are refused, with the text before the problem;
/// `null` reads as absent.
#[test]
fn order_reader_refusals() {
    let error = |value: Value| {
        crate::json::read::<Order>(&value)
            .err()
            .map(|e| e.to_string())
    };
    assert_eq!(
        error(json!({})).as_deref(),
        Some("missing field `sections` at line 1 column 2, after `{}`")
    );
    assert_eq!(
        error(json!({ "sections": [{ "files": [{ "path": "a" }, {}] }] })).as_deref(),
        Some("missing field `path` at line 1 column 38, after `{\"sections\":[{\"files\":[{\"path\":\"a\"},{}`")
    );
    assert_eq!(
        error(json!({ "sections": [{ "layer": "UI", "files": [] }] })).as_deref(),
        Some("unknown variant `UI`, expected one of `contracts`, `models`, `logic`, `storage`, `app`, `ui`, `wiring`, `resources`, `tooling` at line 1 column 37, after `{\"sections\":[{\"files\":[],\"layer\":\"UI\"`")
    );
    assert_eq!(
        error(json!({ "sections": [{ "files": [{ "path": "a", "focus": 1 }] }] })).as_deref(),
        Some("invalid type: integer `1`, expected string or map")
    );
    let nulls = json!({ "overview": null, "sections": [{ "title": null, "layer": null,
        "files": [{ "path": "a", "focus": null, "hunks": null }] }] });
    assert!(crate::json::read::<Order>(&nulls).is_ok());
}

#[test]
fn shapes_and_types() {
    let f = files();
    check(
        &f,
        json!([]),
        "The order is invalid: the input must be an object, got array",
    );
    check(&f, json!({}), "The order is invalid: sections is required");
    check(
        &f,
        json!({ "sections": {} }),
        "The order is invalid: sections must be an array, got object",
    );
    check(
        &f,
        json!({ "sections": [] }),
        "The order is invalid: sections must have 1 to 50 items, got 0",
    );
    check(
        &f,
        json!({ "sections": [3, { "files": "x" }, { "title": 1, "files": [] }] }),
        "The order is invalid: sections[0] must be an object, got number; sections[1].files must be an array, got string; sections[2].title must be a string, got number; sections[2].files must not be empty",
    );
    check(
        &f,
        json!({ "sections": [{ "title": "A" }] }),
        "The order is invalid: sections[0].files is required",
    );
    check(
        &f,
        json!({ "sections": [{ "files": [{ "note": "x" }, { "path": "" }, { "path": 5 }, "a.ts"] }] }),
        "The order is invalid: sections[0].files[0].path is required; sections[0].files[1].path is empty; sections[0].files[2].path must be a string, got number; sections[0].files[3] must be an object, got string",
    );
}

#[test]
fn enum_values() {
    check(
        &files(),
        json!({ "sections": [
            { "layer": "view", "files": [{ "path": "a" }] },
            { "files": [{ "path": "a" }, { "path": "b" }, { "path": "c", "focus": "hot" }] },
            { "layer": 2, "files": [{ "path": "a", "focus": null }] }
        ]}),
        "The order is invalid: sections[0].layer must be contracts, models, logic, storage, app, ui, wiring, resources or tooling, got \"view\"; sections[1].files[2].focus must be key, skim or generated, got \"hot\"; sections[2].layer must be contracts, models, logic, storage, app, ui, wiring, resources or tooling, got number",
    );
}

#[test]
fn unknown_keys_and_tool_keys() {
    check(
        &files(),
        json!({ "owner": "acme", "repo": "app", "number": 1, "base_version": 0, "extra": 1,
            "sections": [{ "name": "x", "files": [{ "path": "a", "hunk": "h1" }] }] }),
        "The order is invalid: the input has an unknown key \"extra\" (allowed: overview, sections); sections[0] has an unknown key \"name\" (allowed: title, layer, note, checks, files); sections[0].files[0] has an unknown key \"hunk\" (allowed: path, note, checks, focus, hunks)",
    );
}

#[test]
fn limits_count_characters() {
    let f = files();
    let order_with = |section: Value, overview: Option<String>| {
        let mut order = json!({ "sections": [section] });
        if let Some(overview) = overview {
            order["overview"] = json!(overview);
        }
        order
    };
    let body = |extra: Value| {
        let mut section = json!({ "files": [
            { "path": "models/invite.ts" },
            { "path": "services/invite-service.ts" },
            { "path": "app/router.ts" },
            { "path": "logo.png" }
        ]});
        if let (Some(target), Some(extra)) = (section.as_object_mut(), extra.as_object()) {
            for (key, value) in extra {
                target.insert(key.clone(), value.clone());
            }
        }
        section
    };
    // At the limits, in multi-byte characters: accepted.
    check(
        &f,
        order_with(
            body(json!({
                "title": "é".repeat(200),
                "note": "🦀".repeat(4000),
                "checks": vec!["ü".repeat(300); 20],
            })),
            Some("ß".repeat(2000)),
        ),
        "ok sections=1 files=4 checklistItems=20 overview=true",
    );
    // One over each limit.
    check(
        &f,
        order_with(
            body(json!({
                "title": "é".repeat(201),
                "note": "🦀".repeat(4001),
                "checks": vec!["ü".repeat(301); 21],
            })),
            Some("ß".repeat(2001)),
        ),
        &format!(
            "The order is invalid: overview must be at most 2000 characters, got 2001; sections[0].title must be at most 200 characters, got 201; sections[0].note must be at most 4000 characters, got 4001; sections[0].checks must have at most 20 items, got 21; {}",
            (0..21)
                .map(|i| format!("sections[0].checks[{i}] must be at most 300 characters, got 301"))
                .collect::<Vec<_>>()
                .join("; ")
        ),
    );
    let many: Vec<Value> = (0..51)
        .map(|_| json!({ "files": [{ "path": "a" }] }))
        .collect();
    check(
        &f,
        json!({ "sections": many }),
        "The order is invalid: sections must have 1 to 50 items, got 51",
    );
}

#[test]
fn empty_checklist_items() {
    check(
        &files(),
        json!({ "sections": [
            { "files": [{ "path": "a" }] },
            { "files": [{ "path": "a" }] },
            { "checks": ["", " \t", 3], "files": [{ "path": "a", "checks": ["\n"] }] }
        ]}),
        "The order is invalid: sections[2].checks[0] is empty; sections[2].checks[1] is empty; sections[2].checks[2] must be a string, got number; sections[2].files[0].checks[0] is empty",
    );
}

/// Issue 36: bidirectional controls are dropped from stored words, so a check made of nothing
/// else would be stored empty; it is refused as empty instead. (A title may be blank anyway.)
#[test]
fn items_of_only_bidi_controls_are_empty() {
    check(
        &files(),
        json!({ "sections": [
            { "checks": ["\u{2066} \u{2069}", "\u{202E}"], "files": [{ "path": "a" }] }
        ]}),
        "The order is invalid: sections[0].checks[0] is empty; sections[0].checks[1] is empty",
    );
}

#[test]
fn hunks_shape() {
    check(
        &files(),
        json!({ "sections": [{ "files": [
            { "path": "app/router.ts", "hunks": [] },
            { "path": "app/router.ts", "hunks": "h1" },
            { "path": "app/router.ts", "hunks": ["", 4] }
        ]}]}),
        "The order is invalid: sections[0].files[0].hunks must not be empty; sections[0].files[1].hunks must be an array, got string; sections[0].files[2].hunks[0] is empty; sections[0].files[2].hunks[1] must be a string, got number",
    );
}

#[test]
fn invalid_input_hides_coverage_problems() {
    let facts = facts_from_json(&files());
    let rejection = validate_order(
        &json!({ "sections": [{ "files": [{ "path": "x", "focus": "hot" }] }] }),
        &facts,
    );
    assert_eq!(rejection.map_err(|r| r.kind), Err(RejectionKind::Invalid));
}

#[test]
fn coverage() {
    let f = files();
    check(
        &f,
        json!({ "sections": [{ "files": [{ "path": "models/invite.ts" }, { "path": "app/router.ts" }] }] }),
        "The order must list every changed file: missing: services/invite-service.ts, logo.png",
    );
    check(
        &f,
        json!({ "sections": [{ "title": "A", "files": [
            { "path": "models/invite.ts" }, { "path": "x.ts" }, { "path": "x.ts" },
            { "path": "services/invite-service.ts" }, { "path": "app/router.ts" }, { "path": "logo.png" },
            { "path": "models/invite.ts" }
        ]}, { "files": [{ "path": "app/router.ts" }, { "path": "app/router.ts" }] }]}),
        "The order must list every changed file: unknown: x.ts; listed twice without hunks: models/invite.ts, app/router.ts",
    );
}

#[test]
fn a_whole_file_named_by_hunks_is_fine() {
    check(
        &files(),
        json!({ "sections": [{ "title": "All", "files": [
            { "path": "models/invite.ts" },
            { "path": "services/invite-service.ts" },
            { "path": "app/router.ts", "hunks": ["hyzm99a", "h1pdwiwd"] },
            { "path": "logo.png" }
        ]}]}),
        "ok sections=1 files=4 checklistItems=0 overview=false",
    );
}

#[test]
fn splits_that_place_every_change_once() {
    let base = |router: Vec<Value>| {
        let mut entries = vec![
            json!({ "path": "models/invite.ts" }),
            json!({ "path": "services/invite-service.ts" }),
            json!({ "path": "logo.png" }),
        ];
        entries.extend(router);
        json!({ "sections": [{ "title": "All", "files": entries }] })
    };
    let f = files();
    // Two parts, each with hunks, together all changes.
    check(
        &f,
        base(vec![
            json!({ "path": "app/router.ts", "hunks": ["hyzm99a"] }),
            json!({ "path": "app/router.ts", "hunks": ["h1pdwiwd"] }),
        ]),
        "ok sections=1 files=4 checklistItems=0 overview=false",
    );
    // One part takes the rest, even when nothing is left.
    check(
        &f,
        base(vec![
            json!({ "path": "app/router.ts", "hunks": ["hyzm99a", "h1pdwiwd"] }),
            json!({ "path": "app/router.ts" }),
        ]),
        "ok sections=1 files=4 checklistItems=0 overview=false",
    );
}

#[test]
fn broken_splits() {
    let base = |router: Vec<Value>| {
        let mut entries = vec![
            json!({ "path": "models/invite.ts" }),
            json!({ "path": "services/invite-service.ts" }),
            json!({ "path": "logo.png" }),
        ];
        entries.extend(router);
        json!({ "sections": [{ "title": "All", "files": entries }] })
    };
    let f = files();
    const SPLIT: &str = "The order must list every changed file, and place every change of a split file exactly once: ";
    // Listed once with hunks naming only some ids: a split with an unplaced change.
    check(
        &f,
        base(vec![json!({ "path": "app/router.ts", "hunks": ["hyzm99a"] })]),
        &format!("{SPLIT}app/router.ts leaves change h1pdwiwd unplaced: name it in a part's hunks, or list the file once more without hunks to take the rest"),
    );
    check(
        &f,
        base(vec![
            json!({ "path": "app/router.ts", "hunks": ["hyzm99a", "hzzz", "hzzz"] }),
            json!({ "path": "app/router.ts", "hunks": ["hyzm99a", "hyzm99a"] }),
            json!({ "path": "app/router.ts" }),
            json!({ "path": "app/router.ts" }),
        ]),
        &format!("{SPLIT}app/router.ts is listed 2 times without hunks (sections[0].files[5] and sections[0].files[6]), but at most one part may leave them out; sections[0].files[3].hunks names \"hzzz\", which isn't a change of app/router.ts (its changes are h1pdwiwd and hyzm99a); change hyzm99a of app/router.ts is placed in more than one part (sections[0].files[3] and sections[0].files[4])"),
    );
}

#[test]
fn a_change_named_twice_in_one_part_is_kept_once() {
    let f = files();
    let order = validate_order(
        &json!({ "sections": [{ "title": "All", "files": [
            { "path": "models/invite.ts" },
            { "path": "services/invite-service.ts" },
            { "path": "logo.png" },
            { "path": "app/router.ts", "hunks": ["h1pdwiwd", "h1pdwiwd"] },
            { "path": "app/router.ts", "hunks": ["hyzm99a"] },
        ]}]}),
        &facts_from_json(&f),
    )
    .unwrap_or_else(|e| {
        panic!(
            "one part naming a change twice is still one part: {}",
            e.message()
        )
    });
    let parts: Vec<&Vec<String>> = order.sections[0]
        .files
        .iter()
        .filter_map(|entry| entry.hunks.as_ref())
        .collect();
    assert_eq!(
        parts,
        [&vec!["h1pdwiwd".to_string()], &vec!["hyzm99a".to_string()]]
    );
}

#[test]
fn files_without_a_diff_cant_be_split() {
    let f = files();
    let with = |logo: Vec<Value>| {
        let mut entries = vec![
            json!({ "path": "models/invite.ts" }),
            json!({ "path": "services/invite-service.ts" }),
            json!({ "path": "app/router.ts" }),
        ];
        entries.extend(logo);
        json!({ "sections": [{ "title": "All", "files": entries }] })
    };
    const NO_DIFF: &str = "The order must list every changed file, and place every change of a split file exactly once: logo.png has no diff GitHub can show, so it can't be split";
    check(
        &f,
        with(vec![json!({ "path": "logo.png", "hunks": ["h1"] })]),
        NO_DIFF,
    );
    check(
        &f,
        with(vec![
            json!({ "path": "logo.png" }),
            json!({ "path": "logo.png" }),
        ]),
        NO_DIFF,
    );
}

#[test]
fn split_message_wins_and_keeps_coverage_problems() {
    check(
        &files(),
        json!({ "sections": [{ "title": "All", "files": [
            { "path": "models/invite.ts" },
            { "path": "app/router.ts", "hunks": ["nope"] },
            { "path": "logo.png" }
        ]}]}),
        "The order must list every changed file, and place every change of a split file exactly once: missing: services/invite-service.ts; sections[0].files[1].hunks names \"nope\", which isn't a change of app/router.ts (its changes are h1pdwiwd and hyzm99a); app/router.ts leaves changes h1pdwiwd and hyzm99a unplaced: name them in a part's hunks, or list the file once more without hunks to take the rest",
    );
}

#[test]
fn unknown_ids_of_files_with_many_or_one_change() {
    let many: Vec<String> = (0..11).map(|i| format!("h{i}")).collect();
    let f = json!([
        { "path": "big.ts", "changes": many },
        { "path": "one.ts", "changes": ["hone"] },
    ]);
    check(
        &f,
        json!({ "sections": [{ "title": "A", "files": [
            { "path": "big.ts", "hunks": ["hx", "hy"] },
            { "path": "big.ts" },
            { "path": "one.ts", "hunks": ["hx"] },
            { "path": "one.ts" }
        ]}]}),
        "The order must list every changed file, and place every change of a split file exactly once: sections[0].files[0].hunks names \"hx\" and \"hy\", which aren't changes of big.ts (call get_pull_request for its change ids); sections[0].files[2].hunks names \"hx\", which isn't a change of one.ts (its only change is hone)",
    );
}

#[test]
fn long_problem_lists_are_cut() {
    let f: Vec<Value> = (0..120)
        .map(|i| json!({ "path": format!("f{i}.ts") }))
        .collect();
    let facts = facts_from_json(&Value::Array(f));
    let order = json!({ "sections": [{ "files": [{ "path": "f0.ts" }] }] });
    let message = validate_order(&order, &facts)
        .map(|_| String::new())
        .unwrap_or_else(|r| r.message());
    assert!(message.ends_with("f100.ts and 19 more"), "{message}");

    let sections: Vec<Value> = (0..50)
        .map(|_| json!({ "files": [{ "path": "a", "focus": "x" }, { "path": "a", "focus": "y" }] }))
        .collect();
    let message = validate_order(&json!({ "sections": sections }), &facts)
        .map(|_| String::new())
        .unwrap_or_else(|r| r.message());
    assert!(message.ends_with("; and 50 more problems"), "{message}");
}

/// A deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 1_000_003) as usize
    }

    fn pick(&mut self, items: &[Value]) -> Value {
        items
            .get(self.next() % items.len())
            .cloned()
            .unwrap_or(Value::Null)
    }
}

/// Random orders over random pull requests: validation and suggestions never panic, accepted
/// orders cover every file, and suggestions stay within eight sentences.
#[test]
fn random_orders_never_panic() {
    let values = [
        json!(null),
        json!(true),
        json!(3),
        json!(""),
        json!(" "),
        json!("key"),
        json!("skim"),
        json!("generated"),
        json!("ui"),
        json!("logic"),
        json!("contracts"),
        json!("a.ts"),
        json!("b.ts"),
        json!("t/a.test.ts"),
        json!("lock.json"),
        json!("h1"),
        json!("h2"),
        json!([]),
        json!(["h1"]),
        json!(["h2", "h1"]),
        json!(["h3"]),
        json!(["x", "y"]),
        json!({}),
        json!("é\u{2028}`"),
    ];
    let keys = [
        "title", "layer", "note", "checks", "files", "path", "focus", "hunks", "x",
    ];
    let facts = facts_from_json(&json!([
        { "path": "a.ts", "changes": ["h1", "h2", "h3"], "dependsOn": ["b.ts", "a.ts"], "additions": 150 },
        { "path": "b.ts", "dependsOn": ["a.ts"] },
        { "path": "t/a.test.ts", "testOf": "a.ts", "dependsOn": ["a.ts"] },
        { "path": "lock.json", "likelyGenerated": true, "noDiff": true },
    ]));
    let paths = ["a.ts", "b.ts", "t/a.test.ts", "lock.json"];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut accepted = 0;
    for _ in 0..3000 {
        let mut sections = Vec::new();
        for _ in 0..1 + rng.next() % 4 {
            let mut section = serde_json::Map::new();
            if rng.next().is_multiple_of(2) {
                section.insert("title".into(), rng.pick(&values));
            }
            if rng.next().is_multiple_of(2) {
                section.insert("layer".into(), rng.pick(&values));
            }
            if rng.next().is_multiple_of(5) {
                let key = keys.get(rng.next() % keys.len()).copied().unwrap_or("x");
                section.insert(key.into(), rng.pick(&values));
            }
            let mut files = Vec::new();
            for _ in 0..rng.next() % 4 {
                let mut entry = serde_json::Map::new();
                let path = paths.get(rng.next() % paths.len()).copied().unwrap_or("");
                entry.insert("path".into(), json!(path));
                for key in ["focus", "hunks", "note"] {
                    if rng.next().is_multiple_of(4) {
                        entry.insert(key.into(), rng.pick(&values));
                    }
                }
                files.push(Value::Object(entry));
            }
            section.insert("files".into(), Value::Array(files));
            sections.push(Value::Object(section));
        }
        let input = json!({ "sections": sections });
        match validate_order(&input, &facts) {
            Ok(order) => {
                accepted += 1;
                assert_eq!(order_counts(&order).files, 4, "{input}");
                assert!(super::suggest(&order, &facts).len() <= 8);
            }
            Err(rejection) => assert!(!rejection.problems.is_empty()),
        }
        if let Ok(order) = crate::json::read::<Order>(&input) {
            assert!(super::suggest_for_current(&order, &facts).len() <= 8);
            let _ = super::checklist_ids(&order);
        }
    }
    assert!(accepted > 0);
}

/// GitHub's largest pull request (3,000 files), with a split file of 2,000 changes and dense
/// imports, validates and gets suggestions without quadratic blow-ups.
#[test]
fn a_large_pull_request() {
    let ids: Vec<String> = (0..2000).map(|i| format!("h{i}")).collect();
    let mut files: Vec<Value> = (0..3000)
        .map(|i| {
            let deps: Vec<String> = (0..10)
                .map(|d| format!("f{}.ts", (i * 7 + d) % 3000))
                .collect();
            json!({ "path": format!("f{i}.ts"), "dependsOn": deps, "additions": i % 150 })
        })
        .collect();
    files.push(json!({ "path": "big.ts", "changes": ids }));
    let facts = facts_from_json(&Value::Array(files));
    let mut sections: Vec<Value> = (0..50)
        .map(|s| {
            let entries: Vec<Value> = (0..60)
                .map(|i| json!({ "path": format!("f{}.ts", s * 60 + i), "note": "n".repeat(200) }))
                .collect();
            json!({ "title": format!("S{}", s % 7), "files": entries })
        })
        .collect();
    let first: Vec<String> = (0..1000).map(|i| format!("h{}", 1999 - i)).collect();
    if let Some(entries) = sections.get_mut(0).and_then(|s| s["files"].as_array_mut()) {
        entries.push(json!({ "path": "big.ts", "hunks": first }));
    }
    if let Some(entries) = sections.get_mut(49).and_then(|s| s["files"].as_array_mut()) {
        entries.push(json!({ "path": "big.ts" }));
    }
    let input = json!({ "sections": sections });
    let order = validate_order(&input, &facts).unwrap_or_else(|r| panic!("{}", r.message()));
    let suggestions = super::suggest(&order, &facts);
    let current = super::suggest_for_current(&order, &facts);
    let checklist = super::checklist_ids(&order);
    assert!(suggestions.len() <= 8 && current == suggestions && checklist.is_empty());
}
