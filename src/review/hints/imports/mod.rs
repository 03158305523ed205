//! The `dependsOn` hint: changed files each file imports, read from visible diff lines.
//!
//! Why: a reading order shows what a file uses before the file; import lines say what that is.
//! Only visible lines count (added and context, never removed ones), comments and docs are not
//! imports, and only files of the pull request that exist at its head are results.
//! One module per language reads its import forms and resolves them; this module picks the
//! language by extension and runs them. Go needs every import of the pull request first, to infer
//! module paths, so it runs in two passes.
//!
//! Build files read at the head (`go.mod`, `Cargo.toml`, `tsconfig.json`, `package.json`,
//! `pyproject.toml`, `.csproj`, `Package.swift`, `build.sbt`) come in as a [`Project`]; without
//! them each language falls back to what the changed paths suggest. So do the texts of changed
//! Kotlin files [`texts_wanted`] asks for, and of changed C# files (their namespaces).
//!
//! What not: no ordering, deduplication or self-removal (the caller does that once for all
//! languages), no reading of unchanged files.

pub mod block;
pub mod c;
pub mod csharp;
pub mod css;
pub mod go;
pub mod java;
pub mod js;
pub mod kotlin;
pub mod lex;
pub mod php;
pub mod python;
pub mod ruby;
pub mod rust;
pub mod scala;
pub mod swift;
pub mod swiftpm;

use std::collections::HashSet;

use super::index::PathIndex;
use super::paths;
use super::project::Project;
use super::HintInput;
use crate::review::patch::Hunk;

pub use super::language::{language, Language};

/// Names changed files visibly declare, by file position: a set, so a pull request of thousands
/// of files asks each question in constant time (a plain list was searched whole per import).
#[derive(Debug, Default)]
pub struct Declarations<'a>(HashSet<(usize, &'a str)>);

impl<'a> Declarations<'a> {
    fn add(&mut self, position: usize, name: &'a str) {
        self.0.insert((position, name));
    }

    /// Whether the file at `position` declares `name`.
    pub fn contains(&self, position: usize, name: &'a str) -> bool {
        self.0.contains(&(position, name))
    }
}

/// A file's hunks as its reader reads them: the hunks, and the import blocks they start inside
/// of (`block::continued`), kept apart so the usual file (no such block) costs no copy.
struct Read<'h, 'a> {
    hunks: &'h [Hunk<'a>],
    blocks: Vec<Hunk<'a>>,
}

impl<'h, 'a> Read<'h, 'a> {
    fn new(hunks: &'h [Hunk<'a>], language: Language) -> Self {
        Read {
            hunks,
            blocks: hunks
                .iter()
                .filter_map(|hunk| block::continued(hunk, language))
                .collect(),
        }
    }

    /// What `reader` finds in the hunks, then in the blocks.
    fn all<T>(&self, reader: impl Fn(&[Hunk<'a>]) -> Vec<T>) -> Vec<T> {
        let mut found = reader(self.hunks);
        if !self.blocks.is_empty() {
            found.extend(reader(&self.blocks));
        }
        found
    }
}

/// Changed files whose text at the head would resolve imports the diff alone cannot: the `.kt`
/// files an import of a Java or Kotlin file may point into when no class file matches it
/// (`kotlin::candidates`), in pull-request order, at most [`kotlin::MAX_TEXTS`].
pub fn texts_wanted(files: &[HintInput<'_>], index: &PathIndex<'_>) -> Vec<String> {
    let has_kotlin = files
        .iter()
        .any(|file| paths::extension(file.path) == "kt" && file.status.exists_at_head());
    if !has_kotlin {
        return Vec::new();
    }
    let mut wanted = std::collections::BTreeSet::new();
    let mut packages = HashSet::new();
    for file in files {
        let (Some(hunks), Some(Language::JavaKotlin)) = (file.hunks, language(file.path)) else {
            continue;
        };
        for spec in Read::new(hunks, Language::JavaKotlin).all(java::specifiers) {
            for package in java::packages_to_read(file.path, &spec, index) {
                if packages.insert(package.clone()) {
                    wanted.extend(kotlin::candidates(&package, index));
                }
            }
        }
    }
    wanted
        .into_iter()
        .take(kotlin::MAX_TEXTS)
        .map(|position| index.path(position).to_string())
        .collect()
}

/// For each file, positions of the files its visible import lines resolve to (unsorted, may repeat
/// and include the file itself).
/// `swift_targets` are the Swift packages' targets (`testOf` reads them too).
pub fn resolved_imports(
    files: &[HintInput<'_>],
    index: &PathIndex<'_>,
    project: &Project,
    swift_targets: &swift::Targets,
) -> Vec<Vec<usize>> {
    let mut go_imports: Vec<Vec<&str>> = vec![Vec::new(); files.len()];
    let mut has_rust = false;
    let mut kotlin_declarations = Declarations::default();
    let mut rust_references: Vec<Vec<rust::Reference<'_>>> = vec![Vec::new(); files.len()];
    let mut rust_evidence = rust::Evidence::default();
    // Every Scala file's packages and top-level names: from its text at the head when read,
    // else from its visible lines.
    let scala_texts: std::collections::HashMap<&str, &str> = project
        .scala_texts
        .iter()
        .map(|(path, text)| (path.as_str(), text.as_str()))
        .collect();
    let scala_visible: Vec<(usize, scala::Visible<'_>)> = files
        .iter()
        .filter(|file| language(file.path) == Some(Language::Scala))
        .filter_map(|file| {
            let position = index.find(file.path)?;
            let found = match scala_texts.get(file.path) {
                Some(text) => scala::at_head(file.path, text),
                None => scala::visible(file.path, file.hunks.unwrap_or(&[])),
            };
            Some((position, found))
        })
        .collect();
    // Every C# file of the pull request, for the namespaces it declares.
    let cs_files: Vec<(usize, Option<&[Hunk<'_>]>)> = files
        .iter()
        .filter(|file| language(file.path) == Some(Language::CSharp))
        .filter_map(|file| Some((index.find(file.path)?, file.hunks)))
        .collect();
    // Each file's hunks with the import blocks they start inside of, worked out once.
    let read: Vec<Option<Read<'_, '_>>> = files
        .iter()
        .map(|file| Some(Read::new(file.hunks?, language(file.path)?)))
        .collect();
    for (((file, imports), references), hunks) in files
        .iter()
        .zip(go_imports.iter_mut())
        .zip(rust_references.iter_mut())
        .zip(&read)
    {
        let Some(hunks) = hunks else {
            continue;
        };
        match language(file.path) {
            Some(Language::Go) => *imports = hunks.all(go::specifiers),
            Some(Language::JavaKotlin) if paths::extension(file.path) == "kt" => {
                if let Some(position) = index.find(file.path) {
                    for name in hunks.all(java::kotlin_declarations) {
                        kotlin_declarations.add(position, name);
                    }
                }
            }
            Some(Language::Rust) => {
                has_rust = true;
                *references = hunks.all(rust::references);
                if let Some(position) = index.find(file.path) {
                    for reference in references.iter() {
                        match reference {
                            rust::Reference::Mod { name, .. } => {
                                rust_evidence.modules.add(position, name)
                            }
                            rust::Reference::Item(name) => rust_evidence.items.add(position, name),
                            // `pub use a::helper;` in a crate root or `mod.rs` defines `helper`
                            // there as much as `fn helper` does (issue #32).
                            rust::Reference::Use { path, .. } => {
                                if let Some(name) = rust::imported_name(path) {
                                    rust_evidence.items.add(position, name);
                                }
                            }
                            rust::Reference::Call(name) => rust_evidence.calls.add(position, name),
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let all_go: Vec<&str> = go_imports.iter().flatten().copied().collect();
    let go_modules = if all_go.is_empty() {
        go::Modules::default()
    } else {
        go::Modules::new(&all_go, &project.go_modules, index)
    };
    let kotlin_heads = kotlin::Heads::new(&project.kotlin_texts, index);
    let python_roots = if read
        .iter()
        .zip(files)
        .any(|(hunks, file)| hunks.is_some() && language(file.path) == Some(Language::Python))
    {
        python::Roots::new(&project.python_projects, index)
    } else {
        python::Roots::default()
    };
    let scala_packages = if scala_visible.is_empty() {
        scala::Packages::default()
    } else {
        scala::Packages::new(scala_visible, &project.scala_modules)
    };
    let namespaces = if cs_files.is_empty() {
        csharp::Namespaces::default()
    } else {
        csharp::Namespaces::new(
            &cs_files,
            &project.cs_projects,
            &project.csharp_texts,
            index,
        )
    };
    let crates = if has_rust {
        rust::Crates::new(index, &project.crates)
    } else {
        rust::Crates::default()
    };
    files
        .iter()
        .zip(&go_imports)
        .zip(&rust_references)
        .zip(&read)
        .map(|(((file, go_specs), rust_references), hunks)| {
            let mut out = Vec::new();
            let (Some(hunks), Some(lang)) = (hunks, language(file.path)) else {
                return out;
            };
            let path = file.path;
            match lang {
                Language::JavaScript => {
                    for spec in hunks.all(js::specifiers) {
                        js::resolve(path, spec, project, index, &mut out);
                    }
                }
                Language::Python => {
                    for spec in hunks.all(python::specifiers) {
                        python::resolve(path, &spec, &python_roots, index, &mut out);
                    }
                }
                Language::Rust => {
                    for reference in rust_references {
                        rust::resolve(path, reference, &crates, &rust_evidence, index, &mut out);
                    }
                }
                Language::Go => {
                    for spec in go_specs {
                        go_modules.resolve(spec, index, &mut out);
                    }
                }
                Language::JavaKotlin => {
                    for spec in hunks.all(java::specifiers) {
                        java::resolve(
                            path,
                            &spec,
                            &kotlin_declarations,
                            &kotlin_heads,
                            index,
                            &mut out,
                        );
                    }
                }
                Language::Ruby => {
                    for require in hunks.all(ruby::requires) {
                        ruby::resolve(path, &require, index, &mut out);
                    }
                }
                Language::C => {
                    for include in hunks.all(c::includes) {
                        c::resolve(
                            path,
                            (&include.0, include.1),
                            &project.include_dirs,
                            index,
                            &mut out,
                        );
                    }
                }
                Language::CSharp => {
                    for using in hunks.all(csharp::usings) {
                        namespaces.resolve(path, &using, index, &mut out);
                    }
                }
                Language::Php => {
                    for reference in hunks.all(php::references) {
                        php::resolve(path, &reference, &project.psr4, index, &mut out);
                    }
                }
                Language::Css => {
                    for sheet in css::imports(path, hunks.hunks) {
                        css::resolve(path, sheet, index, &mut out);
                    }
                }
                Language::Swift => {
                    for module in hunks.all(swift::imports) {
                        swift_targets.resolve(path, module, index, &mut out);
                    }
                }
                Language::Scala => {
                    for import in hunks.all(scala::imports) {
                        scala_packages.resolve(path, &import, index, &mut out);
                    }
                }
            }
            out
        })
        .collect()
}
