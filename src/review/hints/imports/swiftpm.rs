//! The targets a Swift package's `Package.swift` declares.
//!
//! Why: a Swift `import M` names a module, and in a package a module is a target: its sources
//! are `Sources/M` (also `Source`, `src`, `srcs`; test targets `Tests/M` first) unless the
//! target's `path:` says otherwise (Alamofire's `path: "Source"`), as SwiftPM's
//! `PackageDescription.Target` documents (issue #46).
//! Read with the hints' Swift lexer (comments and strings are skipped): every `.target(…)`,
//! `.executableTarget(…)`, `.testTarget(…)`, `.macro(…)`, `.plugin(…)`, `.systemLibrary(…)`
//! and `.binaryTarget(…)` call, its `name:`, `path:` and the target names in `dependencies:`
//! (plain strings, `.target(name:)`, `.byName(name:)`; products of other packages are not
//! targets here).
//!
//! The manifest's text comes in as read at the head (`Project::swift_manifests`), parsed here
//! where the Swift lexer lives.
//!
//! What not: the manifest is not run (targets built by loops or variables are missed), no
//! `sources:`/`exclude:` lists, no `Package@swift-…` variants.

use super::lex::{self, Syntax, Tok};
use crate::review::hints::paths;

const SYNTAX: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: true,
    quotes: b"\"",
    multiline_quote: None,
    triple_quotes: true,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: false,
};

const KINDS: &[&str] = &[
    "target",
    "executableTarget",
    "testTarget",
    "macro",
    "plugin",
    "systemLibrary",
    "binaryTarget",
];

/// One target of a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwiftTarget {
    pub name: String,
    /// Where its sources may be, repository paths, most likely first.
    pub dirs: Vec<String>,
    pub test: bool,
    /// Targets of the same package it depends on.
    pub dependencies: Vec<String>,
}

/// A package: its directory and targets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwiftPackage {
    pub dir: String,
    pub targets: Vec<SwiftTarget>,
}

/// The package a `Package.swift` in `dir` declares; `None` when it declares no target.
pub fn package(dir: &str, text: &str) -> Option<SwiftPackage> {
    let mut tokens = Vec::new();
    lex::text_tokens(text, &SYNTAX, &mut tokens);
    let code = lex::code(&tokens);
    let mut targets = Vec::new();
    let mut i = 0;
    while let Some(token) = code.get(i) {
        i += 1;
        let (Tok::Punct(b'.'), Some(Tok::Ident(kind)), Some(Tok::Punct(b'('))) =
            (token, code.get(i), code.get(i + 1))
        else {
            continue;
        };
        if !KINDS.contains(kind) {
            continue;
        }
        let (target, end) = call(&code, i + 2, *kind == "testTarget", dir);
        i = end;
        targets.extend(target);
    }
    (!targets.is_empty()).then(|| SwiftPackage {
        dir: dir.to_string(),
        targets,
    })
}

/// Reads a target call's arguments from just after its `(`; returns the target and where the
/// call ends.
fn call(code: &[Tok<'_>], start: usize, test: bool, dir: &str) -> (Option<SwiftTarget>, usize) {
    let mut depth = 1usize;
    let mut name = None;
    let mut path = None;
    let mut dependencies = Vec::new();
    let mut in_dependencies = false;
    let mut i = start;
    while let Some(token) = code.get(i) {
        match token {
            Tok::Punct(b'(' | b'[') => depth += 1,
            Tok::Punct(b')' | b']') => {
                depth -= 1;
                if depth == 1 {
                    in_dependencies = false;
                }
                if depth == 0 {
                    break;
                }
            }
            Tok::Ident(key) if depth == 1 => {
                if let (Some(Tok::Punct(b':')), next) = (code.get(i + 1), code.get(i + 2)) {
                    match (*key, next) {
                        ("name", Some(Tok::Str(value))) => name = Some(*value),
                        ("path", Some(Tok::Str(value))) => path = Some(*value),
                        ("dependencies", Some(Tok::Punct(b'['))) => in_dependencies = true,
                        _ => {}
                    }
                }
            }
            Tok::Str(value) if in_dependencies && depth == 2 => {
                dependencies.push(value.to_string())
            }
            Tok::Ident("target" | "byName") if in_dependencies && depth == 2 => {
                if let (
                    Some(Tok::Punct(b'(')),
                    Some(Tok::Ident("name")),
                    Some(Tok::Punct(b':')),
                    Some(Tok::Str(value)),
                ) = (
                    code.get(i + 1),
                    code.get(i + 2),
                    code.get(i + 3),
                    code.get(i + 4),
                ) {
                    dependencies.push(value.to_string());
                }
            }
            _ => {}
        }
        i += 1;
    }
    let target = name.map(|name| {
        let dirs = match path {
            Some(path) => paths::join(dir, path).into_iter().collect(),
            None => {
                let roots: &[&str] = if test {
                    &["Tests", "Sources", "Source", "src", "srcs"]
                } else {
                    &["Sources", "Source", "src", "srcs"]
                };
                roots
                    .iter()
                    .filter_map(|root| paths::join(dir, &format!("{root}/{name}")))
                    .collect()
            }
        };
        SwiftTarget {
            name: name.to_string(),
            dirs,
            test,
            dependencies,
        }
    });
    (target, i + 1)
}

#[cfg(test)]
mod tests {
    use super::{package, SwiftTarget};

    #[test]
    fn targets_paths_and_dependencies() {
        let text = "// swift-tools-version:5.9\nimport PackageDescription\n\n\
            let package = Package(\n  name: \"Weather\",\n  products: [.library(name: \"WeatherKit\", targets: [\"WeatherKit\"])],\n\
            dependencies: [.package(url: \"https://github.com/apple/swift-log.git\", from: \"1.5.0\")],\n\
            targets: [\n    // .target(name: \"Commented\"),\n\
            .target(name: \"WeatherCore\"),\n\
            .target(name: \"WeatherKit\", dependencies: [\"WeatherCore\", .product(name: \"Logging\", package: \"swift-log\"), .target(name: \"CZlib\")]),\n\
            .executableTarget(name: \"WeatherCLI\", dependencies: [.byName(name: \"WeatherKit\")], path: \"Sources/weather\"),\n\
            .testTarget(name: \"WeatherKitTests\", dependencies: [\"WeatherKit\"]),\n  ]\n)\n";
        let found = package("pkg", text).map(|p| p.targets);
        let target = |name: &str, dirs: &[&str], test, deps: &[&str]| SwiftTarget {
            name: name.to_string(),
            dirs: dirs.iter().map(|d| d.to_string()).collect(),
            test,
            dependencies: deps.iter().map(|d| d.to_string()).collect(),
        };
        assert_eq!(
            found,
            Some(vec![
                target(
                    "WeatherCore",
                    &[
                        "pkg/Sources/WeatherCore",
                        "pkg/Source/WeatherCore",
                        "pkg/src/WeatherCore",
                        "pkg/srcs/WeatherCore"
                    ],
                    false,
                    &[]
                ),
                target(
                    "WeatherKit",
                    &[
                        "pkg/Sources/WeatherKit",
                        "pkg/Source/WeatherKit",
                        "pkg/src/WeatherKit",
                        "pkg/srcs/WeatherKit"
                    ],
                    false,
                    &["WeatherCore", "CZlib"]
                ),
                target(
                    "WeatherCLI",
                    &["pkg/Sources/weather"],
                    false,
                    &["WeatherKit"]
                ),
                target(
                    "WeatherKitTests",
                    &[
                        "pkg/Tests/WeatherKitTests",
                        "pkg/Sources/WeatherKitTests",
                        "pkg/Source/WeatherKitTests",
                        "pkg/src/WeatherKitTests",
                        "pkg/srcs/WeatherKitTests"
                    ],
                    true,
                    &["WeatherKit"]
                ),
            ])
        );
        assert_eq!(package("", "let package = Package(name: \"x\")"), None);
    }
}
