//! Swift imports, resolved to the targets of a Swift package (SwiftPM), and Swift's `testOf`.
//!
//! Why: `dependsOn` and `testOf` for Swift files (issue #46). A Swift `import M` names a module;
//! in a package a module is a target, so a file depends on every changed `.swift` file of the
//! target, as one unit the way a Go import names a package. Files of one target see each other
//! without imports and get no edge; a module that is no target of the package (Foundation,
//! XCTest, a product of a package dependency) is third-party.
//! Read forms, at the start of a line after attributes and an access level: `import M`,
//! `@testable import M`, `@_spi(Name) import M`, `@_exported import M`, `public import M`,
//! `import struct M.Type` (the module is the first name).
//! Targets come from the `Package.swift` files read at the head (`swiftpm`); a changed file
//! belongs to the deepest package above it and to the target whose directory holds it (the
//! longest); a file of no target (an example app beside the package) is in none. Without a
//! manifest the conventions stand in: a file under `Sources/M/` or `Tests/M/` is in target `M`
//! of the package above that folder. An import names a target of the importer's package, else
//! the one target of that name in another package of the pull request (a local package
//! dependency, as modular apps use).
//! testOf: `FooTests.swift` or `FooTest.swift` in a test target covers `Foo.swift` in the target
//! it tests (`MTests` tests `M`, and the targets it depends on), the one at the same path inside
//! its target first; a shared base class (`…TestCase.swift`) tests no file.
//!
//! What not: no Xcode projects (`.xcodeproj` targets are not read), no products' names (an
//! import names a target), no `@_implementationOnly` distinctions, no conditional imports
//! (`#if canImport(M)` imports count like any).

use std::collections::HashMap;

use super::lex::{self, Syntax, Tok};
use super::swiftpm::{self, SwiftPackage};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const SYNTAX: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: true,
    quotes: b"\"",
    multiline_quote: None,
    triple_quotes: true,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: true,
};

const TRIGGERS: &[&str] = &["import"];

/// Words that may stand between the attributes and `import`, or between `import` and the
/// module (`import struct M.T`).
const ACCESS: &[&str] = &["public", "package", "internal", "fileprivate", "private"];
const KINDS: &[&str] = &[
    "typealias",
    "struct",
    "class",
    "enum",
    "protocol",
    "let",
    "var",
    "func",
    "actor",
];

/// Module names imported in the visible lines.
pub fn imports<'a>(hunks: &[Hunk<'a>]) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        let mut i = 0;
        while let Some(token) = tokens.get(i) {
            i += 1;
            if !matches!(token, Tok::Bol(_)) {
                continue;
            }
            let mut j = i;
            // `@testable`, `@_spi(Name)`, `@preconcurrency`, …
            while tokens.get(j) == Some(&Tok::Punct(b'@')) {
                j += 2;
                if tokens.get(j) == Some(&Tok::Punct(b'(')) {
                    while !matches!(tokens.get(j), Some(Tok::Punct(b')')) | None) {
                        j += 1;
                    }
                    j += 1;
                }
            }
            if let Some(Tok::Ident(word)) = tokens.get(j) {
                if ACCESS.contains(word) {
                    j += 1;
                }
            }
            if tokens.get(j) != Some(&Tok::Ident("import")) {
                continue;
            }
            j += 1;
            if let Some(Tok::Ident(word)) = tokens.get(j) {
                if KINDS.contains(word) {
                    j += 1;
                }
            }
            if let Some(Tok::Ident(module)) = tokens.get(j) {
                found.push(*module);
            }
        }
    }
    found
}

/// One target with its changed files.
#[derive(Debug)]
struct Target {
    /// The package's directory (from its manifest, or the folder above `Sources`/`Tests`).
    package: String,
    name: String,
    /// The directory its files were found in.
    root: String,
    test: bool,
    dependencies: Vec<String>,
    files: Vec<usize>,
}

/// The targets of the pull request's Swift packages and the changed files of each.
#[derive(Debug, Default)]
pub struct Targets {
    targets: Vec<Target>,
    /// File position → its target.
    of_file: HashMap<usize, usize>,
    /// `(package, target name)` → target.
    by_name: HashMap<(String, String), usize>,
    /// Directories of the manifests read, deepest first.
    packages: Vec<String>,
}

impl Targets {
    /// `manifests` are the `(directory, text)` of the `Package.swift` files read at the head.
    pub fn new(manifests: &[(String, String)], index: &PathIndex<'_>) -> Targets {
        let mut packages: Vec<SwiftPackage> = manifests
            .iter()
            .filter_map(|(dir, text)| swiftpm::package(dir, text))
            .collect();
        crate::sorting::sort_by(&mut packages, &|a, b| {
            b.dir.len().cmp(&a.dir.len()).then(a.dir.cmp(&b.dir))
        });
        let mut targets = Targets {
            packages: packages.iter().map(|p| p.dir.clone()).collect(),
            ..Targets::default()
        };
        for (position, path) in index.targets() {
            if paths::extension(path) != "swift" || is_manifest(path) {
                continue;
            }
            // A package's manifest is authoritative: a file of no target (an example app
            // beside the package) is in none. Without one, the folder conventions.
            let placed = match packages.iter().find(|p| inside(path, &p.dir)) {
                Some(package) => placed_in(package, path),
                None => conventional(path),
            };
            let Some((package, name, root, test, dependencies)) = placed else {
                continue;
            };
            let key = (package.clone(), name.clone());
            let at = match targets.by_name.get(&key) {
                Some(at) => *at,
                None => {
                    targets.targets.push(Target {
                        package,
                        name,
                        root,
                        test,
                        dependencies,
                        files: Vec::new(),
                    });
                    let at = targets.targets.len() - 1;
                    targets.by_name.insert(key, at);
                    at
                }
            };
            if let Some(target) = targets.targets.get_mut(at) {
                target.files.push(position);
            }
            targets.of_file.insert(position, at);
        }
        targets
    }

    /// The package the file at `path` belongs to: the deepest manifest above it, else its own
    /// target's package.
    fn package_of(&self, path: &str, position: Option<usize>) -> Option<&str> {
        self.packages
            .iter()
            .find(|dir| inside(path, dir))
            .map(String::as_str)
            .or_else(|| {
                let at = self.of_file.get(&position?)?;
                self.targets.get(*at).map(|t| t.package.as_str())
            })
    }

    /// Adds the changed files of the target `module` names, seen from `importer`.
    pub fn resolve(
        &self,
        importer: &str,
        module: &str,
        index: &PathIndex<'_>,
        out: &mut Vec<usize>,
    ) {
        if self.targets.is_empty() {
            return;
        }
        let position = index.find(importer);
        let own = position.and_then(|p| self.of_file.get(&p)).copied();
        // The importer's own package first; else a local package's target of that name (an
        // app's `.package(path: "Modules/Feature")`), when only one package has it.
        let own_package = self
            .package_of(importer, position)
            .and_then(|package| self.by_name.get(&(package.to_string(), module.to_string())))
            .copied();
        let found = own_package.or_else(|| {
            let mut named = self
                .targets
                .iter()
                .enumerate()
                .filter(|(_, t)| t.name == module && !t.test);
            match (named.next(), named.next()) {
                (Some((at, _)), None) => Some(at),
                _ => None,
            }
        });
        if let Some(at) = found.filter(|at| Some(*at) != own) {
            out.extend(self.targets.get(at).into_iter().flat_map(|t| &t.files));
        }
    }

    /// The changed file a Swift test at `path` covers (see the module doc).
    pub fn test_of(&self, path: &str, index: &PathIndex<'_>) -> Option<usize> {
        let stem = paths::stem(path);
        if paths::extension(path) != "swift" || stem.ends_with("TestCase") {
            return None;
        }
        let subject = stem
            .strip_suffix("Tests")
            .or_else(|| stem.strip_suffix("Test"))
            .filter(|name| !name.is_empty())?;
        let test = self.targets.get(*self.of_file.get(&index.find(path)?)?)?;
        if !test.test {
            return None;
        }
        let mut tested: Vec<&str> = test.name.strip_suffix("Tests").into_iter().collect();
        tested.extend(test.dependencies.iter().map(String::as_str));
        let relative = path.get(test.root.len()..).map(paths::parent).unwrap_or("");
        let file = format!("{subject}.swift");
        let mut best: Option<(bool, usize)> = None;
        for name in tested {
            let Some(at) = self.by_name.get(&(test.package.clone(), name.to_string())) else {
                continue;
            };
            let Some(target) = self.targets.get(*at).filter(|t| !t.test) else {
                continue;
            };
            for &position in &target.files {
                let source = index.path(position);
                if paths::file_name(source) != file {
                    continue;
                }
                let mirrored = source.get(target.root.len()..).map(paths::parent) == Some(relative);
                if best.is_none_or(|(was_mirrored, _)| mirrored && !was_mirrored) {
                    best = Some((mirrored, position));
                }
            }
        }
        best.map(|(_, position)| position)
    }
}

/// The target of `package` holding `path`: the one with the longest root when targets nest
/// (`path: "Sources"` beside `Sources/X`).
fn placed_in(package: &SwiftPackage, path: &str) -> Option<Placed> {
    let (root, target) = package
        .targets
        .iter()
        .filter_map(|target| {
            let root = target
                .dirs
                .iter()
                .filter(|dir| inside(path, dir))
                .max_by_key(|dir| dir.len())?;
            Some((root, target))
        })
        .max_by_key(|(root, _)| root.len())?;
    Some((
        package.dir.clone(),
        target.name.clone(),
        root.clone(),
        target.test,
        target.dependencies.clone(),
    ))
}

/// Where a file sits: package directory, target name, target root, test target, dependencies.
type Placed = (String, String, String, bool, Vec<String>);

/// Whether `path` is inside directory `dir` (the root holds everything).
fn inside(path: &str, dir: &str) -> bool {
    dir.is_empty()
        || path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn is_manifest(path: &str) -> bool {
    let name = paths::file_name(path);
    name == "Package.swift" || (name.starts_with("Package@swift") && name.ends_with(".swift"))
}

/// The target a path's folders name by SwiftPM's conventions: `…/Sources/M/…` or
/// `…/Tests/M/…`.
fn conventional(path: &str) -> Option<Placed> {
    let parts: Vec<&str> = path.split('/').collect();
    let dirs = parts.get(..parts.len().saturating_sub(1))?;
    let at = dirs
        .iter()
        .rposition(|part| matches!(*part, "Sources" | "Tests"))?;
    let name = dirs.get(at + 1)?;
    let package = dirs.get(..at)?.join("/");
    let root = dirs.get(..at + 2)?.join("/");
    let test = dirs.get(at) == Some(&"Tests");
    Some((package, name.to_string(), root, test, Vec::new()))
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::{check_deps as check, check_deps_in};

    #[test]
    fn import_forms_by_convention() {
        check(
            &[
                (
                    "Sources/App/App.swift",
                    "+import Foundation\n+@testable import Core\n+@_spi(Internal) import Net\n\
                     +public import struct Model.User\n+import SwiftUI\n+import App",
                ),
                ("Sources/App/Other.swift", ""),
                ("Sources/Core/Core.swift", ""),
                ("Sources/Core/Sub/Deep.swift", ""),
                ("Sources/Net/Client.swift", ""),
                ("Sources/Model/User.swift", ""),
                ("Sources/SwiftUI/Shim.md", ""),
            ],
            "Sources/App/App.swift -> Sources/Core/Core.swift, Sources/Core/Sub/Deep.swift, \
             Sources/Net/Client.swift, Sources/Model/User.swift",
        );
    }

    #[test]
    fn manifest_paths_and_third_party() {
        check_deps_in(
            &[
                (
                    "Extras/Retry.swift",
                    "+@_exported import Alamofire\n+import Logging",
                ),
                ("Source/Core/Session.swift", ""),
                ("Sources/Logging/Log.swift", ""),
                ("Example/App/View.swift", "+import Alamofire"),
                ("Package.swift", "+import PackageDescription"),
            ],
            &[(
                "Package.swift",
                "let package = Package(name: \"A\", targets: [\n\
                 .target(name: \"Alamofire\", path: \"Source\"),\n\
                 .target(name: \"Extras\", dependencies: [\"Alamofire\"], path: \"Extras\")])",
            )],
            "Extras/Retry.swift -> Source/Core/Session.swift\n\
             Example/App/View.swift -> Source/Core/Session.swift",
        );
    }

    #[test]
    fn local_packages_of_a_modular_app() {
        check_deps_in(
            &[
                ("App/Sources/App/Root.swift", "+import Feature
+import Shared"),
                ("Modules/Feature/Sources/Feature/Screen.swift", "+import Shared"),
                ("Modules/Feature/Tests/FeatureTests/ScreenTests.swift", "+@testable import Feature"),
                ("Modules/Shared/Sources/Shared/Theme.swift", ""),
                ("Modules/Other/Sources/Shared/Copy.swift", ""),
            ],
            &[
                ("App/Package.swift", "let p = Package(targets: [.target(name: \"App\")])"),
                (
                    "Modules/Feature/Package.swift",
                    "let p = Package(targets: [.target(name: \"Feature\"), .testTarget(name: \"FeatureTests\", dependencies: [\"Feature\"])])",
                ),
                ("Modules/Shared/Package.swift", "let p = Package(targets: [.target(name: \"Shared\")])"),
            ],
            // Two packages have a `Shared` target (one by convention): neither is named.
            "App/Sources/App/Root.swift -> Modules/Feature/Sources/Feature/Screen.swift\n\
             Modules/Feature/Tests/FeatureTests/ScreenTests.swift -> Modules/Feature/Sources/Feature/Screen.swift",
        );
    }

    #[test]
    fn tests_cover_files_of_the_target_they_test() {
        use super::Targets;
        use crate::review::hints::index::PathIndex;
        let entries = [
            ("Sources/Kit/Models/Forecast.swift", true),
            ("Sources/Kit/Forecast.swift", true),
            ("Sources/Core/Units.swift", true),
            ("Tests/KitTests/Models/ForecastTests.swift", true),
            ("Tests/KitTests/UnitsTest.swift", true),
            ("Tests/KitTests/Support/KitTestCase.swift", true),
            ("Tests/KitTests/GoneTests.swift", true),
            ("Sources/Kit/Gone.swift", false),
        ];
        let index = PathIndex::new(&entries);
        let manifest = "let p = Package(targets: [.target(name: \"Kit\", dependencies: [\"Core\"]), \
            .target(name: \"Core\"), .testTarget(name: \"KitTests\", dependencies: [\"Kit\", \"Core\"])])";
        let targets = Targets::new(&[(String::new(), manifest.to_string())], &index);
        let test_of = |at: usize| targets.test_of(entries[at].0, &index);
        // The one at the same path inside its target first.
        assert_eq!(test_of(3), Some(0));
        // A dependency of the test target is tested too.
        assert_eq!(test_of(4), Some(2));
        // A shared base class, a subject deleted at the head, a source file: nothing.
        assert_eq!(test_of(5), None);
        assert_eq!(test_of(6), None);
        assert_eq!(test_of(0), None);
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "Sources/App/App.swift",
                    "+// import Core\n-import Removed\n+let s = \"import Quoted\"\n+/* import Block */\n\
                     +    let importer = Importer()",
                ),
                ("Sources/Core/Core.swift", ""),
                ("Sources/Removed/R.swift", ""),
                ("Sources/Quoted/Q.swift", ""),
                ("Sources/Block/B.swift", ""),
            ],
            "",
        );
    }
}
