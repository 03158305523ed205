//! The `likelyGenerated` hint: lockfiles, minified, vendored or machine-written files.
//!
//! Why: reviewers skim such files, so a reading order puts them last and folds them.
//! The rules follow GitHub linguist's `generated.rb` and `vendor.yml` (from memory of their
//! contents, rewritten as name, suffix and directory tables), plus the banner that code
//! generators write at the top of their output, read from visible lines near the top of the file,
//! plus the repository's `.gitattributes`, which overrides both (see `gitattributes.rs`).
//! Like linguist, "generated" and "vendored" are separate: an attribute that un-marks one leaves
//! the other's rules in charge.
//!
//! What not: rules that would fold hand-written code too often are left out (linguist's
//! `(^|/)cache/`, `extern(al)?/`, `configure`; `build/` directories, which often hold scripts);
//! banners are only seen when a hunk shows the top of the file; binary files are the tools
//! layer's concern.

use super::gitattributes::Gitattributes;
use super::paths;
use crate::review::patch::Hunk;

/// Whether a file is likely generated or vendored.
pub fn likely_generated(
    path: &str,
    hunks: Option<&[Hunk<'_>]>,
    attributes: &Gitattributes,
) -> bool {
    let marks = attributes.marks(path);
    let generated = marks.generated.unwrap_or_else(|| {
        generated_by_path(path) || hunks.is_some_and(|hunks| generated_by_content(path, hunks))
    });
    let vendored = marks.vendored.unwrap_or_else(|| vendored_by_path(path));
    generated || vendored
}

/// Lines from the top of a file where banners are looked for.
const BANNER_LINES: u32 = 50;

/// Exact file names of lockfiles and other tool output (linguist `generated.rb`).
const GENERATED_NAMES: &[&str] = &[
    "Cargo.lock",
    "Cargo.toml.orig",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "pnpm-lock.yaml",
    "yarn.lock",
    "bun.lockb",
    "bun.lock",
    "deno.lock",
    "poetry.lock",
    "pdm.lock",
    "uv.lock",
    "pixi.lock",
    "Pipfile.lock",
    "go.sum",
    "go.work.sum",
    "Gopkg.lock",
    "glide.lock",
    "Gemfile.lock",
    "gems.locked",
    "composer.lock",
    "flake.lock",
    "Podfile.lock",
    "Package.resolved",
    "Cartfile.resolved",
    "packages.lock.json",
    "paket.lock",
    "project.assets.json",
    "mix.lock",
    "pubspec.lock",
    "gradle.lockfile",
    "MODULE.bazel.lock",
    ".terraform.lock.hcl",
    "shard.lock",
    "conan.lock",
    "ppport.h",
    ".pnp.js",
    ".pnp.cjs",
    ".pnp.mjs",
    ".pnp.loader.mjs",
];

/// File name endings of generated code: protobuf and gRPC, Dart and .NET code generators,
/// source maps, Zephir, Xcode.
const GENERATED_SUFFIXES: &[&str] = &[
    ".pb.go",
    ".pb.gw.go",
    ".pb.validate.go",
    "_pb2.py",
    "_pb2.pyi",
    "_pb2_grpc.py",
    ".pb.cc",
    ".pb.h",
    ".pb.c",
    "_pb.js",
    "_pb.d.ts",
    "_pb.ts",
    "_grpc_pb.js",
    "_grpc_pb.d.ts",
    ".pb.swift",
    ".grpc.swift",
    ".pb.dart",
    ".pbenum.dart",
    ".pbjson.dart",
    ".pbgrpc.dart",
    ".pbserver.dart",
    ".g.dart",
    ".freezed.dart",
    ".gr.dart",
    ".mocks.dart",
    ".designer.cs",
    ".Designer.cs",
    ".designer.vb",
    ".Designer.vb",
    ".feature.cs",
    ".g.cs",
    ".g.i.cs",
    ".js.map",
    ".mjs.map",
    ".cjs.map",
    ".css.map",
    ".zep.c",
    ".zep.h",
    ".zep.php",
    ".nib",
    ".xcworkspacedata",
    ".xcuserstate",
];

/// Directories whose files are generated (Relay's `__generated__`, sqlx's offline queries).
const GENERATED_DIRS: &[&str] = &["__generated__", "generated", ".sqlx", "htmlcov"];

/// Directories of vendored or built code (linguist `vendor.yml`).
const VENDOR_DIRS: &[&str] = &[
    "node_modules",
    "bower_components",
    "vendor",
    "vendors",
    "third_party",
    "third-party",
    "thirdparty",
    "ThirdParty",
    "Third_Party",
    "3rdparty",
    "3rd_party",
    "3rd-party",
    "Pods",
    "Carthage",
    "Godeps",
    "dist",
];

/// Directory pairs of vendored tool releases (Yarn Berry, Gradle and Maven wrappers).
const VENDOR_DIR_PAIRS: &[(&str, &str)] = &[
    (".yarn", "releases"),
    (".yarn", "plugins"),
    (".yarn", "sdks"),
    (".yarn", "versions"),
    (".yarn", "unplugged"),
    ("gradle", "wrapper"),
    (".mvn", "wrapper"),
];

const VENDOR_NAMES: &[&str] = &["gradlew", "gradlew.bat", "mvnw", "mvnw.cmd"];

const VENDOR_SUFFIXES: &[&str] = &[".min.js", ".min.mjs", ".min.css", "-min.js", "-min.css"];

/// Whether linguist's generated-file rules match the path alone.
pub fn generated_by_path(path: &str) -> bool {
    let name = paths::file_name(path);
    GENERATED_NAMES.contains(&name)
        || GENERATED_SUFFIXES
            .iter()
            .any(|suffix| name.ends_with(suffix))
        || name.contains(".generated.")
        || name.starts_with("zz_generated")
        || dirs(path).any(|dir| {
            GENERATED_DIRS.contains(&dir) || (dir == "__snapshots__" && name.ends_with(".snap"))
        })
}

/// Whether linguist's vendored-file rules match the path.
pub fn vendored_by_path(path: &str) -> bool {
    let name = paths::file_name(path);
    if VENDOR_NAMES.contains(&name) || VENDOR_SUFFIXES.iter().any(|suffix| name.ends_with(suffix)) {
        return true;
    }
    let mut outer = "";
    dirs(path).any(|dir| {
        let pair = VENDOR_DIR_PAIRS.contains(&(outer, dir));
        outer = dir;
        pair || VENDOR_DIRS.contains(&dir)
    })
}

/// The directories a path lies in, outermost first (one empty name for a file at the root).
/// Why one walk: each rule searching the path for its own directory name was most of these
/// checks' time on a 3,000-file pull request (a twentieth of its first read, #19).
fn dirs(path: &str) -> std::str::Split<'_, char> {
    paths::parent(path).split('/')
}

/// Whether a visible line near the top carries a generator's banner, or the visible lines of a
/// JavaScript or CSS file look minified.
pub fn generated_by_content(path: &str, hunks: &[Hunk<'_>]) -> bool {
    let banner = hunks.iter().any(|hunk| {
        hunk.visible_lines()
            .take_while(|(number, _)| *number <= BANNER_LINES)
            .any(|(_, line)| is_banner(line.text))
    });
    banner || (is_minifiable(path) && looks_minified(hunks))
}

/// Phrases of generator banners, matched case-insensitively in comment lines.
const BANNER_PHRASES: &[&str] = &[
    "@generated",
    "<auto-generated",
    "generated by the protocol buffer compiler",
    "autogenerated by thrift",
    "generated by cython",
    "generated by the grpc",
    "autogenerated by",
    "auto-generated by",
    "automatically generated by",
    "file is generated",
    "file was generated",
    "file is automatically generated",
    "file was automatically generated",
    "file is auto-generated",
    "file was auto-generated",
    "file is autogenerated",
    "file was autogenerated",
    "do not edit this file - it is machine generated",
];

/// The word every banner phrase holds.
const GENERATED: &[u8] = b"generated";

/// Openers of comment lines in the languages generators write.
const COMMENT_OPENERS: &[&str] = &[
    "//", "#", "/*", "*", "--", "<!--", ";", "%", "(*", "{-", "'", "\"\"\"", "::",
];

fn is_banner(text: &str) -> bool {
    let trimmed = text.trim_start();
    if !COMMENT_OPENERS
        .iter()
        .any(|opener| trimmed.starts_with(opener))
        // Batch files' `REM`, in any case.
        && !trimmed.get(..4).is_some_and(|head| head.eq_ignore_ascii_case("rem "))
    {
        return false;
    }
    // Every phrase says "generated": most comment lines are ruled out by one scan, without
    // lower-casing a copy (a large pull request's first read spent 8% of its CPU here, #19).
    if !trimmed
        .as_bytes()
        .windows(GENERATED.len())
        .any(|window| window.eq_ignore_ascii_case(GENERATED))
    {
        return false;
    }
    let lower = trimmed.to_ascii_lowercase();
    BANNER_PHRASES.iter().any(|phrase| lower.contains(phrase))
        || (lower.contains("generated")
            && (lower.contains("do not edit") || lower.contains("do not modify")))
}

fn is_minifiable(path: &str) -> bool {
    matches!(paths::extension(path), "js" | "mjs" | "cjs" | "css")
}

/// linguist's `minified_files?`: an average line longer than 110 characters.
fn looks_minified(hunks: &[Hunk<'_>]) -> bool {
    let (mut lines, mut chars) = (0usize, 0usize);
    for hunk in hunks {
        for (_, line) in hunk.visible_lines() {
            lines += 1;
            chars += line.text.len();
        }
    }
    lines > 0 && chars / lines > 110
}

#[cfg(test)]
mod tests {
    use super::{is_banner, likely_generated, BANNER_PHRASES};
    use crate::review::hints::gitattributes::Gitattributes;
    use crate::review::patch::parse_patch;

    /// `patch` may be empty for "no patch"; `attributes` is the `.gitattributes` text.
    fn check(path: &str, patch: &str, attributes: &str, expected: bool) {
        let hunks = parse_patch(patch).unwrap_or_else(|error| panic!("{error}: {patch}"));
        let hunks = (!patch.is_empty()).then_some(hunks.as_slice());
        let attributes = Gitattributes::parse(attributes);
        assert_eq!(
            likely_generated(path, hunks, &attributes),
            expected,
            "{path}"
        );
    }

    #[test]
    fn lockfiles_and_generated_names() {
        for path in [
            "Cargo.lock",
            "web/package-lock.json",
            "pnpm-lock.yaml",
            "yarn.lock",
            "bun.lockb",
            "poetry.lock",
            "uv.lock",
            "Pipfile.lock",
            "go.sum",
            "Gemfile.lock",
            "composer.lock",
            "flake.lock",
            "ios/Podfile.lock",
            "src/App/packages.lock.json",
            "staging/src/k8s.io/api/core/v1/generated.pb.go",
            "pkg/apis/apps/v1/zz_generated.defaults.go",
            "google/protobuf/descriptor_pb2.py",
            "src/google/protobuf/descriptor.pb.cc",
            "src/google/protobuf/descriptor.pb.h",
            "static/js/app.min.js",
            "static/css/site.min.css",
            "dist/app.js.map",
            "Forms/MainForm.Designer.cs",
            "lib/models/user.g.dart",
            "lib/models/user.freezed.dart",
            "src/components/__snapshots__/Button.test.tsx.snap",
            "src/__generated__/AppQuery.graphql.ts",
            "api/generated/client.ts",
            "src/graphql.generated.ts",
        ] {
            check(path, "", "", true);
        }
    }

    #[test]
    fn vendored_directories() {
        for path in [
            "vendor/github.com/spf13/cobra/command.go",
            "web/node_modules/react/index.js",
            "third_party/abseil-cpp/absl/base/config.h",
            "packages/react/dist/react.development.js",
            ".yarn/releases/yarn-4.1.0.cjs",
            "gradle/wrapper/gradle-wrapper.properties",
            "android/gradle/wrapper/gradle-wrapper.jar",
            "gradlew",
            "ios/Pods/Alamofire/Source/Session.swift",
        ] {
            check(path, "", "", true);
        }
    }

    #[test]
    fn hand_written_files_are_not_generated() {
        for path in [
            "src/review/hints/generated.rs",
            "src/cache/lru.rs",
            "build/ci.sh",
            "pkg/generator/main.go",
            "src/vendors.ts",
            "docs/lockfile.md",
            "src/__snapshots__.ts",
            "tests/snap/x.snap",
            "Cargo.toml",
            "package.json",
            "my.yarn/releases/x",
        ] {
            check(path, "", "", false);
        }
    }

    #[test]
    fn banners_in_visible_lines_near_the_top() {
        check(
            "pkg/client/clientset.go",
            "@@ -0,0 +1,3 @@\n+// Code generated by client-gen. DO NOT EDIT.\n+\n+package versioned",
            "",
            true,
        );
        check(
            "src/schema.ts",
            "@@ -0,0 +1,2 @@\n+/* @generated by codegen */\n+export type A = 1;",
            "",
            true,
        );
        check(
            "Service/Reference.cs",
            "@@ -0,0 +1,2 @@\n+// <auto-generated>\n+namespace A {}",
            "",
            true,
        );
        check(
            "proto/x_pb.rb",
            "@@ -0,0 +1,2 @@\n+# Generated by the protocol buffer compiler.  DO NOT EDIT!\n+require 'google/protobuf'",
            "",
            true,
        );
        check(
            "requirements.txt",
            "@@ -0,0 +1,2 @@\n+# This file is autogenerated by pip-compile with Python 3.12\n+django==5.0",
            "",
            true,
        );
        check(
            "db/query.sql.go",
            "@@ -1,3 +1,3 @@\n // Code generated by sqlc. DO NOT EDIT.\n-// versions: 1\n+// versions: 2\n package db",
            "",
            true,
        );
    }

    #[test]
    fn banners_that_do_not_count() {
        // Removed lines are not the file any more.
        check(
            "pkg/x.go",
            "@@ -1,2 +1 @@\n-// Code generated by a tool. DO NOT EDIT.\n package x",
            "",
            false,
        );
        // Far from the top.
        check(
            "pkg/x.go",
            "@@ -200,2 +200,2 @@\n // Code generated by a tool. DO NOT EDIT.\n-a\n+b",
            "",
            false,
        );
        // Not in a comment: a linter's source that looks for the banner.
        check(
            "tools/lint.go",
            "@@ -0,0 +1 @@\n+const marker = \"Code generated by x. DO NOT EDIT.\"",
            "",
            false,
        );
        check(
            "src/ids.ts",
            "@@ -0,0 +1 @@\n+// Tests that generated ids are stable.",
            "",
            false,
        );
    }

    #[test]
    fn every_banner_phrase_says_generated() {
        // `is_banner` rules a line out when it lacks the word.
        for phrase in BANNER_PHRASES {
            assert!(phrase.contains("generated"), "{phrase}");
        }
        assert!(is_banner("// Code GENERATED by a tool. DO NOT EDIT."));
    }

    /// The path rules as they were before one walk over the directories replaced a search per
    /// directory name (#19): the reference the walk must agree with.
    mod reference {
        use super::super::{
            paths, GENERATED_DIRS, GENERATED_NAMES, GENERATED_SUFFIXES, VENDOR_DIRS,
            VENDOR_DIR_PAIRS, VENDOR_NAMES, VENDOR_SUFFIXES,
        };

        pub fn generated_by_path(path: &str) -> bool {
            let name = paths::file_name(path);
            GENERATED_NAMES.contains(&name)
                || GENERATED_SUFFIXES
                    .iter()
                    .any(|suffix| name.ends_with(suffix))
                || name.contains(".generated.")
                || name.starts_with("zz_generated")
                || (name.ends_with(".snap") && has_dir(path, "__snapshots__"))
                || GENERATED_DIRS.iter().any(|dir| has_dir(path, dir))
        }

        pub fn vendored_by_path(path: &str) -> bool {
            let name = paths::file_name(path);
            VENDOR_NAMES.contains(&name)
                || VENDOR_SUFFIXES.iter().any(|suffix| name.ends_with(suffix))
                || VENDOR_DIRS.iter().any(|dir| has_dir(path, dir))
                || VENDOR_DIR_PAIRS.iter().any(|(outer, inner)| {
                    let pair = format!("{outer}/{inner}");
                    path.strip_prefix(&pair)
                        .is_some_and(|rest| rest.starts_with('/'))
                        || path
                            .match_indices(&pair)
                            .any(|(at, _)| at > 0 && is_component_at(path, at, pair.len()))
                })
        }

        fn has_dir(path: &str, dir: &str) -> bool {
            let dirs = paths::parent(path);
            !dirs.is_empty() && dirs.split('/').any(|component| component == dir)
        }

        fn is_component_at(path: &str, at: usize, len: usize) -> bool {
            let before = at.checked_sub(1).and_then(|i| path.as_bytes().get(i));
            let after = path.as_bytes().get(at + len);
            before == Some(&b'/') && after == Some(&b'/')
        }
    }

    #[test]
    fn path_rules_agree_with_the_reference() {
        use super::{generated_by_path, vendored_by_path};
        use super::{GENERATED_DIRS, VENDOR_DIRS, VENDOR_DIR_PAIRS};
        let mut parts: Vec<&str> = vec![
            "",
            "x",
            "src",
            "é",
            "🦀",
            "a.snap",
            "__snapshots__",
            "x.yarn",
            "yarn",
            "wrapper",
            "vendorx",
            "Cargo.lock",
            "a.min.js",
            "a.pb.go",
            "a.generated.ts",
            "zz_generated.x",
            "gradlew",
            "b.c",
            " ",
            "\r",
        ];
        parts.extend(GENERATED_DIRS);
        parts.extend(VENDOR_DIRS);
        for (outer, inner) in VENDOR_DIR_PAIRS {
            parts.extend([*outer, *inner]);
        }
        crate::sorting::sort(&mut parts);
        parts.dedup();
        let check = |path: &str| {
            assert_eq!(
                generated_by_path(path),
                reference::generated_by_path(path),
                "generated: {path:?}"
            );
            assert_eq!(
                vendored_by_path(path),
                reference::vendored_by_path(path),
                "vendored: {path:?}"
            );
        };
        let mut paths = vec![String::new()];
        for depth in 1..=3 {
            let longer: Vec<String> = paths
                .iter()
                .flat_map(|path| {
                    parts.iter().map(move |part| {
                        if path.is_empty() {
                            part.to_string()
                        } else {
                            format!("{path}/{part}")
                        }
                    })
                })
                .collect();
            for path in &longer {
                check(path);
                check(&format!("{path}/a.snap"));
                if depth < 3 {
                    check(&format!("/{path}"));
                    check(&format!("{path}/"));
                }
            }
            paths = longer;
        }
    }

    #[test]
    fn minified_content() {
        let long = format!("@@ -0,0 +1 @@\n+{}", "var a=1;".repeat(40));
        check("static/bundle.js", &long, "", true);
        check("static/data.json", &long, "", false);
        check("src/app.js", "@@ -0,0 +1 @@\n+const a = 1;", "", false);
    }

    #[test]
    fn gitattributes_override_both_ways() {
        check("api/openapi.ts", "", "api/*.ts linguist-generated", true);
        check("Cargo.lock", "", "Cargo.lock -linguist-generated", false);
        check("go.sum", "", "*.sum linguist-generated=false", false);
        check("gen/x.ts", "", "gen/ gitlab-generated", true);
        // Un-marking generated leaves the vendored rules in charge, as in linguist.
        check("vendor/a/b.go", "", "vendor/** -linguist-generated", true);
        check("vendor/a/b.go", "", "vendor/** -linguist-vendored", false);
        check(
            "pkg/x.go",
            "@@ -0,0 +1 @@\n+// Code generated by a tool. DO NOT EDIT.",
            "*.go -linguist-generated",
            false,
        );
    }
}
