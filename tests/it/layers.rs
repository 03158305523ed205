//! A tidy test of the crate's layers (issue #17, ARCHITECTURE.md "Layers"), in the manner of
//! rust-analyzer's tidy tests: it reads the `crate::` and `super::` paths of every module under
//! `src/` and fails on a path that runs up a layer, and on a `worker`, `web_sys` or
//! `wasm_bindgen` name in the pure core.
//!
//! Why: the layers are what keep the core testable natively and the wasm adapters thin; an import
//! against them compiles fine and is easy to miss in review. The known exceptions are listed
//! below with their reason, so the list can only shrink on purpose.
//! What not: it reads text, not the compiler's name resolution: `use` groups (`crate::{a, b}`)
//! are not split (the crate uses none outside tests), and test modules are left out.

use std::path::{Path, PathBuf};

/// The layers, lowest first. A module is in the layer of the longest prefix listed here, and in
/// the core when none matches.
const LAYERS: &[(&str, u8)] = &[
    ("github::client", ADAPTERS),
    ("oauth::seal", ADAPTERS),
    ("store", ADAPTERS),
    ("subrequest", ADAPTERS),
    ("body", ADAPTERS),
    ("service", SERVICE),
    ("entry", ENTRY),
];
const CORE: u8 = 1;
const ADAPTERS: u8 = 2;
const SERVICE: u8 = 3;
const ENTRY: u8 = 4;

/// Paths that run up a layer today, each with why: (from module, to module prefix).
const KNOWN_UPWARD: &[(&str, &str, &str)] = &[];

/// Core modules that name the runtime, each behind `cfg(target_arch = "wasm32")`, with why.
const KNOWN_RUNTIME_NAMES: &[(&str, &str)] = &[
    (
        "config",
        "`Config::from_env` reads the Worker's vars and secrets",
    ),
    (
        "json",
        "`From<DecodeError> for worker::Error`, so `?` works in the adapters",
    ),
];

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

/// The module paths `code` names through `crate::` or `super::`, resolved from `module`
/// (`is_dir_module`: the file is a `mod.rs`, whose `super` is one level higher).
fn paths_named(code: &str, module: &str, is_dir_module: bool) -> Vec<String> {
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
            let rest = &code[from..];
            let len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let named = rest[..len].trim_end_matches(':');
            if named.is_empty() {
                continue;
            }
            let base = if anchor == "crate::" {
                String::new()
            } else {
                let mut parts: Vec<&str> = module.split("::").collect();
                if !is_dir_module {
                    parts.pop();
                }
                parts.join("::")
            };
            found.push(match base.is_empty() {
                true => named.to_string(),
                false => format!("{base}::{named}"),
            });
        }
    }
    found
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
            let is_dir_module = file.file_name().is_some_and(|n| n == "mod.rs");
            let code = code_of(&std::fs::read_to_string(file).unwrap_or_default());
            let named = paths_named(&code, &name, is_dir_module);
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

/// Import loops between the modules of one folder that exist today, each with why.
const KNOWN_LOOPS: &[(&str, &str)] = &[
    (
        "service::review",
        "`review_diff` serves the on-demand parts of the page `review` renders, and both share its viewer read",
    ),
    (
        "tools::show_reading_order",
        "`views` groups the MCP Apps tools, `show_reading_order` among them",
    ),
];

/// The child of `folder` that `module` is or is inside: `oauth::error` for `oauth::error::Error`.
fn child_of(folder: &str, module: &str) -> Option<String> {
    let rest = module.strip_prefix(folder)?.strip_prefix("::")?;
    let child = rest.split("::").next().filter(|c| !c.is_empty())?;
    Some(format!("{folder}::{child}"))
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

#[test]
fn no_import_loops_inside_a_folder() {
    // Edges between sibling modules of each top-level folder (`oauth::error` → `oauth::clients`).
    let mut edges: Vec<(String, String)> = Vec::new();
    let mut children: Vec<String> = Vec::new();
    for Module {
        name: module,
        named,
        ..
    } in modules()
    {
        let Some(folder) = module.split("::").next().filter(|_| module.contains("::")) else {
            continue;
        };
        let Some(from) = child_of(folder, &module) else {
            continue;
        };
        if !children.contains(&from) {
            children.push(from.clone());
        }
        for named in named {
            if let Some(to) = child_of(folder, &named) {
                if to != from && !edges.contains(&(from.clone(), to.clone())) {
                    edges.push((from.clone(), to));
                }
            }
        }
    }
    // Only edges to modules that exist (a path may name an item of the folder's `mod.rs`).
    edges.retain(|(_, to)| children.contains(to));
    assert!(children.len() > 40, "found only {} modules", children.len());
    let looping: Vec<&String> = children
        .iter()
        .filter(|module| on_a_loop(module, &edges))
        .filter(|module| {
            !KNOWN_LOOPS.iter().any(|(known, _)| {
                *known == module.as_str()
                    || edges.iter().any(|(a, b)| a == *known && b == *module)
                        && edges.iter().any(|(a, b)| b == *known && a == *module)
            })
        })
        .collect();
    assert!(
        looping.is_empty(),
        "modules on an import loop inside their folder: {looping:?}"
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
}

#[test]
fn the_checker_sees_an_upward_path() {
    let named = paths_named(
        "use crate::service::handle;\nlet x = super::seal::y;",
        "oauth::pkce",
        false,
    );
    assert_eq!(named, vec!["service::handle", "oauth::seal::y"]);
    assert_eq!(layer_of("service::handle"), SERVICE);
    assert_eq!(layer_of("oauth::seal::y"), ADAPTERS);
    assert_eq!(layer_of("oauth::pkce"), CORE);
    assert_eq!(layer_of("github::client::GitHub"), ADAPTERS);
    assert_eq!(layer_of("github::api"), CORE);
    assert_eq!(layer_of("entry"), ENTRY);
    assert_eq!(
        paths_named("x::crate::y; a_super::z", "a", false),
        Vec::<String>::new()
    );
    assert_eq!(paths_named("super::b", "a", true), vec!["a::b"]);
}
