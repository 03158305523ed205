//! C, C++ and Objective-C `#include "…"` and `#import "…"`.
//!
//! Why: `dependsOn` for C-family files.
//! Resolution, against changed files only: the quoted path from the including file's directory,
//! then from the include directories the build files name (`project::c`), then as a path suffix
//! of any changed file (for directories the build names in ways not read), the closest one.
//! Angle-bracket includes resolve through the build's include directories only (elsewhere they
//! are system or library headers).
//!
//! What not: no per-target include paths, no macros, no `#if` evaluation.

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

/// Include paths in the visible lines, with whether each was written in angle brackets.
pub fn includes(hunks: &[Hunk<'_>]) -> Vec<(String, bool)> {
    let mut found = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        for (at, window) in tokens.windows(4).enumerate() {
            let [Tok::Bol(_), Tok::Punct(b'#'), Tok::Ident(directive), next] = window else {
                continue;
            };
            if !matches!(*directive, "include" | "import" | "include_next") {
                continue;
            }
            match next {
                Tok::Str(path) if !path.is_empty() => found.push((path.to_string(), false)),
                Tok::Punct(b'<') => {
                    // `<a/b-c.h>` comes as words and punctuation; spaces are not kept.
                    let mut path = String::new();
                    for token in tokens.get(at + 4..).unwrap_or(&[]) {
                        match token {
                            Tok::Ident(word) => path.push_str(word),
                            Tok::Punct(b'>') => break,
                            Tok::Punct(byte) => path.push(char::from(*byte)),
                            _ => break,
                        }
                    }
                    found.push((path, true));
                }
                _ => {}
            }
        }
    }
    found
}

/// Adds the changed file an include in `importer` resolves to: beside it, else in the include
/// directory closest to it, else the closest changed file with that path suffix.
pub fn resolve(
    importer: &str,
    include: (&str, bool),
    include_dirs: &[String],
    index: &PathIndex<'_>,
    out: &mut Vec<usize>,
) {
    let (include, angled) = include;
    let beside = paths::join(paths::parent(importer), include)
        .filter(|_| !angled)
        .and_then(|path| index.find(&path));
    let in_dirs = beside.or_else(|| {
        let in_dirs = include_dirs
            .iter()
            .filter_map(|dir| index.find(&paths::join(dir, include)?));
        index.closest(importer, in_dirs)
    });
    // `<…>` names a system or library header unless an include directory of the build has it.
    if angled {
        return out.extend(in_dirs);
    }
    let found = in_dirs.or_else(|| {
        let suffix = paths::join("", include)?;
        index.closest(importer, index.with_suffix(&suffix))
    });
    out.extend(found);
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::{check_deps as check, check_deps_in as check_in};

    #[test]
    fn include_directories_pick_the_header_the_compiler_picks() {
        check_in(
            &[
                (
                    "tools/cli/main.c",
                    "+#include \"util.h\"\n+#include \"zstd/common.h\"\n+#include <zstd/zstd-errors.h>\n\
                     +#include <stdio.h>\n+#include <sub/util.h>",
                ),
                // Closer by path, but in no include directory.
                ("tools/cli/sub/util.h", ""),
                ("lib/include/util.h", ""),
                ("tools/zstd/common.h", ""),
                ("lib/include/zstd/common.h", ""),
                ("lib/include/zstd/zstd-errors.h", ""),
                ("tools/cli/stdio.h", ""),
            ],
            &[(
                "CMakeLists.txt",
                "include_directories(${PROJECT_SOURCE_DIR}/lib/include)",
            )],
            "tools/cli/main.c -> lib/include/util.h, lib/include/zstd/common.h, \
             lib/include/zstd/zstd-errors.h",
        );
    }

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
