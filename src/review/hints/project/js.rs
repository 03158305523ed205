//! `tsconfig.json`/`jsconfig.json` (`baseUrl`, `paths`, `extends`) and `package.json` (`name`,
//! `exports`, entry fields) as import resolution needs them.
//!
//! Why: TypeScript projects import through path aliases (`@app/*` → `src/*`) and monorepos import
//! workspace packages by name (`@acme/ui` → `packages/ui/src/index.ts`); both are written down in
//! these files and nowhere in the diff.
//! A subpath (`.`, `./button`) named by `exports` resolves through it: every condition's target
//! (nested, `*` patterns, `./dir/` folders; `null` hides it), each probed as written and as the
//! source it is built from (`./build/modern/x.js` → `src/x.*`). Without `exports`, the entry is
//! `source`, `types`, `module` or `main`, else `src/index`, and subpaths are looked up under
//! `src/` and the package root.
//! tsconfig files are JSON with comments and trailing commas, so they are cleaned before parsing.
//! `extends` is followed through the files that were read (relative paths only), when a specifier
//! is resolved; a base that wasn't read leaves the file with its own options.
//!
//! What not: no `references`, no `rootDirs`, no `imports` (`#x`) maps, no reading of
//! `node_modules`.

use serde_json::Value;

use crate::review::hints::paths;

/// One tsconfig or jsconfig as written; [`TsConfig::options`] follows `extends`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TsConfig {
    pub path: String,
    /// The directory of the file; it applies to sources below it.
    pub dir: String,
    /// Repository paths of relative `extends` targets.
    pub extends: Vec<String>,
    /// `baseUrl` as a repository path, when set.
    pub base_url: Option<String>,
    /// `paths` patterns with their targets as repository paths (`*` kept), when set.
    pub paths: Option<Vec<(String, Vec<String>)>>,
}

impl TsConfig {
    /// The `baseUrl` and `paths` in effect: the file's own, else its bases' (through the files
    /// read; chains are short, the bound stops loops).
    pub fn options<'c>(
        &'c self,
        all: &'c [TsConfig],
    ) -> (Option<&'c str>, &'c [(String, Vec<String>)]) {
        let mut base_url = self.base_url.as_deref();
        let mut found_paths = self.paths.as_deref();
        let mut current = self;
        for _ in 0..8 {
            let Some(parent) = current
                .extends
                .iter()
                .find_map(|target| all.iter().find(|other| other.path == *target))
            else {
                break;
            };
            base_url = base_url.or(parent.base_url.as_deref());
            found_paths = found_paths.or(parent.paths.as_deref());
            current = parent;
        }
        (base_url, found_paths.unwrap_or(&[]))
    }
}

/// A workspace package: its name and its entry files as written (relative to `dir`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsPackage {
    pub dir: String,
    pub name: String,
    /// `source`, `types`, `typings`, `module`, `main`.
    pub entries: Vec<String>,
    /// The `exports` field as written.
    pub exports: Option<Value>,
}

impl JsPackage {
    /// The targets `exports` maps a subpath (`.` or `./x`) to, every condition's in the order
    /// written (`source`, `types`, `import`, `require`, `default`, nested); a `*` pattern's
    /// capture (the longest matching prefix wins) or an old `./dir/` folder mapping is filled in.
    /// `None` when there is no `exports` or it doesn't name the subpath.
    pub fn exports_of(&self, subpath: &str) -> Option<Vec<String>> {
        let exports = self.exports.as_ref()?;
        let map = match exports {
            Value::Object(map) if map.keys().any(|key| key.starts_with('.')) => map,
            // A string, array or condition object is the package's `.` export.
            _ => return (subpath == ".").then(|| leaves(exports, "")),
        };
        if let Some(target) = map.get(subpath) {
            return Some(leaves(target, ""));
        }
        let (_, capture, target) = map
            .iter()
            .filter_map(|(key, target)| {
                let (prefix, suffix) = key
                    .split_once('*')
                    .or_else(|| key.ends_with('/').then_some((key.as_str(), "")))?;
                let middle = subpath.strip_prefix(prefix)?.strip_suffix(suffix)?;
                Some((prefix.len(), middle, target))
            })
            .max_by_key(|(prefix_len, _, _)| *prefix_len)?;
        let mut found = leaves(target, capture);
        for target in &mut found {
            // Folder mappings (`"./x/": "./src/x/"`) append the rest.
            if target.ends_with('/') {
                target.push_str(capture);
            }
        }
        Some(found)
    }
}

/// The string targets under an `exports` value, in order, `*` replaced by `capture`.
fn leaves(value: &Value, capture: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(target) => out.push(target.replace('*', capture)),
            Value::Array(items) => stack.extend(items.iter().rev()),
            Value::Object(map) => stack.extend(map.values().rev()),
            _ => {}
        }
    }
    out
}

/// Parses JSON with `//` and `/* */` comments and trailing commas (tsconfig's dialect).
pub fn parse_jsonc(text: &str) -> Option<Value> {
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
    serde_json::from_str(std::str::from_utf8(&clean).ok()?).ok()
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
pub fn ts_config(path: &str, text: &str) -> Option<TsConfig> {
    let value = parse_jsonc(text)?;
    let dir = paths::parent(path);
    let options = value.get("compilerOptions");
    let base_url = options
        .and_then(|o| o.get("baseUrl"))
        .and_then(Value::as_str)
        .and_then(|base| paths::join(dir, base));
    let paths_base = base_url.as_deref().unwrap_or(dir);
    let mut patterns = None;
    if let Some(Value::Object(map)) = options.and_then(|o| o.get("paths")) {
        let mut list = Vec::new();
        for (pattern, targets) in map {
            let mut joined = Vec::new();
            for target in strings(Some(targets)) {
                joined.extend(paths::join(paths_base, &target));
            }
            // Targets outside the repository (`../../packages/x/src` in a root config that
            // packages extend) lead nowhere we can see: the pattern claims nothing.
            if !joined.is_empty() {
                list.push((pattern.clone(), joined));
            }
        }
        patterns = Some(list);
    }
    let mut extends = Vec::new();
    for target in strings(value.get("extends")) {
        extends.extend(extends_path(dir, &target));
    }
    Some(TsConfig {
        path: path.to_string(),
        dir: dir.to_string(),
        extends,
        base_url,
        paths: patterns,
    })
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

/// Reads a `package.json`: `None` when it doesn't parse, `Some(None)` when it has no name (not
/// importable by name).
pub fn package(dir: &str, text: &str) -> Option<Option<JsPackage>> {
    let mut value: Value = serde_json::from_str(text).ok()?;
    let Some(name) = value.get("name").and_then(Value::as_str) else {
        return Some(None);
    };
    let mut entries = Vec::new();
    for field in [
        value.get("source"),
        value.get("types"),
        value.get("typings"),
        value.get("module"),
        value.get("main"),
    ] {
        if let Some(Value::String(entry)) = field {
            entries.push(entry.clone());
        }
    }
    let name = name.to_string();
    Some(Some(JsPackage {
        dir: dir.to_string(),
        name,
        entries,
        exports: value.get_mut("exports").map(Value::take),
    }))
}

#[cfg(test)]
mod tests {
    use super::{package, parse_jsonc, ts_config};

    #[test]
    fn jsonc() {
        let value = parse_jsonc(
            "{\n  // comment\n  \"a\": \"x // not a comment\", /* block */\n  \"b\": [1, 2,],\n}\n",
        )
        .unwrap_or_default();
        assert_eq!(value["a"], "x // not a comment");
        assert_eq!(value["b"][1], 2);
        assert!(parse_jsonc("{ nope").is_none());
    }

    #[test]
    fn extends_and_paths() {
        let base = ts_config(
            "tsconfig.base.json",
            "{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@acme/*\": [\"libs/*/src\"] } } }",
        );
        let app = ts_config(
            "apps/web/tsconfig.json",
            "{ \"extends\": \"../../tsconfig.base.json\", \"compilerOptions\": { \"strict\": true } }",
        );
        let own = ts_config(
            "apps/api/tsconfig.json",
            "{ \"extends\": [\"../../missing\", \"@tsconfig/node20\"], \"compilerOptions\": { \"paths\": { \"~/*\": [\"./src/*\"] } } }",
        );
        let all: Vec<_> = [base, app, own].into_iter().flatten().collect();
        let [_, app, own] = all.as_slice() else {
            panic!("three configs");
        };
        let patterns = vec![("@acme/*".to_string(), vec!["libs/*/src".to_string()])];
        assert_eq!(app.options(&all), (Some(""), patterns.as_slice()));
        assert_eq!(own.extends, ["missing.json"]);
        let own_patterns = vec![("~/*".to_string(), vec!["apps/api/src/*".to_string()])];
        assert_eq!(own.options(&all), (None, own_patterns.as_slice()));
    }

    #[test]
    fn packages() {
        let ui = package(
            "packages/ui",
            "{\"name\":\"@acme/ui\",\"main\":\"dist/index.js\",\"exports\":{\".\":\"./src/index.ts\",\"./button\":\"./src/button.tsx\"}}",
        );
        let ui = ui.flatten();
        assert_eq!(ui.as_ref().map(|p| p.name.as_str()), Some("@acme/ui"));
        assert_eq!(
            ui.as_ref().map(|p| p.entries.clone()),
            Some(vec!["dist/index.js".into()])
        );
        let exports = |package: &Option<super::JsPackage>, subpath: &str| {
            package.as_ref().and_then(|p| p.exports_of(subpath))
        };
        assert_eq!(exports(&ui, "."), Some(vec!["./src/index.ts".into()]));
        assert_eq!(
            exports(&ui, "./button"),
            Some(vec!["./src/button.tsx".into()])
        );
        assert_eq!(exports(&ui, "./other"), None);
        let conditional = package(
            "p",
            r#"{"name":"p","exports":{".":{"types":"./dist/index.d.ts","import":{"node":"./dist/node.mjs","default":"./dist/index.mjs"},"require":null},
                "./icons/*":{"import":"./dist/icons/*.js"},"./*":"./src/*.ts","./icons/x":null,"./legacy/":"./lib/legacy/"}}"#,
        )
        .flatten();
        assert_eq!(
            exports(&conditional, "."),
            // Conditions in name order (serde_json's map); every target is probed.
            Some(vec![
                "./dist/index.mjs".into(),
                "./dist/node.mjs".into(),
                "./dist/index.d.ts".into()
            ])
        );
        assert_eq!(
            exports(&conditional, "./icons/arrow"),
            Some(vec!["./dist/icons/arrow.js".into()])
        );
        assert_eq!(exports(&conditional, "./icons/x"), Some(vec![]));
        assert_eq!(
            exports(&conditional, "./util/date"),
            Some(vec!["./src/util/date.ts".into()])
        );
        assert_eq!(
            exports(&conditional, "./legacy/a.js"),
            Some(vec!["./lib/legacy/a.js".into()])
        );
        let sugar = package(
            "q",
            r#"{"name":"q","exports":{"import":"./esm/index.js","require":"./cjs/index.js"}}"#,
        )
        .flatten();
        assert_eq!(
            exports(&sugar, "."),
            Some(vec!["./esm/index.js".into(), "./cjs/index.js".into()])
        );
        assert_eq!(exports(&sugar, "./x"), None);
        assert_eq!(package("", "{\"private\": true}"), Some(None));
        assert!(package("", "{").is_none());
    }
}
