//! C, C++ and Objective-C `#include "…"` and `#import "…"`.
//!
//! Why: `dependsOn` for C-family files.
//! Resolution, against changed files only: the quoted path from the including file's directory,
//! then as a path suffix of any changed file (include directories are not known), the closest one.
//! Angle-bracket includes are system or library headers and are skipped.
//!
//! What not: no include-path configuration, no macros, no `#if` evaluation.

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const SYNTAX: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: true,
    quotes: b"\"'",
    multiline_quote: None,
    triple_quotes: false,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: true,
};

const TRIGGERS: &[&str] = &["include", "import"];

/// Quoted include paths in the visible lines.
pub fn includes<'a>(hunks: &[Hunk<'a>]) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        for window in tokens.windows(4) {
            if let [Tok::Bol(_), Tok::Punct(b'#'), Tok::Ident(directive), Tok::Str(path)] = window {
                if matches!(*directive, "include" | "import" | "include_next") && !path.is_empty() {
                    found.push(*path);
                }
            }
        }
    }
    found
}

/// Adds the changed file an include in `importer` resolves to.
pub fn resolve(importer: &str, include: &str, index: &PathIndex<'_>, out: &mut Vec<usize>) {
    let beside = paths::join(paths::parent(importer), include).and_then(|path| index.find(&path));
    let found = beside.or_else(|| {
        let suffix = paths::join("", include)?;
        index.closest(importer, index.with_suffix(&suffix))
    });
    out.extend(found);
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;

    #[test]
    fn includes_from_cpython_and_abseil() {
        check(
            &[
                (
                    "Objects/listobject.c",
                    "+#include \"Python.h\"\n+#include \"pycore_list.h\"\n+#  include \"clinic/listobject.c.h\"\n\
                     +#include <stddef.h>",
                ),
                ("Include/Python.h", ""),
                ("Include/internal/pycore_list.h", ""),
                ("Objects/clinic/listobject.c.h", ""),
                ("absl/strings/str_cat.cc", "+#include \"absl/strings/str_cat.h\""),
                ("absl/strings/str_cat.h", ""),
                ("Sources/App/View.m", "+#import \"../Model/Item.h\""),
                ("Sources/Model/Item.h", ""),
            ],
            "Objects/listobject.c -> Include/Python.h, Include/internal/pycore_list.h, \
             Objects/clinic/listobject.c.h\n\
             absl/strings/str_cat.cc -> absl/strings/str_cat.h\n\
             Sources/App/View.m -> Sources/Model/Item.h",
        );
    }

    #[test]
    fn closest_header_wins() {
        check(
            &[
                ("lib/net/socket.c", "+#include \"util.h\""),
                ("lib/fs/util.h", ""),
                ("lib/net/sub/util.h", ""),
                ("other/util.h", ""),
            ],
            "lib/net/socket.c -> lib/net/sub/util.h",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "src/a.c",
                    "+// #include \"b.h\"\n+/* #include \"c.h\" */\n-#include \"d.h\"\n\
                     +#include <e.h>\n+const char *s = \"#include \\\"f.h\\\"\";\n+#include \"../../../g.h\"",
                ),
                ("src/b.h", ""),
                ("src/c.h", ""),
                ("src/d.h", ""),
                ("src/e.h", ""),
                ("src/f.h", ""),
                ("g.h", ""),
            ],
            "",
        );
    }
}
