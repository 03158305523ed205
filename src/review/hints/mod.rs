//! Reading hints for the files of a pull request: `dependsOn`, `testOf` and `likelyGenerated`
//! (the `get_pull_request` section of the MCP reference; rules in DESIGN.md §6).
//!
//! Why: an agent arranging a reading order needs to know what each file uses, what it tests and
//! whether it is machine-written, without fetching more than the diff.
//! [`compute_hints`] builds one index of the changed paths, then runs each rule module over every
//! file: `imports` (one reader per language), `tests_of`, `generated` (with `gitattributes` and its
//! `glob` matcher). Work per file is independent of the pull request's size: lookups go through
//! hash maps built once.
//!
//! What to read at the head is decided here too ([`wanted_at_head`]): the build files
//! (`project::wanted`) and the changed files whose text resolves what their diff can't
//! (`imports::texts_wanted`); the service reads them all in one GraphQL request.
//!
//! What not: no JSON shaping (the tools layer omits empty hints), no GitHub requests, no ordering
//! advice.

pub mod generated;
pub mod gitattributes;
pub mod glob;
pub mod imports;
pub mod index;
pub mod language;
pub mod paths;
pub mod project;
pub mod tests_of;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
pub(crate) mod measure;
#[cfg(test)]
pub(crate) mod testing;

use crate::review::files::FileStatus;
use crate::review::patch::{parse_patch, Hunk};

use gitattributes::Gitattributes;
use index::PathIndex;
use project::Project;

/// One changed file, as hints need it.
#[derive(Debug, Clone, Copy)]
pub struct HintInput<'a> {
    pub path: &'a str,
    pub status: FileStatus,
    /// Where a renamed or copied file was; kept for callers and future rules, unused today.
    pub previous_path: Option<&'a str>,
    /// The parsed patch, or `None` when GitHub gave none (binary or too large) or it didn't parse.
    pub hunks: Option<&'a [Hunk<'a>]>,
}

/// The hints of one file, in the order of the input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileHints {
    /// Changed files this file imports, in pull-request order, without itself or repeats.
    pub depends_on: Vec<String>,
    /// The changed file this test covers.
    pub test_of: Option<String>,
    pub likely_generated: bool,
}

/// One changed file as GitHub lists it: path, status as GitHub spells it, patch.
pub type Listed<'a> = (&'a str, &'a str, Option<&'a str>);

/// The files worth reading at the head for a pull request with these changed files: build files
/// first (shallowest first), then changed files' own texts (C# and Scala files for what they
/// declare, Kotlin files an import may point into past its diff). Patches are parsed only for Java and Kotlin files, only when a `.kt` file
/// changed.
pub fn wanted_at_head(files: &[Listed<'_>]) -> Vec<String> {
    let paths: Vec<&str> = files.iter().map(|(path, _, _)| *path).collect();
    let mut wanted = project::wanted(&paths);
    wanted.extend(texts_wanted(files, "cs"));
    wanted.extend(texts_wanted(files, "scala"));
    let kotlin = files.iter().any(|(path, status, _)| {
        paths::extension(path) == "kt" && *status != FileStatus::Removed.as_str()
    });
    if !kotlin {
        return wanted;
    }
    let parsed: Vec<Option<Vec<Hunk<'_>>>> = files
        .iter()
        .map(|(path, _, patch)| match language::language(path) {
            Some(language::Language::JavaKotlin) => patch.and_then(|p| parse_patch(p).ok()),
            _ => None,
        })
        .collect();
    let inputs: Vec<HintInput<'_>> = files
        .iter()
        .zip(&parsed)
        .map(|((path, status, _), hunks)| HintInput {
            path,
            status: FileStatus::from_github(status).unwrap_or(FileStatus::Modified),
            previous_path: None,
            hunks: hunks.as_deref(),
        })
        .collect();
    let entries: Vec<(&str, bool)> = inputs
        .iter()
        .map(|file| (file.path, file.status.exists_at_head()))
        .collect();
    let index = PathIndex::new(&entries);
    wanted.extend(imports::texts_wanted(&inputs, &index));
    wanted
}

/// Most changed files of one language read at the head for what they declare.
pub const MAX_DECLARING_TEXTS: usize = 100;

/// Changed files with this extension (existing at the head) whose text says what they declare,
/// when another file of the language could import them: C# namespaces, Scala packages and
/// top-level names. The first [`MAX_DECLARING_TEXTS`] in pull-request order.
fn texts_wanted(files: &[Listed<'_>], extension: &str) -> Vec<String> {
    let changed: Vec<&str> = files
        .iter()
        .filter(|(path, status, _)| {
            paths::extension(path) == extension && *status != FileStatus::Removed.as_str()
        })
        .map(|(path, _, _)| *path)
        .collect();
    if changed.len() < 2 {
        return Vec::new();
    }
    changed
        .into_iter()
        .take(MAX_DECLARING_TEXTS)
        .map(str::to_string)
        .collect()
}

/// Computes hints for every file; `gitattributes` is the repository's root `.gitattributes`.
pub fn compute_hints(files: &[HintInput<'_>], gitattributes: Option<&str>) -> Vec<FileHints> {
    compute_hints_in(files, gitattributes, &Project::default())
}

/// [`compute_hints`] with what the project's build files say (read at the head).
pub fn compute_hints_in(
    files: &[HintInput<'_>],
    gitattributes: Option<&str>,
    project: &Project,
) -> Vec<FileHints> {
    let entries: Vec<(&str, bool)> = files
        .iter()
        .map(|file| (file.path, file.status.exists_at_head()))
        .collect();
    let index = PathIndex::new(&entries);
    let attributes = gitattributes.map(Gitattributes::parse).unwrap_or_default();
    let sources = tests_of::Sources::new(&index);
    let swift_targets = if files
        .iter()
        .any(|file| paths::extension(file.path) == "swift")
    {
        imports::swift::Targets::new(&project.swift_manifests, &index)
    } else {
        imports::swift::Targets::default()
    };
    let imports = imports::resolved_imports(files, &index, project, &swift_targets);
    files
        .iter()
        .zip(imports)
        .enumerate()
        .map(|(position, (file, mut depends_on))| {
            crate::sorting::sort_by(&mut depends_on, &Ord::cmp);
            depends_on.dedup();
            depends_on.retain(|&other| other != position && index.path(other) != file.path);
            FileHints {
                depends_on: depends_on
                    .into_iter()
                    .map(|other| index.path(other).to_string())
                    .collect(),
                // A deleted test covers nothing any more.
                test_of: swift_targets
                    .test_of(file.path, &index)
                    .or_else(|| sources.test_of(file.path, &index))
                    .filter(|_| file.status.exists_at_head())
                    .map(|source| index.path(source).to_string()),
                likely_generated: generated::likely_generated(file.path, file.hunks, &attributes),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{compute_hints, HintInput};
    use crate::review::change_id::describe_changes;
    use crate::review::files::FileStatus;
    use crate::review::patch::parse_patch;

    /// Fragments that exercise every reader's edge: quotes, comments, separators, keywords.
    const FRAGMENTS: &[&str] = &[
        "import",
        "from",
        "require",
        "export",
        "use",
        "mod",
        "crate",
        "super",
        "self",
        "using",
        "include",
        "#include",
        "@import",
        "@use",
        "package",
        "module",
        "static",
        "as",
        "global",
        "'",
        "\"",
        "`",
        "\"\"\"",
        "'''",
        "/*",
        "*/",
        "//",
        "#",
        "#[",
        "=begin",
        "=end",
        "\\",
        "::",
        ":",
        ".",
        "..",
        "./",
        "../",
        "/",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ";",
        ",",
        "*",
        "@",
        "$",
        "$crate",
        "__DIR__",
        "x",
        "a/b",
        "src",
        "lib",
        "é",
        "🦀",
        "\t",
        " ",
        "  ",
        "\r",
        "${",
        "#{",
        "k8s.io/x",
        "./a",
        "../../..",
        "a.b.C",
        "A\\B\\C",
        "=",
        // Section texts that open import blocks (issue #32), and lines of their shapes.
        "import (",
        "use crate::{",
        "pub use a::{",
        "from . import (",
        "use A\\{",
        "    ",
        "\t",
        "};",
        "},",
        ")",
        "_ \"x/y\"",
        "    a::b,",
        "        C,",
    ];

    /// Whole import lines that resolve against `PATHS`.
    const IMPORT_LINES: &[&str] = &[
        "import x from './a';",
        "import './b';",
        "import y from '../b';",
        "use crate::a;",
        "use super::*;",
        "mod a;",
        "mod tests;",
        "from . import b",
        "import b",
        "#include \"a.h\"",
        "import \"k8s.io/x/p\"",
        "import \"k8s.io/x/pkg/a\"",
        "require_relative 'a'",
        "@import 'a';",
        "using A;",
        "use A\\B;",
        "import a.A;",
    ];

    const PATHS: &[&str] = &[
        "a.ts",
        "b.ts",
        "src/a.tsx",
        "b.py",
        "src/b/__init__.py",
        "src/lib.rs",
        "src/a/mod.rs",
        "tests/a.rs",
        "x.go",
        "go.mod",
        "p/x_test.go",
        "A.java",
        "src/test/java/ATest.kt",
        "a.rb",
        "spec/a_spec.rb",
        "a.c",
        "a.h",
        "A.cs",
        "A.php",
        "a.scss",
        "_a.scss",
        "a.css",
        "a.less",
        "a.vue",
        "yarn.lock",
        "dist/a.min.js",
        "a/tests.rs",
        "README.md",
        "",
    ];

    /// A small deterministic generator (xorshift), so failures reproduce.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % 1_000_003) as usize
        }

        fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
            items.get(self.next() % items.len()).copied().unwrap_or("")
        }
    }

    fn random_patch(rng: &mut Rng) -> String {
        let mut patch = String::new();
        for _ in 0..rng.next() % 4 {
            let lines = rng.next() % 8;
            let mut body = String::new();
            let (mut old, mut new) = (0, 0);
            for _ in 0..lines {
                let marker = ["+", "-", " "][rng.next() % 3];
                match marker {
                    "+" => new += 1,
                    "-" => old += 1,
                    _ => {
                        old += 1;
                        new += 1;
                    }
                }
                body.push_str(marker);
                if rng.next().is_multiple_of(2) {
                    body.push_str(rng.pick(IMPORT_LINES));
                }
                for _ in 0..rng.next() % 5 {
                    body.push_str(rng.pick(FRAGMENTS));
                }
                body.push('\n');
            }
            // Now and then a lying header or a stray line, to reach the error paths.
            if rng.next().is_multiple_of(10) {
                new += 1;
            }
            patch.push_str(&format!(
                "@@ -1,{old} +1,{new} @@ {}\n{body}",
                rng.pick(FRAGMENTS)
            ));
            if rng.next().is_multiple_of(15) {
                patch.push_str(rng.pick(FRAGMENTS));
                patch.push('\n');
            }
        }
        patch
    }

    #[test]
    fn never_panics_on_generated_input() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..600 {
            let count = 2 + rng.next() % 12;
            let paths: Vec<String> = (0..count)
                .map(|_| format!("{}{}", rng.pick(&["", "", "src/", "pkg/"]), rng.pick(PATHS)))
                .collect();
            let patches: Vec<String> = (0..count).map(|_| random_patch(&mut rng)).collect();
            let parsed: Vec<_> = patches
                .iter()
                .map(|patch| parse_patch(patch).ok())
                .collect();
            for hunks in parsed.iter().flatten() {
                let changes = describe_changes(hunks);
                assert_eq!(changes.len(), hunks.len());
            }
            let inputs: Vec<HintInput<'_>> = paths
                .iter()
                .zip(&parsed)
                .map(|(path, hunks)| HintInput {
                    path,
                    status: if rng.next().is_multiple_of(5) {
                        FileStatus::Removed
                    } else {
                        FileStatus::Modified
                    },
                    previous_path: None,
                    hunks: hunks.as_deref(),
                })
                .collect();
            let attributes: String = (0..rng.next() % 4)
                .map(|_| {
                    format!(
                        "{}{} {}linguist-generated\n",
                        rng.pick(FRAGMENTS),
                        rng.pick(&["*", "**", "?", "[a-", "/"]),
                        rng.pick(&["", "-", "!"])
                    )
                })
                .collect();
            let hints = compute_hints(&inputs, Some(&attributes));
            assert_eq!(hints.len(), inputs.len());
            for (input, hint) in inputs.iter().zip(&hints) {
                assert!(!hint.depends_on.iter().any(|dep| dep == input.path));
            }
        }
    }

    #[test]
    fn a_deleted_test_covers_nothing() {
        let input = |path, status| HintInput {
            path,
            status,
            previous_path: None,
            hunks: None,
        };
        let subject = input("src/a.ts", FileStatus::Modified);
        let kept = compute_hints(
            &[subject, input("src/a.test.ts", FileStatus::Modified)],
            None,
        );
        assert_eq!(kept[1].test_of.as_deref(), Some("src/a.ts"));
        let gone = compute_hints(
            &[subject, input("src/a.test.ts", FileStatus::Removed)],
            None,
        );
        assert_eq!(gone[1].test_of, None);
    }
}
