//! Go imports, resolved to packages (directories) of the pull request.
//!
//! Why: `dependsOn` for Go files. A Go import names a package, so a file depends on every changed
//! non-test `.go` file in the package's directory.
//! Read forms: `import "a/b"`, `import alias "a/b"`, `import . "a/b"`, `import _ "a/b"` and the
//! block form `import ( … )`, with `import` at the start of its line as gofmt writes it (an
//! indented one is a doc-comment example in a hunk that starts inside the comment).
//! Module paths come from the `go.mod` files read at the head (every ancestor directory of a
//! changed `.go` file, so nested modules too); an import path
//! belongs to the module with the longest matching path, and names the directory below that
//! module's directory: when that package has no changed files there is no edge.
//! Without any `go.mod` the module path is inferred: for every import path, each tail that names a
//! changed package directory suggests the rest as module path (`k8s.io/kubernetes/pkg/api` with
//! `pkg/api` changed suggests `k8s.io/kubernetes`), and the suggestions backed by the most
//! distinct import paths win. Directories that end with a whole import path (`vendor/…`,
//! Kubernetes' `staging/src/k8s.io/api/…`) match too.
//!
//! What not: no `replace` directives, no `go.work`, no build tags, no same-package references
//! (files of one package need no imports).

use std::collections::HashMap;

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const SYNTAX: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: true,
    quotes: b"\"'",
    multiline_quote: Some(b'`'),
    triple_quotes: false,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: true,
};

const TRIGGERS: &[&str] = &["import"];

/// First elements of standard-library import paths; they never name a package of the repository.
const STD_ROOTS: &[&str] = &[
    "archive",
    "bufio",
    "builtin",
    "bytes",
    "cmp",
    "compress",
    "container",
    "context",
    "crypto",
    "database",
    "debug",
    "embed",
    "encoding",
    "errors",
    "expvar",
    "flag",
    "fmt",
    "go",
    "hash",
    "html",
    "image",
    "index",
    "io",
    "iter",
    "log",
    "maps",
    "math",
    "mime",
    "net",
    "os",
    "path",
    "plugin",
    "reflect",
    "regexp",
    "runtime",
    "slices",
    "sort",
    "strconv",
    "strings",
    "structs",
    "sync",
    "syscall",
    "testing",
    "text",
    "time",
    "unicode",
    "unique",
    "unsafe",
    "weak",
    "C",
];

fn first_element(spec: &str) -> &str {
    spec.split('/').next().unwrap_or(spec)
}

fn is_std(spec: &str) -> bool {
    STD_ROOTS.contains(&first_element(spec))
}

/// Import paths in the visible lines of the hunks.
pub fn specifiers<'a>(hunks: &[Hunk<'a>]) -> Vec<&'a str> {
    let mut specs = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        // gofmt puts a declaration's `import` at the start of the line; an indented one is an
        // example in a doc comment whose opening `/*` is above the hunk.
        let mut code = Vec::with_capacity(tokens.len());
        let mut at_margin = false;
        for token in &tokens {
            match token {
                Tok::Bol(indent) => {
                    at_margin = *indent == 0;
                    continue;
                }
                Tok::Ident("import") if !at_margin => code.push(Tok::Ident("")),
                other => code.push(*other),
            }
            at_margin = false;
        }
        let mut i = 0;
        while let Some(token) = code.get(i) {
            i += 1;
            if *token != Tok::Ident("import") {
                continue;
            }
            if code.get(i) == Some(&Tok::Punct(b'(')) {
                i += 1;
                while let Some(inner) = code.get(i) {
                    match inner {
                        Tok::Punct(b')') => break,
                        Tok::Str(spec) => specs.push(*spec),
                        _ => {}
                    }
                    i += 1;
                }
                continue;
            }
            if matches!(code.get(i), Some(Tok::Ident(_) | Tok::Punct(b'.'))) {
                i += 1;
            }
            if let Some(Tok::Str(spec)) = code.get(i) {
                specs.push(*spec);
            }
        }
    }
    specs
}

/// Module paths and the package directories of the pull request.
#[derive(Debug, Default)]
pub struct Modules<'a> {
    /// `(module path, repository directory)` pairs.
    roots: Vec<(String, String)>,
    /// Package directory → its changed non-test `.go` files.
    packages: HashMap<&'a str, Vec<usize>>,
    /// Whether the module paths were guessed (several guesses may be tried in turn).
    inferred: bool,
}

impl<'a> Modules<'a> {
    /// `imports` are every Go import path of the pull request; `go_mods` the `(directory, module)`
    /// pairs of the `go.mod` files read at the head.
    pub fn new(
        imports: &[&str],
        go_mods: &[(String, String)],
        index: &PathIndex<'a>,
    ) -> Modules<'a> {
        let mut packages: HashMap<&'a str, Vec<usize>> = HashMap::new();
        for (position, path) in index.targets() {
            if path.ends_with(".go") && !path.ends_with("_test.go") {
                packages
                    .entry(paths::parent(path))
                    .or_default()
                    .push(position);
            }
        }
        let mut roots: Vec<(String, String)> = go_mods
            .iter()
            .map(|(dir, module)| (module.clone(), dir.clone()))
            .collect();
        let inferred = roots.is_empty();
        if inferred {
            roots = infer_roots(imports, &packages);
        }
        // Longest module paths first: a nested module owns its subtree.
        crate::sorting::sort_by(&mut roots, &|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
        roots.dedup();
        Modules {
            roots,
            packages,
            inferred,
        }
    }

    /// Adds the changed files of the package `spec` names.
    pub fn resolve(&self, spec: &str, index: &PathIndex<'_>, out: &mut Vec<usize>) {
        if is_std(spec) {
            return;
        }
        for (module, dir) in &self.roots {
            let rest = if spec == module {
                Some("")
            } else {
                spec.strip_prefix(module.as_str())
                    .and_then(|rest| rest.strip_prefix('/'))
            };
            let Some(rest) = rest else { continue };
            let package = paths::join(dir, rest).unwrap_or_default();
            let found = self.packages.get(package.as_str());
            out.extend(found.into_iter().flatten());
            // A known module owns the path: it names the package, changed or not. Guessed
            // module paths are tried in turn.
            if found.is_some() || !self.inferred {
                return;
            }
        }
        // Vendored or staged copies: a directory ending with the whole import path, which then
        // starts with a domain.
        if !first_element(spec).contains('.') {
            return;
        }
        for dir in index.dirs_with_suffix(spec) {
            out.extend(self.packages.get(dir).into_iter().flatten());
        }
    }
}

fn infer_roots(imports: &[&str], packages: &HashMap<&str, Vec<usize>>) -> Vec<(String, String)> {
    let mut votes: HashMap<&str, usize> = HashMap::new();
    let mut seen: Vec<&str> = imports
        .iter()
        .copied()
        .filter(|spec| !is_std(spec))
        .collect();
    crate::sorting::sort(&mut seen);
    seen.dedup();
    for spec in seen {
        let mut suggested: Vec<&str> = spec
            .match_indices('/')
            .filter_map(|(at, _)| {
                let tail = spec.get(at + 1..)?;
                packages
                    .contains_key(tail)
                    .then(|| spec.get(..at))
                    .flatten()
            })
            .collect();
        suggested.dedup();
        for module in suggested {
            *votes.entry(module).or_default() += 1;
        }
    }
    let best = votes.values().copied().max().unwrap_or(0);
    let mut roots: Vec<(String, String)> = votes
        .into_iter()
        .filter(|(_, count)| *count == best)
        .map(|(module, _)| (module.to_string(), String::new()))
        .collect();
    crate::sorting::sort_by(&mut roots, &Ord::cmp);
    roots
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::{check_deps as check, check_deps_in as check_in};

    #[test]
    fn kubernetes_packages_by_inferred_module_path() {
        check(
            &[
                (
                    "pkg/kubelet/kubelet.go",
                    "+import (\n+\t\"context\"\n+\tv1 \"k8s.io/api/core/v1\"\n\
                     +\t\"k8s.io/kubernetes/pkg/kubelet/cm\"\n+\t_ \"k8s.io/kubernetes/pkg/features\"\n\
                     +\t. \"k8s.io/kubernetes/pkg/util/oom\"\n+)",
                ),
                ("pkg/kubelet/cm/container_manager.go", ""),
                ("pkg/kubelet/cm/container_manager_linux.go", ""),
                ("pkg/kubelet/cm/container_manager_test.go", ""),
                ("pkg/features/kube_features.go", ""),
                ("pkg/util/oom/oom.go", ""),
                ("staging/src/k8s.io/api/core/v1/types.go", ""),
            ],
            "pkg/kubelet/kubelet.go -> pkg/kubelet/cm/container_manager.go, \
             pkg/kubelet/cm/container_manager_linux.go, pkg/features/kube_features.go, \
             pkg/util/oom/oom.go, staging/src/k8s.io/api/core/v1/types.go",
        );
    }

    #[test]
    fn single_imports_and_tests_of_the_package() {
        check(
            &[
                (
                    "cmd/app/main.go",
                    "+import \"github.com/acme/app/internal/server\"",
                ),
                ("internal/server/server.go", "+package server"),
                (
                    "internal/server/server_test.go",
                    "+package server_test\n+import server \"github.com/acme/app/internal/server\"",
                ),
            ],
            "cmd/app/main.go -> internal/server/server.go\n\
             internal/server/server_test.go -> internal/server/server.go",
        );
    }

    #[test]
    fn go_mod_module_paths_win() {
        check_in(
            &[
                (
                    "api/handler.go",
                    "+import (\n+\t\"example.com/shop/store\"\n+\t\"github.com/other/store\"\n+)",
                ),
                ("store/store.go", ""),
            ],
            &[("go.mod", "module example.com/shop // the shop\n\ngo 1.22")],
            "api/handler.go -> store/store.go",
        );
        check_in(
            &[
                (
                    "tools/cmd/gen/main.go",
                    "+import \"example.com/tools/internal/text\"",
                ),
                ("tools/internal/text/text.go", ""),
            ],
            &[("tools/go.mod", "module example.com/tools")],
            "tools/cmd/gen/main.go -> tools/internal/text/text.go",
        );
    }

    #[test]
    fn nested_modules_own_their_paths() {
        check_in(
            &[
                (
                    "cmd/main.go",
                    "+import (\n+\t\"example.com/app/api/v1\"\n+\t\"example.com/app/pkg/gone\"\n+\t\"k8s.io/api/core/v1\"\n+)",
                ),
                ("api/v1/types.go", ""),
                ("api/v1/types_test.go", ""),
                ("staging/src/k8s.io/api/core/v1/types.go", ""),
                ("pkg/gone.go", ""),
            ],
            &[
                ("go.mod", "module example.com/app\n"),
                ("api/go.mod", "module example.com/app/api\n"),
                ("staging/src/k8s.io/api/go.mod", "module k8s.io/api\n"),
            ],
            "cmd/main.go -> api/v1/types.go, staging/src/k8s.io/api/core/v1/types.go",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "pkg/a/a.go",
                    "+// import \"github.com/acme/app/pkg/b\"\n-import \"github.com/acme/app/pkg/c\"\n\
                     +var s = `\n+import \"github.com/acme/app/pkg/d\"\n+`\n+import \"fmt\"",
                ),
                ("pkg/b/b.go", ""),
                ("pkg/c/c.go", ""),
                ("pkg/d/d.go", ""),
                ("fmt/fmt.go", ""),
                ("http/http.go", ""),
                ("pkg/x.go", "+import (\n+\t\"net/http\"\n+\t\"encoding/json\"\n+)"),
                // Inside a package doc comment whose `/*` is above the hunk.
                (
                    "pkg/doc.go",
                    " they need to embed the API interface directly.\n \n \timport \"github.com/acme/app/pkg/b\"",
                ),
                ("json/json.go", ""),
            ],
            "",
        );
    }
}
