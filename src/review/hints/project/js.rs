//! `tsconfig.json`/`jsconfig.json` (`baseUrl`, `paths`, `extends`) and `package.json` (`name`,
//! `exports`, entry fields) as import resolution needs them.
//!
//! Why: TypeScript projects import through path aliases (`@app/*` → `src/*`) and monorepos import
//! workspace packages by name (`@acme/ui` → `packages/ui/src/index.ts`); both are written down in
//! these files and nowhere in the diff.
//! tsconfig files are JSON with comments and trailing commas, so they are cleaned before parsing.
//! `extends` is followed through the files that were read (relative paths only); a base that
//! wasn't read is named in the problems and the file keeps its own options.
//!
//! What not: no `references`, no `rootDirs`, no conditions chosen by environment (every target
//! of an `exports` entry is a candidate, in order), no reading of `node_modules`.

use serde_json::Value;

use crate::review::hints::paths;

/// One tsconfig with `extends` applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TsConfig {
    /// The directory of the file; it applies to sources below it.
    pub dir: String,
    /// `baseUrl` as a repository path, when set.
    pub base_url: Option<String>,
    /// `paths` patterns with their targets as repository paths (`*` kept).
    pub paths: Vec<(String, Vec<String>)>,
}

/// A tsconfig as written, before `extends`.
#[derive(Debug, Clone)]
pub struct RawTsConfig {
    path: String,
    extends: Vec<String>,
    base_url: Option<String>,
    /// Patterns and targets, the targets still relative to `paths_base`.
    paths: Option<Vec<(String, Vec<String>)>>,
}

/// A workspace package: its name and what its entry points are, as repository paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsPackage {
    pub dir: String,
    pub name: String,
    /// Subpath (`.`, `./button`, `./*`) and its targets, relative to `dir`, in order.
    pub exports: Vec<(String, Vec<String>)>,
}

/// Parses JSON with `//` and `/* */` comments and trailing commas (tsconfig's dialect).
pub fn parse_jsonc(text: &str) -> Result<Value, String> {
    let bytes = text.as_bytes();
    let mut clean = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let mut in_string = false;
    while let Some(&byte) = bytes.get(i) {
        if in_string {
            clean.push(byte);
            if byte == b'\\' {
                if let Some(&next) = bytes.get(i + 1) {
                    clean.push(next);
                    i += 1;
                }
            } else if byte == b'"' {
                in_string = false;
            }
            i += 1;
            continue;
        }
        match (byte, bytes.get(i + 1)) {
            (b'"', _) => {
                in_string = true;
                clean.push(byte);
                i += 1;
            }
            (b'/', Some(b'/')) => {
                while bytes.get(i).is_some_and(|b| *b != b'\n') {
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                i += 2;
                while i < bytes.len()
                    && !(bytes.get(i) == Some(&b'*') && bytes.get(i + 1) == Some(&b'/'))
                {
                    i += 1;
                }
                i += 2;
            }
            (b',', _) => {
                let next = bytes
                    .get(i + 1..)
                    .unwrap_or(&[])
                    .iter()
                    .position(|b| !b.is_ascii_whitespace())
                    .and_then(|at| bytes.get(i + 1 + at));
                // A trailing comma (only whitespace before the closer) is dropped.
                if !matches!(next, Some(b'}' | b']')) {
                    clean.push(byte);
                }
                i += 1;
            }
            _ => {
                clean.push(byte);
                i += 1;
            }
        }
    }
    let clean = String::from_utf8(clean).map_err(|_| "not UTF-8".to_string())?;
    serde_json::from_str(&clean).map_err(|error| error.to_string())
}

fn strings(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::String(text)) => vec![text.clone()],
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|item| item.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

/// Reads one tsconfig/jsconfig as written.
pub fn raw_ts_config(path: &str, text: &str) -> Result<RawTsConfig, String> {
    let value = parse_jsonc(text)?;
    let dir = paths::parent(path);
    let options = value.get("compilerOptions");
    let base_url = options
        .and_then(|o| o.get("baseUrl"))
        .and_then(Value::as_str)
        .and_then(|base| paths::join(dir, base));
    let paths_map = options
        .and_then(|o| o.get("paths"))
        .and_then(Value::as_object);
    let paths_base = base_url.clone().unwrap_or_else(|| dir.to_string());
    let paths = paths_map.map(|map| {
        map.iter()
            .map(|(pattern, targets)| {
                let targets = strings(Some(targets))
                    .iter()
                    .filter_map(|target| paths::join(&paths_base, target))
                    .collect();
                (pattern.clone(), targets)
            })
            .collect()
    });
    Ok(RawTsConfig {
        path: path.to_string(),
        extends: strings(value.get("extends")),
        base_url,
        paths,
    })
}

/// Applies `extends` chains among the files read: a file's own `baseUrl` and `paths` win over
/// its bases'.
pub fn apply_extends(raw: &[RawTsConfig], problems: &mut Vec<String>) -> Vec<TsConfig> {
    raw.iter()
        .map(|config| {
            let mut base_url = config.base_url.clone();
            let mut found_paths = config.paths.clone();
            let mut current = config;
            // Chains are short; the bound stops loops.
            for _ in 0..8 {
                if base_url.is_some() && found_paths.is_some() {
                    break;
                }
                let Some(parent) = current.extends.iter().find_map(|target| {
                    let wanted = extends_path(paths::parent(&current.path), target)?;
                    let found = raw.iter().find(|other| other.path == wanted);
                    if found.is_none() {
                        problems.push(format!("{}: extends {target}, not read", current.path));
                    }
                    found
                }) else {
                    break;
                };
                base_url = base_url.or_else(|| parent.base_url.clone());
                found_paths = found_paths.or_else(|| parent.paths.clone());
                current = parent;
            }
            TsConfig {
                dir: paths::parent(&config.path).to_string(),
                base_url,
                paths: found_paths.unwrap_or_default(),
            }
        })
        .collect()
}

/// The repository path an `extends` value names, for relative values.
fn extends_path(dir: &str, target: &str) -> Option<String> {
    if !(target.starts_with("./") || target.starts_with("../")) {
        return None;
    }
    let joined = paths::join(dir, target)?;
    Some(if joined.ends_with(".json") {
        joined
    } else {
        format!("{joined}.json")
    })
}

/// Reads a `package.json`; `Ok(None)` when it has no name (not importable by name).
pub fn package(dir: &str, text: &str) -> Result<Option<JsPackage>, String> {
    let value: Value = serde_json::from_str(text).map_err(|error| error.to_string())?;
    let Some(name) = value.get("name").and_then(Value::as_str) else {
        return Ok(None);
    };
    let mut exports: Vec<(String, Vec<String>)> = Vec::new();
    match value.get("exports") {
        Some(Value::Object(map)) if map.keys().any(|key| key.starts_with('.')) => {
            for (subpath, target) in map {
                let mut targets = Vec::new();
                leaves(target, &mut targets);
                exports.push((subpath.clone(), targets));
            }
        }
        Some(other @ (Value::Object(_) | Value::String(_) | Value::Array(_))) => {
            let mut targets = Vec::new();
            leaves(other, &mut targets);
            exports.push((".".to_string(), targets));
        }
        _ => {}
    }
    let entries: Vec<String> = ["source", "types", "typings", "module", "main"]
        .iter()
        .filter_map(|field| value.get(*field).and_then(Value::as_str))
        .map(str::to_string)
        .collect();
    if !entries.is_empty() {
        match exports.iter_mut().find(|(subpath, _)| subpath == ".") {
            Some((_, targets)) => targets.extend(entries),
            None => exports.push((".".to_string(), entries)),
        }
    }
    Ok(Some(JsPackage {
        dir: dir.to_string(),
        name: name.to_string(),
        exports,
    }))
}

/// Every string in a conditional `exports` value, in document order.
fn leaves(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(text) => out.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| leaves(item, out)),
        Value::Object(map) => map.values().for_each(|item| leaves(item, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::{apply_extends, package, parse_jsonc, raw_ts_config, TsConfig};

    #[test]
    fn jsonc() {
        let value = parse_jsonc(
            "{\n  // comment\n  \"a\": \"x // not a comment\", /* block */\n  \"b\": [1, 2,],\n}\n",
        )
        .unwrap_or_default();
        assert_eq!(value["a"], "x // not a comment");
        assert_eq!(value["b"][1], 2);
        assert!(parse_jsonc("{ nope").is_err());
    }

    #[test]
    fn extends_and_paths() {
        let base = raw_ts_config(
            "tsconfig.base.json",
            "{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@acme/*\": [\"libs/*/src\"] } } }",
        );
        let app = raw_ts_config(
            "apps/web/tsconfig.json",
            "{ \"extends\": \"../../tsconfig.base.json\", \"compilerOptions\": { \"strict\": true } }",
        );
        let own = raw_ts_config(
            "apps/api/tsconfig.json",
            "{ \"extends\": \"../../missing\", \"compilerOptions\": { \"paths\": { \"~/*\": [\"./src/*\"] } } }",
        );
        let raw: Vec<_> = [base, app, own].into_iter().flatten().collect();
        let mut problems = Vec::new();
        let configs = apply_extends(&raw, &mut problems);
        assert_eq!(
            configs.get(1),
            Some(&TsConfig {
                dir: "apps/web".into(),
                base_url: Some(String::new()),
                paths: vec![("@acme/*".into(), vec!["libs/*/src".into()])],
            })
        );
        assert_eq!(
            configs.get(2).map(|c| c.paths.clone()),
            Some(vec![("~/*".into(), vec!["apps/api/src/*".into()])])
        );
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn packages() {
        let ui = package(
            "packages/ui",
            "{\"name\":\"@acme/ui\",\"main\":\"dist/index.js\",\"exports\":{\".\":{\"types\":\"./src/index.ts\",\"default\":\"./dist/index.js\"},\"./button\":\"./src/button.tsx\"}}",
        );
        let ui = ui.ok().flatten();
        assert_eq!(ui.as_ref().map(|p| p.name.as_str()), Some("@acme/ui"));
        assert_eq!(
            ui.map(|p| p.exports),
            Some(vec![
                (
                    ".".into(),
                    // Conditions come in key order; every one is a candidate.
                    vec![
                        "./dist/index.js".into(),
                        "./src/index.ts".into(),
                        "dist/index.js".into()
                    ]
                ),
                ("./button".into(), vec!["./src/button.tsx".into()]),
            ])
        );
        assert_eq!(package("", "{\"private\": true}"), Ok(None));
        assert!(package("", "{").is_err());
    }
}
