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

#[test]
fn imports_only_run_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 50, "found only {} source files", files.len());
    let mut problems = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        let is_dir_module = file.file_name().is_some_and(|n| n == "mod.rs");
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let code = code_of(&text);
        let own = layer_of(&module);
        for named in paths_named(&code, &module, is_dir_module) {
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
