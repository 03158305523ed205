//! The `testOf` hint: the changed file a test covers, from naming conventions.
//!
//! Why: a reading order puts each test right after what it tests; naming conventions say which
//! file that is without reading code.
//! A test's name gives a subject name (`invite-service` for `invite-service.test.ts`, `Foo` for
//! `FooTest.java`, `x` for `test_x.py`) and the source extensions it may cover. Candidates are the
//! changed, non-test files with that name (also `x/mod.rs`, `x/__init__.py` and `x/index.ts` for
//! `x`). Directories are compared after dropping the components conventions add (`src`, `test`,
//! `__tests__`, `spec`, `main/java`, `app`, `lib`, `Foo.Tests` → `Foo`, `test_x` → `x`):
//! identical leftovers make a strong match; leftovers where one is a prefix or suffix of the other
//! make a weak one (`tests/test_views.py` for `src/shop/views.py`); diverging ones no match.
//! Generic names (`index`, `utils`, `mod`, …) need a strong match. Go tests only cover their own
//! directory. The best candidate is strong before weak, then the one sharing most leading
//! directories with the test, then the same extension, then the first in the pull request.
//! Rust's `x/tests.rs` covers its parent module `x.rs` or `x/mod.rs` (`src/tests.rs` the crate root).
//!
//! Mirrored trees come first (issue #39): a file under a `test/`, `tests/` or `spec/` folder covers
//! the changed file at the same path after that folder, under the folder's parent itself or its
//! `src/`, `lib/`, `app/` or `source/` (a `unit/`, `integration/`, `functional/` or `feature/`
//! group folder right after the test folder is skipped): `tests/lib/linter/linter.js` covers
//! `lib/linter/linter.js`, `test/unit/parser.js` covers `src/parser.js`,
//! `tests/Unit/Http/ClientTest.php` covers `src/Http/Client.php`, `tests/acme/test_db.py` covers
//! `src/acme/db.py` or the package `src/acme/db/__init__.py`. The whole path must match, never
//! the name alone. A file not named as a test counts only in a test folder outside any source
//! folder, not for Python (pytest collects only test names), and not for helper folders and names
//! (`fixtures/`, `helpers/`, `utils.js`, …). Go and Rust keep their own rules.
//!
//! What not: no reading of test code (imports are `dependsOn`'s job), no test-runner configuration.

use std::collections::HashMap;

use super::index::PathIndex;
use super::paths;

/// What a test file's name says it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subject<'p> {
    /// The covered file's name without extension.
    pub name: &'p str,
    /// Extensions the covered file may have.
    pub extensions: &'static [&'static str],
    /// Whether the covered file must be in the test's directory (Go).
    pub same_dir: bool,
}

const JS: &[&str] = &["ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts"];
const JS_SOURCES: &[&str] = &[
    "ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts", "vue", "svelte",
];
const JVM: &[&str] = &["java", "kt", "groovy", "scala"];
const C_FAMILY: &[&str] = &["c", "cc", "cpp", "cxx", "m", "mm"];
const C_SOURCES: &[&str] = &["c", "cc", "cpp", "cxx", "h", "hh", "hpp", "hxx", "m", "mm"];

/// Names too common to match across directories.
const GENERIC_NAMES: &[&str] = &[
    "index",
    "mod",
    "main",
    "lib",
    "__init__",
    "init",
    "utils",
    "util",
    "helpers",
    "helper",
    "types",
    "constants",
    "config",
    "common",
    "app",
    "setup",
    "api",
    "base",
    "core",
    "server",
    "client",
    "models",
    "views",
    "routes",
    "module",
    "program",
    "startup",
    "application",
];

/// Directory components test and source layouts add, compared case-insensitively.
const LAYOUT_DIRS: &[&str] = &[
    "src",
    "lib",
    "app",
    "test",
    "tests",
    "__tests__",
    "spec",
    "specs",
    "unit",
    "integration",
    "functional",
    "feature",
    "e2e",
    // Rails' gems keep their tests in `test/cases/`.
    "cases",
    "main",
    "java",
    "kotlin",
    "scala",
    "groovy",
    "testing",
];

/// Suffixes of .NET test project directories (`Foo.Tests` → `Foo`) and test packages.
const DIR_SUFFIXES: &[&str] = &[
    ".UnitTests",
    ".IntegrationTests",
    ".FunctionalTests",
    ".Tests",
    ".Test",
    ".Specs",
    "_tests",
    "_test",
    "-tests",
    "-test",
];

/// What the test at `path` covers by its name, or `None` when its name is not a test's.
pub fn subject(path: &str) -> Option<Subject<'_>> {
    let stem = paths::stem(path);
    let ext = paths::extension(path);
    let (found, (extensions, same_dir)) = if JS.contains(&ext) {
        let base = stem.strip_suffix(".internal").unwrap_or(stem);
        // Shared helpers in `__tests__` (`utils.ts`, `setup.ts`) test nothing; runners that
        // take every file there as a test are configured to skip them.
        let helper = matches!(base, "utils" | "helpers" | "setup" | "fixtures" | "mocks");
        let name = strip_any_suffix(base, &[".test", ".spec", "-test", "_test"])
            .or_else(|| (has_dir(path, "__tests__") && !helper).then_some(base))?;
        (name, (JS_SOURCES, false))
    } else if JVM.contains(&ext) {
        if path.contains("src/main/") {
            return None;
        }
        let name = strip_any_suffix(stem, &["TestCase", "Tests", "Test", "IT", "Spec", "Suite"])
            .or_else(|| strip_test_prefix(stem))?;
        (name, (JVM, false))
    } else if C_FAMILY.contains(&ext) {
        let name = strip_any_suffix(stem, &["_unittest", "_tests", "_test", "Test"])
            .or_else(|| stem.strip_prefix("test_"))?;
        (name, (C_SOURCES, false))
    } else {
        match ext {
            "go" => (stem.strip_suffix("_test")?, (&["go"][..], true)),
            "py" => (
                stem.strip_prefix("test_")
                    .or_else(|| stem.strip_suffix("_test"))?,
                (&["py"][..], false),
            ),
            "rs" => {
                let name = strip_any_suffix(stem, &["_tests", "_test"]).or_else(|| {
                    let in_tests = has_dir(path, "tests");
                    (in_tests && !matches!(stem, "mod" | "main" | "lib")).then_some(stem)
                })?;
                (name, (&["rs"][..], false))
            }
            // RSpec's `x_spec.rb`, minitest's `x_test.rb` and test-unit's `test_x.rb`.
            "rb" => (
                strip_any_suffix(stem, &["_spec", "_test"])
                    .or_else(|| stem.strip_prefix("test_").filter(|rest| *rest != "helper"))?,
                (&["rb"][..], false),
            ),
            "cs" => (
                strip_any_suffix(stem, &["Tests", "Test", "Specs"])?,
                (&["cs"][..], false),
            ),
            "php" => (stem.strip_suffix("Test")?, (&["php"][..], false)),
            "swift" => (
                strip_any_suffix(stem, &["Tests", "Test"])?,
                (&["swift"][..], false),
            ),
            "dart" => (stem.strip_suffix("_test")?, (&["dart"][..], false)),
            "exs" => (stem.strip_suffix("_test")?, (&["ex"][..], false)),
            _ => return None,
        }
    };
    (!found.is_empty()).then_some(Subject {
        name: found,
        extensions,
        same_dir,
    })
}

/// Changed non-test files by the name a test would use for them.
pub struct Sources<'a> {
    by_name: HashMap<&'a str, Vec<Source<'a>>>,
    /// Go sources by directory and name: a Go test covers only its own directory, and a range of
    /// thousands of files has hundreds of `handler.go` (issue #32: no scan of them all per test).
    by_dir_and_name: HashMap<(&'a str, &'a str), Vec<Source<'a>>>,
}

#[derive(Debug, Clone)]
struct Source<'a> {
    position: usize,
    path: &'a str,
    /// The directory conventions place it in (`src` for `src/x/mod.rs` named `x`).
    dir: &'a str,
    /// [`layout`] of `dir`, computed once.
    layout: Vec<&'a str>,
}

impl<'a> Sources<'a> {
    /// Indexes every target of the pull request that is not itself a test.
    pub fn new(index: &PathIndex<'a>) -> Sources<'a> {
        let mut by_name: HashMap<&'a str, Vec<Source<'a>>> = HashMap::new();
        let mut by_dir_and_name: HashMap<(&'a str, &'a str), Vec<Source<'a>>> = HashMap::new();
        for (position, path) in index.targets() {
            if subject(path).is_some() || is_rust_module_tests(path) {
                continue;
            }
            let dir = paths::parent(path);
            let stem = paths::stem(path);
            let source = Source {
                position,
                path,
                dir,
                layout: layout(dir),
            };
            if paths::extension(path) == "go" {
                by_dir_and_name.entry((dir, stem)).or_default().push(source);
                continue;
            }
            by_name.entry(stem).or_default().push(source);
            let ext = paths::extension(path);
            let package_file = matches!((stem, ext), ("mod", "rs") | ("__init__", "py"))
                || (stem == "index" && JS_SOURCES.contains(&ext));
            if package_file && !dir.is_empty() {
                by_name
                    .entry(paths::file_name(dir))
                    .or_default()
                    .push(Source {
                        position,
                        path,
                        dir: paths::parent(dir),
                        layout: layout(paths::parent(dir)),
                    });
            }
        }
        Sources {
            by_name,
            by_dir_and_name,
        }
    }

    /// The changed file the test at `path` covers.
    pub fn test_of(&self, path: &str, index: &PathIndex<'_>) -> Option<usize> {
        if is_rust_module_tests(path) {
            return rust_parent_module(path, index);
        }
        if let Some(found) = mirrored(path, index) {
            return Some(found);
        }
        let subject = subject(path)?;
        let test_dir = paths::parent(path);
        let test_layout = layout(test_dir);
        let generic = GENERIC_NAMES
            .iter()
            .any(|name| name.eq_ignore_ascii_case(subject.name));
        let test_ext = paths::extension(path);
        let candidates = if subject.same_dir {
            self.by_dir_and_name.get(&(test_dir, subject.name))?
        } else {
            self.by_name.get(subject.name)?
        };
        // pytest's `tests/test_utils.py` covers the one `utils.py` of the pull request, wherever
        // its package sits (`src/click/utils.py`, `pkg/io/readers/utils.py`).
        let unique_python = test_ext == "py"
            && candidates
                .iter()
                .filter(|source| paths::extension(source.path) == "py")
                .count()
                == 1;
        candidates
            .iter()
            .filter(|source| source.path != path)
            .filter(|source| subject.extensions.contains(&paths::extension(source.path)))
            .filter(|source| !subject.same_dir || source.dir == test_dir)
            .filter_map(|source| {
                let strong = match relation(&test_layout, &source.layout) {
                    Some(strong) => strong,
                    None if unique_python => false,
                    None => return None,
                };
                if generic && !strong && !unique_python {
                    return None;
                }
                let score = (
                    strong,
                    paths::shared_dirs(path, source.path),
                    paths::extension(source.path) == test_ext,
                    std::cmp::Reverse(source.position),
                );
                Some((score, source.position))
            })
            .max()
            .map(|(_, position)| position)
    }
}

/// Folders a mirrored test tree starts at.
const TEST_TREES: &[&str] = &["test", "tests", "spec"];
/// Folders a mirrored test's subject may sit under, beside the test folder.
const SOURCE_TREES: &[&str] = &["", "src", "lib", "app", "source"];
/// Folders grouping tests by kind right after the test folder, compared case-insensitively.
const TEST_GROUPS: &[&str] = &["unit", "integration", "functional", "feature"];
/// Folders of a test tree that hold no tests.
const HELPER_DIRS: &[&str] = &[
    "fixtures",
    "__fixtures__",
    "__mocks__",
    "mocks",
    "helpers",
    "support",
    "data",
    "snapshots",
    "__snapshots__",
    "utils",
    "shared",
    "common",
];
/// Names of helper files in a test tree, when not named as tests.
const HELPER_NAMES: &[&str] = &[
    "utils", "util", "helpers", "helper", "setup", "fixtures", "mocks", "conftest", "__init__",
    "index", "mod", "main",
];

/// The changed file at the mirrored path of a test in its own tree (see the module doc).
fn mirrored(path: &str, index: &PathIndex<'_>) -> Option<usize> {
    let ext = paths::extension(path);
    if matches!(ext, "go" | "rs") || super::language::language(path).is_none() {
        return None;
    }
    let parts: Vec<&str> = path.split('/').collect();
    let (name, dirs) = parts.split_last()?;
    let at = dirs.iter().position(|part| TEST_TREES.contains(part))?;
    let prefix = dirs.get(..at)?;
    let mut rest = dirs.get(at + 1..)?;
    if let Some((first, after)) = rest.split_first() {
        if TEST_GROUPS
            .iter()
            .any(|group| group.eq_ignore_ascii_case(first))
        {
            rest = after;
        }
    }
    if rest
        .first()
        .is_some_and(|first| HELPER_DIRS.contains(first))
    {
        return None;
    }
    let named = subject(path);
    // A file not named as a test, outside source folders, in a language whose runners take any
    // file of a test folder.
    let as_is = named.is_none()
        && ext != "py"
        && !prefix.iter().any(|part| SOURCE_TREES.contains(part))
        && !HELPER_NAMES.contains(&paths::stem(name))
        // Tool configuration (`.eslintrc.js`, `jest.config.js`) is not a test.
        && !name.starts_with('.')
        && !name.contains(".config.");
    let mut names: Vec<String> = Vec::new();
    if as_is {
        names.push(name.to_string());
    }
    if let Some(subject) = named {
        for extension in subject.extensions {
            names.push(format!("{}.{extension}", subject.name));
        }
        if ext == "py" {
            names.push(format!("{}/__init__.py", subject.name));
        }
    }
    let mut candidate = String::new();
    for tree in SOURCE_TREES {
        for name in &names {
            candidate.clear();
            for part in prefix.iter().chain(Some(tree)).chain(rest) {
                if !part.is_empty() {
                    candidate.push_str(part);
                    candidate.push('/');
                }
            }
            candidate.push_str(name);
            if candidate == path {
                continue;
            }
            if let Some(found) = index.find(&candidate) {
                if subject(index.path(found)).is_none() {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// `Some(true)` for identical layouts, `Some(false)` when one is a prefix or suffix of the other.
fn relation(test: &[&str], source: &[&str]) -> Option<bool> {
    if test == source {
        return Some(true);
    }
    let related = test.starts_with(source)
        || source.starts_with(test)
        || test.ends_with(source)
        || source.ends_with(test);
    related.then_some(false)
}

/// A directory's components without the ones test and source layouts add.
fn layout(dir: &str) -> Vec<&str> {
    dir.split('/')
        .filter(|part| !part.is_empty())
        .filter(|part| !LAYOUT_DIRS.iter().any(|d| d.eq_ignore_ascii_case(part)))
        // Version-specific source roots (`scala-2.13`, `scala-3`, `java-11`).
        .filter(|part| !(part.starts_with("scala-") || part.starts_with("java-")))
        .map(|part| {
            let part = strip_any_suffix(part, DIR_SUFFIXES).unwrap_or(part);
            part.strip_prefix("test_").unwrap_or(part)
        })
        .filter(|part| !part.is_empty())
        .collect()
}

fn strip_any_suffix<'p>(text: &'p str, suffixes: &[&str]) -> Option<&'p str> {
    suffixes.iter().find_map(|suffix| text.strip_suffix(suffix))
}

/// JUnit 3 style `TestFoo` → `Foo`.
fn strip_test_prefix(stem: &str) -> Option<&str> {
    let rest = stem.strip_prefix("Test")?;
    rest.chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase())
        .then_some(rest)
}

fn has_dir(path: &str, dir: &str) -> bool {
    paths::parent(path).split('/').any(|part| part == dir)
}

/// Rust's `x/tests.rs` unit-test module.
fn is_rust_module_tests(path: &str) -> bool {
    paths::file_name(path) == "tests.rs" && !paths::parent(path).is_empty()
}

fn rust_parent_module(path: &str, index: &PathIndex<'_>) -> Option<usize> {
    let dir = paths::parent(path);
    let name = paths::file_name(dir);
    let candidates = if name == "src" {
        [format!("{dir}/lib.rs"), format!("{dir}/main.rs")]
    } else {
        [format!("{dir}.rs"), format!("{dir}/mod.rs")]
    };
    candidates
        .iter()
        .find_map(|candidate| index.find(candidate))
}

#[cfg(test)]
mod tests {
    use super::{PathIndex, Sources};

    /// Every path is a changed file; `expected` lists `test -> source` lines.
    fn check(files: &[&str], expected: &str) {
        let entries: Vec<(&str, bool)> = files.iter().map(|path| (*path, true)).collect();
        let index = PathIndex::new(&entries);
        let sources = Sources::new(&index);
        let got: Vec<String> = files
            .iter()
            .filter_map(|path| {
                let source = sources.test_of(path, &index)?;
                Some(format!("{path} -> {}", index.path(source)))
            })
            .collect();
        let expected: Vec<&str> = expected
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn jest_and_vitest() {
        check(
            &[
                "services/invite-service.ts",
                "services/invite-service.test.ts",
                "src/app/foo.service.ts",
                "src/app/foo.service.spec.ts",
                "packages/react-dom/src/client/ReactDOMComponent.js",
                "packages/react-dom/src/__tests__/ReactDOMComponent-test.js",
                "packages/react-reconciler/src/ReactFiberHooks.js",
                "packages/react-reconciler/src/__tests__/ReactFiberHooks-test.internal.js",
                "src/components/Button/index.tsx",
                "src/components/Button/Button.test.tsx",
                "src/components/__tests__/Modal.tsx",
                "src/components/Modal.tsx",
                "src/components/__tests__/utils.ts",
                "src/components/utils.ts",
            ],
            "services/invite-service.test.ts -> services/invite-service.ts
             src/app/foo.service.spec.ts -> src/app/foo.service.ts
             packages/react-dom/src/__tests__/ReactDOMComponent-test.js -> packages/react-dom/src/client/ReactDOMComponent.js
             packages/react-reconciler/src/__tests__/ReactFiberHooks-test.internal.js -> packages/react-reconciler/src/ReactFiberHooks.js
             src/components/Button/Button.test.tsx -> src/components/Button/index.tsx
             src/components/__tests__/Modal.tsx -> src/components/Modal.tsx",
        );
    }

    #[test]
    fn go_tests_stay_in_their_directory() {
        check(
            &[
                "pkg/kubelet/kubelet.go",
                "pkg/kubelet/kubelet_test.go",
                "pkg/proxy/iptables/proxier_test.go",
                "pkg/proxy/ipvs/proxier.go",
            ],
            "pkg/kubelet/kubelet_test.go -> pkg/kubelet/kubelet.go",
        );
    }

    #[test]
    fn pytest_layouts() {
        check(
            &[
                "src/shop/checkout.py",
                "tests/test_checkout.py",
                "django/utils/text.py",
                "tests/utils_tests/test_text.py",
                "Lib/asyncio/tasks.py",
                "Lib/test/test_asyncio/test_tasks.py",
                "Lib/os.py",
                "Lib/test/test_os.py",
                "pkg/parser_test.py",
                "pkg/parser.py",
                "src/click/utils.py",
                "tests/test_utils.py",
            ],
            "tests/test_checkout.py -> src/shop/checkout.py
             tests/utils_tests/test_text.py -> django/utils/text.py
             Lib/test/test_asyncio/test_tasks.py -> Lib/asyncio/tasks.py
             Lib/test/test_os.py -> Lib/os.py
             pkg/parser_test.py -> pkg/parser.py
             tests/test_utils.py -> src/click/utils.py",
        );
    }

    #[test]
    fn rust_integration_and_module_tests() {
        check(
            &[
                "tokio/src/sync/mod.rs",
                "tokio/tests/sync.rs",
                "src/parser.rs",
                "tests/parser.rs",
                "tests/common/mod.rs",
                "crates/hir/src/body.rs",
                "crates/hir/src/body/tests.rs",
                "src/lib.rs",
                "src/tests.rs",
                "src/lexer/mod.rs",
                "src/lexer/tests.rs",
            ],
            "tokio/tests/sync.rs -> tokio/src/sync/mod.rs
             tests/parser.rs -> src/parser.rs
             crates/hir/src/body/tests.rs -> crates/hir/src/body.rs
             src/tests.rs -> src/lib.rs
             src/lexer/tests.rs -> src/lexer/mod.rs",
        );
    }

    #[test]
    fn maven_gradle_and_kotlin() {
        check(
            &[
                "spring-core/src/main/java/org/springframework/util/StringUtils.java",
                "spring-core/src/test/java/org/springframework/util/StringUtilsTests.java",
                "app/src/main/kotlin/com/acme/InviteService.kt",
                "app/src/test/kotlin/com/acme/InviteServiceTest.kt",
                "app/src/main/java/com/acme/Repo.java",
                "app/src/test/java/com/acme/RepoIT.java",
                "app/src/test/java/com/other/RepoTest.java",
            ],
            "spring-core/src/test/java/org/springframework/util/StringUtilsTests.java -> spring-core/src/main/java/org/springframework/util/StringUtils.java
             app/src/test/kotlin/com/acme/InviteServiceTest.kt -> app/src/main/kotlin/com/acme/InviteService.kt
             app/src/test/java/com/acme/RepoIT.java -> app/src/main/java/com/acme/Repo.java",
        );
    }

    #[test]
    fn rspec_minitest_csharp_php() {
        check(
            &[
                "app/models/user.rb",
                "spec/models/user_spec.rb",
                "lib/invite.rb",
                "spec/models/invite_spec.rb",
                "activesupport/lib/active_support/inflector.rb",
                "activesupport/test/inflector_test.rb",
                "src/Invites/InviteService.cs",
                "tests/Invites.Tests/InviteServiceTests.cs",
                "src/Foo.php",
                "tests/Unit/FooTest.php",
            ],
            "spec/models/user_spec.rb -> app/models/user.rb
             spec/models/invite_spec.rb -> lib/invite.rb
             activesupport/test/inflector_test.rb -> activesupport/lib/active_support/inflector.rb
             tests/Invites.Tests/InviteServiceTests.cs -> src/Invites/InviteService.cs
             tests/Unit/FooTest.php -> src/Foo.php",
        );
    }

    #[test]
    fn closest_candidate_wins() {
        check(
            &[
                "packages/a/src/format.ts",
                "packages/b/src/format.ts",
                "packages/b/src/format.test.ts",
                "absl/strings/str_cat.h",
                "absl/strings/str_cat.cc",
                "absl/strings/str_cat_test.cc",
            ],
            "packages/b/src/format.test.ts -> packages/b/src/format.ts
             absl/strings/str_cat_test.cc -> absl/strings/str_cat.cc",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                // Generic names need identical layouts.
                "src/a/__tests__/index.test.ts",
                "index.ts",
                // Diverging directories.
                "src/billing/invoice.test.ts",
                "src/shipping/invoice.ts",
                // A test is not the subject of another test.
                "foo_test.go",
                "foo_test_test.go",
                // Not a test by name.
                "src/contest.ts",
                "src/con.ts",
                // Main code that happens to end in Test.
                "src/main/java/com/acme/AbTest.java",
                "src/main/java/com/acme/Ab.java",
                // A bare suffix is not a name.
                "src/.test.ts",
            ],
            "",
        );
    }

    #[test]
    fn mirrored_test_trees() {
        check(
            &[
                // Mocha: no suffix, the whole path after `tests/`.
                "lib/linter/linter.js",
                "tests/lib/linter/linter.js",
                "lib/rules/no-unused-vars.js",
                "tests/lib/rules/no-unused-vars.js",
                // `test/` against `src/`, a group folder skipped.
                "packages/parser/src/tokenizer/index.ts",
                "packages/parser/src/tokenizer/state.ts",
                "packages/parser/test/unit/tokenizer/state.ts",
                // PHPUnit: the namespace path under `tests/Unit` and `src/`.
                "src/Http/Client.php",
                "src/Client.php",
                "tests/Unit/Http/ClientTest.php",
                // pytest: `test_x.py` for the package `x/__init__.py`.
                "src/acme/db/__init__.py",
                "src/acme/db.pyi",
                "tests/acme/test_db.py",
                // RSpec under `spec/lib`.
                "lib/acme/parser.rb",
                "spec/lib/acme/parser_spec.rb",
            ],
            "tests/lib/linter/linter.js -> lib/linter/linter.js
             tests/lib/rules/no-unused-vars.js -> lib/rules/no-unused-vars.js
             packages/parser/test/unit/tokenizer/state.ts -> packages/parser/src/tokenizer/state.ts
             tests/Unit/Http/ClientTest.php -> src/Http/Client.php
             tests/acme/test_db.py -> src/acme/db/__init__.py
             spec/lib/acme/parser_spec.rb -> lib/acme/parser.rb",
        );
    }

    #[test]
    fn mirrored_trees_need_the_whole_path() {
        check(
            &[
                // The name alone: another directory.
                "lib/linter/linter.js",
                "tests/lib/other/linter.js",
                // Helpers and fixtures in a test tree test nothing.
                "lib/utils.js",
                "tests/lib/utils.js",
                "lib/config.js",
                "tests/fixtures/lib/config.js",
                // Tool configuration in a test folder.
                ".eslintrc.js",
                "test/.eslintrc.js",
                "jest.config.js",
                "test/jest.config.js",
                // Python files need test names.
                "src/acme/models.py",
                "tests/acme/models.py",
                // A `spec/` folder inside a source folder is not a test tree for plain names.
                "src/parser.ts",
                "src/spec/parser.ts",
            ],
            "",
        );
    }

    #[test]
    fn removed_sources_are_not_subjects() {
        let entries = [("lib/x.py", false), ("tests/test_x.py", true)];
        let index = PathIndex::new(&entries);
        let sources = Sources::new(&index);
        assert_eq!(sources.test_of("tests/test_x.py", &index), None);
    }
}
