//! Diagram validation tests: `check(diagram, expected)`, where `expected` is `ok` with the counts
//! or the whole rejection message.

use serde_json::{json, Value};

use super::{
    diagram_counts, diagram_shape, validate_diagram, Diagram, DiagramRejectionKind, NodeKind,
};
use crate::review::order::facts_from_json;

fn files() -> Value {
    json!([
        { "path": "services/invite-service.ts", "changes": ["h1pdwiwd", "hyzm99a"] },
        { "path": "services/invite-service.test.ts" },
        { "path": "logo.png", "noDiff": true },
    ])
}

fn check(diagram: Value, expected: &str) {
    let facts = facts_from_json(&files());
    let got = match validate_diagram(&diagram, &facts) {
        Ok(diagram) => {
            let c = diagram_counts(&diagram);
            format!(
                "ok nodes={} edges={} groups={} linkedFiles={}",
                c.nodes, c.edges, c.groups, c.linked_files
            )
        }
        Err(rejection) => rejection.message(),
    };
    assert_eq!(got, expected, "diagram: {diagram}");
}

/// Two plain nodes and one edge, with `extra` merged into the diagram object.
fn small(extra: Value) -> Value {
    let mut diagram = json!({
        "nodes": [{ "id": "a", "title": "A" }, { "id": "b", "title": "B" }],
        "edges": [{ "from": "a", "to": "b" }]
    });
    if let (Some(target), Some(extra)) = (diagram.as_object_mut(), extra.as_object()) {
        for (key, value) in extra {
            target.insert(key.clone(), value.clone());
        }
    }
    diagram
}

#[test]
fn reference_example() {
    check(
        json!({
            "title": "How an invite is accepted",
            "groups": [{ "id": "server", "title": "Server" }, { "id": "tests", "title": "Coverage" }],
            "nodes": [
              { "id": "link", "title": "Invite link opened", "kind": "trigger", "lines": [{ "label": "example", "text": "/invite/abc123" }] },
              { "id": "accept", "title": "Accept invite", "kind": "logic", "group": "server", "file": "services/invite-service.ts", "lines": [{ "label": "change", "text": "closes the invite after joining" }] },
              { "id": "expired", "title": "Reject expired", "kind": "warning", "group": "server", "file": "services/invite-service.ts" },
              { "id": "spec", "title": "Invite service spec", "kind": "test", "group": "tests", "file": "services/invite-service.test.ts" }
            ],
            "edges": [
              { "from": "link", "to": "accept", "label": "token" },
              { "from": "accept", "to": "expired", "label": "if expired" },
              { "from": "accept", "to": "spec", "label": "covered by", "dashed": true }
            ]
        }),
        "ok nodes=4 edges=3 groups=2 linkedFiles=2",
    );
}

#[test]
fn round_trip_and_default_kind() {
    let facts = facts_from_json(&files());
    let input = json!({
        "nodes": [
            { "id": "a", "title": "A", "file": "logo.png" },
            { "id": "b", "title": "B", "kind": "decision", "hunk": "hyzm99a", "file": "services/invite-service.ts" }
        ],
        "edges": [{ "from": "a", "to": "b", "dashed": false }]
    });
    let diagram = validate_diagram(&input, &facts).unwrap_or_else(|r| panic!("{}", r.message()));
    assert_eq!(diagram.nodes.first().map(|n| n.kind), Some(NodeKind::Logic));
    let value = serde_json::to_value(&diagram).unwrap_or_default();
    let back = crate::json::read::<Diagram>(&value).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, diagram);
    assert_eq!(
        value,
        json!({
            "nodes": [
                { "id": "a", "title": "A", "kind": "logic", "file": "logo.png" },
                { "id": "b", "title": "B", "kind": "decision", "file": "services/invite-service.ts", "hunk": "hyzm99a" }
            ],
            "edges": [{ "from": "a", "to": "b" }]
        })
    );
    for (name, kind) in NodeKind::ALL {
        assert_eq!(kind.as_str(), name);
        assert_eq!(serde_json::to_value(kind).ok(), Some(json!(name)));
        assert_eq!(crate::json::read::<NodeKind>(&json!(name)), Ok(kind));
    }
}

/// The reader takes back exactly what the serializer writes, with every field set and with every
/// optional field left out, so a misspelled field name fails here.
#[test]
fn diagram_reads_back_what_it_writes() {
    use super::{Edge, Group, Line, Node};
    let node = |id: &str| Node {
        id: id.into(),
        title: "T".into(),
        kind: NodeKind::Logic,
        group: None,
        lines: vec![],
        file: None,
        hunk: None,
    };
    let full = Diagram {
        title: Some("t".into()),
        groups: vec![Group {
            id: "g".into(),
            title: "G".into(),
            note: Some("n".into()),
        }],
        nodes: vec![
            Node {
                kind: NodeKind::Warning,
                group: Some("g".into()),
                lines: vec![Line {
                    label: "l".into(),
                    text: "x".into(),
                }],
                file: Some("f".into()),
                hunk: Some("h".into()),
                ..node("a")
            },
            node("b"),
        ],
        edges: vec![Edge {
            from: "a".into(),
            to: "b".into(),
            label: Some("e".into()),
            dashed: true,
        }],
    };
    let bare = Diagram {
        title: None,
        groups: vec![Group {
            id: "g".into(),
            title: "G".into(),
            note: None,
        }],
        nodes: vec![node("a"), node("b")],
        edges: vec![Edge {
            from: "a".into(),
            to: "b".into(),
            label: None,
            dashed: false,
        }],
    };
    for diagram in [full, bare] {
        let value = serde_json::to_value(&diagram).unwrap_or_default();
        assert_eq!(crate::json::read::<Diagram>(&value), Ok(diagram));
    }
}

/// Missing required fields and unknown kinds are refused, with the text before the problem;
/// `null` reads as absent.
#[test]
fn diagram_reader_refusals() {
    let error = |value: Value| {
        crate::json::read::<Diagram>(&value)
            .err()
            .map(|e| e.to_string())
    };
    assert_eq!(
        error(json!({ "nodes": [] })).as_deref(),
        Some("missing field `edges` at line 1 column 12, after `{\"nodes\":[]}`")
    );
    assert_eq!(
        error(json!({ "nodes": [{ "id": "a", "title": "A", "kind": "step" }], "edges": [] }))
            .as_deref(),
        Some("unknown variant `step`, expected one of `trigger`, `logic`, `decision`, `data`, `ui`, `test`, `config`, `external`, `warning` at line 1 column 44, after `ges\":[],\"nodes\":[{\"id\":\"a\",\"kind\":\"step\"`")
    );
    assert_eq!(
        error(
            json!({ "nodes": [{ "id": "a", "title": "A", "lines": [{ "label": "l" }] }],
            "edges": [] })
        )
        .as_deref(),
        Some("missing field `text` at line 1 column 53, after `nodes\":[{\"id\":\"a\",\"lines\":[{\"label\":\"l\"}`")
    );
    let nulls = json!({ "title": null, "groups": null,
        "nodes": [{ "id": "a", "title": "A", "kind": null, "group": null }],
        "edges": [{ "from": "a", "to": "a", "label": null, "dashed": null }] });
    let diagram = crate::json::read::<Diagram>(&nulls).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(diagram.nodes.first().map(|n| n.kind), Some(NodeKind::Logic));
}

#[test]
fn shapes() {
    check(
        json!("x"),
        "The diagram is invalid: the input must be an object, got string",
    );
    check(
        json!({}),
        "The diagram is invalid: nodes is required; edges is required",
    );
    check(
        json!({ "nodes": [{ "id": "a", "title": "A" }], "edges": [], "extra": 1 }),
        "The diagram is invalid: the input has an unknown key \"extra\" (allowed: title, groups, nodes, edges); nodes must have 2 to 40 items, got 1",
    );
    check(
        small(json!({ "groups": null, "title": null })),
        "ok nodes=2 edges=1 groups=0 linkedFiles=0",
    );
    check(
        json!({ "nodes": [1, { "id": "a", "title": "A", "size": 3 }], "edges": [[], { "from": "a", "to": "a", "dashed": "yes" }] }),
        "The diagram is invalid: nodes[0] must be an object, got number; nodes[1] has an unknown key \"size\" (allowed: id, title, kind, group, lines, file, hunk); edges[0] must be an object, got array; edges[1].dashed must be true or false, got string",
    );
}

#[test]
fn counts_limits() {
    let nodes = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|i| json!({ "id": format!("n{i}"), "title": "T" }))
            .collect()
    };
    let edges = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|_| json!({ "from": "n0", "to": "n1" }))
            .collect()
    };
    let groups = |n: usize| -> Vec<Value> {
        (0..n)
            .map(|i| json!({ "id": format!("g{i}"), "title": "G" }))
            .collect()
    };
    check(
        json!({ "groups": groups(12), "nodes": nodes(40), "edges": edges(80) }),
        "ok nodes=40 edges=80 groups=12 linkedFiles=0",
    );
    check(
        json!({ "groups": groups(13), "nodes": nodes(41), "edges": edges(81) }),
        "The diagram is invalid: groups must have at most 12 items, got 13; nodes must have 2 to 40 items, got 41; edges must have at most 80 items, got 81",
    );
}

#[test]
fn ids() {
    let forty = "x".repeat(40);
    check(
        json!({
            "groups": [{ "id": "A-b_9", "title": "G" }],
            "nodes": [{ "id": forty, "title": "A" }, { "id": "n", "title": "B", "group": "A-b_9" }],
            "edges": [{ "from": forty, "to": "n" }]
        }),
        "ok nodes=2 edges=1 groups=1 linkedFiles=0",
    );
    check(
        json!({
            "groups": [{ "id": "dup", "title": "G" }, { "title": "H" }],
            "nodes": [
                { "id": "x".repeat(41), "title": "A" },
                { "id": "a b", "title": "B" },
                { "id": "", "title": "C" },
                { "id": "é", "title": "D" },
                { "id": "dup", "title": "E" },
                { "id": "ok", "title": "F" },
                { "id": "ok", "title": "G" },
                { "id": 7, "title": "H" }
            ],
            "edges": []
        }),
        &format!(
            "The diagram is invalid: groups[1].id is required; nodes[0].id must be 1 to 40 ASCII letters, digits, - or _, got \"{}\"; nodes[1].id must be 1 to 40 ASCII letters, digits, - or _, got \"a b\"; nodes[2].id must be 1 to 40 ASCII letters, digits, - or _, got \"\"; nodes[3].id must be 1 to 40 ASCII letters, digits, - or _, got \"é\"; nodes[4].id \"dup\" is already used by groups[0] (ids must be unique across groups and nodes); nodes[6].id \"ok\" is already used by nodes[5] (ids must be unique across groups and nodes); nodes[7].id must be a string, got number",
            "x".repeat(41)
        ),
    );
}

#[test]
fn text_limits_count_characters() {
    check(
        json!({
            "title": "é".repeat(200),
            "groups": [{ "id": "g", "title": "é".repeat(80), "note": "é".repeat(4000) }],
            "nodes": [
                { "id": "a", "title": "é".repeat(200), "lines": [
                    { "label": "é".repeat(40), "text": "é".repeat(300) },
                    { "label": "b", "text": "" },
                    { "label": "c", "text": "c" },
                    { "label": "d", "text": "d" }
                ]},
                { "id": "b", "title": "B" }
            ],
            "edges": [{ "from": "a", "to": "b", "label": "é".repeat(40) }]
        }),
        "ok nodes=2 edges=1 groups=1 linkedFiles=0",
    );
    check(
        json!({
            "title": "é".repeat(201),
            "groups": [{ "id": "g", "title": "é".repeat(81), "note": "é".repeat(4001) }, { "id": "h", "title": " " }],
            "nodes": [
                { "id": "a", "title": "é".repeat(201), "lines": [
                    { "label": "é".repeat(41), "text": "é".repeat(301) },
                    { "label": "", "text": "x" },
                    { "text": "x", "extra": 1 },
                    { "label": "d", "text": "d" },
                    "e"
                ]},
                { "id": "b", "title": "" }
            ],
            "edges": [{ "from": "a", "to": "b", "label": "é".repeat(41) }]
        }),
        "The diagram is invalid: title must be at most 200 characters, got 201; groups[0].title must be at most 80 characters, got 81; groups[0].note must be at most 4000 characters, got 4001; groups[1].title is empty; nodes[0].title must be at most 200 characters, got 201; nodes[0].lines must have at most 4 items, got 5; nodes[0].lines[0].label must be at most 40 characters, got 41; nodes[0].lines[0].text must be at most 300 characters, got 301; nodes[0].lines[1].label is empty; nodes[0].lines[2] has an unknown key \"extra\" (allowed: label, text); nodes[0].lines[2].label is required; nodes[0].lines[4] must be an object, got string; nodes[1].title is empty; edges[0].label must be at most 40 characters, got 41",
    );
}

#[test]
fn kinds_groups_and_edges() {
    check(
        json!({
            "groups": [{ "id": "api", "title": "API" }],
            "nodes": [
                { "id": "a", "title": "A", "kind": "process", "group": "web" },
                { "id": "b", "title": "B", "kind": 1, "group": "a" }
            ],
            "edges": [{ "from": "a", "to": "api" }, { "from": "zz", "to": "b" }, { "to": "b" }]
        }),
        "The diagram is invalid: nodes[0].kind must be trigger, logic, decision, data, ui, test, config, external or warning, got \"process\"; nodes[0].group \"web\" is not a group id (groups: api); nodes[1].kind must be trigger, logic, decision, data, ui, test, config, external or warning, got number; nodes[1].group \"a\" is not a group id (groups: api); edges[0].to \"api\" is not a node id; edges[1].from \"zz\" is not a node id; edges[2].from is required",
    );
    check(
        small(
            json!({ "nodes": [{ "id": "a", "title": "A", "group": "g" }, { "id": "b", "title": "B" }] }),
        ),
        "The diagram is invalid: nodes[0].group \"g\" is not a group id (the diagram has no groups)",
    );
    check(
        small(
            json!({ "nodes": [{ "id": "a", "title": "A", "hunk": "h1pdwiwd" }, { "id": "b", "title": "B" }] }),
        ),
        "The diagram is invalid: nodes[0].hunk \"h1pdwiwd\" needs nodes[0].file, the changed file the change belongs to",
    );
}

#[test]
fn references() {
    let facts = facts_from_json(&files());
    let rejection = validate_diagram(
        &small(json!({ "nodes": [
            { "id": "a", "title": "A", "file": "gone.ts" },
            { "id": "b", "title": "B" },
            { "id": "c", "title": "C", "file": "services/invite-service.ts", "hunk": "hnope" },
            { "id": "d", "title": "D", "file": "logo.png", "hunk": "h1" },
            { "id": "e", "title": "E", "file": "services/invite-service.test.ts", "hunk": "h1" },
            { "id": "f", "title": "F", "file": "services/invite-service.ts", "hunk": "hyzm99a" }
        ]})),
        &facts,
    );
    assert_eq!(
        rejection.as_ref().map_err(|r| r.kind),
        Err(DiagramRejectionKind::References)
    );
    assert_eq!(
        rejection.map(|_| String::new()).unwrap_or_else(|r| r.message()),
        "The diagram points at files or changes that aren't in the pull request: nodes[0].file \"gone.ts\" isn't a changed file of the pull request; nodes[2].hunk \"hnope\" isn't a change of services/invite-service.ts (its changes are h1pdwiwd and hyzm99a); nodes[3].hunk \"h1\" isn't a change of logo.png (it has no diff GitHub can show, so point at the file only); nodes[4].hunk \"h1\" isn't a change of services/invite-service.test.ts (its only change is h31)",
    );
}

#[test]
fn invalid_shape_hides_reference_problems() {
    check(
        json!({ "nodes": [{ "id": "a", "title": "A", "file": "gone.ts" }], "edges": [] }),
        "The diagram is invalid: nodes must have 2 to 40 items, got 1",
    );
}

#[test]
fn the_guides_example_diagram_is_valid() {
    let facts = facts_from_json(&json!([
        { "path": "config/limits.yaml" },
        { "path": "src/limits/token-bucket.ts" },
        { "path": "src/auth/reset-password.ts" },
        { "path": "src/limits/token-bucket.test.ts" },
    ]));
    let diagram = json!({
      "title": "Password reset under the new limit",
      "groups": [{ "id": "api", "title": "API" }, { "id": "limits", "title": "Rate limiting" }],
      "nodes": [
        { "id": "req", "title": "POST /password-reset", "kind": "trigger", "group": "api", "lines": [{ "label": "example", "text": "{ \"email\": \"ana@example.com\" }" }] },
        { "id": "cfg", "title": "3 per address per hour", "kind": "config", "file": "config/limits.yaml" },
        { "id": "take", "title": "TokenBucket.take", "kind": "logic", "group": "limits", "file": "src/limits/token-bucket.ts" },
        { "id": "left", "title": "Tokens left?", "kind": "decision", "group": "limits" },
        { "id": "send", "title": "Send reset email", "kind": "external", "group": "api", "file": "src/auth/reset-password.ts" },
        { "id": "quiet", "title": "Skip email, still answer 202", "kind": "warning", "group": "api", "file": "src/auth/reset-password.ts", "lines": [{ "label": "why", "text": "doesn't reveal which emails exist" }] },
        { "id": "spec", "title": "Bucket tests", "kind": "test", "file": "src/limits/token-bucket.test.ts" }
      ],
      "edges": [
        { "from": "req", "to": "take", "label": "email as key" },
        { "from": "cfg", "to": "take", "label": "budget", "dashed": true },
        { "from": "take", "to": "left" },
        { "from": "left", "to": "send", "label": "yes" },
        { "from": "left", "to": "quiet", "label": "no" },
        { "from": "take", "to": "spec", "label": "covered by", "dashed": true }
      ]
    });
    let counts = validate_diagram(&diagram, &facts).map(|d| diagram_counts(&d));
    assert_eq!(
        counts.map(|c| (c.nodes, c.edges, c.groups, c.linked_files)),
        Ok((7, 6, 2, 4))
    );
}

/// Random diagrams never panic, and accepted ones respect the limits.
#[test]
fn random_diagrams_never_panic() {
    let values = [
        json!(null),
        json!(1),
        json!(""),
        json!("a"),
        json!("b"),
        json!("g"),
        json!("logic"),
        json!("warning"),
        json!("services/invite-service.ts"),
        json!("logo.png"),
        json!("h1pdwiwd"),
        json!(true),
        json!([]),
        json!([{ "label": "l", "text": "t" }]),
        json!({}),
        json!("é`\u{2029}"),
    ];
    let keys = [
        "id", "title", "kind", "group", "lines", "file", "hunk", "from", "to", "label", "dashed",
        "note",
    ];
    let facts = facts_from_json(&files());
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 1_000_003) as usize
    };
    for _ in 0..3000 {
        let object = |n: usize, next: &mut dyn FnMut() -> usize| {
            let mut map = serde_json::Map::new();
            for _ in 0..n {
                let key = keys.get(next() % keys.len()).copied().unwrap_or("id");
                let value = values
                    .get(next() % values.len())
                    .cloned()
                    .unwrap_or(Value::Null);
                map.insert(key.to_string(), value);
            }
            Value::Object(map)
        };
        let groups: Vec<Value> = (0..next() % 3).map(|_| object(3, &mut next)).collect();
        let nodes: Vec<Value> = (0..next() % 4).map(|_| object(5, &mut next)).collect();
        let edges: Vec<Value> = (0..next() % 3).map(|_| object(3, &mut next)).collect();
        let input = json!({ "groups": groups, "nodes": nodes, "edges": edges });
        match validate_diagram(&input, &facts) {
            Ok(diagram) => {
                assert!(diagram.nodes.len() >= 2 && diagram.nodes.len() <= 40);
            }
            Err(rejection) => assert!(!rejection.problems.is_empty()),
        }
    }
}

#[test]
fn the_shape_is_checked_without_the_pull_request() {
    assert!(diagram_shape(&small(json!({ "nodes": [
        { "id": "a", "title": "A", "file": "any/file.ts", "hunk": "hany" },
        { "id": "b", "title": "B" }
    ] })))
    .is_ok());
    let problems = diagram_shape(&json!({ "nodes": [] }))
        .err()
        .unwrap_or_default();
    assert!(!problems.is_empty());
    assert!(
        problems.iter().all(|p| !p.starts_with("The diagram")),
        "{problems:?}"
    );
}
