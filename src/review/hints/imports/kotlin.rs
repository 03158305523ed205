//! Kotlin files read at the head: their package, their top-level declarations and the class Java
//! sees them as (the file facade).
//!
//! Why: `import com.acme.internal.rawType` names a top-level function, property or extension,
//! which lives in whichever file of that package declares it (`Util.kt`, `-Extensions.kt`); Java
//! reaches the same declarations through the file's facade class, `UtilKt` by default or the
//! name `@file:JvmName("Util")` gives (issue #39). A changed file whose declaration sits outside
//! its hunks shows nothing in the diff, so [`wanted`] names the changed `.kt` files an
//! unresolved import may point into, the service reads them in its one GraphQL request, and
//! [`Heads`] answers from their text.
//! Read: `package a.b` (a file may sit in a directory that omits the project's common root
//! package, as Kotlin's conventions allow, so the package comes from the text), declarations at
//! brace depth 0 (`fun`, `val`, `var`, `class`, `object`, `interface`, `typealias`, extension
//! receivers skipped: `fun Foo.bar(` declares `bar`), and `@file:JvmName("…")`.
//!
//! What not: no member declarations, no `expect`/`actual` pairing, no reading of files the pull
//! request didn't change or removed.

use std::collections::HashMap;

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;

const SYNTAX: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: true,
    quotes: b"\"'",
    multiline_quote: None,
    triple_quotes: true,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: false,
};

/// Most Kotlin files read at the head for one pull request.
pub const MAX_TEXTS: usize = 100;

/// What one Kotlin file's text says.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct KotlinFile<'a> {
    /// `a.b` of `package a.b`; empty for the default package.
    pub package: String,
    /// `@file:JvmName("…")`.
    pub jvm_name: Option<&'a str>,
    /// Names declared at the top level.
    pub declarations: Vec<&'a str>,
}

/// Reads a Kotlin file's text.
pub fn read(text: &str) -> KotlinFile<'_> {
    let mut tokens = Vec::new();
    lex::text_tokens(text, &SYNTAX, &mut tokens);
    let code = lex::code(&tokens);
    let mut file = KotlinFile::default();
    let mut depth = 0usize;
    let mut parens = 0usize;
    let mut i = 0;
    while let Some(token) = code.get(i) {
        match token {
            Tok::Punct(b'{') => depth += 1,
            Tok::Punct(b'}') => depth = depth.saturating_sub(1),
            Tok::Punct(b'(') => parens += 1,
            Tok::Punct(b')') => parens = parens.saturating_sub(1),
            Tok::Punct(b'@') if depth == 0 => {
                if let (
                    Some(Tok::Ident("file")),
                    Some(Tok::Punct(b':')),
                    Some(Tok::Ident("JvmName")),
                    Some(Tok::Punct(b'(')),
                    Some(Tok::Str(name)),
                ) = (
                    code.get(i + 1),
                    code.get(i + 2),
                    code.get(i + 3),
                    code.get(i + 4),
                    code.get(i + 5),
                ) {
                    file.jvm_name = Some(name);
                }
            }
            Tok::Ident("package") if depth == 0 && parens == 0 && file.package.is_empty() => {
                let mut j = i + 1;
                while let Some(Tok::Ident(part)) = code.get(j) {
                    if !file.package.is_empty() {
                        file.package.push('.');
                    }
                    file.package.push_str(part);
                    match code.get(j + 1) {
                        Some(Tok::Punct(b'.')) => j += 2,
                        _ => break,
                    }
                }
            }
            Tok::Ident(keyword) if depth == 0 && parens == 0 => {
                if let Some(name) = declared_name(keyword, &code, i + 1) {
                    file.declarations.push(name);
                }
            }
            _ => {}
        }
        i += 1;
    }
    file
}

/// The name a declaration starting with `keyword` declares, reading from `start`.
fn declared_name<'a>(keyword: &str, code: &[Tok<'a>], start: usize) -> Option<&'a str> {
    match keyword {
        "class" | "object" | "interface" | "typealias" => match code.get(start) {
            Some(Tok::Ident(name)) if *name != "class" => Some(name),
            _ => None,
        },
        // `fun <T> Foo<T>.name(`: the identifier right before the first `(` outside `<…>`.
        "fun" => {
            let mut angle = 0usize;
            let mut last = None;
            for token in code.iter().skip(start).take(40) {
                match token {
                    Tok::Punct(b'<') => angle += 1,
                    Tok::Punct(b'>') => angle = angle.saturating_sub(1),
                    Tok::Punct(b'(') if angle == 0 => return last,
                    Tok::Ident(name) if angle == 0 => last = Some(*name),
                    Tok::Punct(b'{' | b'}' | b'=') => return None,
                    _ => {}
                }
            }
            None
        }
        // `val Foo.name: T`, `var name = …`, `val name by lazy`: the last identifier before the
        // first `:`, `=` or `by` outside `<…>`.
        "val" | "var" => {
            let mut angle = 0usize;
            let mut last = None;
            for token in code.iter().skip(start).take(40) {
                match token {
                    Tok::Punct(b'<') => angle += 1,
                    Tok::Punct(b'>') => angle = angle.saturating_sub(1),
                    Tok::Punct(b':' | b'=') if angle == 0 => return last,
                    Tok::Ident("by") if angle == 0 => return last,
                    Tok::Ident(name) if angle == 0 => last = Some(*name),
                    Tok::Punct(b'{' | b'}' | b'(') => return last,
                    _ => {}
                }
            }
            last
        }
        _ => None,
    }
}

/// The class Java sees a Kotlin file as by default: `UtilKt` for `Util.kt`, `_ExtensionsKt` for
/// `-Extensions.kt`, `StringsKt` for `strings.kt`.
pub fn default_facade(path: &str) -> String {
    let stem = paths::stem(path);
    let mut facade = String::with_capacity(stem.len() + 2);
    for (at, c) in stem.chars().enumerate() {
        let c = if c.is_alphanumeric() || c == '_' {
            c
        } else {
            '_'
        };
        if at == 0 {
            facade.extend(c.to_uppercase());
        } else {
            facade.push(c);
        }
    }
    facade.push_str("Kt");
    facade
}

/// Lookups over the Kotlin files read at the head, by package.
#[derive(Debug, Default)]
pub struct Heads {
    /// `(package, top-level name)` → changed files declaring it.
    declared: HashMap<(String, String), Vec<usize>>,
    /// `(package, facade class)` → changed files Java sees as that class.
    facades: HashMap<(String, String), Vec<usize>>,
}

impl Heads {
    /// Reads every text of a changed file that exists at the head; others are ignored.
    pub fn new(texts: &[(String, String)], index: &PathIndex<'_>) -> Heads {
        let mut heads = Heads::default();
        for (path, text) in texts {
            let Some(position) = index.find(path) else {
                continue;
            };
            let file = read(text);
            for name in &file.declarations {
                heads
                    .declared
                    .entry((file.package.clone(), name.to_string()))
                    .or_default()
                    .push(position);
            }
            let facade = file
                .jvm_name
                .map_or_else(|| default_facade(path), str::to_string);
            heads
                .facades
                .entry((file.package.clone(), facade))
                .or_default()
                .push(position);
        }
        heads
    }

    /// Whether any text was read.
    pub fn is_empty(&self) -> bool {
        self.facades.is_empty()
    }

    /// The changed files of `package` declaring `name` at the top level.
    pub fn declaring(&self, package: &str, name: &str) -> &[usize] {
        self.get(&self.declared, package, name)
    }

    /// The changed files Java sees as the class `package.class`.
    pub fn facade(&self, package: &str, class: &str) -> &[usize] {
        self.get(&self.facades, package, class)
    }

    fn get<'s>(
        &self,
        map: &'s HashMap<(String, String), Vec<usize>>,
        package: &str,
        name: &str,
    ) -> &'s [usize] {
        if map.is_empty() {
            return &[];
        }
        map.get(&(package.to_string(), name.to_string()))
            .map_or(&[], Vec::as_slice)
    }
}

/// Changed `.kt` files (existing at the head) that an import of `package.name` may point into
/// when no class file resolves it: those in a directory ending with the package's last
/// component (conventions let the directory omit the common root package) or, for a root
/// package, directly in a `kotlin` source directory.
pub fn candidates<'i>(
    package_path: &str,
    index: &'i PathIndex<'_>,
) -> impl Iterator<Item = usize> + 'i {
    let last = paths::file_name(package_path).to_string();
    let dirs: Vec<&str> = index
        .dirs_with_suffix(&last)
        .chain(index.dirs_with_suffix("kotlin"))
        .collect();
    dirs.into_iter().flat_map(move |dir| {
        index
            .in_dir(dir)
            .iter()
            .copied()
            .filter(move |&position| paths::extension(index.path(position)) == "kt")
    })
}

#[cfg(test)]
mod tests {
    use super::{default_facade, read, Heads, KotlinFile};
    use crate::review::hints::index::PathIndex;

    #[test]
    fn reads_package_facade_and_top_level_names() {
        let text = "@file:JvmName(\"Strings\")\n@file:JvmMultifileClass\n\
            package com.acme.internal\n\nimport java.lang.reflect.Type\n\n\
            /** fun notThis() in a doc */\n\
            fun <T> Type.rawType(bound: Map<String, T> = emptyMap()): Class<*> {\n  val local = 1\n  fun inner() {}\n  return x\n}\n\
            internal val Type.isNullable: Boolean get() = true\n\
            const val MAX_DEPTH = 3\n\
            val cache by lazy { mutableMapOf<String, Int>() }\n\
            private var <T> List<T>.secondOrNull: T? = null\n\
            typealias Handler = (String) -> Unit\n\
            data class Pair2(val a: Int, val b: Int) { fun member() = a }\n\
            enum class Mode { ON, OFF }\n\
            object Registry { val items = 1 }\n\
            sealed interface Shape\n\
            // fun commented()\n\
            val s = \"fun inString()\"\n";
        assert_eq!(
            read(text),
            KotlinFile {
                package: "com.acme.internal".to_string(),
                jvm_name: Some("Strings"),
                declarations: vec![
                    "rawType",
                    "isNullable",
                    "MAX_DEPTH",
                    "cache",
                    "secondOrNull",
                    "Handler",
                    "Pair2",
                    "Mode",
                    "Registry",
                    "Shape",
                    "s"
                ],
            }
        );
        assert_eq!(read("fun main() {}\n").package, "");
    }

    #[test]
    fn default_facades() {
        assert_eq!(default_facade("src/main/kotlin/a/Util.kt"), "UtilKt");
        assert_eq!(default_facade("a/-Extensions.kt"), "_ExtensionsKt");
        assert_eq!(default_facade("a/strings.kt"), "StringsKt");
    }

    #[test]
    fn lookups_skip_files_gone_at_the_head() {
        let entries = [
            ("lib/src/main/kotlin/internal/Util.kt", true),
            ("lib/src/main/kotlin/internal/Old.kt", false),
        ];
        let index = PathIndex::new(&entries);
        let texts = [
            (
                entries[0].0.to_string(),
                "package com.acme.internal\nfun rawType() = 1\n".to_string(),
            ),
            (
                entries[1].0.to_string(),
                "package com.acme.internal\nfun oldType() = 1\n".to_string(),
            ),
        ];
        let heads = Heads::new(&texts, &index);
        assert_eq!(heads.declaring("com.acme.internal", "rawType"), &[0]);
        assert_eq!(heads.facade("com.acme.internal", "UtilKt"), &[0]);
        assert!(heads.declaring("com.acme.internal", "oldType").is_empty());
        assert!(heads.declaring("com.acme", "rawType").is_empty());
    }
}
