//! Project configuration read at the pull request's head: what each language's build knows that
//! the diff doesn't (Go module paths, Rust crate names, TypeScript path aliases, workspace
//! packages).
//!
//! Why: imports that resolve through configuration rather than a relative path were most of the
//! `dependsOn` misses measured on real pull requests (issue #16).
//! [`wanted`] names the files worth reading for a pull request: the build files of every ancestor
//! directory of its changed files, per language, only for languages it has. [`Project::parse`]
//! reads whatever of them exist; a file that doesn't parse is skipped and named in
//! [`Project::problems`], never a failure.
//!
//! What not: no reading from GitHub (the service does that), no glob expansion of workspace
//! member lists (a member with changed files has its own build file among the ancestors).

pub mod cargo;
pub mod js;

use super::imports::{language, Language};
use super::paths;

pub use js::{JsPackage, TsConfig};

/// Most build files read for one pull request; shallow directories first, so the root's files
/// are always among them.
pub const MAX_WANTED: usize = 200;

/// Build files read per language, in each ancestor directory of a changed file.
fn files_for(language: Language) -> &'static [&'static str] {
    match language {
        Language::Go => &["go.mod"],
        Language::Rust => &["Cargo.toml"],
        Language::JavaScript => &["package.json", "tsconfig.json", "jsconfig.json"],
        _ => &[],
    }
}

/// The build files worth reading for a pull request with these changed paths, shallowest first.
pub fn wanted(changed: &[&str]) -> Vec<String> {
    let mut wanted: Vec<(usize, String)> = Vec::new();
    let mut has_js = false;
    for path in changed {
        let Some(lang) = language(path) else { continue };
        has_js |= lang == Language::JavaScript;
        for dir in paths::ancestors(paths::parent(path)) {
            // Rust sources sit under `src/`; its manifest never does.
            if lang == Language::Rust && paths::file_name(dir) == "src" {
                continue;
            }
            for name in files_for(lang) {
                let file = if dir.is_empty() {
                    name.to_string()
                } else {
                    format!("{dir}/{name}")
                };
                wanted.push((file.matches('/').count(), file));
            }
        }
    }
    if has_js {
        // The usual target of `extends` in monorepos.
        wanted.push((0, "tsconfig.base.json".to_string()));
    }
    // The shared sort instantiation (`crate::sorting`), not a tree: wasm size.
    crate::sorting::sort(&mut wanted);
    wanted.dedup();
    wanted
        .into_iter()
        .take(MAX_WANTED)
        .map(|(_, file)| file)
        .collect()
}

/// What the build files say, in the terms import resolution needs.
#[derive(Debug, Default, Clone)]
pub struct Project {
    /// `(directory, module path)` of each `go.mod` (`imports::go` orders them).
    pub go_modules: Vec<(String, String)>,
    /// `(crate name as code spells it, directory of its root module)` of each Cargo package.
    pub crates: Vec<(String, String)>,
    /// Every `tsconfig.json`/`jsconfig.json`, with `extends` applied.
    pub ts_configs: Vec<TsConfig>,
    /// Every named `package.json`.
    pub packages: Vec<JsPackage>,
    /// Build files that could not be read, with why (for the log).
    pub problems: Vec<String>,
}

impl Project {
    /// Reads `(path, text)` build files; unknown names are ignored.
    pub fn parse(files: &[(String, String)]) -> Project {
        let mut project = Project::default();
        let mut raw_ts = Vec::new();
        for (path, text) in files {
            let dir = paths::parent(path).to_string();
            match paths::file_name(path) {
                "go.mod" => match go_module(text) {
                    Some(module) => project.go_modules.push((dir, module.to_string())),
                    None => project.problems.push(format!("{path}: no module line")),
                },
                "Cargo.toml" => {
                    if let Some(found) = cargo::crate_root(&dir, text) {
                        project.crates.push(found);
                    }
                }
                "package.json" => match js::package(&dir, text) {
                    Ok(Some(package)) => project.packages.push(package),
                    Ok(None) => {}
                    Err(why) => project.problems.push(format!("{path}: {why}")),
                },
                name if name.starts_with("tsconfig") || name == "jsconfig.json" => {
                    match js::raw_ts_config(path, text) {
                        Ok(raw) => raw_ts.push(raw),
                        Err(why) => project.problems.push(format!("{path}: {why}")),
                    }
                }
                _ => {}
            }
        }
        project.ts_configs = js::apply_extends(&raw_ts, &mut project.problems);
        project
    }

    /// Whether nothing was read.
    pub fn is_empty(&self) -> bool {
        self.go_modules.is_empty()
            && self.crates.is_empty()
            && self.ts_configs.is_empty()
            && self.packages.is_empty()
    }
}

/// The module path of a `go.mod`.
pub fn go_module(text: &str) -> Option<&str> {
    text.lines().find_map(|line| {
        let rest = line.trim_start().strip_prefix("module")?;
        if !rest.starts_with([' ', '\t']) {
            return None;
        }
        let module = rest.split("//").next()?.trim().trim_matches('"');
        (!module.is_empty() && !module.contains(char::is_whitespace)).then_some(module)
    })
}

#[cfg(test)]
mod tests {
    use super::{go_module, wanted, Project};

    #[test]
    fn wanted_files_follow_the_languages_present() {
        assert_eq!(
            wanted(&["cmd/app/main.go", "README.md"]),
            ["go.mod", "cmd/go.mod", "cmd/app/go.mod"]
        );
        assert_eq!(
            wanted(&["crates/core/src/lib.rs"]),
            ["Cargo.toml", "crates/Cargo.toml", "crates/core/Cargo.toml"]
        );
        assert!(wanted(&["docs/a.md", "src/A.java"]).is_empty());
        let js = wanted(&["packages/ui/src/a.ts"]);
        assert!(js.contains(&"packages/ui/package.json".to_string()));
        assert!(js.contains(&"tsconfig.base.json".to_string()));
        assert_eq!(js.first().map(String::as_str), Some("jsconfig.json"));
    }

    #[test]
    fn reads_go_mod_and_reports_problems() {
        assert_eq!(
            go_module("// x\nmodule \"example.com/a\" // c\n\ngo 1.22\n"),
            Some("example.com/a")
        );
        assert_eq!(go_module("modules x\n"), None);
        let project = Project::parse(&[
            ("go.mod".into(), "module example.com/a\n".into()),
            ("tools/go.mod".into(), "module example.com/a/tools\n".into()),
            ("bad/go.mod".into(), "go 1.22\n".into()),
            ("web/package.json".into(), "{ not json".into()),
        ]);
        assert_eq!(
            project.go_modules,
            [
                (String::new(), "example.com/a".to_string()),
                ("tools".to_string(), "example.com/a/tools".to_string()),
            ]
        );
        assert_eq!(project.problems.len(), 2, "{:?}", project.problems);
    }
}
