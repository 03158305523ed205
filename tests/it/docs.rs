//! Keeps the design docs in step with the code (issue #17): every route the Worker serves is in
//! ARCHITECTURE.md's route list, and every SQLite table, column, index and binding is in
//! `docs/storage.md`.
//!
//! Why: both documents restate facts the code owns, and a new route or column is easy to ship
//! without them. The checks read the sources as text, so they cover wasm-only code natively.
//! What not: they do not check that a documented item still exists, nor the prose about it.

use std::path::Path;

fn read(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|error| panic!("reading {path}: {error}"))
}

/// The lines from the heading that is exactly `heading` up to the next heading of any level.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("no `{heading}` heading"))
        + 1;
    let body = &text[start + heading.len()..];
    let end = body
        .find("\n#")
        .map_or(text.len(), |i| start + heading.len() + i);
    &text[start..end]
}

/// The string literals in `code`, with `//` comments left out (escapes are not needed here).
fn literals(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or_default();
        let mut rest = line;
        while let Some(open) = rest.find('"') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('"') else { break };
            found.push(after[..close].to_string());
            rest = &after[close + 1..];
        }
    }
    found
}

/// `code` from `start` up to the first `end` after it.
fn between<'a>(code: &'a str, start: &str, end: &str) -> &'a str {
    let from = code
        .find(start)
        .unwrap_or_else(|| panic!("`{start}` not found"));
    let rest = &code[from..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// The value of every `const NAME: &str = "…";` in `code` whose name ends with `suffix`.
fn str_consts(code: &str, suffix: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim_start().trim_start_matches("pub ");
            let rest = line.strip_prefix("const ")?;
            let (name, value) = rest.split_once(": &str = ")?;
            name.ends_with(suffix)
                .then(|| value.trim_end_matches(';').trim_matches('"').to_string())
        })
        .collect()
}

/// Fails with every missing item at once, and where to add them.
fn assert_listed(mut missing: Vec<String>, what: &str, doc: &str) {
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "{what} missing from {doc}; add each as a code span (`…`):\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn every_route_is_in_architecture_md() {
    let architecture = read("ARCHITECTURE.md");
    let routes = section(&architecture, "### Routes");
    let listed = |path: &str| routes.contains(&format!("`{path}`"));

    let router = read("src/router.rs");
    let table = literals(between(&router, "pub fn route(", "\nimpl Route"));
    let mut paths = Vec::new();
    for literal in &table {
        match literal.as_str() {
            "GET" | "HEAD" | "POST" => {}
            path if path.starts_with('/') => paths.push(path.to_string()),
            // A tail after `/r/{owner}/{repo}/pull/{n}` ("" is the review page itself).
            "" => paths.push("/r/{owner}/{repo}/pull/{n}".to_string()),
            tail => paths.push(format!("/r/{{owner}}/{{repo}}/pull/{{n}}/{tail}")),
        }
    }
    assert!(
        paths.iter().any(|path| path == "/mcp") && paths.len() >= 15,
        "the route table moved out of `router::route`; point this test at it: {paths:?}"
    );

    let oauth = str_consts(&read("src/oauth/metadata.rs"), "_PATH");
    assert!(
        oauth.len() >= 7,
        "the OAuth paths moved out of `oauth::metadata`; point this test at them: {oauth:?}"
    );
    paths.extend(oauth);
    paths.extend(str_consts(&read("src/oauth/challenge.rs"), "_PATH"));
    paths.extend(str_consts(&read("src/entry.rs"), "_PATH"));

    let missing: Vec<String> = paths.into_iter().filter(|path| !listed(path)).collect();
    assert_listed(missing, "routes", "ARCHITECTURE.md, \"### Routes\"");
}

/// A `CREATE TABLE` or `ALTER TABLE … ADD COLUMN` found in the store code.
struct Table {
    name: String,
    columns: Vec<String>,
    file: String,
}

/// The tables, columns and indexes the SQL in `code` creates.
fn schema(code: &str, file: &str) -> (Vec<Table>, Vec<String>) {
    const CREATE: &str = "CREATE TABLE IF NOT EXISTS ";
    const ALTER: &str = "ALTER TABLE ";
    const INDEX: &str = "CREATE INDEX IF NOT EXISTS ";
    let mut tables = Vec::new();
    for (at, _) in code.match_indices(CREATE) {
        let rest = &code[at + CREATE.len()..];
        let (name, rest) = rest.split_once('(').expect("a column list");
        // The column list runs to the parenthesis that closes the one opened after the name.
        let mut depth = 1;
        let end = rest
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(rest.len(), |(i, _)| i);
        let mut columns = Vec::new();
        let mut depth = 0;
        let mut definition = String::new();
        for c in rest[..end].chars().chain([',']) {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    let first = definition.split_whitespace().next().unwrap_or_default();
                    let constraint = ["PRIMARY", "UNIQUE", "CHECK", "FOREIGN", "CONSTRAINT"];
                    if !first.is_empty() && !constraint.contains(&first) {
                        columns.push(first.to_string());
                    }
                    definition.clear();
                    continue;
                }
                _ => {}
            }
            definition.push(c);
        }
        tables.push(Table {
            name: name.trim().to_string(),
            columns,
            file: file.to_string(),
        });
    }
    for (at, _) in code.match_indices(ALTER) {
        let statement = code[at + ALTER.len()..].lines().next().unwrap_or_default();
        if let Some((name, column)) = statement.split_once(" ADD COLUMN ") {
            let column = column.split_whitespace().next().unwrap_or_default();
            tables.push(Table {
                name: name.trim().to_string(),
                columns: vec![column.to_string()],
                file: file.to_string(),
            });
        }
    }
    let indexes = code
        .match_indices(INDEX)
        .filter_map(|(at, _)| code[at + INDEX.len()..].split_whitespace().next())
        .map(str::to_string)
        .collect();
    (tables, indexes)
}

/// The section of `docs/storage.md` under the heading that names `table` in a code span.
fn table_section<'a>(storage: &'a str, table: &str) -> Option<&'a str> {
    let span = format!("`{table}`");
    let mut offset = 0;
    for line in storage.split_inclusive('\n') {
        if line.starts_with('#') && line.contains(&span) {
            let body = &storage[offset + line.len()..];
            let end = body.find("\n#").map_or(body.len(), |i| i + 1);
            return Some(&body[..end]);
        }
        offset += line.len();
    }
    None
}

#[test]
fn every_table_column_index_and_binding_is_in_storage_md() {
    let storage = read("docs/storage.md");
    let mut missing = Vec::new();
    let mut tables = 0;
    // The objects' schemas: the person's beside its object (`src/store`), the pull request's
    // beside its records (`src/app/pull_request/records`, issue #37).
    let mut files = Vec::new();
    for dir in ["src/store", "src/app/pull_request/records"] {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        files.extend(
            std::fs::read_dir(&folder)
                .expect("a schema folder")
                .map(|entry| entry.expect("a directory entry").path())
                .filter(|path| {
                    // The objects' schemas are `.sql` files beside their code (`include_str!`);
                    // migrations and queries stay in the `.rs` files.
                    path.extension()
                        .is_some_and(|ext| ext == "rs" || ext == "sql")
                })
                .map(|path| {
                    let name = path.file_name().unwrap().to_string_lossy().to_string();
                    format!("{dir}/{name}")
                }),
        );
    }
    files.sort();
    for file in files {
        let (found, indexes) = schema(&read(&file), &file);
        for table in found {
            tables += 1;
            let Some(section) = table_section(&storage, &table.name) else {
                missing.push(format!(
                    "table `{}` ({}): a heading naming it",
                    table.name, table.file
                ));
                continue;
            };
            for column in &table.columns {
                if !section.contains(&format!("`{column}`")) {
                    missing.push(format!(
                        "column `{}.{column}` ({}): in the table's section",
                        table.name, table.file
                    ));
                }
            }
        }
        for index in indexes {
            if !storage.contains(&format!("`{index}`")) {
                missing.push(format!("index `{index}` ({file})"));
            }
        }
    }
    assert!(
        tables >= 12,
        "found only {tables} tables in the schema folders; did the schema move? Point this test at it"
    );

    // Every KV namespace and Durable Object class bound in wrangler.toml.
    let wrangler = read("wrangler.toml");
    for line in wrangler.lines() {
        for key in ["binding = ", "class_name = "] {
            for (at, _) in line.match_indices(key) {
                let value = literals(&line[at..]).into_iter().next().unwrap_or_default();
                if !value.is_empty() && !storage.contains(&format!("`{value}`")) {
                    missing.push(format!("wrangler.toml {key}\"{value}\""));
                }
            }
        }
    }
    assert_listed(missing, "storage items", "docs/storage.md");
}
