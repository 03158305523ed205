//! Project configuration read at the pull request's head: what each language's build knows that
//! the diff doesn't (Go module paths, Rust crate names, TypeScript path aliases, workspace
//! packages, C include directories, Python workspace members) and what changed files say at the
//! head beyond their diff (the text of Kotlin files whose top-level declarations an import may
//! name, kept as read for `imports::kotlin`).
//!
//! Why: imports that resolve through configuration rather than a relative path were most of the
//! `dependsOn` misses measured on real pull requests (issue #16).
//! [`wanted`] names the files worth reading for a pull request: the build files of every ancestor
//! directory of its changed files, per language, only for languages it has. [`Project::parse`]
//! reads whatever of them exist (any other name is taken as a tsconfig); a file that doesn't parse
//! is skipped and named in [`Project::problems`], never a failure.
//!
//! What not: no reading from GitHub (the service does that), no glob expansion of workspace
//! member lists (a member with changed files has its own build file among the ancestors).

pub mod c;
pub mod cargo;
pub mod composer;
pub mod js;
pub mod msbuild;
pub mod python;
pub mod sbt;

use super::language::{language, Language};
use super::paths;

pub use js::{JsPackage, TsConfig};
pub use msbuild::CsProject;
pub use python::PyProject;

/// Most build files read for one pull request; shallow directories first, so the root's files
/// are always among them.
pub const MAX_WANTED: usize = 200;

/// Build files read per language, in each ancestor directory of a changed file.
fn files_for(language: Language) -> &'static [&'static str] {
    match language {
        Language::Go => &["go.mod"],
        Language::Rust => &["Cargo.toml"],
        Language::C => &["CMakeLists.txt", "Makefile", "meson.build"],
        // Vite and Angular templates keep `paths` in `tsconfig.app.json` beside a `tsconfig.json`
        // that only lists references.
        Language::JavaScript => &[
            "package.json",
            "tsconfig.json",
            "tsconfig.app.json",
            "jsconfig.json",
        ],
        Language::Python => &["pyproject.toml"],
        Language::Php => &["composer.json"],
        Language::Swift => &["Package.swift"],
        Language::Scala => &["build.sbt"],
        _ => &[],
    }
}

/// The build files worth reading for a pull request with these changed paths, shallowest first.
pub fn wanted(changed: &[&str]) -> Vec<String> {
    let mut wanted: Vec<(usize, String)> = Vec::new();
    let mut has_js = false;
    let mut insert = |key: (usize, String)| {
        // Kept sorted and unique as it grows: changed files share their directories.
        if let Err(at) = wanted.binary_search(&key) {
            wanted.insert(at, key);
        }
    };
    for path in changed {
        // A changed project file is read as it is at the head.
        if paths::extension(path) == "csproj" {
            insert((path.matches('/').count(), path.to_string()));
        }
        let Some(lang) = language(path) else { continue };
        has_js |= lang == Language::JavaScript;
        for dir in paths::ancestors(paths::parent(path)) {
            // Rust sources sit under `src/`; its manifest never does.
            if lang == Language::Rust && paths::file_name(dir) == "src" {
                continue;
            }
            // A Python project's `pyproject.toml` and a PHP package's `composer.json` sit above
            // its `src/`.
            if matches!(lang, Language::Python | Language::Php) && below_src(dir) {
                continue;
            }
            // A C# project file is named after its folder by convention (`src/Shop.Core/
            // Shop.Core.csproj`); the file names of a folder can't be listed in the one request.
            if lang == Language::CSharp && !dir.is_empty() {
                let file = format!("{dir}/{}.csproj", paths::file_name(dir));
                insert((file.matches('/').count(), file));
            }
            for name in files_for(lang) {
                let file = if dir.is_empty() {
                    name.to_string()
                } else {
                    format!("{dir}/{name}")
                };
                insert((file.matches('/').count(), file));
            }
        }
    }
    if has_js {
        // The usual target of `extends` in monorepos.
        insert((0, "tsconfig.base.json".to_string()));
    }
    wanted.truncate(MAX_WANTED);
    let mut files = Vec::with_capacity(wanted.len());
    for (_, file) in wanted {
        files.push(file);
    }
    files
}

/// Whether a directory is `src` or inside one.
fn below_src(dir: &str) -> bool {
    dir.split('/').any(|part| part == "src")
}

/// What the build files say, in the terms import resolution needs.
#[derive(Debug, Default, Clone)]
pub struct Project {
    /// `(directory, module path)` of each `go.mod` (`imports::go` orders them).
    pub go_modules: Vec<(String, String)>,
    /// `(crate name as code spells it, directory of its root module)` of each Cargo package.
    pub crates: Vec<(String, String)>,
    /// Every `tsconfig.json`/`jsconfig.json` read, in path order (`TsConfig::options` follows
    /// `extends`).
    pub ts_configs: Vec<TsConfig>,
    /// Every named `package.json`.
    pub packages: Vec<JsPackage>,
    /// C and C++ include directories named by CMake, Make, Meson or a compilation database.
    pub include_dirs: Vec<String>,
    /// `(namespace prefix, directory)` PSR-4 maps of every `composer.json`, longest prefix first.
    pub psr4: Vec<(String, String)>,
    /// Every `pyproject.toml` read: the Python projects and workspace members.
    pub python_projects: Vec<PyProject>,
    /// `(path, text)` of changed Kotlin files read at the head (`imports::kotlin::wanted` says
    /// which).
    pub kotlin_texts: Vec<(String, String)>,
    /// Every `.csproj` read: C# projects, their root namespaces and references.
    pub cs_projects: Vec<CsProject>,
    /// `(path, text)` of changed C# files read at the head, for their namespaces.
    pub csharp_texts: Vec<(String, String)>,
    /// `(directory, text)` of every `Package.swift` read (`imports::swiftpm` reads the
    /// targets, with the Swift lexer).
    pub swift_manifests: Vec<(String, String)>,
    /// Module directories of every `build.sbt` read.
    pub scala_modules: Vec<String>,
    /// `(path, text)` of changed Scala files read at the head, for their packages and
    /// top-level declarations.
    pub scala_texts: Vec<(String, String)>,
    /// Build files that could not be read (for the log).
    pub problems: Vec<String>,
}

impl Project {
    /// Reads `(path, text)` build files; unknown names are ignored.
    pub fn parse(files: &[(String, String)]) -> Project {
        let mut project = Project::default();
        for (path, text) in files {
            let dir = paths::parent(path).to_string();
            let understood = match paths::file_name(path) {
                "go.mod" => go_module(text)
                    .map(|module| project.go_modules.push((dir, module.to_string())))
                    .is_some(),
                "CMakeLists.txt" | "Makefile" | "meson.build" => {
                    match c::include_dirs(path, text) {
                        Some(dirs) => {
                            project.include_dirs.extend(dirs);
                            true
                        }
                        None => false,
                    }
                }
                "composer.json" => match composer::psr4(&dir, text) {
                    Some(maps) => {
                        project.psr4.extend(maps);
                        crate::sorting::sort_by_key(&mut project.psr4, &|(prefix, _)| {
                            std::cmp::Reverse(prefix.len())
                        });
                        true
                    }
                    None => false,
                },
                "pyproject.toml" => match python::pyproject(&dir, text) {
                    Some(found) => {
                        project.python_projects.push(found);
                        true
                    }
                    None => false,
                },
                name if name.ends_with(".kt") => {
                    project.kotlin_texts.push((path.clone(), text.clone()));
                    true
                }
                name if name.ends_with(".cs") => {
                    project.csharp_texts.push((path.clone(), text.clone()));
                    true
                }
                name if name.ends_with(".scala") => {
                    project.scala_texts.push((path.clone(), text.clone()));
                    true
                }
                name if name.ends_with(".csproj") => match msbuild::project(path, text) {
                    Some(found) => {
                        project.cs_projects.push(found);
                        true
                    }
                    None => false,
                },
                "Package.swift" => {
                    project.swift_manifests.push((dir, text.clone()));
                    true
                }
                "build.sbt" => {
                    project.scala_modules.extend(sbt::sbt_modules(&dir, text));
                    true
                }
                "Cargo.toml" => {
                    project.crates.extend(cargo::crate_root(&dir, text));
                    true
                }
                "package.json" => match js::package(&dir, text) {
                    Some(package) => {
                        project.packages.extend(package);
                        true
                    }
                    None => false,
                },
                _ => match js::ts_config(path, text) {
                    Some(config) => {
                        project.ts_configs.push(config);
                        true
                    }
                    None => false,
                },
            };
            if !understood {
                project.problems.push(path.clone());
            }
        }
        project
    }
}

/// The module path of a `go.mod`.
pub fn go_module(text: &str) -> Option<&str> {
    text.lines().find_map(module_in)
}

/// The module path of a `go.mod` line (`module example.com/a // comment`).
fn module_in(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("module")?;
    let path = rest.split("//").next()?.trim().trim_matches('"');
    let spaced = rest.starts_with([' ', '\t']);
    (spaced && !path.is_empty() && !path.contains(char::is_whitespace)).then_some(path)
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
        assert_eq!(
            wanted(&["lib/a.c"]),
            [
                "CMakeLists.txt",
                "Makefile",
                "meson.build",
                "lib/CMakeLists.txt",
                "lib/Makefile",
                "lib/meson.build"
            ]
        );
        let js = wanted(&["packages/ui/src/a.ts"]);
        assert!(js.contains(&"packages/ui/package.json".to_string()));
        assert!(js.contains(&"tsconfig.base.json".to_string()));
        assert_eq!(js.first().map(String::as_str), Some("jsconfig.json"));
        // A Python project's file sits above `src/`, never inside it.
        assert_eq!(
            wanted(&["packages/core/src/acme/core/db.py"]),
            [
                "pyproject.toml",
                "packages/pyproject.toml",
                "packages/core/pyproject.toml"
            ]
        );
        assert_eq!(
            wanted(&["packages/http/src/Http/Client.php"]),
            [
                "composer.json",
                "packages/composer.json",
                "packages/http/composer.json"
            ]
        );
    }

    #[test]
    fn wanted_for_csharp_swift_and_scala() {
        // Project files named after their folder, and a changed one as it is.
        assert_eq!(
            wanted(&[
                "src/Shop.Core/Orders/Order.cs",
                "src/Shop.Api/Shop.Api.csproj"
            ]),
            [
                "src/src.csproj",
                "src/Shop.Api/Shop.Api.csproj",
                "src/Shop.Core/Shop.Core.csproj",
                "src/Shop.Core/Orders/Orders.csproj"
            ]
        );
        assert_eq!(
            wanted(&["Sources/Kit/A.swift"]),
            [
                "Package.swift",
                "Sources/Package.swift",
                "Sources/Kit/Package.swift"
            ]
        );
        assert_eq!(
            wanted(&["core/src/A.scala"]),
            ["build.sbt", "core/build.sbt", "core/src/build.sbt"]
        );
        let project = Project::parse(&[
            (
                "src/Shop.Api/Shop.Api.csproj".into(),
                "<Project Sdk=\"Microsoft.NET.Sdk\" />".into(),
            ),
            ("src/Bad/Bad.csproj".into(), "not a project".into()),
            ("Package.swift".into(), "let package = Package()".into()),
            ("build.sbt".into(), "lazy val core = project".into()),
            ("src/A.cs".into(), "namespace A;".into()),
        ]);
        assert_eq!(project.cs_projects.len(), 1);
        assert_eq!(project.swift_manifests.len(), 1);
        assert_eq!(project.scala_modules, ["core"]);
        assert_eq!(project.csharp_texts.len(), 1);
        assert_eq!(project.problems, ["src/Bad/Bad.csproj"]);
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
