//! Java and Kotlin imports.
//!
//! Why: `dependsOn` for JVM files; packages follow directories by convention, so a qualified
//! name is a path suffix.
//! Read forms, at the start of a line: `import a.b.C;`, `import static a.b.C.member;`,
//! `import a.b.*;`, Kotlin's `import a.b.C` and `import a.b.C as D`.
//! Resolution, against changed files only: `a/b/C.java` or `a/b/C.kt` as a path suffix (the
//! closest one if several), then without the last name (static members, nested classes);
//! `a.b.*` means every changed `.java`/`.kt` file in a directory ending with `a/b`.
//!
//! Kotlin top-level declarations live in files named otherwise (`AppTheme` in `Theme.kt`): a name
//! no class file matches resolves to the changed `.kt` file whose text at the head declares it at
//! the top level in that package (`kotlin::Heads`), then to the changed `.kt` file of its package
//! directory that visibly declares it (`fun`, `val`, `class`, `object`, …). Java reaches a Kotlin
//! file through its facade class: `a.b.UtilKt` is `a/b/Util.kt`, and a file that says
//! `@file:JvmName("Util")` is `a.b.Util` (also as the class of a static import).
//!
//! What not: same-package references (no import line), Scala (`scala`) and Groovy import syntax.

use super::kotlin::Heads;
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

const EXTENSIONS: &[&str] = &["java", "kt"];

/// Qualified names imported in the visible lines (`a.b.C` or `a.b.*`).
pub fn specifiers(hunks: &[Hunk<'_>]) -> Vec<String> {
    let mut specs = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        for i in 0..tokens.len() {
            if !lex::starts_line(&tokens, i, "import") {
                continue;
            }
            let mut j = i + 1;
            if tokens.get(j) == Some(&Tok::Ident("static")) {
                j += 1;
            }
            let mut name = String::new();
            while let Some(Tok::Ident(part)) = tokens.get(j) {
                name.push_str(part);
                j += 1;
                match (tokens.get(j), tokens.get(j + 1)) {
                    (Some(Tok::Punct(b'.')), Some(Tok::Ident(_))) => name.push('.'),
                    (Some(Tok::Punct(b'.')), Some(Tok::Punct(b'*'))) => {
                        name.push_str(".*");
                        break;
                    }
                    _ => break,
                }
                j += 1;
            }
            if name.contains('.') {
                specs.push(name);
            }
        }
    }
    specs
}

/// Names Kotlin files visibly declare at any level (`fun name(`, `val name`, `class Name`, …).
pub fn kotlin_declarations<'a>(hunks: &[Hunk<'a>]) -> Vec<&'a str> {
    const KEYWORDS: &[&str] = &[
        "fun",
        "val",
        "var",
        "class",
        "object",
        "interface",
        "typealias",
    ];
    let mut names = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        let code = lex::code(&tokens);
        for (i, token) in code.iter().enumerate() {
            let Tok::Ident(keyword) = token else { continue };
            if !KEYWORDS.contains(keyword) {
                continue;
            }
            if *keyword == "fun" {
                // `fun <T> String.name(`: the name is the identifier before the `(`.
                let name = (i + 1..i + 12).find_map(|j| match (code.get(j), code.get(j + 1)) {
                    (Some(Tok::Ident(name)), Some(Tok::Punct(b'('))) => Some(*name),
                    _ => None,
                });
                names.extend(name);
            } else if let Some(Tok::Ident(name)) = code.get(i + 1) {
                names.push(*name);
            }
        }
    }
    names
}

/// Adds the changed files a qualified name resolves to; `declared` holds the `(file position,
/// name)` pairs of [`kotlin_declarations`], `heads` what Kotlin files say at the head.
pub fn resolve(
    importer: &str,
    spec: &str,
    declared: &Declarations<'_>,
    heads: &Heads,
    index: &PathIndex<'_>,
    out: &mut Vec<usize>,
) {
    let path = spec.replace('.', "/");
    if let Some(package) = path.strip_suffix("/*") {
        let before = out.len();
        for dir in index.dirs_with_suffix(package) {
            out.extend(
                index.in_dir(dir).iter().filter(|&&position| {
                    EXTENSIONS.contains(&paths::extension(index.path(position)))
                }),
            );
        }
        if out.len() == before {
            // `import static a.b.C.*` names a class.
            out.extend(class_file(importer, package, index));
        }
        return;
    }
    let found = class_file(importer, &path, index)
        .or_else(|| kotlin_file(importer, &path, heads, index))
        .or_else(|| {
            let (outer, _) = path.rsplit_once('/')?;
            outer
                .contains('/')
                .then(|| {
                    class_file(importer, outer, index)
                        .or_else(|| facade_file(importer, outer, heads, index))
                })
                .flatten()
        });
    let found = found.or_else(|| {
        let (package, name) = path.rsplit_once('/')?;
        let declaring = index.dirs_with_suffix(package).flat_map(|dir| {
            index.in_dir(dir).iter().copied().filter(|&position| {
                paths::extension(index.path(position)) == "kt" && declared.contains(position, name)
            })
        });
        index.closest(importer, declaring)
    });
    out.extend(found);
}

/// The package paths (`a/b`) whose Kotlin files' text could resolve `spec` when no class file
/// does: its own package and, for a member of a facade class, the class's package.
pub fn packages_to_read(importer: &str, spec: &str, index: &PathIndex<'_>) -> Vec<String> {
    let path = spec.replace('.', "/");
    if path.ends_with("/*") || class_file(importer, &path, index).is_some() {
        return Vec::new();
    }
    let mut packages = Vec::new();
    let mut current = path.as_str();
    for _ in 0..2 {
        let Some((package, _)) = current.rsplit_once('/') else {
            break;
        };
        packages.push(package.to_string());
        current = package;
    }
    packages
}

/// A Kotlin file of the package of `path` (`a/b/name`) that declares `name` at the top level at
/// the head, or that Java sees as the class `name`.
fn kotlin_file(importer: &str, path: &str, heads: &Heads, index: &PathIndex<'_>) -> Option<usize> {
    let (package, name) = path.rsplit_once('/')?;
    let package = package.replace('/', ".");
    let declaring = heads.declaring(&package, name).iter().copied();
    index
        .closest(importer, declaring)
        .or_else(|| facade_file(importer, path, heads, index))
}

/// The Kotlin file Java sees as the class at `path` (`a/b/UtilKt`, or a `@file:JvmName`).
fn facade_file(importer: &str, path: &str, heads: &Heads, index: &PathIndex<'_>) -> Option<usize> {
    let (package, class) = path.rsplit_once('/')?;
    let dotted = package.replace('/', ".");
    index
        .closest(importer, heads.facade(&dotted, class).iter().copied())
        .or_else(|| {
            // Without the text, `a.b.UtilKt` is still `a/b/Util.kt` by name.
            let stem = path
                .strip_suffix("Kt")
                .filter(|stem| !stem.ends_with('/'))?;
            index.closest(importer, index.with_suffix(&format!("{stem}.kt")))
        })
}

fn class_file(importer: &str, path: &str, index: &PathIndex<'_>) -> Option<usize> {
    class_file_of(EXTENSIONS, importer, path, index)
}

/// The file of the class `path` (`a/b/C`) with one of `extensions`, nearest `importer`: Java,
/// Kotlin and Scala name a class's file by its package path the same way.
pub(super) fn class_file_of(
    extensions: &[&str],
    importer: &str,
    path: &str,
    index: &PathIndex<'_>,
) -> Option<usize> {
    extensions.iter().find_map(|ext| {
        let file = format!("{path}.{ext}");
        index.closest(importer, index.with_suffix(&file))
    })
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;
    use crate::review::hints::testing::check_deps_in;

    #[test]
    fn spring_imports() {
        check(
            &[
                (
                    "spring-context/src/main/java/org/springframework/context/support/AbstractApplicationContext.java",
                    "+package org.springframework.context.support;\n+\n\
                     +import org.springframework.beans.factory.BeanFactory;\n\
                     +import static org.springframework.util.Assert.notNull;\n\
                     +import org.springframework.core.env.*;\n\
                     +import org.springframework.context.ApplicationEvent.Kind;",
                ),
                ("spring-beans/src/main/java/org/springframework/beans/factory/BeanFactory.java", ""),
                ("spring-core/src/main/java/org/springframework/util/Assert.java", ""),
                ("spring-core/src/main/java/org/springframework/core/env/Environment.java", ""),
                ("spring-core/src/main/java/org/springframework/core/env/Profiles.java", ""),
                ("spring-core/src/main/resources/org/springframework/core/env/notes.txt", ""),
                ("spring-context/src/main/java/org/springframework/context/ApplicationEvent.java", ""),
            ],
            "spring-context/src/main/java/org/springframework/context/support/AbstractApplicationContext.java -> \
             spring-beans/src/main/java/org/springframework/beans/factory/BeanFactory.java, \
             spring-core/src/main/java/org/springframework/util/Assert.java, \
             spring-core/src/main/java/org/springframework/core/env/Environment.java, \
             spring-core/src/main/java/org/springframework/core/env/Profiles.java, \
             spring-context/src/main/java/org/springframework/context/ApplicationEvent.java",
        );
    }

    #[test]
    fn kotlin_imports() {
        check(
            &[
                (
                    "app/src/main/kotlin/com/acme/invites/InviteViewModel.kt",
                    "+import com.acme.invites.data.InviteRepository\n\
                     +import com.acme.core.Result as CoreResult\n+import kotlinx.coroutines.flow.Flow",
                ),
                ("app/src/main/kotlin/com/acme/invites/data/InviteRepository.kt", ""),
                ("core/src/main/java/com/acme/core/Result.java", ""),
            ],
            "app/src/main/kotlin/com/acme/invites/InviteViewModel.kt -> \
             app/src/main/kotlin/com/acme/invites/data/InviteRepository.kt, \
             core/src/main/java/com/acme/core/Result.java",
        );
    }

    #[test]
    fn kotlin_top_level_declarations_read_at_the_head() {
        let files = [
            (
                "app/src/main/kotlin/com/acme/app/Main.kt",
                "+import com.acme.internal.rawType\n+import com.acme.internal.isNullable\n\
                 +import com.acme.MAX_DEPTH\n+import com.acme.internal.gone",
            ),
            (
                "app/src/main/java/com/acme/app/Legacy.java",
                "+import com.acme.internal.Types;\n+import static com.acme.internal.Types.rawType;\n\
                 +import com.acme.internal._ExtensionsKt;\n+import com.acme.internal.OldKt;",
            ),
            // The directory omits the common root package `com.acme`.
            ("lib/src/main/kotlin/internal/Util.kt", "+// nothing declared in view"),
            ("lib/src/main/kotlin/internal/-Extensions.kt", "+// nothing in view"),
            ("lib/src/main/kotlin/Limits.kt", ""),
            ("lib/src/main/kotlin/internal/Old.kt", ""),
        ];
        let heads = [
            (
                "lib/src/main/kotlin/internal/Util.kt",
                "@file:JvmName(\"Types\")\npackage com.acme.internal\n\nfun Type.rawType(): Class<*> = TODO()\n",
            ),
            (
                "lib/src/main/kotlin/internal/-Extensions.kt",
                "package com.acme.internal\n\nval Type.isNullable: Boolean get() = false\n",
            ),
            (
                "lib/src/main/kotlin/Limits.kt",
                "package com.acme\n\nconst val MAX_DEPTH = 3\n",
            ),
        ];
        check_deps_in(
            &files,
            &heads,
            "app/src/main/kotlin/com/acme/app/Main.kt -> lib/src/main/kotlin/internal/Util.kt, \
             lib/src/main/kotlin/internal/-Extensions.kt, lib/src/main/kotlin/Limits.kt\n\
             app/src/main/java/com/acme/app/Legacy.java -> lib/src/main/kotlin/internal/Util.kt, \
             lib/src/main/kotlin/internal/-Extensions.kt",
        );
    }

    #[test]
    fn texts_wanted_for_unresolved_imports_only() {
        use crate::review::hints::wanted_at_head;
        let listed = [
            (
                "app/src/main/kotlin/com/acme/app/Main.kt",
                "modified",
                Some("@@ -1,0 +1,2 @@\n+import com.acme.internal.rawType\n+import com.acme.data.Repo\n"),
            ),
            ("lib/src/main/kotlin/internal/Util.kt", "modified", None),
            ("lib/src/main/kotlin/internal/Gone.kt", "removed", None),
            // A class file matches: nothing to read.
            ("lib/src/main/kotlin/com/acme/data/Repo.kt", "modified", None),
            ("lib/src/main/kotlin/com/acme/data/Other.kt", "modified", None),
            ("docs/internal/notes.md", "modified", None),
        ];
        let wanted = wanted_at_head(&listed);
        assert_eq!(
            wanted
                .iter()
                .filter(|path| path.ends_with(".kt"))
                .collect::<Vec<_>>(),
            ["lib/src/main/kotlin/internal/Util.kt"]
        );
        // Without Kotlin files nothing but build files.
        assert!(wanted_at_head(&[(
            "a/B.java",
            "modified",
            Some("@@ -1,0 +1,1 @@\n+import a.c.D;\n")
        )])
        .iter()
        .all(|path| !path.ends_with(".kt")));
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "src/main/java/a/App.java",
                    "+// import a.b.Commented;\n+/* import a.b.Block; */\n-import a.b.Removed;\n\
                     +String s = \"import a.b.InString;\";\n+import a.b.Unchanged;\n+import Bare;",
                ),
                ("src/main/java/a/b/Commented.java", ""),
                ("src/main/java/a/b/Block.java", ""),
                ("src/main/java/a/b/Removed.java", ""),
                ("src/main/java/a/b/InString.java", ""),
                ("src/main/java/Bare.java", ""),
                ("src/main/java/x/a/bb/Unchanged.java", ""),
            ],
            "",
        );
    }
}
