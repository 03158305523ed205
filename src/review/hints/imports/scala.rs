//! Scala imports (sbt, Mill and Gradle layouts alike), resolved like Java's and Kotlin's.
//!
//! Why: `dependsOn` for Scala files (issue #46). Packages follow directories by convention under
//! a module's source roots (`src/main/scala`, `src/main/scala-2`/`-3`/`-2.13`, a cross-built
//! module's `shared/` and `jvm/` trees), but Scala allows a file to declare any class, several
//! classes, or top-level definitions (Scala 3), so the file name alone is not enough.
//! Read forms, `import` at the start of a line: `import a.b.C`, `import a.b.C, d.e.F`,
//! `import a.b.{C, D => E, F as G, given, _}`, Scala 3's `import a.b.C as D` and
//! `import a.b.*`/`import a.b._`, with `_root_.` dropped.
//! Resolution, against changed files only: a name `a.b.C` is the file `a/b/C.scala` (also
//! `.java`/`.kt` of a mixed module) as a path suffix, the closest if several; else the changed
//! `.scala` file of package `a.b` (its directory ends with `a/b`, or it says `package a.b`) that
//! declares `C` at the top level (or anywhere in a `package.scala`, whose
//! package object's members are the package's); else `a.b` itself as a class (`import
//! a.b.Obj.member`). `given` names the changed files of the package that visibly declare a
//! `given`. A wildcard names the package: every changed `.scala` file of
//! it, which for an importer outside a module's test tree excludes test trees (`src/test/…`),
//! and a test tree of another module in any case; when the package has no changed file, the
//! object `a/b.scala` it may name (`import a.Obj._`).
//! Modules (for the test-tree rule) are the directories `build.sbt` declares (`project in
//! file("x")`, `crossProject(…).in(file("x"))`, `lazy val x = project`), else the directory
//! above `src/`.
//!
//! A relative import (`import api.Endpoints` inside `package a.server`) resolves as a path
//! suffix like any (`…/a/server/api/Endpoints.scala` ends with `api/Endpoints.scala`).
//!
//! What a file says (`package` clauses, top-level names) comes from its text at the head when
//! read (`Project::scala_texts`), else from its visible lines.
//!
//! What not: same-package references,
//! imports inside string interpolations, exports (`export a.b.*`).

use super::lex::{self, Syntax, Tok};
use super::Declarations;
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const SYNTAX: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: true,
    quotes: b"\"'",
    multiline_quote: None,
    triple_quotes: true,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: true,
};

const TRIGGERS: &[&str] = &["import"];

/// File types a Scala import may name (a mixed module compiles Java and Kotlin beside Scala).
const EXTENSIONS: &[&str] = &["scala", "java", "kt"];

/// What one import clause names in a package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// A member by name (`C`, `C => D`, `C as D`).
    Name(String),
    /// `_` or `*`: the package as a whole.
    All,
    /// `given`: the package's given instances.
    Given,
}

/// One import clause: the dotted prefix and what it selects there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub package: String,
    pub selector: Selector,
}

/// Imports in the visible lines.
pub fn imports(hunks: &[Hunk<'_>]) -> Vec<Import> {
    let mut found = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        for i in 0..tokens.len() {
            if !lex::starts_line(&tokens, i, "import") {
                continue;
            }
            let mut j = i + 1;
            // `import a.b.C, d.e.F`: clauses separated by commas outside braces.
            loop {
                j = clause(&tokens, j, &mut found);
                if tokens.get(j) == Some(&Tok::Punct(b',')) {
                    j += 1;
                } else {
                    break;
                }
            }
        }
    }
    found
}

/// Reads one clause from `at`; returns where it stopped.
fn clause(tokens: &[Tok<'_>], mut at: usize, found: &mut Vec<Import>) -> usize {
    let mut parts: Vec<&str> = Vec::new();
    loop {
        match tokens.get(at) {
            Some(Tok::Ident(part)) => {
                parts.push(part);
                at += 1;
            }
            _ => return at,
        }
        match (tokens.get(at), tokens.get(at + 1)) {
            (Some(Tok::Punct(b'.')), Some(Tok::Ident(_))) => at += 1,
            (Some(Tok::Punct(b'.')), Some(Tok::Punct(b'*'))) => {
                push(found, &parts, Selector::All);
                return at + 2;
            }
            (Some(Tok::Punct(b'.')), Some(Tok::Punct(b'{'))) => {
                at += 2;
                let mut expect_name = true;
                while let Some(token) = tokens.get(at) {
                    match token {
                        Tok::Punct(b'}') => return at + 1,
                        Tok::Punct(b',') => expect_name = true,
                        Tok::Punct(b'*') if expect_name => {
                            push(found, &parts, Selector::All);
                            expect_name = false;
                        }
                        Tok::Ident(name) if expect_name => {
                            let selector = match *name {
                                "_" => Selector::All,
                                "given" => Selector::Given,
                                name => Selector::Name(name.to_string()),
                            };
                            push(found, &parts, selector);
                            expect_name = false;
                        }
                        Tok::Bol(_) | Tok::Ident(_) | Tok::Punct(_) | Tok::Str(_) => {}
                    }
                    at += 1;
                }
                return at;
            }
            _ => break,
        }
    }
    let Some((last, package)) = parts.split_last() else {
        return at;
    };
    let selector = match *last {
        "_" => Selector::All,
        "given" => Selector::Given,
        name => Selector::Name(name.to_string()),
    };
    push(found, package, selector);
    // `import a.b.C as D`: the rename needs no reading.
    if tokens.get(at) == Some(&Tok::Ident("as")) {
        at += 2;
    }
    at
}

fn push(found: &mut Vec<Import>, parts: &[&str], selector: Selector) {
    let parts = match parts.split_first() {
        Some((&"_root_", rest)) => rest,
        _ => parts,
    };
    if parts.is_empty() {
        return;
    }
    found.push(Import {
        package: parts.join("."),
        selector,
    });
}

/// Words before a declaration that change nothing about its name.
const MODIFIERS: &[&str] = &[
    "private",
    "protected",
    "final",
    "sealed",
    "abstract",
    "implicit",
    "lazy",
    "case",
    "override",
    "inline",
    "opaque",
    "transparent",
    "open",
    "infix",
    "export",
];

/// What a Scala file's visible lines say: its `package` clauses (chained ones joined) and the
/// names it declares at the top level (anywhere for a `package.scala`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Visible<'a> {
    pub package: Option<String>,
    pub names: Vec<&'a str>,
}

/// Reads the visible `package` clauses and declarations of a file.
pub fn visible<'a>(path: &str, hunks: &[Hunk<'a>]) -> Visible<'a> {
    let mut out = Visible::default();
    let mut tokens = Vec::new();
    for hunk in hunks {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        read_lines(path, &tokens, &mut out);
    }
    out
}

/// Reads a file's text at the head the same way: every `package` clause and top-level name.
pub fn at_head<'a>(path: &str, text: &'a str) -> Visible<'a> {
    let mut out = Visible::default();
    let mut tokens = Vec::new();
    lex::text_tokens(text, &SYNTAX, &mut tokens);
    read_lines(path, &tokens, &mut out);
    out
}

fn read_lines<'a>(path: &str, tokens: &[Tok<'a>], out: &mut Visible<'a>) {
    let package_object = paths::file_name(path) == "package.scala";
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        i += 1;
        let Tok::Bol(indent) = token else { continue };
        if *indent > 0 && !package_object {
            continue;
        }
        let mut j = i;
        while let Some(Tok::Ident(word)) = tokens.get(j) {
            if !MODIFIERS.contains(word) {
                break;
            }
            j += 1;
        }
        match (tokens.get(j), tokens.get(j + 1)) {
            (Some(Tok::Ident("package")), Some(Tok::Ident("object"))) => {
                if let Some(Tok::Ident(name)) = tokens.get(j + 2) {
                    out.names.push(name);
                }
            }
            (Some(Tok::Ident("package")), Some(Tok::Ident(_))) => {
                let mut name = String::new();
                let mut k = j + 1;
                while let Some(Tok::Ident(part)) = tokens.get(k) {
                    name.push_str(part);
                    if tokens.get(k + 1) == Some(&Tok::Punct(b'.')) {
                        name.push('.');
                        k += 2;
                    } else {
                        break;
                    }
                }
                out.package = Some(match out.package.take() {
                    Some(outer) if !outer.is_empty() => format!("{outer}.{name}"),
                    _ => name,
                });
            }
            (Some(Tok::Ident("given")), _) => {
                out.names.push("given");
                if let (Some(Tok::Ident(name)), Some(Tok::Punct(b':' | b'['))) =
                    (tokens.get(j + 1), tokens.get(j + 2))
                {
                    out.names.push(name);
                }
            }
            (
                Some(Tok::Ident(
                    "class" | "object" | "trait" | "enum" | "type" | "def" | "val" | "var",
                )),
                Some(Tok::Ident(name)),
            ) => out.names.push(name),
            _ => {}
        }
    }
}

/// Visible packages and declarations of the pull request's Scala files, by position.
#[derive(Debug, Default)]
pub struct Packages<'a> {
    /// `(position, name)` declared visibly.
    declared: Declarations<'a>,
    /// Package → files that visibly declare it.
    by_package: std::collections::HashMap<String, Vec<usize>>,
    /// Module directories from `build.sbt`, deepest first.
    modules: Vec<String>,
}

impl<'a> Packages<'a> {
    /// `files` are `(position, what its lines say)`; `modules` the directories of `build.sbt`.
    pub fn new(files: Vec<(usize, Visible<'a>)>, modules: &[String]) -> Packages<'a> {
        let mut packages = Packages::default();
        for (position, file) in files {
            for name in file.names {
                packages.declared.add(position, name);
            }
            if let Some(package) = file.package {
                packages
                    .by_package
                    .entry(package)
                    .or_default()
                    .push(position);
            }
        }
        packages.modules = modules.to_vec();
        crate::sorting::sort_by(&mut packages.modules, &|a, b| {
            b.len().cmp(&a.len()).then(a.cmp(b))
        });
        packages
    }

    /// The module directory and whether the file is in its test tree.
    fn module_of<'p>(&self, path: &'p str) -> (&'p str, bool) {
        let test = is_test_tree(path);
        if let Some(module) = self
            .modules
            .iter()
            .find(|dir| dir.is_empty() || path.starts_with(&format!("{dir}/")))
        {
            return (path.get(..module.len()).unwrap_or(""), test);
        }
        let root = ["/src/main/", "/src/test/", "/src/"]
            .iter()
            .find_map(|marker| path.find(marker))
            .or_else(|| path.starts_with("src/").then_some(0))
            .unwrap_or(0);
        (path.get(..root).unwrap_or(""), test)
    }

    /// Whether the importer may see `target`: main trees always, a test tree only from the same
    /// module's test tree.
    fn sees(&self, importer: &str, target: &str) -> bool {
        let (module, _) = self.module_of(target);
        if !is_test_tree(target) {
            return true;
        }
        let (own, test) = self.module_of(importer);
        test && own == module
    }

    /// The changed files of package `package` (dotted).
    fn package_files<'s>(
        &'s self,
        package: &str,
        index: &'s PathIndex<'_>,
    ) -> impl Iterator<Item = usize> + 's {
        let dir = package.replace('.', "/");
        let by_dir: Vec<usize> = index
            .dirs_with_suffix(&dir)
            .flat_map(|found| index.in_dir(found).iter().copied())
            .filter(|&position| paths::extension(index.path(position)) == "scala")
            .collect();
        let declared = self
            .by_package
            .get(package)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied();
        by_dir.into_iter().chain(declared)
    }

    /// Adds the changed files an import resolves to.
    pub fn resolve(
        &self,
        importer: &str,
        import: &Import,
        index: &PathIndex<'_>,
        out: &mut Vec<usize>,
    ) {
        let visible = |position: &usize| self.sees(importer, index.path(*position));
        let path = import.package.replace('.', "/");
        match &import.selector {
            Selector::All => {
                let before = out.len();
                out.extend(self.package_files(&import.package, index).filter(visible));
                if out.len() == before && path.contains('/') {
                    out.extend(class_file(importer, &path, index));
                }
            }
            Selector::Given => {
                out.extend(
                    self.package_files(&import.package, index)
                        .filter(visible)
                        .filter(|&position| self.declared.contains(position, "given")),
                );
            }
            Selector::Name(name) => {
                let found = class_file(importer, &format!("{path}/{name}"), index)
                    .filter(visible)
                    .or_else(|| {
                        let declaring = self
                            .package_files(&import.package, index)
                            .filter(visible)
                            .filter(|&position| self.declared.contains(position, name));
                        index.closest(importer, declaring)
                    })
                    .or_else(|| {
                        path.contains('/')
                            .then(|| class_file(importer, &path, index))
                            .flatten()
                            .filter(visible)
                    });
                out.extend(found);
            }
        }
    }
}

/// Whether a path sits in a test source tree (`src/test/…`, Mill's `test/src/…`).
pub fn is_test_tree(path: &str) -> bool {
    path.starts_with("src/test/")
        || path.contains("/src/test/")
        || path.starts_with("test/src/")
        || path.contains("/test/src/")
}

fn class_file(importer: &str, path: &str, index: &PathIndex<'_>) -> Option<usize> {
    super::java::class_file_of(EXTENSIONS, importer, path, index)
}

#[cfg(test)]
mod tests {
    use crate::review::hints::project::sbt::sbt_modules;
    use crate::review::hints::testing::{check_deps as check, check_deps_in};

    #[test]
    fn import_forms() {
        check(
            &[
                (
                    "app/src/main/scala/a/app/Main.scala",
                    "+package a.app\n+import a.core.{Money => M, Currency as C}\n\
                     +import a.core.Rates, a.util.Strings\n+import _root_.a.util.Text as T\n\
                     +import scala.util.{Failure, Success}\n+import a.core.Money.zero",
                ),
                ("core/src/main/scala/a/core/Money.scala", ""),
                ("core/src/main/scala/a/core/Currency.scala", ""),
                ("core/src/main/scala-3/a/core/Rates.scala", ""),
                ("util/src/main/scala/a/util/Strings.scala", ""),
                ("util/src/main/scala/a/util/Text.scala", ""),
            ],
            "app/src/main/scala/a/app/Main.scala -> core/src/main/scala/a/core/Money.scala, \
             core/src/main/scala/a/core/Currency.scala, core/src/main/scala-3/a/core/Rates.scala, \
             util/src/main/scala/a/util/Strings.scala, util/src/main/scala/a/util/Text.scala",
        );
    }

    #[test]
    fn packages_and_top_level_declarations() {
        check(
            &[
                (
                    "app/src/main/scala/a/app/Main.scala",
                    "+import a.geo._\n+import a.geo.Circle\n+import a.geo.Meters\n+import a.shapes.*",
                ),
                (
                    "lib/src/main/scala/a/geo/Shapes.scala",
                    " package a.geo\n+final case class Circle(r: Double)\n class Inner {\n+  def Meters = 1\n }",
                ),
                (
                    "lib/src/main/scala/a/geo/package.scala",
                    "+package a\n+package object geo {\n+  type Meters = Double\n+}",
                ),
                ("lib/src/test/scala/a/geo/ShapesSpec.scala", ""),
                ("lib/src/main/scala/flat/Shapes.scala", "+package a.shapes\n+object Kinds"),
            ],
            "app/src/main/scala/a/app/Main.scala -> lib/src/main/scala/a/geo/Shapes.scala, \
             lib/src/main/scala/a/geo/package.scala, lib/src/main/scala/flat/Shapes.scala",
        );
    }

    #[test]
    fn packages_and_names_from_the_text_at_the_head() {
        check_deps_in(
            &[
                ("app/src/main/scala/a/app/Main.scala", "+import a.geo.Circle\n+import a.geo._"),
                // Its diff shows neither its package nor its classes.
                ("lib/src/main/scala/shapes/All.scala", " }"),
            ],
            &[(
                "lib/src/main/scala/shapes/All.scala",
                "package a\npackage geo\n\nsealed trait Shape\nfinal case class Circle(r: Double) extends Shape {\n}\n",
            )],
            "app/src/main/scala/a/app/Main.scala -> lib/src/main/scala/shapes/All.scala",
        );
    }

    #[test]
    fn test_trees_are_seen_from_their_own_module_only() {
        check_deps_in(
            &[
                ("core/src/test/scala/a/core/MoneySpec.scala", "+import a.core.fixtures.*"),
                ("server/src/test/scala/a/server/RoutesSpec.scala", "+import a.core.fixtures.*"),
                ("core/src/test/scala/a/core/fixtures/Data.scala", ""),
            ],
            &[("build.sbt", "lazy val core = project\nlazy val server = (project in file(\"server\")).dependsOn(core)\n")],
            "core/src/test/scala/a/core/MoneySpec.scala -> core/src/test/scala/a/core/fixtures/Data.scala",
        );
    }

    #[test]
    fn reads_sbt_modules() {
        let text = "lazy val root = (project in file(\".\")).aggregate(core.jvm)\n\
            lazy val core = crossProject(JVMPlatform, JSPlatform)\n  .in(file(\"modules/core\"))\n\
            lazy val `server-api` = project.in(file(\"modules/server/api\"))\nlazy val util = project\n\
            lazy val settings = Seq(scalaVersion := \"3.3.1\")\n";
        assert_eq!(
            sbt_modules("", text),
            [
                "",
                "modules/core/shared",
                "modules/core/jvm",
                "modules/core/js",
                "modules/core/native",
                "modules/core",
                "modules/server/api",
                "util"
            ]
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "src/main/scala/a/App.scala",
                    "+// import a.b.Commented\n-import a.b.Removed\n+val s = \"import a.b.InString\"\n\
                     +import a.b.Unchanged\n+import Bare\n+  val x = 1 // import a.b.Late",
                ),
                ("src/main/scala/a/b/Commented.scala", ""),
                ("src/main/scala/a/b/Removed.scala", ""),
                ("src/main/scala/a/b/InString.scala", ""),
                ("src/main/scala/Bare.scala", ""),
                ("src/main/scala/x/a/bb/Unchanged.scala", ""),
                ("src/main/scala/a/b/Late.scala", ""),
            ],
            "",
        );
    }
}
