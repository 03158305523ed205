//! A tidy test of the crate's layers (issue #17, ARCHITECTURE.md "Layers"), in the manner of
//! rust-analyzer's tidy tests: it reads the `crate::` and `super::` paths of every module under
//! `src/` and fails on a path that runs up a layer, on a `worker`, `web_sys` or `wasm_bindgen`
//! name in the pure core, and on an import loop: between the child modules of any folder, at any
//! depth (two sub-folders of `review::hints` that import each other are a loop of that folder),
//! or between the crate's top-level modules.
//!
//! Why: the layers are what keep the core testable natively and the wasm adapters thin; an import
//! against them compiles fine and is easy to miss in review. The known exceptions are listed
//! below with their reason, so the list can only shrink on purpose.
//! What not: it reads text, not the compiler's name resolution: a path reached through a `use`
//! of a parent's name, or a re-export, is not followed; test modules are left out.

use std::path::{Path, PathBuf};

/// The layers, lowest first. A module is in the layer of the longest prefix listed here, and in
/// the core when none matches.
const LAYERS: &[(&str, u8)] = &[
    ("github::fetch", ADAPTERS),
    ("oauth::seal", ADAPTERS),
    ("store", ADAPTERS),
    ("subrequest", ADAPTERS),
    ("body", ADAPTERS),
    ("bindings", ADAPTERS),
    ("service", SERVICE),
    ("entry", ENTRY),
];
const CORE: u8 = 1;
const ADAPTERS: u8 = 2;
const SERVICE: u8 = 3;
const ENTRY: u8 = 4;

/// Paths that run up a layer today, each with why: (from module, to module prefix).
const KNOWN_UPWARD: &[(&str, &str, &str)] = &[];

/// `store` holds only thin shells (issue #37, DESIGN §2): an object decodes a request, calls
/// `app`, and encodes the reply; the platform's side of the ports sits beside it. So no SQL
/// statement is written in `store` (the records are `app`'s, run natively on the same SQL) and
/// no store file is longer than [`STORE_FILE_LINES`] lines of code.
const STORE_FILE_LINES: usize = 200;

/// Store modules not yet thin, each with why; the list may only shrink.
const KNOWN_THICK_STORE: &[(&str, &str)] = &[];

/// Core modules that name the runtime, each behind `cfg(target_arch = "wasm32")`, with why.
const KNOWN_RUNTIME_NAMES: &[(&str, &str)] = &[(
    "json",
    "`From<DecodeError> for worker::Error`, so `?` works in the adapters",
)];

/// Core modules whose logic forks on `cfg(target_arch)` today, each with why (issue #28: one
/// program, natively as in the wasm). Declaring an adapter module behind the `cfg` is not a fork.
const KNOWN_TARGET_FORKS: &[(&str, &str)] = &[(
    "json",
    "`From<DecodeError> for worker::Error`, so `?` works in the adapters",
)];

fn layer_of(module: &str) -> u8 {
    LAYERS
        .iter()
        .filter(|(prefix, _)| module == *prefix || module.starts_with(&format!("{prefix}::")))
        .max_by_key(|(prefix, _)| prefix.len())
        .map_or(CORE, |(_, layer)| *layer)
}

/// Every `.rs` file under `dir`, except test files.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "tests" {
                sources(&path, found);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            found.push(path);
        }
    }
}

/// The module path of a file: `src/oauth/pkce.rs` is `oauth::pkce`, `src/store/mod.rs` is `store`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .filter(|part| part != "mod" && part != "lib")
        .collect();
    parts.join("::")
}

/// The code of a file without its trailing `#[cfg(test)] mod tests` and without `//` comments.
fn code_of(text: &str) -> String {
    let end = text.find("#[cfg(test)]\nmod tests").unwrap_or(text.len());
    text[..end]
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths `code` names through `crate::` or `super::`, resolved from `module` (a
/// `mod.rs` is its folder's module, so its `super` is that module's parent as for any other file:
/// `super::imports` in `review/hints/project/mod.rs` is `review::hints::imports`); a `use` group
/// names each of its paths (`super::{a, b::{c, self}}` names `a`, `b::c` and `b`).
fn paths_named(code: &str, module: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = code.as_bytes();
    for anchor in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(anchor) {
            let start = from + at;
            from = start + anchor.len();
            let before = start.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            let mut rest = &code[from..];
            let base = if anchor == "crate::" {
                String::new()
            } else {
                let mut parts: Vec<&str> = module.split("::").collect();
                parts.pop();
                while let Some(further) = rest.strip_prefix("super::") {
                    parts.pop();
                    rest = further;
                }
                parts.join("::")
            };
            let mut named = Vec::new();
            use_tree(&base, rest, &mut named);
            // The anchor's own module is not a path it names (`use super::*`).
            for path in named {
                if path != base && !found.contains(&path) {
                    found.push(path);
                }
            }
        }
    }
    found
}

/// Adds the paths the use tree at the start of `tree` names under `prefix` to `found`: the path
/// itself, or each path of its `{…}` group (`self` and `*` name the prefix; `as` names are left).
fn use_tree(prefix: &str, tree: &str, found: &mut Vec<String>) {
    let tree = tree.trim_start();
    let len = tree
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(tree.len());
    let path = tree[..len].trim_end_matches(':');
    let full = match (prefix.is_empty(), path) {
        (_, "" | "self") => prefix.to_string(),
        (true, path) => path.to_string(),
        (false, path) => format!("{prefix}::{path}"),
    };
    match group(&tree[len..]) {
        Some(inner) => {
            for item in split_items(inner) {
                use_tree(&full, item, found);
            }
        }
        None => found.push(full),
    }
}

/// The inside of the `{…}` group `text` starts with, up to its matching `}`.
fn group(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('{')?;
    let mut depth = 0;
    for (index, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(&inner[..index]),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The comma-separated items of a group, nested groups kept whole.
fn split_items(inner: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (index, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..index]);
                start = index + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
}

/// One module of the crate as the checks see it: its path, its code without tests, and the
/// module paths that code names.
struct Module {
    name: String,
    code: String,
    named: Vec<String>,
}

/// Every module under `src/`, read once.
fn modules() -> Vec<Module> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 50, "found only {} source files", files.len());
    files
        .iter()
        .map(|file| {
            let name = module_of(&src, file);
            let code = code_of(&std::fs::read_to_string(file).unwrap_or_default());
            let named = paths_named(&code, &name);
            Module { name, code, named }
        })
        .collect()
}

#[test]
fn imports_only_run_down_the_layers() {
    let mut problems = Vec::new();
    for Module {
        name: module,
        code,
        named,
    } in modules()
    {
        let own = layer_of(&module);
        for named in named {
            let target = layer_of(&named);
            let known = KNOWN_UPWARD
                .iter()
                .any(|(from, to, _)| *from == module && named.starts_with(to));
            if target > own && !known {
                problems.push(format!(
                    "{module} (layer {own}) names {named} (layer {target})"
                ));
            }
        }
        let runtime = [
            "worker::",
            "web_sys::",
            "wasm_bindgen::",
            "use worker",
            "use web_sys",
        ]
        .iter()
        .any(|name| code.contains(name));
        let allowed = KNOWN_RUNTIME_NAMES.iter().any(|(m, _)| *m == module);
        if own == CORE && runtime && !allowed {
            problems.push(format!(
                "{module} is core but names the runtime (worker, web_sys or wasm_bindgen)"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "imports against the layers (ARCHITECTURE.md, \"Layers\"):\n{}",
        problems.join("\n")
    );
}

/// What a `store` module may not name (issue #37, DESIGN §2 "Objects are shells"): pages, review
/// rules, tool shaping and GitHub's requests are the application's (`app`); a shell decodes the
/// request, calls the application and encodes the reply. `tools::relay` is the wire it decodes.
const NOT_FOR_SHELLS: &[&str] = &[
    "web",
    "review",
    "tools",
    "mcp",
    "github::api",
    "github::graphql",
    "github::reviews",
];
const WIRE_FOR_SHELLS: &[&str] = &["tools::relay"];

/// `store` modules that still do the application's work, each with why: the list only shrinks.
const KNOWN_THICK_SHELLS: &[(&str, &str)] = &[];

#[test]
fn store_modules_are_thin_shells() {
    let mut problems = Vec::new();
    for Module { name, named, .. } in modules() {
        if !(name == "store" || name.starts_with("store::"))
            || KNOWN_THICK_SHELLS.iter().any(|(m, _)| *m == name)
        {
            continue;
        }
        for path in named {
            let under = |prefix: &&str| path == *prefix || path.starts_with(&format!("{prefix}::"));
            if NOT_FOR_SHELLS.iter().any(under) && !WIRE_FOR_SHELLS.iter().any(under) {
                problems.push(format!("{name} names {path}"));
            }
        }
    }
    let stale: Vec<_> = KNOWN_THICK_SHELLS
        .iter()
        .filter(|(m, _)| !modules().iter().any(|module| module.name == *m))
        .collect();
    assert!(
        stale.is_empty(),
        "gone from src/, drop from KNOWN_THICK_SHELLS: {stale:?}"
    );
    assert!(
        problems.is_empty(),
        "a store module does the application's work; move it to app (DESIGN §2):\n{}",
        problems.join("\n")
    );
}

/// The review page (`web`) draws the review's model; it names no tool module (issue #37): the
/// snapshot, the saved versions and the ticks are `review::model`'s, and a tool's shaping is no
/// part of a page. A `web` path through `tools` is a domain type still in a tool module.
const NOT_FOR_WEB: &str = "tools";

/// The paths of `named` that a `web` module `module` may not name.
fn web_names_tools(module: &str, named: &[String]) -> Vec<String> {
    if !(module == "web" || module.starts_with("web::")) {
        return Vec::new();
    }
    named
        .iter()
        .filter(|path| *path == NOT_FOR_WEB || path.starts_with(&format!("{NOT_FOR_WEB}::")))
        .map(|path| format!("{module} names {path}"))
        .collect()
}

#[test]
fn web_modules_name_no_tools() {
    let problems: Vec<String> = modules()
        .iter()
        .flat_map(|Module { name, named, .. }| web_names_tools(name, named))
        .collect();
    assert!(
        problems.is_empty(),
        "a web module names a tool module; import the type from `review::model` (issue #37):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_web_rule_sees_a_tool_import() {
    let named = paths_named(
        "use crate::tools::get_pull_request::SnapshotFile;\nuse crate::review::model::saved::SavedRecord;",
        "web::review_page",
    );
    assert_eq!(
        web_names_tools("web::review_page", &named),
        vec!["web::review_page names tools::get_pull_request::SnapshotFile"]
    );
    assert!(web_names_tools("service::review", &named).is_empty());
    assert!(web_names_tools("webhook", &named).is_empty());
}

/// Core logic is the same program natively and in the wasm: a `cfg(target_arch …)` in a core
/// module may only declare an adapter module (`#[cfg(target_arch = "wasm32")] mod store;`).
#[test]
fn core_logic_does_not_fork_on_the_target() {
    let mut problems = Vec::new();
    for Module { name, code, .. } in modules() {
        if layer_of(&name) != CORE || KNOWN_TARGET_FORKS.iter().any(|(m, _)| *m == name) {
            continue;
        }
        let lines: Vec<&str> = code.lines().map(str::trim).collect();
        for (index, line) in lines.iter().enumerate() {
            if !line.contains("target_arch") {
                continue;
            }
            let declares_a_module = line.starts_with("#[cfg(")
                && lines[index + 1..]
                    .iter()
                    .find(|next| !next.starts_with("#["))
                    .is_some_and(|next| next.starts_with("mod ") || next.starts_with("pub mod "));
            if !declares_a_module {
                problems.push(format!("{name}: {line}"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "core logic forks on the target (ARCHITECTURE.md, \"One program\"); move the fork to \
         an adapter:\n{}",
        problems.join("\n")
    );
}

/// Import loops that exist today, each with why: a module of a folder (`oauth::error`) for a
/// loop inside its folder, a top-level module (`oauth`) for one between top-level modules. A
/// listed module excuses its own loops and those of the modules it imports and is imported by.
const KNOWN_LOOPS: &[(&str, &str)] = &[];

/// The child of `folder` that `module` is or is inside: `oauth::error` for `oauth::error::Error`.
fn child_of(folder: &str, module: &str) -> Option<String> {
    let rest = module.strip_prefix(folder)?.strip_prefix("::")?;
    let child = rest.split("::").next().filter(|c| !c.is_empty())?;
    Some(format!("{folder}::{child}"))
}

/// The top-level module `module` is or is inside: `oauth` for `oauth::error::Error`.
fn top_of(module: &str) -> Option<String> {
    module
        .split("::")
        .next()
        .filter(|top| !top.is_empty())
        .map(str::to_string)
}

/// Whether `start` reaches itself through `edges`.
fn on_a_loop(start: &str, edges: &[(String, String)]) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    let mut next: Vec<&str> = edges
        .iter()
        .filter(|(from, _)| from == start)
        .map(|(_, to)| to.as_str())
        .collect();
    while let Some(at) = next.pop() {
        if at == start {
            return true;
        }
        if seen.contains(&at) {
            continue;
        }
        seen.push(at);
        next.extend(
            edges
                .iter()
                .filter(|(from, _)| from == at)
                .map(|(_, to)| to.as_str()),
        );
    }
    false
}

/// The graph whose nodes `node_of` gives: for each module, its node and the node of every path it
/// names (none: the path is outside the graph); edges only between nodes that are modules (a path
/// may name an item of a `mod.rs` or of `lib.rs`).
fn graph(
    modules: &[Module],
    node_of: &dyn Fn(&str) -> Option<String>,
) -> (Vec<String>, Vec<(String, String)>) {
    let mut edges: Vec<(String, String)> = Vec::new();
    let mut nodes: Vec<String> = Vec::new();
    for Module { name, named, .. } in modules {
        let Some(from) = node_of(name) else {
            continue;
        };
        if !nodes.contains(&from) {
            nodes.push(from.clone());
        }
        for to in named.iter().filter_map(|named| node_of(named)) {
            if to != from && !edges.contains(&(from.clone(), to.clone())) {
                edges.push((from.clone(), to));
            }
        }
    }
    edges.retain(|(_, to)| nodes.contains(to));
    (nodes, edges)
}

/// The nodes on an import loop that [`KNOWN_LOOPS`] does not excuse.
fn unknown_loops(nodes: &[String], edges: &[(String, String)]) -> Vec<String> {
    let edge = |a: &str, b: &str| edges.iter().any(|(from, to)| from == a && to == b);
    nodes
        .iter()
        .filter(|node| on_a_loop(node, edges))
        .filter(|node| {
            !KNOWN_LOOPS
                .iter()
                .any(|(known, _)| known == node || edge(known, node) && edge(node, known))
        })
        .cloned()
        .collect()
}

/// Every folder of the crate: each module path with a child module (`oauth`, `review::hints`).
fn folders(modules: &[Module]) -> Vec<String> {
    let mut folders: Vec<String> = Vec::new();
    for Module { name, .. } in modules {
        let parts: Vec<&str> = name.split("::").collect();
        for end in 1..parts.len() {
            let folder = parts[..end].join("::");
            if !folders.contains(&folder) {
                folders.push(folder);
            }
        }
    }
    folders.sort();
    folders
}

#[test]
fn no_import_loops_inside_a_folder() {
    // For every folder at any depth, edges between its child modules (`oauth::error` →
    // `oauth::clients`, `review::hints::imports` → `review::hints::project`): a loop between two
    // sub-folders of a folder is a loop too, not only one between the top-level folder's files.
    let modules = modules();
    let folders = folders(&modules);
    assert!(
        folders.iter().any(|folder| folder == "review::hints"),
        "nested folders are checked: {folders:?}"
    );
    let mut looping = Vec::new();
    let mut children = 0;
    for folder in &folders {
        let (nodes, edges) = graph(&modules, &|module| child_of(folder, module));
        children += nodes.len();
        looping.extend(unknown_loops(&nodes, &edges));
    }
    assert!(children > 40, "found only {children} modules");
    assert!(
        looping.is_empty(),
        "modules on an import loop inside their folder: {looping:?}"
    );
}

#[test]
fn no_import_loops_between_top_level_modules() {
    // Edges between the crate's top-level modules (`oauth::error` naming `web::consent` is
    // `oauth` → `web`).
    let (tops, edges) = graph(&modules(), &top_of);
    assert!(
        tops.len() > 20,
        "found only {} top-level modules",
        tops.len()
    );
    let looping = unknown_loops(&tops, &edges);
    assert!(
        looping.is_empty(),
        "top-level modules on an import loop: {looping:?}"
    );
}

#[test]
fn the_loop_finder_sees_a_loop() {
    let edge = |a: &str, b: &str| (a.to_string(), b.to_string());
    let edges = [
        edge("o::a", "o::b"),
        edge("o::b", "o::c"),
        edge("o::c", "o::a"),
        edge("o::d", "o::a"),
    ];
    assert!(on_a_loop("o::a", &edges));
    assert!(on_a_loop("o::c", &edges));
    assert!(!on_a_loop("o::d", &edges));
    assert_eq!(
        child_of("oauth", "oauth::error::Error").as_deref(),
        Some("oauth::error")
    );
    assert_eq!(child_of("oauth", "oauthx::error"), None);
    assert_eq!(top_of("oauth::error::Error").as_deref(), Some("oauth"));
    assert_eq!(top_of(""), None);
}

#[test]
fn the_checker_sees_an_upward_path() {
    let named = paths_named(
        "use crate::service::handle;\nlet x = super::seal::y;",
        "oauth::pkce",
    );
    assert_eq!(named, vec!["service::handle", "oauth::seal::y"]);
    assert_eq!(layer_of("service::handle"), SERVICE);
    assert_eq!(layer_of("oauth::seal::y"), ADAPTERS);
    assert_eq!(layer_of("oauth::pkce"), CORE);
    assert_eq!(layer_of("github::fetch::GitHub"), ADAPTERS);
    assert_eq!(layer_of("github::client::GitHub"), CORE);
    assert_eq!(layer_of("app::pull_request::records"), CORE);
    assert_eq!(layer_of("github::api"), CORE);
    assert_eq!(layer_of("entry"), ENTRY);
    assert_eq!(
        paths_named("x::crate::y; a_super::z", "a"),
        Vec::<String>::new()
    );
    // A `mod.rs` is its folder's module: `super` is the folder's parent (issue #32: this read
    // `review::hints::project::imports` and hid the loop between `imports` and `project`).
    assert_eq!(
        paths_named("use super::imports::Language;", "review::hints::project"),
        vec!["review::hints::imports::Language"]
    );
}

#[test]
fn the_checker_reads_use_groups_and_super_chains() {
    assert_eq!(
        paths_named("use super::{a, b::{c, self}, d as e, *};", "f::g"),
        vec!["f::a", "f::b::c", "f::b", "f::d"]
    );
    assert_eq!(
        paths_named("use crate::{json, web::{html}};", "oauth::error"),
        vec!["json", "web::html"]
    );
    assert_eq!(paths_named("use super::super::x;", "f::g::h"), vec!["f::x"]);
    assert_eq!(paths_named("use super::*;", "f::g"), Vec::<String>::new());
}

/// Whether `code` holds a SQL statement (a string starting with one of SQL's verbs).
fn writes_sql(code: &str) -> bool {
    [
        "\"SELECT ",
        "\"INSERT ",
        "\"UPDATE ",
        "\"DELETE ",
        "\"CREATE ",
    ]
    .iter()
    .any(|verb| code.contains(verb))
        || code.contains(".sql\")")
}

#[test]
fn store_holds_only_thin_shells() {
    let mut problems = Vec::new();
    for Module { name, code, .. } in modules() {
        if layer_of(&name) != ADAPTERS || !(name == "store" || name.starts_with("store::")) {
            continue;
        }
        if KNOWN_THICK_STORE.iter().any(|(known, _)| *known == name) {
            continue;
        }
        let lines = code.lines().filter(|line| !line.trim().is_empty()).count();
        if lines > STORE_FILE_LINES {
            problems.push(format!(
                "{name}: {lines} lines of code (at most {STORE_FILE_LINES})"
            ));
        }
        if writes_sql(&code) && name != "store::sql" {
            problems.push(format!("{name} writes SQL; records belong in `app`"));
        }
    }
    let stale: Vec<_> = KNOWN_THICK_STORE
        .iter()
        .filter(|(m, _)| !modules().iter().any(|module| module.name == *m))
        .collect();
    assert!(
        stale.is_empty(),
        "gone from src/, drop from KNOWN_THICK_STORE: {stale:?}"
    );
    assert!(
        problems.is_empty(),
        "store is shells only (DESIGN §2; move the work to `app`):\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_application_layer_is_core_and_the_shell_check_sees_sql() {
    assert_eq!(layer_of("app::person::grants"), CORE);
    assert_eq!(layer_of("store::person"), ADAPTERS);
    assert!(writes_sql(r#"self.sql.run("DELETE FROM grants", &[])"#));
    assert!(writes_sql(r#"include_str!("person.sql")"#));
    assert!(!writes_sql("fn answer(&self) -> Reply"));
}
