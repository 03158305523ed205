//! Keeps the docs in step with the code and with each other.
//!
//! Design docs (issue #17): every route the Worker serves is in the route list (docs/routes.md), and
//! every SQLite table, column, index and binding is in `docs/storage.md`.
//! Links (issue #40): every relative link and anchor in README.md and `docs/*.md` resolves, anchors
//! by GitHub's heading rules; the README stays a short front page with its picture and the two
//! commands on its first screen, and states no figure of one particular run.
//!
//! Why: the documents restate facts the code owns, and a new route or column is easy to ship
//! without them; the README and docs link into each other by heading, and a renamed heading or
//! moved file breaks a link silently. The checks read the files as text, so they cover wasm-only
//! code natively.
//! What not: they do not check that a documented item still exists, nor the prose about it, nor
//! links to other sites.

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
fn every_route_is_in_the_route_list() {
    let doc = read("docs/routes.md");
    let routes = section(&doc, "## Routes");
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
    assert_listed(missing, "routes", "docs/routes.md, \"## Routes\"");
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
    // The objects' schemas are `.sql` files beside the records' code (`include_str!`), under
    // `src/app` (issue #37) or still under `src/store`; migrations and queries are `.rs` files.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut folders = vec![root.join("src/store"), root.join("src/app")];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for path in entries.flatten().map(|entry| entry.path()) {
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .is_some_and(|ext| ext == "rs" || ext == "sql")
            {
                files.push(path);
            }
        }
    }
    files.sort();
    for path in files {
        let file = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .to_string();
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
        "found only {tables} tables under src/store and src/app; did the schema move? Point this test at it"
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

/// The Markdown files whose links are checked: the README and every file in `docs/`.
fn markdown_files() -> Vec<String> {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut files: Vec<String> = std::fs::read_dir(&docs)
        .expect("docs/")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| format!("docs/{}", path.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    files.insert(0, "README.md".to_string());
    files
}

/// `text`'s lines outside fenced code blocks (```` ``` ```` or `~~~`), with their line numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<String> = None;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let first = trimmed.chars().next().filter(|&c| c == '`' || c == '~');
        let marker: String = trimmed.chars().take_while(|&c| Some(c) == first).collect();
        // A backtick fence's info string holds no backtick (CommonMark), so a line that starts
        // with a code span (```` ```suggestion ````) is prose.
        let info = &trimmed[marker.len()..];
        let opens = marker.len() >= 3 && !(first == Some('`') && info.contains('`'));
        match &fence {
            Some(open)
                if opens && marker.starts_with(open.as_str()) && trimmed.trim() == marker =>
            {
                fence = None;
            }
            Some(_) => {}
            None if opens => fence = Some(marker),
            None => lines.push((index + 1, line)),
        }
    }
    lines
}

/// `line` with its code spans blanked: a run of N backticks opens a span that the next run of
/// exactly N closes (CommonMark), so a span may hold shorter runs (```` ```suggestion ````).
fn without_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        let mut j = i + run;
        let mut close = None;
        while j < chars.len() {
            let here = chars[j..].iter().take_while(|&&c| c == '`').count();
            if here == run {
                close = Some(j);
                break;
            }
            j += here.max(1);
        }
        match close {
            Some(end) => {
                out.push(' ');
                i = end + run;
            }
            None => {
                out.extend(&chars[i..i + run]);
                i += run;
            }
        }
    }
    out
}

/// The targets of the inline links and images (`[text](target)`, `![alt](target)`) and link
/// reference definitions (`[name]: target`) in `text`, with their line numbers.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code_spans(line);
        if let Some(rest) = line.trim_start().strip_prefix('[') {
            if let Some((_, target)) = rest.split_once("]: ") {
                found.push((number, target.trim().to_string()));
                continue;
            }
        }
        for (at, _) in line.match_indices("](") {
            let rest = &line[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split_whitespace().next().unwrap_or_default();
            let target = target.trim_start_matches('<').trim_end_matches('>');
            found.push((number, target.to_string()));
        }
    }
    found
}

/// A heading's anchor as GitHub makes it from the heading's text: lower case; letters, digits,
/// `_` and `-` kept; each space a `-`; everything else (punctuation, symbols, code-span backticks)
/// dropped. Links in the heading count by their text.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading.trim();
    // `[text](target)` reads as `text`.
    while let Some(open) = rest.find("](") {
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        text.push_str(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '_' || c == '-' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every anchor `text`'s headings give, a repeated one numbered `-1`, `-2`, … as GitHub does.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim().trim_end_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.push(anchor);
    }
    seen
}

/// `base`'s folder joined with `relative`, `.` and `..` resolved; `None` when it leaves the
/// repository.
fn resolve(base: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').collect();
    parts.pop();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            part => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// What is wrong with the link to `target` in `file`, if anything.
fn broken_link(file: &str, target: &str) -> Option<String> {
    let is_url = target.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if is_url || target.starts_with("//") {
        return None;
    }
    if target.is_empty() {
        return Some("an empty link".to_string());
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let resolved = if path.is_empty() {
        file.to_string()
    } else if path.starts_with('/') {
        return Some("a link from the site's root; make it relative to this file".to_string());
    } else {
        match resolve(file, path) {
            Some(resolved) => resolved,
            None => return Some("a path that leaves the repository".to_string()),
        }
    };
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(&resolved);
    if resolved.is_empty() || !full.exists() {
        return Some(format!("`{resolved}` does not exist"));
    }
    if anchor.is_empty() {
        return None;
    }
    if resolved.ends_with(".md") {
        let headings = anchors(&read(&resolved));
        return (!headings.iter().any(|a| a == anchor)).then(|| {
            format!(
                "no heading of `{resolved}` has the anchor `#{anchor}`; its anchors: {headings:?}"
            )
        });
    }
    // GitHub's line anchors on a source file: `#L12` or `#L12-L20`.
    let line = |s: &str| {
        s.strip_prefix('L')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    let lines = match anchor.split_once('-') {
        Some((from, to)) => line(from) && line(to),
        None => line(anchor),
    };
    (!lines).then(|| format!("`#{anchor}` on `{resolved}`, which has no headings"))
}

#[test]
fn every_relative_link_and_anchor_in_readme_and_docs_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        for (line, target) in link_targets(&read(&file)) {
            checked += 1;
            if let Some(problem) = broken_link(&file, &target) {
                broken.push(format!("{file}:{line}: ({target}): {problem}"));
            }
        }
    }
    assert!(
        checked >= 30,
        "found only {checked} links in README.md and docs/; is the link reader still right?"
    );
    assert!(
        broken.is_empty(),
        "broken links (fix the target, or the heading it points at):\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn github_heading_anchors() {
    let check = |heading: &str, expected: &str| assert_eq!(slug(heading), expected, "{heading}");
    check("What `npm test` runs", "what-npm-test-runs");
    check("4. The secrets", "4-the-secrets");
    check(
        "Repository conventions: `.github/logikflow.yml`",
        "repository-conventions-githublogikflowyml",
    );
    check("Today, 10× and 100×", "today-10-and-100");
    check("Limits & retries", "limits--retries");
    check(
        "Reviewers' feedback: `get_review_feedback`",
        "reviewers-feedback-get_review_feedback",
    );
    check("See [the guide](guide.md) first", "see-the-guide-first");
    assert_eq!(
        anchors("# A\n\n```sh\n# not a heading\n```\n## A\n#hashtag\n### B ###\n"),
        ["a", "a-1", "b"]
    );
}

#[test]
fn link_reader_and_checker_find_what_is_broken() {
    let text = "[ok](README.md) `[code](nowhere.md)` ![img](docs/images/none.png)\n\
                ```\n[fenced](nowhere.md)\n```\n[ref]: ARCHITECTURE.md#routes\n\
                ```` ```suggestion ```` [after](#top) [site](https://example.com)\n";
    let targets: Vec<String> = link_targets(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        targets,
        [
            "README.md",
            "docs/images/none.png",
            "ARCHITECTURE.md#routes",
            "#top",
            "https://example.com"
        ]
    );
    assert_eq!(broken_link("README.md", "docs/storage.md"), None);
    assert_eq!(
        broken_link("docs/reviewing.md", "../ARCHITECTURE.md#layers"),
        None
    );
    assert_eq!(
        broken_link("docs/reviewing.md", "https://example.com/x.md#y"),
        None
    );
    assert_eq!(
        broken_link("docs/reviewing.md", "../src/router.rs#L10-L20"),
        None
    );
    let problem = |file: &str, target: &str| broken_link(file, target).unwrap_or_default();
    assert!(problem("README.md", "docs/none.md").contains("`docs/none.md` does not exist"));
    assert!(problem("docs/reviewing.md", "storage.md#no-such-heading").contains("no heading"));
    assert!(problem("docs/reviewing.md", "#no-such-heading").contains("no heading"));
    assert!(problem("README.md", "../outside.md").contains("leaves the repository"));
    assert!(problem("README.md", "/docs/agents.md").contains("relative"));
    assert!(problem("README.md", "src/router.rs#route").contains("no headings"));
}

#[test]
fn readme_is_a_short_front_page() {
    let readme = read("README.md");
    assert!(
        readme.len() <= 12 * 1024,
        "README.md is {} bytes; keep it at most 12 KB and move the detail into docs/",
        readme.len()
    );
    // The first screen: the picture of the review page and the two commands.
    let first_screen: String = readme.lines().take(25).collect::<Vec<_>>().join("\n");
    for needle in ["](docs/images/review-page.png)", "npm start", "npm test"] {
        assert!(
            first_screen.contains(needle),
            "README.md's first 25 lines lack `{needle}`"
        );
    }
    // No figure of one run: dates, sizes in bytes, durations.
    for (number, line) in readme.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        for pair in words.windows(2) {
            let figure = pair[0]
                .trim_start_matches(['(', '~'])
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit());
            let unit = pair[1].trim_end_matches([',', '.', ')', ';']);
            assert!(
                !(figure && ["bytes", "KB", "MB", "minutes", "seconds", "s", "ms"].contains(&unit)),
                "README.md:{}: `{} {}` looks like one run's figure; put it in a file the tests \
                 write (tests/artifacts/) and link to how to make it",
                number + 1,
                pair[0],
                pair[1]
            );
        }
        let date = line.as_bytes().windows(10).any(|w| {
            w.iter().enumerate().all(|(i, b)| match i {
                4 | 7 => *b == b'-',
                _ => b.is_ascii_digit(),
            })
        });
        assert!(
            !date,
            "README.md:{}: a date; the README says nothing of one run",
            number + 1
        );
    }
}
