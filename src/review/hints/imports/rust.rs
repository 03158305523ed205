//! Rust module references: `use` trees, `mod x;` declarations and `crate::` paths.
//!
//! Why: `dependsOn` for Rust files.
//! Read forms: `use crate::a::b;`, `use super::…`, `use self::…`, `pub use`, grouped and nested
//! `use crate::{a, b::{c, self}};`, `use other_crate::…` for crates of the same workspace
//! (`tokio-util/src` is crate `tokio_util`), `use child::…` (a child module, 2018 paths),
//! `mod x;` (not `mod x { … }`), and `crate::a::b` paths anywhere in code.
//! Resolution follows the module tree: the crate's module root is the `src` directory above the
//! file (or `tests`, `examples`, `benches`, `src/bin`, whose files are crate roots); `mod x;` in
//! `lib.rs`, `main.rs`, `mod.rs` or a crate root means `x.rs` or `x/mod.rs` beside it, elsewhere
//! `stem/x.rs`; a path resolves to the file of its longest prefix that is a changed module file.
//! An indented `use` sits in an inline module (`mod tests { use super::*; }`), so its `super` is
//! the file's own module and its `self` is not a file. Indented `mod x;` and `use child::…` lines
//! are mostly inside `cfg_*! { … }` macros and resolve as if at the top.
//!
//! A path names one module, never a changed parent of it: the segments before the first
//! capitalised one (types, traits, constants and variants are items of that module, so
//! `crate::Item` is the crate root); a lower-case last segment is a module when its file changed,
//! else an item of the deepest changed module file above it: of a leaf module (`a/b.rs`) unless
//! a `mod` line or changed files inside show a module of that name, of a module with children
//! (`mod.rs`, a crate root) only when its visible lines define it (`fn f`, `macro_rules! f`) or
//! re-export it (`pub use a::f;`), or the importer calls it (`f(…)`), since there an unchanged
//! child module is the likelier reading.
//! Crate names come from the manifests read at the head, then from `…/src/` directory names.
//!
//! What not: no `#[path]` attributes, no macros, no `extern crate` renames, no inline-module
//! tracking beyond indentation.

use std::collections::HashMap;

use super::lex::{self, Syntax, Tok};
use super::Declarations;
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const SYNTAX: Syntax = Syntax {
    line_comments: &["//"],
    block_comments: true,
    quotes: b"\"",
    multiline_quote: None,
    triple_quotes: false,
    hash_bracket_is_code: false,
    begin_end_comments: false,
    star_lines_are_comments: true,
};

const TRIGGERS: &[&str] = &["use", "mod", "crate", "fn", "macro_rules"];

const MODULE_SUFFIXES: &[&str] = &[".rs", "/mod.rs"];

/// The lower-case name a `use` path brings into scope (`helper` of `a::b::helper`), if any: a
/// function or macro its file then has as an item, which `crate::helper` may name. Globs,
/// `self` and capitalised names (types, which name no module anyway) give none.
pub fn imported_name<'a>(path: &[&'a str]) -> Option<&'a str> {
    let (&last, rest) = path.split_last()?;
    let lower = last.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
    (lower && !rest.is_empty() && !matches!(last, "self" | "super" | "crate")).then_some(last)
}

/// Use trees nest; deeper ones are skipped rather than recursed into.
const MAX_USE_DEPTH: usize = 8;

/// A reference to another module, as read from visible lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reference<'a> {
    /// A path of a `use` tree; `indented` when the `use` line is indented.
    Use { path: Vec<&'a str>, indented: bool },
    /// A `crate::…` path in code.
    Path(Vec<&'a str>),
    /// `mod name;`.
    Mod { name: &'a str, indented: bool },
    /// `fn name` or `macro_rules! name`: an item a `use` may name.
    Item(&'a str),
    /// `name(…)` or `name::<…>(…)`: a function this file calls.
    Call(&'a str),
}

/// Module references in the visible lines of the hunks.
pub fn references<'a>(hunks: &[Hunk<'a>]) -> Vec<Reference<'a>> {
    let mut references = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        read(&with_indent(&tokens), &mut references);
    }
    references
}

/// Tokens without line markers, each with its line's indentation.
fn with_indent<'a>(tokens: &[Tok<'a>]) -> Vec<(Tok<'a>, usize)> {
    let mut indent = 0;
    let mut out = Vec::with_capacity(tokens.len());
    for token in tokens {
        match token {
            Tok::Bol(width) => indent = *width,
            other => out.push((*other, indent)),
        }
    }
    out
}

fn read<'a>(code: &[(Tok<'a>, usize)], out: &mut Vec<Reference<'a>>) {
    let plain: Vec<Tok<'a>> = code.iter().map(|(token, _)| *token).collect();
    let tok = |i: usize| plain.get(i).copied();
    let mut i = 0;
    while let Some((token, indent)) = code.get(i).copied() {
        let after_separator = i
            .checked_sub(1)
            .and_then(tok)
            .is_some_and(|before| matches!(before, Tok::Punct(b':' | b'.')));
        match token {
            Tok::Ident("use") if !after_separator => {
                let mut paths = Vec::new();
                let end = use_tree(&plain, i + 1, &[], &mut paths, 0);
                out.extend(paths.into_iter().map(|path| Reference::Use {
                    path,
                    indented: indent > 0,
                }));
                i = end.max(i + 1);
            }
            Tok::Ident("mod") if !after_separator => {
                if let (Some(Tok::Ident(name)), Some(Tok::Punct(b';'))) = (tok(i + 1), tok(i + 2)) {
                    out.push(Reference::Mod {
                        name,
                        indented: indent > 0,
                    });
                    i += 3;
                } else {
                    i += 1;
                }
            }
            Tok::Ident("fn" | "macro_rules") if !after_separator => {
                let name = match (tok(i + 1), tok(i + 2)) {
                    (Some(Tok::Ident(name)), _)
                    | (Some(Tok::Punct(b'!')), Some(Tok::Ident(name))) => Some(name),
                    _ => None,
                };
                out.extend(name.map(Reference::Item));
                i += 1;
            }
            Tok::Ident(name)
                if !after_separator
                    && name.starts_with(|c: char| c.is_ascii_lowercase())
                    && (tok(i + 1) == Some(Tok::Punct(b'('))
                        || (tok(i + 1) == Some(Tok::Punct(b':'))
                            && tok(i + 3) == Some(Tok::Punct(b'<')))) =>
            {
                out.push(Reference::Call(name));
                i += 1;
            }
            Tok::Ident(first @ ("crate" | "$crate")) if !after_separator => {
                let mut path = vec![first];
                let mut j = i + 1;
                while let (Some(Tok::Punct(b':')), Some(Tok::Punct(b':')), Some(Tok::Ident(part))) =
                    (tok(j), tok(j + 1), tok(j + 2))
                {
                    path.push(part);
                    j += 3;
                }
                if path.len() > 1 {
                    out.push(Reference::Path(path));
                }
                i = j;
            }
            _ => i += 1,
        }
    }
}

/// Reads a use tree at `i`, adding each full path to `out`; returns the index after it.
fn use_tree<'a>(
    tokens: &[Tok<'a>],
    mut i: usize,
    prefix: &[&'a str],
    out: &mut Vec<Vec<&'a str>>,
    depth: usize,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match tokens.get(i) {
            Some(Tok::Punct(b':')) if tokens.get(i + 1) == Some(&Tok::Punct(b':')) => i += 2,
            Some(Tok::Ident(segment)) => {
                path.push(segment);
                i += 1;
                if tokens.get(i) == Some(&Tok::Punct(b':'))
                    && tokens.get(i + 1) == Some(&Tok::Punct(b':'))
                {
                    i += 2;
                    continue;
                }
                if tokens.get(i) == Some(&Tok::Ident("as")) {
                    i += 2;
                }
                out.push(path);
                return i;
            }
            Some(Tok::Punct(b'*')) => {
                // Kept as a segment: a glob names exactly the module before it.
                path.push("*");
                out.push(path);
                return i + 1;
            }
            Some(Tok::Punct(b'{')) if depth < MAX_USE_DEPTH => {
                i += 1;
                loop {
                    i = use_tree(tokens, i, &path, out, depth + 1);
                    match tokens.get(i) {
                        Some(Tok::Punct(b',')) => i += 1,
                        Some(Tok::Punct(b'}')) => return i + 1,
                        _ => return i,
                    }
                }
            }
            _ => return i,
        }
    }
}

/// Crates of the workspace by name: from the manifests read at the head, then guessed from the
/// changed files' paths (`tokio-util/src/…` is crate `tokio_util`).
#[derive(Debug, Default)]
pub struct Crates {
    roots: HashMap<String, String>,
}

impl Crates {
    /// `manifests` are `(crate name, root module directory)` pairs from `Cargo.toml` files.
    pub fn new(index: &PathIndex<'_>, manifests: &[(String, String)]) -> Crates {
        let mut roots: HashMap<String, String> = HashMap::new();
        for (name, root) in manifests {
            roots.insert(name.clone(), root.clone());
        }
        for (_, path) in index.targets() {
            if paths::extension(path) != "rs" {
                continue;
            }
            let Some((crate_dir, _)) = path.rsplit_once("/src/") else {
                continue;
            };
            let root = format!("{crate_dir}/src");
            // A manifest named this crate otherwise: its directory name is no crate name.
            if manifests.iter().any(|(_, known)| *known == root) {
                continue;
            }
            let name = paths::file_name(crate_dir).replace('-', "_");
            roots.entry(name).or_insert(root);
        }
        Crates { roots }
    }
}

/// Where a file sits in its crate's module tree.
struct Module<'p> {
    /// The directory module paths start from (`tokio/src`).
    root: String,
    /// The file's module path from the crate root (`[runtime, task]` for `…/runtime/task/mod.rs`).
    path: Vec<&'p str>,
    /// The directory of files of its child modules.
    children: String,
}

fn module_of(file: &str) -> Option<Module<'_>> {
    let parts: Vec<&str> = file.split('/').collect();
    let (last, dirs) = parts.split_last()?;
    let stem = last.strip_suffix(".rs")?;
    let dir = paths::parent(file);
    let marker = dirs.iter().rposition(|part| *part == "src").or_else(|| {
        dirs.iter()
            .rposition(|part| matches!(*part, "tests" | "examples" | "benches"))
    });
    let (root, path, crate_root) = match marker {
        Some(at) => {
            let in_src = dirs.get(at) == Some(&"src");
            let relative = dirs.get(at + 1..).unwrap_or(&[]);
            // `src/bin/x.rs` and `tests/x/main.rs` are crate roots too.
            let nested_root = (in_src && relative == ["bin"])
                || (!in_src && relative.len() == 1 && stem == "main");
            let (root_len, relative, crate_root) = if nested_root {
                (at + 2, &[][..], true)
            } else if relative.is_empty() {
                (at + 1, relative, !in_src || matches!(stem, "lib" | "main"))
            } else {
                (at + 1, relative, false)
            };
            let mut path = relative.to_vec();
            if !crate_root && stem != "mod" {
                path.push(stem);
            }
            (
                dirs.get(..root_len).unwrap_or(&[]).join("/"),
                path,
                crate_root,
            )
        }
        None if matches!(stem, "lib" | "main" | "build") => (dir.to_string(), Vec::new(), true),
        None => return None,
    };
    let children = if crate_root || stem == "mod" {
        dir.to_string()
    } else {
        paths::join(dir, stem).unwrap_or_default()
    };
    Some(Module {
        root,
        path,
        children,
    })
}

/// What changed files show about names a `use` may end in (whether `use a::x` names a module or
/// an item of `a`), by file position.
#[derive(Debug, Default)]
pub struct Evidence<'a> {
    /// `mod x;` lines.
    pub modules: Declarations<'a>,
    /// `fn x` and `macro_rules! x`.
    pub items: Declarations<'a>,
    /// `x(…)` calls.
    pub calls: Declarations<'a>,
}

/// Adds the changed file a reference in `importer` resolves to.
pub fn resolve(
    importer: &str,
    reference: &Reference<'_>,
    crates: &Crates,
    evidence: &Evidence<'_>,
    index: &PathIndex<'_>,
    out: &mut Vec<usize>,
) {
    let Some(module) = module_of(importer) else {
        return;
    };
    let (segments, indented, from_use) = match reference {
        Reference::Mod { name, .. } => {
            // Indented declarations are mostly inside `cfg_*! { … }` macros, rarely inside an
            // inline module, so they resolve like top-level ones.
            let base = format!("{}/{name}", module.children);
            out.extend(index.probe(base.trim_start_matches('/'), MODULE_SUFFIXES));
            return;
        }
        Reference::Use { path, indented } => (path.as_slice(), *indented, true),
        Reference::Path(path) => (path.as_slice(), false, false),
        Reference::Item(_) | Reference::Call(_) => return,
    };
    // `a::b::*` and `a::b::{self}` name exactly the module `a::b`.
    let (segments, exact) = match segments.split_last() {
        Some((&("self" | "*"), rest)) if !rest.is_empty() => (rest, true),
        _ => (segments, false),
    };
    let Some((first, rest)) = segments.split_first() else {
        return;
    };
    let (root, base, rest, shortest): (&str, &[&str], &[&str], usize) = match *first {
        "crate" | "$crate" => (&module.root, &[], rest, 1),
        "self" if !indented => (&module.root, &module.path, rest, 1),
        "super" => {
            let supers = segments.iter().take_while(|s| **s == "super").count();
            let up = supers - usize::from(indented);
            let Some(kept) = module.path.len().checked_sub(up) else {
                return;
            };
            let base = module.path.get(..kept).unwrap_or(&[]);
            (&module.root, base, segments.get(supers..).unwrap_or(&[]), 0)
        }
        "std" | "core" | "alloc" | "self" => return,
        name => match crates.roots.get(name) {
            Some(root) => (root.as_str(), &[], rest, 1),
            None if from_use => (&module.root, &module.path, segments, 1),
            None => return,
        },
    };
    // An import names one module: the path up to its first item (a capitalised name is a type,
    // trait, constant or variant), or, when it ends in a lower-case name, that name as a module
    // and else its parent (a function or macro). A module whose file didn't change is no edge,
    // never its changed parent.
    let module_len = rest
        .iter()
        .position(|segment| segment.starts_with(|c: char| c.is_ascii_uppercase()))
        .unwrap_or(rest.len());
    let ends_in_item = module_len < rest.len();
    // A lower-case last name is a module when its file changed (`use crate::runtime::context;`),
    // else an item (a function, macro or static) of the deepest changed module above it, unless
    // something shows it is a module: a `mod` line of its parent or changed files inside it.
    // A single lower-case name under the crate root (`use crate::helper`) may be an item of
    // the root itself, kept only with the root's evidence below (issue #32).
    let mut lengths = vec![module_len];
    let root_item = from_use && module_len == 1 && shortest == 1;
    if !ends_in_item && !exact && (module_len > shortest || root_item) {
        lengths.push(module_len - 1);
    }
    for take in lengths {
        let is_parent = take < module_len;
        let mut parts: Vec<&str> = base.to_vec();
        parts.extend(rest.get(..take).unwrap_or(&[]));
        let found = if parts.is_empty() {
            // A binary's `crate` is its own `main.rs`, not the library beside it.
            let own_binary = root == module.root && paths::file_name(importer) == "main.rs";
            let roots: &[&str] = if own_binary {
                &["main.rs"]
            } else {
                &["lib.rs", "main.rs"]
            };
            roots.iter().find_map(|name| index.find(&join(root, name)))
        } else {
            index.probe(&join(root, &parts.join("/")), MODULE_SUFFIXES)
        };
        // A `use` of a lower-case name under a changed module file: an item of a leaf module
        // (`a/b.rs`) unless its `mod` line or changed files inside show a module; of a module
        // with children (`mod.rs`, a crate root) only when its visible lines define it or the
        // importer calls it.
        let child = rest.get(take).copied().unwrap_or("");
        let item_of = |found: usize| {
            let parent = index.path(found);
            if matches!(paths::file_name(parent), "mod.rs" | "lib.rs" | "main.rs") {
                return evidence.items.contains(found, child)
                    || index
                        .find(importer)
                        .is_some_and(|own| evidence.calls.contains(own, child));
            }
            let mut dir = parts.clone();
            dir.push(child);
            !evidence.modules.contains(found, child)
                && index.in_dir(&join(root, &dir.join("/"))).is_empty()
        };
        let found = found.filter(|&found| !(is_parent && from_use) || item_of(found));
        if let Some(found) = found {
            out.push(found);
            return;
        }
    }
}

fn join(root: &str, rest: &str) -> String {
    if root.is_empty() {
        rest.to_string()
    } else {
        format!("{root}/{rest}")
    }
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;

    #[test]
    fn use_trees_from_tokio() {
        check(
            &[
                (
                    "tokio/src/runtime/scheduler/multi_thread/worker.rs",
                    "+use crate::runtime::scheduler::multi_thread::{\n+    idle, queue, Counters, Handle,\n+};\n\
                     +use crate::loom::sync::{Arc, Mutex};\n\
                     +pub(crate) use crate::util::rand::{self, RngSeedGenerator};\n\
                     +use super::park::{Parker, Unparker};\n+use std::cell::RefCell;",
                ),
                ("tokio/src/runtime/scheduler/multi_thread/idle.rs", ""),
                ("tokio/src/runtime/scheduler/multi_thread/queue.rs", ""),
                ("tokio/src/runtime/scheduler/multi_thread/mod.rs", ""),
                // `loom::sync` is `loom/sync.rs`, unchanged: no edge to its parent.
                ("tokio/src/loom/mod.rs", ""),
                ("tokio/src/util/rand.rs", ""),
                ("tokio/src/runtime/scheduler/multi_thread/park.rs", ""),
            ],
            "tokio/src/runtime/scheduler/multi_thread/worker.rs -> \
             tokio/src/runtime/scheduler/multi_thread/idle.rs, \
             tokio/src/runtime/scheduler/multi_thread/queue.rs, \
             tokio/src/runtime/scheduler/multi_thread/mod.rs, \
             tokio/src/util/rand.rs, \
             tokio/src/runtime/scheduler/multi_thread/park.rs",
        );
    }

    #[test]
    fn mod_declarations() {
        check(
            &[
                (
                    "src/lib.rs",
                    "+pub mod review;\n+mod store;\n+mod inline {\n+}",
                ),
                ("src/review/mod.rs", "+pub mod patch;\n+mod hints;"),
                ("src/review/patch.rs", ""),
                ("src/review/hints/mod.rs", ""),
                ("src/store.rs", "+mod memory;"),
                ("src/store/memory.rs", ""),
                ("src/inline.rs", ""),
                ("tests/it/main.rs", "+mod oauth;"),
                ("tests/it/oauth.rs", ""),
            ],
            "src/lib.rs -> src/review/mod.rs, src/store.rs\n\
             src/review/mod.rs -> src/review/patch.rs, src/review/hints/mod.rs\n\
             src/store.rs -> src/store/memory.rs\n\
             tests/it/main.rs -> tests/it/oauth.rs",
        );
    }

    #[test]
    fn super_self_and_inline_test_modules() {
        check(
            &[
                (
                    "src/review/hints/tests_of.rs",
                    "+use super::index::PathIndex;\n+use super::super::patch::Hunk;\n\
                     +use self::inner::X;\n+mod tests {\n+    use super::*;\n+    use super::super::paths;\n+}",
                ),
                ("src/review/hints/index.rs", ""),
                ("src/review/patch.rs", ""),
                ("src/review/hints/paths.rs", ""),
                ("src/review/hints/tests_of/inner.rs", ""),
                ("src/review/hints/mod.rs", "+use super::patch::Hunk;\n+use super::Error;"),
                ("src/review/mod.rs", ""),
            ],
            "src/review/hints/tests_of.rs -> src/review/hints/index.rs, src/review/patch.rs, \
             src/review/hints/paths.rs, src/review/hints/tests_of/inner.rs\n\
             src/review/hints/mod.rs -> src/review/patch.rs, src/review/mod.rs",
        );
    }

    #[test]
    fn workspace_crates_and_paths_in_code() {
        check(
            &[
                (
                    "tokio/tests/io_copy.rs",
                    "+use tokio::io::{self, AsyncRead};\n+use tokio_test::assert_ok;",
                ),
                ("tokio/src/io/mod.rs", ""),
                ("tokio-test/src/lib.rs", ""),
                ("tokio-test/src/macros.rs", ""),
                (
                    "src/web/page.rs",
                    "+fn f() {\n+    let x = crate::review::patch::parse_patch(p);\n+    $crate::store::get();\n+}",
                ),
                ("src/review/patch.rs", ""),
                ("src/store/mod.rs", ""),
                ("src/main.rs", "+use cli::Args;\n+use review::patch;"),
                ("src/cli.rs", ""),
            ],
            "tokio/tests/io_copy.rs -> tokio/src/io/mod.rs\n\
             src/web/page.rs -> src/review/patch.rs, src/store/mod.rs\n\
             src/main.rs -> src/review/patch.rs, src/cli.rs",
        );
    }

    #[test]
    fn items_name_their_module_and_nothing_above_it() {
        check(
            &[
                (
                    "src/app.rs",
                    "+use crate::Config;\n+use crate::a::b::Item;\n+use crate::a::c::helper;\n\
                     +use crate::a::d::*;\n+use crate::a::e::{self, Thing};\n+use crate::a::f::module;\n\
                     +use crate::a::g::inner;\n+use crate::a::b::function;\n\
                     +use crate::h::{run, context};",
                ),
                ("src/lib.rs", ""),
                ("src/a/mod.rs", ""),
                // `a::c::helper` is a function of the changed `a/c.rs`; `d` and `b` didn't change.
                ("src/a/c.rs", "+pub fn helper() {}"),
                ("src/a/e.rs", ""),
                // `module` and `inner` are modules (a `mod` line, changed files inside), unchanged.
                ("src/a/f.rs", "+mod module;\n+pub fn g() {}"),
                ("src/a/g.rs", ""),
                ("src/a/g/inner/deep.rs", ""),
                // A module with children: `run` is defined in its visible lines, `context` is
                // not (most likely an unchanged child module).
                ("src/h/mod.rs", "+pub fn run() {}\n+macro_rules! m { () => {} }"),
                (
                    "src/k.rs",
                    "+use crate::h::{call_me, generic, context};\n+fn f() { call_me(1); generic::<u8>(); context::x(); }",
                ),
                (
                    "crates/other/src/lib.rs",
                    "+use crate::Error;\n+use crate::error::Kind;",
                ),
                ("crates/other/src/error.rs", ""),
            ],
            "src/app.rs -> src/lib.rs, src/a/c.rs, src/a/e.rs, src/h/mod.rs\n\
             src/k.rs -> src/h/mod.rs\n\
             crates/other/src/lib.rs -> crates/other/src/error.rs",
        );
    }

    #[test]
    fn issue_32_items_re_exported_at_the_crate_root() {
        // `crate::{…}` whose `use` line is the hunk's section text (the block reader gives it
        // back); `helper` and `spawn` are re-exported by the changed crate root, `config` is a
        // module there and `unknown` is neither: no edge for those.
        check(
            &[
                (
                    "src/lib.rs",
                    "+pub use util::text::helper;\n+pub(crate) use runtime::{spawn, Handle};\n+mod config;",
                ),
                (
                    "src/cmd.rs",
                    "+use crate::helper;\n+use crate::{spawn, config, unknown};",
                ),
            ],
            "src/cmd.rs -> src/lib.rs",
        );
        check(
            &[
                ("src/lib.rs", "+mod config;"),
                ("src/cmd.rs", "+use crate::{config, unknown};"),
            ],
            "",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "src/a.rs",
                    "+// use crate::b;\n+/// use crate::c;\n+/* use crate::d; */\n-use crate::e;\n\
                     +let s = \"use crate::f;\";\n+use crate::unchanged::X;\n+use crate::config;\n\
                     +use std::collections::HashMap;\n+x.use_thing(crate_name);",
                ),
                ("src/b.rs", ""),
                ("src/c.rs", ""),
                ("src/d.rs", ""),
                ("src/e.rs", ""),
                ("src/f.rs", ""),
                ("src/lib.rs", ""),
                ("src/std.rs", ""),
                (
                    "build.rs",
                    "+use super::x;\n+use crate::{{{{{{{{{{{{a}}}}}}}}}}}};",
                ),
                ("src/a/nested.rs", ""),
                ("README.md", ""),
            ],
            "",
        );
    }
}
