//! Import blocks a hunk starts inside of, whose opening line is above the hunk.
//!
//! Why: most `dependsOn` misses measured on real pull requests (issue #32; recall 0.43 on a
//! 353-file Go range) were hunks that start inside a multi-line import block: git writes the
//! block's opening line as the hunk header's section text (`@@ -11,6 +11,7 @@ import (`), and
//! the visible lines below it are plainly imports, but no reader saw an `import` on them.
//! [`continued`] gives such a hunk's block back as a hunk of its own: the section text as its
//! first line, then the visible lines that continue the block, up to and including its close,
//! which the language's reader then reads like any block it sees whole.
//!
//! Git's section text is the nearest line above the hunk that starts with a letter, `_` or `$`
//! (its default rule; GitHub's diffs use it). So when that line opens an import block, no other
//! top-level declaration starts between it and the hunk: the hunk starts inside the block, or
//! after its close among blank lines, comments and attributes. Every visible line is checked
//! against the shape the block's lines have (Go: a quoted path, optionally aliased; Rust: the
//! rest of a `use` tree, nested groups by rustfmt's indentation; Python: names, optionally
//! `as` names; PHP: namespace names); one line of another shape (a call, a string in a function,
//! a `}` of something else) means the hunk is not inside the block, and nothing is returned.
//! A line that is only plausibly an import is not one: precision comes first.
//! A section text that is itself a whole import line (`import a.b.C;` above a hunk inside a Java
//! import list, `use crate::a;`, `from a import b`) is given back alone: lines above a hunk are
//! unchanged, so it is an import of the file at its head, and the reader reads it as any line.
//!
//! What not: forms whose every line is a whole import need nothing here (Java and Kotlin
//! `import` lists, C `#include` runs, C# `using`, Ruby `require`, CSS `@import`), and
//! JavaScript's specifier lists end with `} from "…"`, which its reader takes on its own. A
//! Rust item inside a nested group whose opening line is above the hunk has an unknown prefix
//! and is left out.

use super::Language;
use crate::review::patch::{DiffLine, Hunk, LineKind};

/// The hunk's import block, when its section text opens one of `language` and its visible lines
/// continue it: a hunk of the opening line and those lines, for the language's reader.
pub fn continued<'a>(hunk: &Hunk<'a>, language: Language) -> Option<Hunk<'a>> {
    let section = hunk.section();
    // The common case, a function's signature or nothing, costs a compare or two.
    let keyword = match language {
        Language::Go | Language::JavaKotlin => section.starts_with("import "),
        Language::Rust => section.starts_with("use ") || section.starts_with("pub"),
        Language::Python => section.starts_with("from ") || section.starts_with("import "),
        Language::JavaScript => section.starts_with("import ") || section.starts_with("export "),
        Language::CSharp => section.starts_with("using "),
        Language::Ruby => section.starts_with("require"),
        Language::Php => section.starts_with("use "),
        Language::Swift | Language::Scala => section.starts_with("import "),
        Language::C | Language::Css => false,
    };
    if !keyword {
        return None;
    }
    let visible = hunk
        .lines
        .iter()
        .filter(|line| line.is_visible())
        .map(|line| line.text);
    let mut kept = vec![section];
    match language {
        Language::Go if go_opener(section) => go(visible, &mut kept)?,
        Language::Rust if rust_opener(section) => rust(visible, &mut kept)?,
        Language::Python if python_opener(section) => python(visible, &mut kept)?,
        Language::Php if php_opener(section) => php(visible, &mut kept)?,
        // A whole import line above the hunk (inside an import list) is an import of the file
        // at its head too: lines above a hunk are unchanged.
        language if whole_import(section, language) => {}
        _ => return None,
    }
    Some(Hunk {
        header: hunk.header,
        old_start: hunk.old_start,
        old_lines: 0,
        new_start: hunk.new_start,
        new_lines: 0,
        lines: kept
            .into_iter()
            .map(|text| DiffLine {
                kind: LineKind::Context,
                text,
                no_newline: false,
            })
            .collect(),
    })
}

/// Whether the section text is a whole single-line import of the language (`import a.b.C;`,
/// `use crate::a;`, `from a import b`), which the language's reader then reads as it reads any
/// line; the opening lines of blocks are not (their lines come from [`continued`]).
fn whole_import(section: &str, language: Language) -> bool {
    let starts = |words: &[&str]| words.iter().any(|word| section.starts_with(word));
    match language {
        Language::Go => starts(&["import "]) && !go_opener(section),
        Language::Rust => {
            let line = code(section, &["//"]);
            line.ends_with(';') && (starts(&["use ", "pub use ", "pub(crate) use "]))
        }
        Language::Python => {
            let line = code(section, &["#"]);
            (starts(&["import "]) || starts(&["from "]) && line.contains(" import "))
                && !line.ends_with(['(', '\\', ','])
        }
        Language::JavaKotlin => starts(&["import "]),
        Language::JavaScript => {
            let line = code(section, &["//"]);
            starts(&["import ", "export "])
                && (line.contains(" from '")
                    || line.contains(" from \"")
                    || starts(&["import '", "import \""]))
        }
        Language::CSharp => starts(&["using "]) && code(section, &["//"]).ends_with(';'),
        Language::Ruby => starts(&["require ", "require_relative "]),
        Language::Php => starts(&["use "]) && code(section, &["//", "#"]).ends_with(';'),
        // `import M` (Swift: `import struct M.T` too); a Scala selector list opened above the
        // hunk (`import a.b.{`) is not whole.
        Language::Swift => starts(&["import "]),
        Language::Scala => starts(&["import "]) && !code(section, &["//"]).ends_with(['{', ',']),
        Language::C | Language::Css => false,
    }
}

/// `text` without a comment that `opener` starts (import paths and names hold no such text).
fn code<'t>(text: &'t str, openers: &[&str]) -> &'t str {
    let end = openers
        .iter()
        .filter_map(|opener| text.find(opener))
        .min()
        .unwrap_or(text.len());
    text.get(..end).unwrap_or(text).trim()
}

/// A name of the languages read here: letters (any script), digits and `_`, not starting with a
/// digit.
fn is_name(word: &str) -> bool {
    word.chars().next().is_some_and(|c| !c.is_ascii_digit())
        && word.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Go keywords that may come before a string on a line of code (`return "x"`); no alias is one.
const GO_KEYWORDS: &[&str] = &["return", "case", "go", "defer", "var", "const", "package"];

/// gofmt's `import (`.
fn go_opener(section: &str) -> bool {
    code(section, &["//"]) == "import ("
}

/// Lines of a Go import block: `"path"`, `alias "path"`, `_ "path"`, `. "path"`, blank lines
/// and comments, up to `)`.
fn go<'a>(visible: impl Iterator<Item = &'a str>, kept: &mut Vec<&'a str>) -> Option<()> {
    for text in visible {
        let line = code(text, &["//"]);
        if line == ")" {
            kept.push(text);
            return Some(());
        }
        if !line.is_empty() {
            let path = match line.split_once([' ', '\t']) {
                Some((alias, path))
                    if alias == "_"
                        || alias == "."
                        || (is_name(alias) && !GO_KEYWORDS.contains(&alias)) =>
                {
                    path.trim()
                }
                Some(_) => return None,
                None => line,
            };
            let quoted = path
                .strip_prefix('"')
                .and_then(|rest| rest.strip_suffix('"'))
                .or_else(|| path.strip_prefix('`')?.strip_suffix('`'));
            let plain = quoted.is_some_and(|inner| {
                !inner.is_empty()
                    && !inner.contains(|c: char| c.is_whitespace() || "\"`\\".contains(c))
            });
            if !plain {
                return None;
            }
        }
        kept.push(text);
    }
    Some(())
}

/// `use path::{`, `pub use path::{`, `pub(crate) use {`: a use tree left open.
fn rust_opener(section: &str) -> bool {
    let mut rest = code(section, &["//"]);
    if let Some(after) = rest.strip_prefix("pub") {
        rest = match after.strip_prefix('(') {
            Some(scope) => scope.split_once(')').map_or("", |(_, after)| after),
            None => after,
        };
        if !rest.starts_with([' ', '\t']) {
            return false;
        }
        rest = rest.trim_start();
    }
    let Some(tree) = rest
        .strip_prefix("use")
        .filter(|tree| tree.starts_with([' ', '\t']))
        .and_then(|tree| tree.trim().strip_suffix('{'))
    else {
        return false;
    };
    let path = tree.strip_prefix("::").unwrap_or(tree);
    path.is_empty()
        || path
            .strip_suffix("::")
            .is_some_and(|path| path.split("::").all(is_name))
}

/// The nesting level of a line by rustfmt's indentation (four spaces or one tab a level), or
/// `None` for other indentation, which this reading does not trust.
fn rust_level(text: &str) -> Option<usize> {
    let indent = text.len() - text.trim_start_matches([' ', '\t']).len();
    let (spaces, tabs) = text
        .get(..indent)
        .unwrap_or("")
        .bytes()
        .fold(
            (0, 0),
            |(s, t), b| if b == b' ' { (s + 1, t) } else { (s, t + 1) },
        );
    match (spaces, tabs) {
        (spaces, 0) if spaces % 4 == 0 => Some(spaces / 4),
        (0, tabs) => Some(tabs),
        _ => None,
    }
}

/// Lines of the rest of a Rust use tree, up to the `};` that closes it. Items of the opened group
/// sit one level in; deeper lines belong to a nested group (`a::{`), kept when its opening line
/// is visible and left out otherwise (their prefix is above the hunk).
fn rust<'a>(visible: impl Iterator<Item = &'a str>, kept: &mut Vec<&'a str>) -> Option<()> {
    // Levels of the nested groups opened by kept lines and not yet closed.
    let mut open: Vec<usize> = Vec::new();
    // The deepest level whose group's opening line is known.
    let mut known = 1;
    for text in visible {
        let line = code(text, &["//"]);
        if line.is_empty() {
            kept.push(text);
            continue;
        }
        let level = rust_level(text)?;
        if level == 0 {
            if line == "};" && open.is_empty() {
                kept.push(text);
                return Some(());
            }
            return None;
        }
        let tree_text = line
            .chars()
            .all(|c| c.is_alphanumeric() || "_:{},* ".contains(c));
        if !tree_text {
            return None;
        }
        if line.starts_with('}') {
            if line != "}," && line != "}" {
                return None;
            }
            if open.last() == Some(&level) {
                open.pop();
                kept.push(text);
            }
            known = known.min(level);
        } else if level <= known {
            if open.last().is_some_and(|&last| last >= level) {
                // A group opened by a kept line ends without its `}`: not rustfmt's shape.
                return None;
            }
            kept.push(text);
            let opens = line.matches('{').count() > line.matches('}').count();
            if opens {
                open.push(level);
                known = level + 1;
            } else {
                known = level;
            }
        }
        // Deeper than any known group: inside a nested group opened above the hunk; left out.
    }
    Some(())
}

/// `from module import (`, optionally with the first names on the same line.
fn python_opener(section: &str) -> bool {
    let line = code(section, &["#"]);
    let Some((head, names)) = line.split_once(" import (") else {
        return false;
    };
    let module = head.strip_prefix("from ").map(str::trim).unwrap_or("");
    let dotted = module.trim_start_matches('.');
    let module_ok = if dotted.is_empty() {
        !module.is_empty()
    } else {
        dotted.split('.').all(is_name)
    };
    module_ok && !names.contains(')') && python_names(names)
}

/// Comma-separated `name` or `name as alias`, empty parts allowed (a trailing comma).
fn python_names(text: &str) -> bool {
    text.split(',').all(|part| {
        let words: Vec<&str> = part.split_whitespace().collect();
        match words.as_slice() {
            [] => true,
            [name] => is_name(name) && !PYTHON_KEYWORDS.contains(name),
            [name, "as", alias] => is_name(name) && is_name(alias),
            _ => false,
        }
    })
}

/// Python keywords a line may hold alone (`pass`), which no import list names.
const PYTHON_KEYWORDS: &[&str] = &[
    "pass", "return", "break", "continue", "raise", "yield", "None", "True", "False", "else",
    "try", "finally", "global", "nonlocal", "del", "assert", "import", "from",
];

/// Lines of a parenthesised Python import list, up to its `)`.
fn python<'a>(visible: impl Iterator<Item = &'a str>, kept: &mut Vec<&'a str>) -> Option<()> {
    for text in visible {
        let line = code(text, &["#"]);
        let (names, closes) = match line.strip_suffix(')') {
            Some(names) => (names, true),
            None => (line, false),
        };
        if names.contains(['(', ')']) || !python_names(names) {
            return None;
        }
        kept.push(text);
        if closes {
            return Some(());
        }
    }
    Some(())
}

/// `use A\B\{`, PHP's group use left open.
fn php_opener(section: &str) -> bool {
    code(section, &["//", "#"])
        .strip_prefix("use ")
        .and_then(|rest| rest.trim().strip_suffix("\\{"))
        .is_some_and(php_name)
}

/// `A\B\C`, optionally with a leading `\`.
fn php_name(name: &str) -> bool {
    let name = name.strip_prefix('\\').unwrap_or(name);
    name.split('\\').all(is_name)
}

/// Lines of a PHP group use, up to its `};`.
fn php<'a>(visible: impl Iterator<Item = &'a str>, kept: &mut Vec<&'a str>) -> Option<()> {
    for text in visible {
        let line = code(text, &["//", "#"]);
        if line == "};" {
            kept.push(text);
            return Some(());
        }
        let names = line.split(',').all(|part| {
            let words: Vec<&str> = part.split_whitespace().collect();
            match words.as_slice() {
                [] => true,
                [name] | ["function" | "const", name] => php_name(name),
                [name, "as", alias] | ["function" | "const", name, "as", alias] => {
                    php_name(name) && is_name(alias)
                }
                _ => false,
            }
        });
        if !names {
            return None;
        }
        kept.push(text);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::{continued, go_opener, python_opener, rust_opener, Language};
    use crate::review::patch::parse_patch;

    /// The lines `continued` keeps for the hunk `@@ … @@ <section>` over `body` (lines with
    /// their markers), joined by `|`, or `-` for none.
    fn check(language: Language, section: &str, body: &str, expected: &str) {
        let old = body.lines().filter(|line| !line.starts_with('+')).count();
        let new = body.lines().filter(|line| !line.starts_with('-')).count();
        let patch = format!("@@ -1,{old} +1,{new} @@ {section}\n{body}");
        let hunks = parse_patch(&patch).unwrap_or_else(|error| panic!("{error}: {patch}"));
        let got = hunks
            .first()
            .and_then(|hunk| continued(hunk, language))
            .map_or("-".to_string(), |hunk| {
                hunk.lines
                    .iter()
                    .map(|line| line.text)
                    .collect::<Vec<_>>()
                    .join("|")
            });
        assert_eq!(got, expected, "{patch}");
    }

    #[test]
    fn openers() {
        assert!(go_opener("import ("));
        assert!(go_opener("import ( // grouped"));
        assert!(!go_opener("import \"fmt\""));
        assert!(!go_opener("func main() {"));
        assert!(rust_opener("use crate::{"));
        assert!(rust_opener("pub(crate) use super::a::{"));
        assert!(rust_opener("pub use {"));
        assert!(rust_opener("use ::serde::{"));
        assert!(!rust_opener("use crate::a;"));
        assert!(!rust_opener("pub fn user() -> Vec<u8> {"));
        assert!(!rust_opener("used::{"));
        assert!(!rust_opener("use crate::a::{b, c::{"));
        assert!(python_opener("from pkg.sub import ("));
        assert!(python_opener("from . import (a, b,"));
        assert!(python_opener("from ..x import (  # comment"));
        assert!(!python_opener("from x import (a)"));
        assert!(!python_opener("import (x"));
        assert!(!python_opener("def f(x, y):"));
    }

    #[test]
    fn go_blocks() {
        // The example.
        check(
            Language::Go,
            "import (",
            " \t\"github.com/acme/shop/client/transport\"\n+\t\"github.com/acme/shop/tracing\"\n )\n \n func main() {",
            "import (|\t\"github.com/acme/shop/client/transport\"|\t\"github.com/acme/shop/tracing\"|)",
        );
        check(
            Language::Go,
            "import (",
            " \tv1 \"k8s.io/api/core/v1\"\n+\t_ \"example.com/a/b\" // side effects\n \n-\t. \"example.com/c\"\n+\t. \"example.com/d\"",
            "import (|\tv1 \"k8s.io/api/core/v1\"|\t_ \"example.com/a/b\" // side effects||\t. \"example.com/d\"",
        );
        // After the block: a function's strings are no imports.
        check(
            Language::Go,
            "import (",
            " \n func f() {\n+\tcall(\"example.com/a\")\n \t\"example.com/b\"\n }",
            "-",
        );
        check(
            Language::Go,
            "import (",
            "+\t\"example.com/a\",\n \t\"example.com/b\"",
            "-",
        );
        // A `)` that closes a call, after a string line.
        check(
            Language::Go,
            "import (",
            "+\t\"example.com/a\" + x\n )",
            "-",
        );
        check(
            Language::Go,
            "func main() {",
            "+\t\"example.com/a\"\n )",
            "-",
        );
    }

    #[test]
    fn rust_use_trees() {
        check(
            Language::Rust,
            "use crate::{",
            "     review::hints::paths,\n+    tools::answer,\n };\n \n fn main() {}",
            "use crate::{|    review::hints::paths,|    tools::answer,|};",
        );
        // Starting inside a nested group: its items' prefix is above the hunk.
        check(
            Language::Rust,
            "use crate::{",
            "         Hunk,\n+        LineKind,\n     },\n     store::{\n+        Kv,\n     },\n };",
            "use crate::{|    store::{|        Kv,|    },|};",
        );
        check(
            Language::Rust,
            "pub use self::{",
            " \ta::B,\n+\tc,\n };",
            "pub use self::{|\ta::B,|\tc,|};",
        );
        // Two-space indentation is not rustfmt's: not trusted.
        check(Language::Rust, "use crate::{", "   a,\n+  b,", "-");
        // After the tree: other code.
        check(
            Language::Rust,
            "use crate::{",
            " \n #[derive(Debug)]\n+struct A;",
            "-",
        );
        check(Language::Rust, "use crate::{", "     a,\n+    b(1),", "-");
        check(Language::Rust, "use crate::{", "+    a,\n }\n", "-");
    }

    #[test]
    fn python_lists() {
        check(
            Language::Python,
            "from shop.api import (",
            "     client,\n+    Tracer as T,  # new\n )\n def f():",
            "from shop.api import (|    client,|    Tracer as T,  # new|)",
        );
        check(
            Language::Python,
            "from shop.api import (",
            "+    a, b)\n x = 1",
            "from shop.api import (|    a, b)",
        );
        check(
            Language::Python,
            "from shop.api import (",
            " \n+x = call(1)",
            "-",
        );
        check(
            Language::Python,
            "from shop.api import (",
            "+    \"shop.api\",\n )",
            "-",
        );
    }

    #[test]
    fn php_group_uses() {
        check(
            Language::Php,
            "use App\\Models\\{",
            "     User,\n+    Team as Group,\n };",
            "use App\\Models\\{|    User,|    Team as Group,|};",
        );
        check(
            Language::Php,
            "use App\\Models\\{",
            "+    $x = 1;\n };",
            "-",
        );
    }

    #[test]
    fn whole_import_lines_above_the_hunk() {
        check(
            Language::JavaKotlin,
            "import com.acme.shop.billing.Invoice;",
            " import com.acme.shop.inventory.Stock;\n+import com.acme.shop.tracing.Tracer;",
            "import com.acme.shop.billing.Invoice;",
        );
        check(
            Language::Rust,
            "use crate::a::b;",
            "+use crate::c;",
            "use crate::a::b;",
        );
        check(Language::Rust, "use crate::a::{b,", "+    c};", "-");
        check(
            Language::Python,
            "from shop import billing  # why",
            "+import os",
            "from shop import billing  # why",
        );
        check(
            Language::Python,
            "from shop import billing, \\",
            "+    money",
            "-",
        );
        check(
            Language::JavaScript,
            "import { a } from './a';",
            "+import b from './b';",
            "import { a } from './a';",
        );
        check(
            Language::JavaScript,
            "export function f() {",
            "+  g();",
            "-",
        );
        check(
            Language::Go,
            "import \"fmt\"",
            "+var x = 1",
            "import \"fmt\"",
        );
        check(
            Language::CSharp,
            "using Acme.Shop;",
            "+using Acme.Billing;",
            "using Acme.Shop;",
        );
        check(
            Language::Ruby,
            "require 'shop/billing'",
            "+x = 1",
            "require 'shop/billing'",
        );
        check(Language::C, "include_guard", "+#include \"a.h\"", "-");
    }

    #[test]
    fn other_languages_and_sections_are_left_alone() {
        check(
            Language::JavaKotlin,
            "public class Order {",
            " \"a\"\n+\"b\"",
            "-",
        );
        check(Language::Go, "const (", " \tA = 1\n+\tB = 2", "-");
        check(Language::Go, "", " a\n+b", "-");
    }
}
