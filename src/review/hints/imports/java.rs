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
//! no class file matches resolves to the changed `.kt` file of its package that visibly declares
//! it (`fun`, `val`, `class`, `object`, …).
//!
//! What not: same-package references (no import line), Scala and Groovy import syntax.

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
        for (i, token) in tokens.iter().enumerate() {
            let at_line_start = i
                .checked_sub(1)
                .and_then(|before| tokens.get(before))
                .is_some_and(|before| matches!(before, Tok::Bol(_)));
            if *token != Tok::Ident("import") || !at_line_start {
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
/// name)` pairs of [`kotlin_declarations`].
pub fn resolve(
    importer: &str,
    spec: &str,
    declared: &Declarations<'_>,
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
    let found = class_file(importer, &path, index).or_else(|| {
        let (outer, _) = path.rsplit_once('/')?;
        outer
            .contains('/')
            .then(|| class_file(importer, outer, index))
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

fn class_file(importer: &str, path: &str, index: &PathIndex<'_>) -> Option<usize> {
    EXTENSIONS.iter().find_map(|ext| {
        let file = format!("{path}.{ext}");
        index.closest(importer, index.with_suffix(&file))
    })
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;

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
