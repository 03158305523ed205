//! CSS, SCSS, Sass and Less `@import`, `@use` and `@forward`.
//!
//! Why: `dependsOn` for stylesheets.
//! Read forms: `@import 'a', 'b';`, `@use 'x' as y;`, `@forward 'x';`, Less `@import (reference)
//! 'x';`. `url(…)` is not counted, in `@import` or elsewhere: it names assets or remote sheets.
//! Resolution, against changed files only, from the importer's directory: as written, with the
//! importer's family of extensions, and for Sass the partial `_x.scss` and `x/_index.scss` forms.
//! Built-in modules (`sass:math`), remote sheets and `~package` imports are skipped.
//!
//! What not: no load-path configuration, no CSS-in-JS.

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const CSS: Syntax = Syntax {
    line_comments: &[],
    block_comments: true,
    quotes: b"\"'",
    multiline_quote: None,
    triple_quotes: false,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: false,
};

/// SCSS, Sass and Less also have `//` comments.
const SCSS: Syntax = Syntax {
    line_comments: &["//"],
    ..CSS
};

const TRIGGERS: &[&str] = &["@import", "@use", "@forward"];

/// Imported sheets in the visible lines of the hunks of the file at `path`.
pub fn imports<'a>(path: &str, hunks: &[Hunk<'a>]) -> Vec<&'a str> {
    let syntax = if paths::extension(path) == "css" {
        &CSS
    } else {
        &SCSS
    };
    let mut found = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, syntax, &mut tokens);
        let code = lex::code(&tokens);
        for (i, token) in code.iter().enumerate() {
            let Tok::Ident(rule @ ("import" | "use" | "forward")) = token else {
                continue;
            };
            let at_rule = i
                .checked_sub(1)
                .and_then(|before| code.get(before))
                .is_some_and(|before| *before == Tok::Punct(b'@'));
            if !at_rule {
                continue;
            }
            let mut j = i + 1;
            if code.get(j) == Some(&Tok::Punct(b'(')) {
                // Less import options, such as `(reference)` or `(css, optional)`.
                let close = code
                    .iter()
                    .skip(j)
                    .take(16)
                    .position(|t| *t == Tok::Punct(b')'));
                j += close.map_or(0, |at| at + 1);
            }
            while let Some(Tok::Str(sheet)) = code.get(j) {
                found.push(*sheet);
                if *rule != "import" || code.get(j + 1) != Some(&Tok::Punct(b',')) {
                    break;
                }
                j += 2;
            }
        }
    }
    found
}

/// Adds the changed file an import in `importer` resolves to.
pub fn resolve(importer: &str, sheet: &str, index: &PathIndex<'_>, out: &mut Vec<usize>) {
    if sheet.contains(':') || sheet.starts_with(['~', '/']) || sheet.contains("//") {
        return;
    }
    let Some(base) = paths::join(paths::parent(importer), sheet) else {
        return;
    };
    let found = match paths::extension(importer) {
        "scss" | "sass" => {
            let partial = paths::join(
                paths::parent(&base),
                &format!("_{}", paths::file_name(&base)),
            );
            index
                .probe(&base, &["", ".scss", ".sass", ".css"])
                .or_else(|| partial.and_then(|p| index.probe(&p, &["", ".scss", ".sass"])))
                .or_else(|| index.probe(&format!("{base}/_index"), &[".scss", ".sass"]))
                .or_else(|| index.probe(&format!("{base}/index"), &[".scss", ".sass"]))
        }
        "less" => index.probe(&base, &["", ".less", ".css"]),
        _ => index.probe(&base, &[""]),
    };
    out.extend(found);
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;

    #[test]
    fn sass_modules_and_partials() {
        check(
            &[
                (
                    "scss/bootstrap.scss",
                    "+@import \"functions\", \"variables\";\n+@use 'mixins/banner' as banner;\n\
                     +@forward \"utilities\";\n+@use \"sass:math\";",
                ),
                ("scss/_functions.scss", ""),
                ("scss/_variables.scss", ""),
                ("scss/mixins/_banner.scss", ""),
                ("scss/utilities/_index.scss", ""),
            ],
            "scss/bootstrap.scss -> scss/_functions.scss, scss/_variables.scss, \
             scss/mixins/_banner.scss, scss/utilities/_index.scss",
        );
    }

    #[test]
    fn css_and_less() {
        check(
            &[
                (
                    "web/site.css",
                    "+@import \"./reset.css\";\n+@import url(\"theme.css\");",
                ),
                ("web/reset.css", ""),
                ("web/theme.css", ""),
                ("styles/main.less", "+@import (reference) \"vars\";"),
                ("styles/vars.less", ""),
            ],
            "web/site.css -> web/reset.css\nstyles/main.less -> styles/vars.less",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "a/main.scss",
                    "+// @import 'b';\n+/* @import 'c'; */\n-@import 'd';\n+@import '~bootstrap/e';\n\
                     +.x { background: url('f.scss'); }\n+$s: 'import g';",
                ),
                ("a/_b.scss", ""),
                ("a/_c.scss", ""),
                ("a/_d.scss", ""),
                ("a/e.scss", ""),
                ("a/f.scss", ""),
                ("a/g.scss", ""),
            ],
            "",
        );
    }
}
