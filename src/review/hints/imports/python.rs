//! Python imports.
//!
//! Why: `dependsOn` for Python files.
//! Read forms, at the start of a logical line (parentheses and `\` continue it): `import a.b [as c],
//! d`, `from a.b import c, d`, `from . import x`, `from ..pkg import (y, z)`. Docstrings and `#`
//! comments are skipped by the lexer (a hunk that starts inside a docstring is read as code: best
//! effort).
//! An import names one module: `import a.b` names `a.b`; `from a import x` names the submodule
//! `a.x` when that file changed, otherwise `x` is an attribute of `a`: of a plain module `a.py`
//! always, of a package's `__init__.py` only when `x` is capitalised (a class or constant), since
//! a lower-case name there is most often a submodule whose file didn't change.
//! Resolution, against changed files only: `a/b.py`, `a/b/__init__.py` (and `.pyi`), from the
//! repository root, `src/`, or any ancestor directory of the importer and its `src/` (a project
//! nested in a monorepo, CPython's `Lib/`, a script's own directory); relative imports from the
//! importer's package. A standard-library name resolves only from the root, `src/` or CPython's
//! `Lib/` (`import typing` in `flask/app.py` is not `flask/typing.py`).
//!
//! What not: no `sys.path` or `setup.cfg` package-dir reading, no `importlib` calls.

use std::collections::{HashMap, HashSet};

use super::lex::{self, Syntax, Tok};
use crate::review::hints::glob::Glob;
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::hints::project::PyProject;
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

/// One import statement's module, as written; relative ones keep their leading dots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Import {
    /// `import a.b`.
    Module(String),
    /// `from a.b import x, y` (`*` for a star import).
    From { module: String, names: Vec<String> },
}

/// Imports in the visible lines.
pub fn specifiers(hunks: &[Hunk<'_>]) -> Vec<Import> {
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

fn read_statement(statement: &[Tok<'_>], specs: &mut Vec<Import>) {
    match statement.first() {
        Some(Tok::Ident("import")) => {
            let mut i = 1;
            while let Some((name, next)) = dotted(statement, i) {
                specs.push(Import::Module(name));
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
            let mut names = Vec::new();
            if statement.get(i) == Some(&Tok::Punct(b'*')) {
                names.push("*".to_string());
            }
            while let Some(Tok::Ident(name)) = statement.get(i) {
                names.push(name.to_string());
                i = skip_alias(statement, i + 1);
                match statement.get(i) {
                    Some(Tok::Punct(b',')) => i += 1,
                    _ => break,
                }
            }
            specs.push(Import::From {
                module: base,
                names,
            });
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

/// The source roots of a repository's Python projects, by the top-level names changed files
/// give them: `acme` → `packages/core/src`, `packages/util/src` for a namespace package.
#[derive(Debug, Default)]
pub struct Roots {
    by_top_level: HashMap<String, Vec<String>>,
}

impl Roots {
    /// Finds the roots among the changed Python files: a project directory (or a member glob's
    /// match) `d` is a root at `d/src` when changed files sit there, else at `d`.
    pub fn new(projects: &[PyProject], index: &PathIndex<'_>) -> Roots {
        let mut dirs: HashSet<&str> = HashSet::new();
        let mut globs = Vec::new();
        for project in projects {
            if !project.dir.is_empty() {
                dirs.insert(&project.dir);
            }
            for member in &project.members {
                if member.contains(['*', '?', '[']) {
                    globs.extend(Glob::new(&format!("/{member}")));
                } else {
                    dirs.insert(member);
                }
            }
        }
        let mut roots = Roots::default();
        if dirs.is_empty() && globs.is_empty() {
            return roots;
        }
        for (_, path) in index.targets() {
            if !matches!(paths::extension(path), "py" | "pyi") {
                continue;
            }
            // The innermost project directory among the file's ancestors: the member.
            let Some(project) = paths::ancestors(paths::parent(path))
                .skip(1)
                .filter(|dir| dirs.contains(dir) || globs.iter().any(|glob| glob.matches(dir)))
                .last()
            else {
                continue;
            };
            let rest = path.get(project.len() + 1..).unwrap_or("");
            let (root, rest) = match rest.strip_prefix("src/") {
                Some(inside) => (format!("{project}/src"), inside),
                None => (project.to_string(), rest),
            };
            let top = match rest.split_once('/') {
                Some((dir, _)) => dir,
                None => paths::stem(rest),
            };
            let known = roots.by_top_level.entry(top.to_string()).or_default();
            if !known.contains(&root) {
                known.push(root);
            }
        }
        roots
    }

    /// The roots holding changed files under the top-level name `name`.
    fn holding(&self, name: &str) -> &[String] {
        self.by_top_level.get(name).map_or(&[], Vec::as_slice)
    }
}

/// Adds the changed files an import in `importer` names.
pub fn resolve(
    importer: &str,
    import: &Import,
    roots: &Roots,
    index: &PathIndex<'_>,
    out: &mut Vec<usize>,
) {
    let find = |spec: &str| find_module(importer, spec, roots, index);
    match import {
        Import::Module(module) => out.extend(find(module)),
        Import::From { module, names } => {
            let joiner = if module.ends_with('.') { "" } else { "." };
            let plain_module = lower_case_attribute(module, &find, index);
            let mut attributes = false;
            for name in names {
                if name == "*" {
                    attributes = true;
                    continue;
                }
                match find(&format!("{module}{joiner}{name}")) {
                    Some(found) => out.push(found),
                    None => {
                        attributes |=
                            plain_module || name.starts_with(|c: char| c.is_ascii_uppercase())
                    }
                }
            }
            if attributes || names.is_empty() {
                let own = module.trim_start_matches('.');
                let found = if own.is_empty() {
                    // `from . import X`: the package's own `__init__.py`.
                    find(&format!("{module}__init__"))
                } else {
                    find(module)
                };
                out.extend(found);
            }
        }
    }
}

/// Whether a lower-case name imported from `module` is an attribute of it: only when `module`
/// is a plain `.py` file (a package's names are mostly its submodules).
fn lower_case_attribute(
    module: &str,
    find: &impl Fn(&str) -> Option<usize>,
    index: &PathIndex<'_>,
) -> bool {
    !module.trim_start_matches('.').is_empty()
        && find(module).is_some_and(|found| !paths::stem(index.path(found)).starts_with("__init__"))
}

/// The changed file of the module `spec` (relative ones with their leading dots).
fn find_module(importer: &str, spec: &str, roots: &Roots, index: &PathIndex<'_>) -> Option<usize> {
    let module = spec.trim_start_matches('.');
    let level = spec.len() - module.len();
    let relative_path = module.replace('.', "/");
    if level > 0 {
        let mut package = paths::parent(importer);
        for _ in 1..level {
            if package.is_empty() {
                return None;
            }
            package = paths::parent(package);
        }
        return paths::join(package, &relative_path)
            .and_then(|base| index.probe(&base, MODULE_SUFFIXES));
    }
    if relative_path.is_empty() {
        return None;
    }
    let own_dir = paths::parent(importer);
    let first = module.split('.').next().unwrap_or(module);
    let standard = is_standard(first);
    let mut base = String::new();
    let mut probe = |root: &str, src: bool| {
        base.clear();
        base.push_str(root);
        if src {
            base.push_str(if root.is_empty() { "src/" } else { "/src/" });
        } else if !root.is_empty() {
            base.push('/');
        }
        base.push_str(&relative_path);
        index.probe(&base, MODULE_SUFFIXES)
    };
    if let Some(found) = probe("", false).or_else(|| probe("", true)) {
        return Some(found);
    }
    let own_project = paths::ancestors(own_dir).skip(1).find_map(|ancestor| {
        // A standard-library name inside a package is the standard library's; only a
        // standard library's own tree (CPython's `Lib/`) holds it.
        let own = !standard || paths::file_name(ancestor) == "Lib";
        probe(ancestor, true).or_else(|| own.then(|| probe(ancestor, false)).flatten())
    });
    if own_project.is_some() || standard {
        return own_project;
    }
    let found = roots
        .holding(first)
        .iter()
        .filter_map(|root| probe(root, false));
    index.closest(importer, found)
}

/// Top-level modules of Python's standard library that projects also use as module names
/// (`types.py`, `json/`, `logging.py`, …): a project file of that name beside the importer is not
/// what these imports name. Names no project shadows are left out.
#[rustfmt::skip]
const STANDARD_LIBRARY: &[&str] = &[
    "abc", "array", "ast", "asyncio", "base64", "calendar", "code", "collections", "concurrent",
    "copy", "csv", "dataclasses", "datetime", "decimal", "email", "enum", "functools", "html",
    "http", "importlib", "inspect", "io", "itertools", "json", "logging", "math", "numbers",
    "operator", "os", "pathlib", "pickle", "platform", "profile", "queue", "random", "re",
    "secrets", "select", "signal", "site", "socket", "ssl", "string", "struct", "subprocess",
    "sys", "tempfile", "test", "threading", "time", "token", "trace", "types", "typing",
    "unittest", "urllib", "uuid", "warnings", "xml",
];

fn is_standard(name: &str) -> bool {
    STANDARD_LIBRARY.contains(&name)
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;
    use crate::review::hints::testing::check_deps_in;

    #[test]
    fn standard_library_names() {
        assert!(super::is_standard("typing"));
        assert!(super::is_standard("abc"));
        assert!(super::is_standard("xml"));
        assert!(!super::is_standard("ty"));
        assert!(!super::is_standard("flask"));
        assert!(!super::is_standard(""));
    }

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
            // The package's `__init__.py` changed too, but these imports name its submodules.
            "Lib/asyncio/tasks.py -> Lib/asyncio/events.py, Lib/asyncio/base_futures.py, \
             Lib/contextvars_helper.py, Lib/concurrent/futures/_base.py, Lib/asyncio/coroutines.py, \
             Lib/asyncio/exceptions.py",
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
    fn workspace_members_and_namespace_packages() {
        let files = [
            (
                "packages/api/src/acme/api/routes.py",
                "+from acme.util.types import Invite\n+import acme.core\n+from acme.core import db\n\
                 +from acme import storage\n+import typing",
            ),
            // A namespace package (no `__init__.py` for `acme`) across three members.
            ("packages/util/src/acme/util/types.py", ""),
            ("packages/core/src/acme/core/__init__.py", ""),
            ("packages/core/src/acme/core/db.py", ""),
            // A flat member (no `src/`) named by a path dependency.
            ("libs/storage/acme/storage/__init__.py", ""),
            ("packages/util/src/typing.py", ""),
        ];
        let root = "[project]\nname = \"acme\"\n[tool.uv.workspace]\nmembers = [\"packages/*\"]\n\
            [tool.uv.sources]\nacme-storage = { path = \"libs/storage\" }\n";
        check_deps_in(
            &files,
            &[("pyproject.toml", root)],
            "packages/api/src/acme/api/routes.py -> packages/util/src/acme/util/types.py, \
             packages/core/src/acme/core/__init__.py, packages/core/src/acme/core/db.py, \
             libs/storage/acme/storage/__init__.py",
        );
        // Each member's own `pyproject.toml` says the same without a workspace table.
        check_deps_in(
            &files,
            &[
                (
                    "packages/util/pyproject.toml",
                    "[project]\nname = \"acme-util\"\n",
                ),
                (
                    "packages/core/pyproject.toml",
                    "[project]\nname = \"acme-core\"\n",
                ),
                (
                    "libs/storage/pyproject.toml",
                    "[tool.poetry]\nname = \"acme-storage\"\n",
                ),
            ],
            "packages/api/src/acme/api/routes.py -> packages/util/src/acme/util/types.py, \
             packages/core/src/acme/core/__init__.py, packages/core/src/acme/core/db.py, \
             libs/storage/acme/storage/__init__.py",
        );
        // Without the build files, another member's modules are out of reach.
        check(&files, "");
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
