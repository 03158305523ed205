//! Python imports.
//!
//! Why: `dependsOn` for Python files.
//! Read forms, at the start of a logical line (parentheses and `\` continue it): `import a.b [as c],
//! d`, `from a.b import c, d` (the module `a.b`, and `a.b.c`, `a.b.d` in case they are
//! submodules), `from . import x`, `from ..pkg import (y, z)`. Docstrings and `#` comments are
//! skipped by the lexer (a hunk that starts inside a docstring is read as code: best effort).
//! Resolution, against changed files only: `a/b.py`, `a/b/__init__.py` (and `.pyi`), from the
//! repository root, `src/`, or any ancestor directory of the importer (a project nested in a
//! monorepo, CPython's `Lib/`); relative imports from the importer's package.
//!
//! What not: no `sys.path` or `setup.cfg` package-dir reading, no `importlib` calls.

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const SYNTAX: Syntax = Syntax {
    line_comments: &["#"],
    block_comments: false,
    quotes: b"\"'",
    multiline_quote: None,
    triple_quotes: true,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: false,
};

const TRIGGERS: &[&str] = &["import"];

const MODULE_SUFFIXES: &[&str] = &[".py", "/__init__.py", ".pyi", "/__init__.pyi"];

/// Imported module names in the visible lines; relative ones keep their leading dots.
pub fn specifiers(hunks: &[Hunk<'_>]) -> Vec<String> {
    let mut specs = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        for statement in logical_lines(&tokens) {
            read_statement(&statement, &mut specs);
        }
    }
    specs
}

/// Splits tokens into logical lines and `;`-separated statements, without line markers.
fn logical_lines<'a>(tokens: &[Tok<'a>]) -> Vec<Vec<Tok<'a>>> {
    let mut lines = Vec::new();
    let mut current = Vec::new();
    let mut depth = 0usize;
    let mut continued = false;
    for token in tokens {
        match token {
            Tok::Bol(_) => {
                if depth == 0 && !continued && !current.is_empty() {
                    lines.push(std::mem::take(&mut current));
                }
                continued = false;
            }
            Tok::Punct(b'\\') => continued = true,
            Tok::Punct(b';') if depth == 0 => {
                lines.push(std::mem::take(&mut current));
            }
            Tok::Punct(byte) => {
                match byte {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                continued = false;
                current.push(*token);
            }
            _ => {
                continued = false;
                current.push(*token);
            }
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

fn read_statement(statement: &[Tok<'_>], specs: &mut Vec<String>) {
    match statement.first() {
        Some(Tok::Ident("import")) => {
            let mut i = 1;
            while let Some((name, next)) = dotted(statement, i) {
                specs.push(name);
                i = skip_alias(statement, next);
                match statement.get(i) {
                    Some(Tok::Punct(b',')) => i += 1,
                    _ => break,
                }
            }
        }
        Some(Tok::Ident("from")) => {
            let mut i = 1;
            let mut dots = String::new();
            while statement.get(i) == Some(&Tok::Punct(b'.')) {
                dots.push('.');
                i += 1;
            }
            let (module, next) = match dotted(statement, i) {
                Some((name, next)) if name != "import" => (name, next),
                _ => (String::new(), i),
            };
            if statement.get(next) != Some(&Tok::Ident("import"))
                || (dots.is_empty() && module.is_empty())
            {
                return;
            }
            let base = format!("{dots}{module}");
            let mut i = next + 1;
            if statement.get(i) == Some(&Tok::Punct(b'(')) {
                i += 1;
            }
            while let Some(Tok::Ident(name)) = statement.get(i) {
                let joiner = if module.is_empty() { "" } else { "." };
                specs.push(format!("{base}{joiner}{name}"));
                i = skip_alias(statement, i + 1);
                match statement.get(i) {
                    Some(Tok::Punct(b',')) => i += 1,
                    _ => break,
                }
            }
            specs.push(base);
        }
        _ => {}
    }
}

/// Reads `a.b.c` from `start`; returns it and the index after it.
fn dotted(tokens: &[Tok<'_>], start: usize) -> Option<(String, usize)> {
    let Some(Tok::Ident(first)) = tokens.get(start) else {
        return None;
    };
    let mut name = first.to_string();
    let mut i = start + 1;
    while let (Some(Tok::Punct(b'.')), Some(Tok::Ident(part))) = (tokens.get(i), tokens.get(i + 1))
    {
        name.push('.');
        name.push_str(part);
        i += 2;
    }
    Some((name, i))
}

fn skip_alias(tokens: &[Tok<'_>], i: usize) -> usize {
    match (tokens.get(i), tokens.get(i + 1)) {
        (Some(Tok::Ident("as")), Some(Tok::Ident(_))) => i + 2,
        _ => i,
    }
}

/// Adds the changed file the module `spec` (as [`specifiers`] gives it) resolves to.
pub fn resolve(importer: &str, spec: &str, index: &PathIndex<'_>, out: &mut Vec<usize>) {
    let module = spec.trim_start_matches('.');
    let level = spec.len() - module.len();
    let relative_path = module.replace('.', "/");
    if level > 0 {
        let mut package = paths::parent(importer);
        for _ in 1..level {
            if package.is_empty() {
                return;
            }
            package = paths::parent(package);
        }
        let found = if relative_path.is_empty() {
            index.find(&paths::join(package, "__init__.py").unwrap_or_default())
        } else {
            paths::join(package, &relative_path)
                .and_then(|base| index.probe(&base, MODULE_SUFFIXES))
        };
        out.extend(found);
        return;
    }
    if relative_path.is_empty() {
        return;
    }
    let roots = ["", "src"]
        .into_iter()
        .chain(paths::ancestors(paths::parent(importer)).skip(1));
    let found = roots.into_iter().find_map(|root| {
        let base = if root.is_empty() {
            relative_path.clone()
        } else {
            format!("{root}/{relative_path}")
        };
        index.probe(&base, MODULE_SUFFIXES)
    });
    out.extend(found);
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;

    #[test]
    fn absolute_imports_from_django() {
        check(
            &[
                (
                    "django/contrib/admin/options.py",
                    "+import django.contrib.admin.helpers\n\
                     +from django.contrib.admin import widgets, checks as admin_checks\n\
                     +from django.db.models import (\n+    fields,\n+    Q,\n+)\n\
                     +import json, django.utils.text as text_utils",
                ),
                ("django/contrib/admin/helpers.py", ""),
                ("django/contrib/admin/widgets.py", ""),
                ("django/contrib/admin/checks.py", ""),
                ("django/db/models/__init__.py", ""),
                ("django/db/models/fields/__init__.py", ""),
                ("django/utils/text.py", ""),
            ],
            "django/contrib/admin/options.py -> django/contrib/admin/helpers.py, \
             django/contrib/admin/widgets.py, django/contrib/admin/checks.py, \
             django/db/models/__init__.py, django/db/models/fields/__init__.py, django/utils/text.py",
        );
    }

    #[test]
    fn relative_imports() {
        check(
            &[
                (
                    "Lib/asyncio/tasks.py",
                    "+from . import events\n+from .base_futures import _task_repr\n\
                     +from .. import contextvars_helper\n+from ..concurrent.futures import _base\n\
                     +from . import (coroutines,\n+               exceptions)",
                ),
                ("Lib/asyncio/events.py", ""),
                ("Lib/asyncio/base_futures.py", ""),
                ("Lib/contextvars_helper.py", ""),
                ("Lib/concurrent/futures/_base.py", ""),
                ("Lib/asyncio/coroutines.py", ""),
                ("Lib/asyncio/exceptions.py", ""),
                ("Lib/asyncio/__init__.py", ""),
            ],
            "Lib/asyncio/tasks.py -> Lib/asyncio/events.py, Lib/asyncio/base_futures.py, \
             Lib/contextvars_helper.py, Lib/concurrent/futures/_base.py, Lib/asyncio/coroutines.py, \
             Lib/asyncio/exceptions.py, Lib/asyncio/__init__.py",
        );
    }

    #[test]
    fn src_layout_and_nested_project_roots() {
        check(
            &[
                ("tests/test_cli.py", "+from flask.cli import main"),
                ("src/flask/cli.py", ""),
                ("Lib/test/test_tasks.py", "+import asyncio.tasks"),
                ("Lib/asyncio/tasks.py", ""),
                ("backend/app/views.py", "+from app.models import Invite"),
                ("backend/app/models.py", ""),
            ],
            "tests/test_cli.py -> src/flask/cli.py\n\
             Lib/test/test_tasks.py -> Lib/asyncio/tasks.py\n\
             backend/app/views.py -> backend/app/models.py",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "pkg/main.py",
                    "+# import pkg.a\n+\"\"\"\n+from pkg import b\n+\"\"\"\n-import pkg.c\n\
                     +x = 'import pkg.d'\n+import os\n+from pkg.e import thing\n+importlib.import_module('pkg.f')",
                ),
                ("pkg/a.py", ""),
                ("pkg/b.py", ""),
                ("pkg/c.py", ""),
                ("pkg/d.py", ""),
                ("pkg/f.py", ""),
                ("os/__init__.md", ""),
                ("top.py", "+from ... import too_high\n+from . import"),
            ],
            "",
        );
    }
}
