//! TypeScript and JavaScript imports (also the script parts of Vue, Svelte and Astro files).
//!
//! Why: `dependsOn` for the most common language of pull requests.
//! Read forms: `import … from '…'` (also when `from '…'` is on a later visible line of a
//! multi-line import), `import '…'`, `export … from '…'`, `require('…')`, `import('…')`,
//! `import x = require('…')`. Resolution, against changed files only, in the order of the build:
//! relative specifiers from the importer's directory; the `paths` and `baseUrl` of the nearest
//! tsconfig/jsconfig (with `extends`); workspace packages by name (`@acme/ui` → its entry
//! field's file, else `src/index.*` or `index.*`, where a built entry such as `dist/index.js` is
//! built from; `@acme/ui/button` → `src/button` or `button` in the package); then,
//! when no configuration matched, the usual bundler aliases `@/x`, `~/x` (→ `src/x`, then `x`)
//! and `$lib/x` (→ `src/lib/x`), and `baseUrl`-style bare paths with a `/`. Each is probed as
//! written, with `.ts .tsx .d.ts .js .jsx .mjs .cjs .mts .cts .vue .svelte .json`, as
//! `…/index.*`, and `./x.js` also as `./x.ts` (TypeScript's ESM convention). A specifier that a
//! path pattern or a package name claims names that module only: unchanged, it is no edge.
//!
//! What not: no `jest.mock('…')` or other calls that name modules without importing them, no
//! bundler configuration files.

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::hints::project::{JsPackage, Project, TsConfig};
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

/// Words every import form contains; hunks without them are not lexed.
const TRIGGERS: &[&str] = &["import", "require", "from"];

const EXTENSIONS: &[&str] = &[
    "", ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte",
    ".json",
];
const INDEX_EXTENSIONS: &[&str] = &[".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"];

/// Output directories a package's `exports` and entry fields point into; sources sit in `src/`.
const BUILD_DIRS: &[&str] = &["dist", "build", "lib", "out", "esm", "cjs", "es", "types"];

/// `./x.js` may name `./x.ts` in TypeScript.
const TS_FOR_JS: &[(&str, &[&str])] = &[
    (".js", &[".ts", ".tsx"]),
    (".jsx", &[".tsx"]),
    (".mjs", &[".mts"]),
    (".cjs", &[".cts"]),
];

/// Import specifiers in the visible lines of the hunks, in order.
pub fn specifiers<'a>(hunks: &[Hunk<'a>]) -> Vec<&'a str> {
    let mut specs = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        let code = lex::code(&tokens);
        for (i, token) in code.iter().enumerate() {
            let Tok::Ident(word) = token else { continue };
            let after_dot = i
                .checked_sub(1)
                .and_then(|before| code.get(before))
                .is_some_and(|before| *before == Tok::Punct(b'.'));
            if after_dot {
                continue;
            }
            let spec = match (*word, code.get(i + 1), code.get(i + 2)) {
                ("import" | "from", Some(Tok::Str(spec)), _) => Some(*spec),
                ("import" | "require", Some(Tok::Punct(b'(')), Some(Tok::Str(spec))) => Some(*spec),
                _ => None,
            };
            if let Some(spec) = spec.filter(|spec| !spec.is_empty() && !spec.contains("${")) {
                specs.push(spec);
            }
        }
    }
    specs
}

/// Adds the changed file `spec`, imported by `importer`, resolves to.
pub fn resolve(
    importer: &str,
    spec: &str,
    project: &Project,
    index: &PathIndex<'_>,
    out: &mut Vec<usize>,
) {
    let spec = spec.split(['?', '#']).next().unwrap_or(spec);
    let relative = spec == "." || spec == ".." || spec.starts_with("./") || spec.starts_with("../");
    if relative {
        let base = paths::join(paths::parent(importer), spec);
        out.extend(base.and_then(|base| probe(&base, index)));
        return;
    }
    if let Some(config) = nearest_config(importer, project) {
        match through_config(config.options(&project.ts_configs), spec, index) {
            Claimed::Found(found) => return out.push(found),
            Claimed::Unchanged => return,
            Claimed::No => {}
        }
    }
    if let Some(package) = package_of(spec, project) {
        out.extend(through_package(package, spec, index));
        return;
    }
    let bases: Vec<String> = if let Some(rest) =
        spec.strip_prefix("@/").or_else(|| spec.strip_prefix("~/"))
    {
        vec![format!("src/{rest}"), rest.to_string()]
    } else if let Some(rest) = spec.strip_prefix("$lib/") {
        vec![format!("src/lib/{rest}")]
    } else if spec.contains('/') && !spec.starts_with(['@', '/', '~', '#']) && !spec.contains(':') {
        vec![format!("src/{spec}"), spec.to_string()]
    } else {
        Vec::new()
    };
    if let Some(found) = bases.iter().find_map(|base| probe(base, index)) {
        out.push(found);
    }
}

/// What a configuration says about a specifier.
enum Claimed {
    /// It resolves to this changed file.
    Found(usize),
    /// It names a module of the project that did not change.
    Unchanged,
    /// It says nothing about it.
    No,
}

/// The tsconfig of the closest directory above `importer`. In one directory the first by name
/// wins (`max_by_key` keeps the last maximum, so the list is walked backwards):
/// `tsconfig.app.json`, which holds the options where `tsconfig.json` only lists references,
/// before `tsconfig.base.json` before `tsconfig.json`.
fn nearest_config<'p>(importer: &str, project: &'p Project) -> Option<&'p TsConfig> {
    project
        .ts_configs
        .iter()
        .rev()
        .filter(|config| {
            config.dir.is_empty()
                || importer
                    .strip_prefix(config.dir.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        })
        .max_by_key(|config| config.dir.len())
}

/// `paths` first (the pattern with the longest prefix before its `*`), then `baseUrl`.
fn through_config(
    (base_url, patterns): (Option<&str>, &[(String, Vec<String>)]),
    spec: &str,
    index: &PathIndex<'_>,
) -> Claimed {
    let best = patterns
        .iter()
        .filter_map(|(pattern, targets)| {
            let captured = match pattern.split_once('*') {
                Some((prefix, suffix)) => spec
                    .strip_prefix(prefix)
                    .and_then(|rest| rest.strip_suffix(suffix))
                    .map(|middle| (prefix.len(), middle)),
                None => (pattern == spec).then_some((usize::MAX, "")),
            }?;
            Some((captured, targets))
        })
        .max_by_key(|((prefix_len, _), _)| *prefix_len);
    if let Some(((prefix_len, middle), targets)) = best {
        let found = targets
            .iter()
            .find_map(|target| probe(&target.replacen('*', middle, 1), index));
        // A catch-all `*` pattern claims every package name too; it only adds places to look.
        match found {
            Some(found) => return Claimed::Found(found),
            None if prefix_len > 0 => return Claimed::Unchanged,
            None => {}
        }
    }
    match base_url {
        Some(base_url) => {
            let base = if base_url.is_empty() {
                spec.to_string()
            } else {
                format!("{base_url}/{spec}")
            };
            probe(&base, index).map_or(Claimed::No, Claimed::Found)
        }
        None => Claimed::No,
    }
}

/// The workspace package a bare specifier names (the longest matching name).
fn package_of<'p>(spec: &str, project: &'p Project) -> Option<&'p JsPackage> {
    project
        .packages
        .iter()
        .filter(|package| {
            spec == package.name
                || spec
                    .strip_prefix(package.name.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
        })
        .max_by_key(|package| package.name.len())
}

fn through_package(package: &JsPackage, spec: &str, index: &PathIndex<'_>) -> Option<usize> {
    let inner = spec
        .get(package.name.len()..)
        .unwrap_or("")
        .trim_start_matches('/');
    let subpath = if inner.is_empty() {
        ".".to_string()
    } else {
        format!("./{inner}")
    };
    // A subpath the `exports` map names resolves through it alone (a `null` target hides it);
    // others fall back to the entry fields and plain paths, as `node10` resolution does.
    let exported = package.exports_of(&subpath);
    let entries: &[String] = match &exported {
        Some(_) => &[],
        None if inner.is_empty() => &package.entries,
        None => &[],
    };
    let found = exported
        .iter()
        .flatten()
        .chain(entries)
        .find_map(|target| probe_built(&package.dir, target, index));
    if exported.is_some() {
        return found;
    }
    found.or_else(|| {
        let candidates = if inner.is_empty() {
            ["src/index".to_string(), "index".to_string()]
        } else {
            [format!("src/{inner}"), inner.to_string()]
        };
        candidates
            .iter()
            .find_map(|candidate| probe(&paths::join(&package.dir, candidate)?, index))
    })
}

/// A package file named by `exports` or an entry field: as written, else the source it is built
/// from (`./dist/esm/x.js`, `./build/modern/x.d.ts` → `src/x.*`, then `x.*`).
fn probe_built(dir: &str, target: &str, index: &PathIndex<'_>) -> Option<usize> {
    if let Some(found) = probe(&paths::join(dir, target)?, index) {
        return Some(found);
    }
    let mut rest = target.trim_start_matches("./");
    for ext in [".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".jsx"] {
        rest = rest.strip_suffix(ext).unwrap_or(rest);
    }
    // Under an output directory, variant folders (`build/modern/`, `dist/esm/node/`) have no
    // counterpart in the sources: drop leading folders one at a time, fewest first.
    let first = rest.split('/').next().unwrap_or("");
    let mut candidates = vec![format!("src/{rest}"), rest.to_string()];
    if BUILD_DIRS.contains(&first) {
        while let Some((_, after)) = rest.split_once('/') {
            rest = after;
            candidates.push(format!("src/{rest}"));
            candidates.push(rest.to_string());
        }
    }
    candidates
        .iter()
        .find_map(|candidate| probe(&paths::join(dir, candidate)?, index))
}

fn probe(base: &str, index: &PathIndex<'_>) -> Option<usize> {
    if let Some(found) = index.probe(base, EXTENSIONS) {
        return Some(found);
    }
    let rewritten = TS_FOR_JS.iter().find_map(|(js, ts)| {
        let stem = base.strip_suffix(js)?;
        index.probe(stem, ts)
    });
    rewritten.or_else(|| index.probe(&format!("{base}/index"), INDEX_EXTENSIONS))
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::{check_deps as check, check_deps_in as check_in};

    #[test]
    fn import_forms() {
        check(
            &[
                (
                    "packages/react-dom/src/client/ReactDOMRoot.js",
                    "+import {\n+  createContainer,\n+  updateContainer,\n+} from 'react-reconciler/src/ReactFiberReconciler';\n\
                     +import './ReactDOMSideEffects';\n\
                     +export {isValidContainer} from './ReactDOMContainer';\n\
                     +export * from \"../shared/ReactDOMTypes\";\n\
                     +const ReactDOMComponentTree = require('./ReactDOMComponentTree');\n\
                     +const lazy = () => import('./ReactDOMLazy');\n\
                     +import type {RootType} from './ReactDOMRootTypes';\n\
                     +import fs = require(\"./ReactDOMFs\");",
                ),
                ("packages/react-dom/src/client/ReactDOMSideEffects.js", ""),
                ("packages/react-dom/src/client/ReactDOMContainer.js", ""),
                ("packages/react-dom/src/shared/ReactDOMTypes.js", ""),
                ("packages/react-dom/src/client/ReactDOMComponentTree.js", ""),
                ("packages/react-dom/src/client/ReactDOMLazy.js", ""),
                ("packages/react-dom/src/client/ReactDOMRootTypes.js", ""),
                ("packages/react-dom/src/client/ReactDOMFs.ts", ""),
            ],
            "packages/react-dom/src/client/ReactDOMRoot.js -> \
             packages/react-dom/src/client/ReactDOMSideEffects.js, \
             packages/react-dom/src/client/ReactDOMContainer.js, \
             packages/react-dom/src/shared/ReactDOMTypes.js, \
             packages/react-dom/src/client/ReactDOMComponentTree.js, \
             packages/react-dom/src/client/ReactDOMLazy.js, \
             packages/react-dom/src/client/ReactDOMRootTypes.js, \
             packages/react-dom/src/client/ReactDOMFs.ts",
        );
    }

    #[test]
    fn multi_line_import_with_a_removed_middle_line() {
        check(
            &[
                (
                    "app/router.ts",
                    " import {\n-  oldThing,\n+  invites,\n } from './invites';",
                ),
                ("app/invites/index.ts", ""),
            ],
            "app/router.ts -> app/invites/index.ts",
        );
    }

    #[test]
    fn extension_and_index_probing() {
        check(
            &[
                (
                    "src/main.ts",
                    "+import { a } from './a.js';\n+import b from './b';\n+import c from './c';\n\
                     +import d from './d';\n+import './styles.css';\n+import data from './data.json';\n\
                     +import e from './e.mjs';",
                ),
                ("src/a.ts", ""),
                ("src/b.tsx", ""),
                ("src/c/index.js", ""),
                ("src/d.d.ts", ""),
                ("src/styles.css", ""),
                ("src/data.json", ""),
                ("src/e.mts", ""),
            ],
            "src/main.ts -> src/a.ts, src/b.tsx, src/c/index.js, src/d.d.ts, src/styles.css, src/data.json, src/e.mts",
        );
    }

    #[test]
    fn aliases_and_base_url_paths() {
        check(
            &[
                (
                    "src/pages/index.vue",
                    "+<script setup lang=\"ts\">\n+import Button from '@/components/Button.vue'\n\
                     +import { store } from '~/stores/main'\n+import Card from 'components/Card'\n\
                     +</script>",
                ),
                ("src/components/Button.vue", ""),
                ("src/stores/main.ts", ""),
                ("src/components/Card.tsx", ""),
                (
                    "src/routes/+page.svelte",
                    "+<script>\n+  import Nav from '$lib/Nav.svelte';\n+</script>",
                ),
                ("src/lib/Nav.svelte", ""),
            ],
            "src/pages/index.vue -> src/components/Button.vue, src/stores/main.ts, src/components/Card.tsx\n\
             src/routes/+page.svelte -> src/lib/Nav.svelte",
        );
    }

    #[test]
    fn tsconfig_paths_and_workspace_packages() {
        check_in(
            &[
                (
                    "apps/web/src/page.ts",
                    "+import { a } from '@lib/a';\n+import { b } from '@lib/unchanged';\n\
                     +import { ui } from '@acme/ui';\n+import { d } from '@acme/ui/date';\n\
                     +import { x } from 'util/x';\n+import React from 'react';",
                ),
                ("libs/a/src/index.ts", ""),
                ("packages/ui/src/index.ts", ""),
                ("packages/ui/src/date.ts", ""),
                ("apps/web/src/util/x.ts", ""),
                // A bundler alias would have sent `@lib/unchanged` here; the tsconfig claims it.
                ("src/unchanged.ts", ""),
            ],
            &[
                (
                    "tsconfig.base.json",
                    "{ // base\n \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@lib/*\": [\"libs/*/src\"], } } }",
                ),
                (
                    "apps/web/tsconfig.json",
                    "{ \"extends\": \"../../tsconfig.base.json\", \"compilerOptions\": { \"baseUrl\": \"src\" } }",
                ),
                (
                    "packages/ui/package.json",
                    "{ \"name\": \"@acme/ui\", \"main\": \"dist/index.js\", \"exports\": { \".\": \"./dist/index.js\", \"./*\": \"./dist/*.js\" } }",
                ),
            ],
            "apps/web/src/page.ts -> libs/a/src/index.ts, packages/ui/src/index.ts, \
             packages/ui/src/date.ts, apps/web/src/util/x.ts",
        );
    }

    #[test]
    fn conditional_and_pattern_exports_lead_to_sources() {
        check_in(
            &[
                (
                    "apps/web/src/app.ts",
                    "+import { Button } from '@acme/ui';\n+import { Icon } from '@acme/ui/icons/arrow';\n\
                     +import { fmt } from '@acme/utils/date';\n+import { x } from '@acme/utils/internal/x';\n\
                     +import { y } from '@acme/core/server';\n+import { z } from '@acme/ui/legacy/z.js';",
                ),
                ("packages/ui/src/index.ts", ""),
                ("packages/ui/src/icons/arrow.tsx", ""),
                ("packages/ui/src/legacy/z.ts", ""),
                ("packages/utils/src/date/index.ts", ""),
                // Not exported, so not what `@acme/utils/internal/x` names.
                ("packages/utils/src/internal/x.ts", ""),
                ("packages/core/src/server.mts", ""),
            ],
            &[
                (
                    "packages/ui/package.json",
                    r#"{ "name": "@acme/ui", "exports": { ".": { "types": "./dist/index.d.ts", "import": "./dist/esm/index.js", "require": "./dist/cjs/index.cjs" },
                        "./icons/*": { "types": "./dist/types/icons/*.d.ts", "default": "./dist/esm/icons/*.js" }, "./legacy/": "./lib/legacy/" } }"#,
                ),
                (
                    "packages/utils/package.json",
                    r#"{ "name": "@acme/utils", "exports": { "./date": "./build/date/index.js", "./internal/*": null } }"#,
                ),
                (
                    "packages/core/package.json",
                    r#"{ "name": "@acme/core", "exports": { "./server": { "node": { "import": "./dist/server.mjs" } } } }"#,
                ),
            ],
            "apps/web/src/app.ts -> packages/ui/src/index.ts, packages/ui/src/icons/arrow.tsx, \
             packages/ui/src/legacy/z.ts, packages/utils/src/date/index.ts, packages/core/src/server.mts",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "src/app.ts",
                    "+// import { a } from './a';\n+/* import b from './b'; */\n\
                     -import c from './c';\n+const s = \"import d from './d'\";\n\
                     +import React from 'react';\n+import e from './unchanged';\n\
                     +foo.import('./f');\n+const g = require(`./${name}`);\n\
                     +import h from '@acme/ui';\n+import self from './app';",
                ),
                ("src/a.ts", ""),
                ("src/b.ts", ""),
                ("src/c.ts", ""),
                ("src/d.ts", ""),
                ("src/f.ts", ""),
                ("src/react.ts", ""),
            ],
            "",
        );
    }

    #[test]
    fn removed_targets_and_escaping_the_root() {
        check(
            &[
                (
                    "src/app.ts",
                    "+import x from './gone';\n+import y from '../../../y';",
                ),
                ("-src/gone.ts", ""),
                ("y.ts", ""),
            ],
            "",
        );
    }
}
