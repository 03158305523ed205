//! PHP `use` statements (PSR-4) and `require`/`include` of relative files.
//!
//! Why: `dependsOn` for PHP files.
//! Read forms: top-level `use A\B\C;`, `use A\B\C as D;`, `use function A\b;`, grouped
//! `use A\B\{C, D as E};`, several names separated by commas; `require`, `require_once`,
//! `include`, `include_once` of a string, optionally after `__DIR__ .` or `dirname(__FILE__) .`.
//! Indented `use` lines (trait uses inside classes) and closures' `use (…)` are skipped.
//! Resolution, against changed files only: PSR-4 maps a namespace prefix to a directory, so
//! `A\B\C` is tried as the path suffix `A/B/C.php`, then without leading parts down to two
//! (`App\Models\User` finds `app/Models/User.php`), the closest one; includes from the importer's
//! directory, then from the repository root. Before that, the PSR-4 maps of the `composer.json`
//! files read at the head (`project::composer`): the longest prefix of the name that maps to a
//! directory holding the changed file (`Acme\Http\Client` with `"Acme\Http\": "src/"` is
//! `src/Client.php`).
//!
//! What not: no PSR-0 or classmap autoloading, no class references without `use`.

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const SYNTAX: Syntax = Syntax {
    line_comments: &["//", "#"],
    block_comments: true,
    quotes: b"\"'",
    multiline_quote: None,
    triple_quotes: false,
    hash_bracket_is_code: true,
    begin_end_comments: false,
    star_lines_are_comments: true,
};

const TRIGGERS: &[&str] = &["use", "require", "include"];

/// A PHP reference to another file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reference<'a> {
    /// A class, function or constant name, its parts in order.
    Use(Vec<&'a str>),
    /// A required or included path, and whether it was anchored with `__DIR__`/`__FILE__`.
    Include { path: &'a str, from_dir: bool },
}

/// References in the visible lines of the hunks.
pub fn references<'a>(hunks: &[Hunk<'a>]) -> Vec<Reference<'a>> {
    let mut found = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        // A group use may span lines (`use A\B\{` … `};`): it is read without line markers.
        let code = lex::code(&tokens);
        let mut code_at = 0;
        for (i, token) in tokens.iter().enumerate() {
            let before = i.checked_sub(1).and_then(|b| tokens.get(b));
            if !matches!(token, Tok::Bol(_)) {
                code_at += 1;
            }
            match token {
                Tok::Ident("use") if before == Some(&Tok::Bol(0)) => {
                    read_use(&code, code_at, &mut found);
                }
                Tok::Ident("require" | "require_once" | "include" | "include_once")
                    if !matches!(before, Some(Tok::Punct(b'>' | b':' | b'$'))) =>
                {
                    read_include(&tokens, i + 1, &mut found);
                }
                _ => {}
            }
        }
    }
    found
}

fn read_use<'a>(tokens: &[Tok<'a>], mut i: usize, out: &mut Vec<Reference<'a>>) {
    loop {
        if matches!(tokens.get(i), Some(Tok::Ident("function" | "const"))) {
            i += 1;
        }
        let (name, next) = qualified(tokens, i);
        i = next;
        if name.is_empty() {
            return;
        }
        if let (Some(Tok::Punct(b'\\')), Some(Tok::Punct(b'{'))) =
            (tokens.get(i), tokens.get(i + 1))
        {
            i += 2;
            loop {
                let (item, next) = qualified(tokens, i);
                i = skip_alias(tokens, next);
                if !item.is_empty() {
                    let mut full = name.clone();
                    full.extend(item);
                    out.push(Reference::Use(full));
                }
                match tokens.get(i) {
                    Some(Tok::Punct(b',')) => i += 1,
                    Some(Tok::Punct(b'}')) => {
                        i += 1;
                        break;
                    }
                    _ => return,
                }
            }
        } else {
            i = skip_alias(tokens, i);
            out.push(Reference::Use(name));
        }
        match tokens.get(i) {
            Some(Tok::Punct(b',')) => i += 1,
            _ => return,
        }
    }
}

/// Reads `\A\B\C` (leading backslash optional); stops before a `\{` group.
fn qualified<'a>(tokens: &[Tok<'a>], mut i: usize) -> (Vec<&'a str>, usize) {
    let mut parts = Vec::new();
    if tokens.get(i) == Some(&Tok::Punct(b'\\')) {
        i += 1;
    }
    while let Some(Tok::Ident(part)) = tokens.get(i) {
        parts.push(*part);
        i += 1;
        match (tokens.get(i), tokens.get(i + 1)) {
            (Some(Tok::Punct(b'\\')), Some(Tok::Ident(_))) => i += 1,
            _ => break,
        }
    }
    (parts, i)
}

fn skip_alias(tokens: &[Tok<'_>], i: usize) -> usize {
    match (tokens.get(i), tokens.get(i + 1)) {
        (Some(Tok::Ident("as")), Some(Tok::Ident(_))) => i + 2,
        _ => i,
    }
}

fn read_include<'a>(tokens: &[Tok<'a>], start: usize, out: &mut Vec<Reference<'a>>) {
    let mut from_dir = false;
    for token in tokens.iter().skip(start).take(12) {
        match token {
            Tok::Ident("__DIR__" | "__FILE__") => from_dir = true,
            Tok::Str(path) if !path.is_empty() => {
                out.push(Reference::Include { path, from_dir });
                return;
            }
            Tok::Punct(b';') | Tok::Bol(_) => return,
            _ => {}
        }
    }
}

/// Adds the changed file a reference in `importer` resolves to.
pub fn resolve(
    importer: &str,
    reference: &Reference<'_>,
    psr4: &[(String, String)],
    index: &PathIndex<'_>,
    out: &mut Vec<usize>,
) {
    match reference {
        Reference::Use(parts) => {
            if !psr4.is_empty() {
                let name = parts.join("\\");
                let mapped = psr4.iter().find_map(|(prefix, dir)| {
                    let rest = name.strip_prefix(prefix.as_str())?;
                    let file = format!("{}.php", rest.replace('\\', "/"));
                    index.find(&paths::join(dir, &file)?)
                });
                if let Some(found) = mapped {
                    out.push(found);
                    return;
                }
            }
            let shortest = parts.len().min(2);
            for skip in 0..=parts.len().saturating_sub(shortest) {
                let tail = parts.get(skip..).unwrap_or(&[]);
                if tail.len() < 2 {
                    break;
                }
                let suffix = format!("{}.php", tail.join("/"));
                if let Some(found) = index.closest(importer, index.with_suffix(&suffix)) {
                    out.push(found);
                    return;
                }
            }
        }
        Reference::Include { path, from_dir } => {
            let dir = paths::parent(importer);
            let relative = if *from_dir {
                path.trim_start_matches('/')
            } else {
                path
            };
            let beside = paths::join(dir, relative).and_then(|p| index.find(&p));
            let from_root = (!from_dir)
                .then(|| paths::join("", relative).and_then(|p| index.find(&p)))
                .flatten();
            out.extend(beside.or(from_root));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;
    use crate::review::hints::testing::check_deps_in;

    #[test]
    fn composer_psr4_maps() {
        let files = [
            (
                "packages/http/tests/Unit/ClientTest.php",
                "+<?php\n+use Acme\\Http\\Client;\n+use Acme\\Http\\Tests\\Fixtures\\Fake;\n+use Acme\\Http\\Gone;",
            ),
            ("packages/http/src/Client.php", ""),
            ("packages/http/tests/Fixtures/Fake.php", ""),
            ("packages/other/src/Gone.php", ""),
        ];
        let composer = r#"{"autoload": {"psr-4": {"Acme\\Http\\": "src/"}},
            "autoload-dev": {"psr-4": {"Acme\\Http\\Tests\\": "tests/"}}}"#;
        check_deps_in(
            &files,
            &[("packages/http/composer.json", composer)],
            "packages/http/tests/Unit/ClientTest.php -> packages/http/src/Client.php, \
             packages/http/tests/Fixtures/Fake.php",
        );
        // Without composer.json no suffix of the name reaches `src/Client.php`.
        check(
            &files,
            "packages/http/tests/Unit/ClientTest.php -> packages/http/tests/Fixtures/Fake.php",
        );
    }

    #[test]
    fn laravel_and_symfony_uses() {
        check(
            &[
                (
                    "app/Http/Controllers/InviteController.php",
                    "+<?php\n+\n+namespace App\\Http\\Controllers;\n+\n\
                     +use App\\Models\\Invite;\n+use App\\Services\\{InviteService, Mailer as M};\n\
                     +use function App\\Support\\helpers;\n+use Illuminate\\Http\\Request;\n\
                     +#[Attribute]\n+class InviteController extends Controller\n+{\n+    use HasEvents;\n+}",
                ),
                ("app/Models/Invite.php", ""),
                ("app/Services/InviteService.php", ""),
                ("app/Services/Mailer.php", ""),
                ("app/Support/helpers.php", ""),
                ("app/Concerns/HasEvents.php", ""),
                ("src/Entity/User.php", ""),
                ("src/Controller/UserController.php", "+<?php\n+use App\\Entity\\User;"),
            ],
            "app/Http/Controllers/InviteController.php -> app/Models/Invite.php, \
             app/Services/InviteService.php, app/Services/Mailer.php, app/Support/helpers.php\n\
             src/Controller/UserController.php -> src/Entity/User.php",
        );
    }

    #[test]
    fn includes() {
        check(
            &[
                (
                    "public/index.php",
                    "+require __DIR__.'/../vendor/autoload.php';\n+require_once(dirname(__FILE__) . '/bootstrap.php');\n\
                     +include 'config/app.php';",
                ),
                ("vendor/autoload.php", ""),
                ("public/bootstrap.php", ""),
                ("config/app.php", ""),
            ],
            "public/index.php -> vendor/autoload.php, public/bootstrap.php, config/app.php",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "src/a.php",
                    "+// use App\\X\\Commented;\n+# use App\\X\\Hashed;\n-use App\\X\\Removed;\n\
                     +$f = function () use ($x) {};\n+$s = 'use App\\X\\InString;';\n+use Single;\n\
                     +$loader->require('x.php');",
                ),
                ("src/X/Commented.php", ""),
                ("src/X/Hashed.php", ""),
                ("src/X/Removed.php", ""),
                ("src/X/InString.php", ""),
                ("src/Single.php", ""),
                ("src/x.php", ""),
            ],
            "",
        );
    }
}
