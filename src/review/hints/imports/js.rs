//! TypeScript and JavaScript imports (also the script parts of Vue, Svelte and Astro files).
//!
//! Why: `dependsOn` for the most common language of pull requests.
//! Read forms: `import … from '…'` (also when `from '…'` is on a later visible line of a
//! multi-line import), `import '…'`, `export … from '…'`, `require('…')`, `import('…')`,
//! `import x = require('…')`. Resolution, against changed files only: relative specifiers from the
//! importer's directory, then aliases `@/x`, `~/x` (→ `src/x`, then `x`) and `$lib/x`
//! (→ `src/lib/x`), and `baseUrl`-style bare paths with a `/` (`components/Button` → `src/…`);
//! each is probed as written, with `.ts .tsx .d.ts .js .jsx .mjs .cjs .mts .cts .vue .svelte .json`,
//! as `…/index.*`, and `./x.js` also as `./x.ts` (TypeScript's ESM convention).
//!
//! What not: no `tsconfig.json` paths or `package.json` workspaces (`@acme/ui` → `packages/ui`),
//! no `jest.mock('…')` or other calls that name modules without importing them.

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

/// Words every import form contains; hunks without them are not lexed.
const TRIGGERS: &[&str] = &["import", "require", "from"];

const EXTENSIONS: &[&str] = &[
    "", ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte",
    ".json",
];
const INDEX_EXTENSIONS: &[&str] = &[".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs"];

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
pub fn resolve(importer: &str, spec: &str, index: &PathIndex<'_>, out: &mut Vec<usize>) {
    let spec = spec.split(['?', '#']).next().unwrap_or(spec);
    let relative = spec == "." || spec == ".." || spec.starts_with("./") || spec.starts_with("../");
    let bases: Vec<String> = if relative {
        paths::join(paths::parent(importer), spec)
            .into_iter()
            .collect()
    } else if let Some(rest) = spec.strip_prefix("@/").or_else(|| spec.strip_prefix("~/")) {
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
    use crate::review::hints::testing::check_deps as check;

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
