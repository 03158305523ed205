//! C# `using` directives, resolved to the changed files that declare the namespace, within the
//! projects the importing file's project can see.
//!
//! Why: `dependsOn` for C# files (issue #46). `using A.B;` names a namespace, not a file: it
//! links the file to every changed `.cs` file that declares `namespace A.B` (block or
//! file-scoped), as one unit the way a Go import names a package.
//! Read forms, at the start of a line: `using A.B;`, `global using A.B;`, `using static A.B.C;`,
//! `using Alias = A.B.C;` (a `using var …` declaration and a `using (…)` statement are not
//! directives). A `global using` counts for the file it is in, seen from its project.
//! A changed file's namespaces come from its text at the head when read
//! (`Project::csharp_texts`), else from a visible `namespace` line (none in a new file shown
//! whole: the global namespace), else from its project's
//! root namespace and its folders (the IDE's convention); a file with none of these is matched
//! by folder names: a namespace `A.B.C` is a directory ending with `A/B/C`, `A.B/C` or `A.B.C`.
//! Projects are the `.csproj` files read at the head: a file is in the project of the nearest
//! folder above it that has one, and sees its own project and those it references, transitively
//! as SDK-style projects do; when two projects declare a namespace only the visible one counts.
//! `using static A.B.C;` and an alias name a type: the changed file `C.cs` in namespace `A.B`,
//! else the one whose text declares the type there (an alias may name a namespace too).
//!
//! What not: same-namespace and parent-namespace references (no `using`), fully qualified names
//! in code, global usings of a `.csproj` (`<Using Include>`, not in the diff), `extern alias`.

use std::collections::{HashMap, HashSet};

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::hints::project::CsProject;
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

const TRIGGERS: &[&str] = &["using"];

/// A `using` directive: the dotted name and whether it may name a type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Using {
    pub name: String,
    pub may_be_type: bool,
}

/// `using` directives in the visible lines.
pub fn usings(hunks: &[Hunk<'_>]) -> Vec<Using> {
    let mut found = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        for (i, token) in tokens.iter().enumerate() {
            let before = i.checked_sub(1).and_then(|b| tokens.get(b));
            let starts = matches!(before, Some(Tok::Bol(_) | Tok::Ident("global")));
            if *token != Tok::Ident("using") || !starts {
                continue;
            }
            let mut j = i + 1;
            let mut may_be_type = false;
            if tokens.get(j) == Some(&Tok::Ident("static")) {
                may_be_type = true;
                j += 1;
            }
            if let (Some(Tok::Ident(_)), Some(Tok::Punct(b'='))) =
                (tokens.get(j), tokens.get(j + 1))
            {
                may_be_type = true;
                j += 2;
            }
            let mut name = String::new();
            while let Some(Tok::Ident(part)) = tokens.get(j) {
                name.push_str(part);
                j += 1;
                if tokens.get(j) == Some(&Tok::Punct(b'.')) {
                    name.push('.');
                    j += 1;
                } else {
                    break;
                }
            }
            if tokens.get(j) == Some(&Tok::Punct(b';')) && !name.is_empty() && !name.ends_with('.')
            {
                found.push(Using { name, may_be_type });
            }
        }
    }
    found
}

/// What a C# text says: the namespaces it declares (`""` for the global one when it declares
/// none) and the types declared in each.
pub fn declared<'a>(tokens: &[Tok<'a>]) -> (Vec<String>, Vec<(String, &'a str)>) {
    let mut namespaces: Vec<String> = Vec::new();
    let mut types = Vec::new();
    // Block namespaces nest: `(brace depth at which it closes, full name)`.
    let mut open: Vec<(usize, String)> = Vec::new();
    let mut file_scoped: Option<String> = None;
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        i += 1;
        match token {
            Tok::Punct(b'{') => depth += 1,
            Tok::Punct(b'}') => {
                depth = depth.saturating_sub(1);
                if open.last().is_some_and(|(closes, _)| *closes == depth) {
                    open.pop();
                }
            }
            Tok::Ident("namespace") => {
                let mut name = String::new();
                let mut j = i;
                while let Some(Tok::Ident(part)) = tokens.get(j) {
                    name.push_str(part);
                    j += 1;
                    if tokens.get(j) == Some(&Tok::Punct(b'.')) {
                        name.push('.');
                        j += 1;
                    } else {
                        break;
                    }
                }
                if name.is_empty() || name.ends_with('.') {
                    continue;
                }
                let full = match open.last() {
                    Some((_, outer)) => format!("{outer}.{name}"),
                    None => name,
                };
                match tokens.get(j) {
                    Some(Tok::Punct(b';')) => file_scoped = Some(full.clone()),
                    Some(Tok::Punct(b'{')) => {
                        open.push((depth, full.clone()));
                        depth += 1;
                        j += 1;
                    }
                    _ => continue,
                }
                namespaces.push(full);
                i = j;
            }
            Tok::Ident(keyword @ ("class" | "struct" | "interface" | "enum" | "record")) => {
                let mut j = i;
                if *keyword == "record"
                    && matches!(tokens.get(j), Some(Tok::Ident("struct" | "class")))
                {
                    j += 1;
                }
                if let Some(Tok::Ident(name)) = tokens.get(j) {
                    let namespace = open
                        .last()
                        .map(|(_, name)| name.clone())
                        .or_else(|| file_scoped.clone())
                        .unwrap_or_default();
                    types.push((namespace, *name));
                }
            }
            _ => {}
        }
    }
    if namespaces.is_empty() {
        namespaces.push(String::new());
    }
    (namespaces, types)
}

/// The pull request's C# files by namespace, and the projects that may see each other.
#[derive(Debug, Default)]
pub struct Namespaces {
    /// Namespace → changed files declaring it.
    files: HashMap<String, Vec<usize>>,
    /// Files whose namespace is known (from text, diff or project).
    known: HashSet<usize>,
    /// `(namespace, type)` → files whose text declares it.
    types: HashMap<(String, String), Vec<usize>>,
    /// File → its project (an index into `visible`).
    project_of: HashMap<usize, usize>,
    /// Per project, the projects it sees (itself included).
    visible: Vec<HashSet<usize>>,
}

impl Namespaces {
    /// `cs_files` gives each changed `.cs` file's position and hunks; `projects` the `.csproj` files read
    /// and `texts` the changed files' texts at the head.
    pub fn new(
        cs_files: &[(usize, Option<&[Hunk<'_>]>)],
        projects: &[CsProject],
        texts: &[(String, String)],
        index: &PathIndex<'_>,
    ) -> Namespaces {
        let mut out = Namespaces::default();
        let by_dir: HashMap<&str, usize> = projects
            .iter()
            .enumerate()
            .map(|(at, project)| (project.dir.as_str(), at))
            .collect();
        // References, as project indexes, then their transitive closure.
        let direct: Vec<Vec<usize>> = projects
            .iter()
            .map(|project| {
                project
                    .references
                    .iter()
                    .filter_map(|reference| by_dir.get(paths::parent(reference)).copied())
                    .collect()
            })
            .collect();
        out.visible = (0..projects.len())
            .map(|start| {
                let mut seen = HashSet::from([start]);
                let mut stack = vec![start];
                while let Some(at) = stack.pop() {
                    for &next in direct.get(at).map_or(&[][..], Vec::as_slice) {
                        if seen.insert(next) {
                            stack.push(next);
                        }
                    }
                }
                seen
            })
            .collect();
        let texts: HashMap<&str, &str> = texts
            .iter()
            .map(|(path, text)| (path.as_str(), text.as_str()))
            .collect();
        let mut tokens = Vec::new();
        for &(position, hunks) in cs_files {
            let path = index.path(position);
            let project = paths::ancestors(paths::parent(path))
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .find_map(|dir| by_dir.get(dir).copied());
            if let Some(project) = project {
                out.project_of.insert(position, project);
            }
            let namespaces: Vec<String> = if let Some(text) = texts.get(path) {
                tokens.clear();
                lex::text_tokens(text, &SYNTAX, &mut tokens);
                let (namespaces, types) = declared(&lex::code(&tokens));
                for (namespace, name) in types {
                    out.types
                        .entry((namespace, name.to_string()))
                        .or_default()
                        .push(position);
                }
                namespaces
            } else {
                let mut seen = Vec::new();
                let hunks = hunks.unwrap_or(&[]);
                for hunk in hunks {
                    tokens.clear();
                    lex::tokens(hunk, &SYNTAX, &mut tokens);
                    let (found, _) = declared(&lex::code(&tokens));
                    seen.extend(found.into_iter().filter(|name| !name.is_empty()));
                }
                // A new file shown whole that declares no namespace is in the global one
                // (`GlobalUsings.cs`, a `Program.cs` of top-level statements).
                let whole = matches!(hunks, [hunk] if hunk.old_lines == 0 && hunk.new_start <= 1);
                if seen.is_empty() && whole {
                    seen.push(String::new());
                }
                if seen.is_empty() {
                    seen.extend(
                        project
                            .and_then(|at| projects.get(at))
                            .and_then(|project| conventional(project, path)),
                    );
                }
                seen
            };
            if !namespaces.is_empty() {
                out.known.insert(position);
            }
            for namespace in namespaces {
                out.files.entry(namespace).or_default().push(position);
            }
        }
        out
    }

    /// Whether the importer's project sees the target's (either unknown: yes).
    fn sees(&self, importer: Option<usize>, target: usize) -> bool {
        let (Some(from), Some(to)) = (importer, self.project_of.get(&target)) else {
            return true;
        };
        self.visible
            .get(from)
            .is_none_or(|visible| visible.contains(to))
    }

    /// Adds the changed files a `using` resolves to.
    pub fn resolve(
        &self,
        importer: &str,
        using: &Using,
        index: &PathIndex<'_>,
        out: &mut Vec<usize>,
    ) {
        let from = index
            .find(importer)
            .and_then(|position| self.project_of.get(&position))
            .copied();
        let before = out.len();
        out.extend(
            self.files
                .get(&using.name)
                .into_iter()
                .flatten()
                .copied()
                .filter(|&target| self.sees(from, target)),
        );
        if out.len() > before {
            return;
        }
        let parts: Vec<&str> = using.name.split('.').collect();
        if using.may_be_type {
            if let Some((type_name, namespace)) = parts.split_last() {
                let namespace = namespace.join(".");
                let file = format!("{type_name}.cs");
                let named = self
                    .files
                    .get(&namespace)
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|&t| paths::file_name(index.path(t)) == file);
                let declaring = self
                    .types
                    .get(&(namespace.clone(), type_name.to_string()))
                    .into_iter()
                    .flatten()
                    .copied();
                let found = index.closest(
                    importer,
                    named
                        .chain(declaring)
                        .filter(|&target| self.sees(from, target)),
                );
                if found.is_some() {
                    out.extend(found);
                    return;
                }
            }
        }
        // Files of unknown namespace, by folder names.
        let unknown =
            |position: &usize| !self.known.contains(position) && self.sees(from, *position);
        for dir in folder_names(&parts) {
            for found in index.dirs_with_suffix(&dir) {
                out.extend(
                    index
                        .in_dir(found)
                        .iter()
                        .filter(|&&position| paths::extension(index.path(position)) == "cs")
                        .filter(|position| unknown(position)),
                );
            }
            if out.len() > before {
                return;
            }
        }
        if let (true, Some((type_name, namespace))) = (using.may_be_type, parts.split_last()) {
            let file = format!("{type_name}.cs");
            let folders = folder_names(namespace);
            let candidates = index.named(&file).iter().copied().filter(|position| {
                let dir = paths::parent(index.path(*position));
                unknown(position)
                    && folders
                        .iter()
                        .any(|folder| paths::ends_with_components(dir, folder))
            });
            out.extend(index.closest(importer, candidates));
        }
    }
}

/// The namespace the IDE gives a new file: the project's root namespace and the folders below
/// the project's directory.
fn conventional(project: &CsProject, path: &str) -> Option<String> {
    let below = paths::parent(path)
        .strip_prefix(project.dir.as_str())
        .map(|rest| rest.trim_start_matches('/'))?;
    let mut namespace = project.root_namespace.clone();
    for part in below.split('/').filter(|part| !part.is_empty()) {
        namespace.push('.');
        namespace.push_str(&part.replace([' ', '-'], "_"));
    }
    Some(namespace)
}

/// `A/B/C`, `A.B/C`, `A.B.C` for `[A, B, C]`.
fn folder_names(parts: &[&str]) -> Vec<String> {
    (1..=parts.len())
        .map(|joined| {
            let head = parts.get(..joined).unwrap_or(&[]).join(".");
            let tail = parts.get(joined..).unwrap_or(&[]);
            if tail.is_empty() {
                head
            } else {
                format!("{head}/{}", tail.join("/"))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::{check_deps as check, check_deps_in as check_in};

    #[test]
    fn namespaces_to_folders() {
        check(
            &[
                (
                    "src/Shop.Api/Controllers/InvitesController.cs",
                    "+using System;\n+using Shop.Core.Invites;\n+global using Shop.Api.Models;\n\
                     +using static Shop.Core.Guards.Guard;\n+using Clock = Shop.Core.Time.SystemClock;\n\
                     +namespace Shop.Api.Controllers;",
                ),
                ("src/Shop.Core/Invites/Invite.cs", ""),
                ("src/Shop.Core/Invites/InviteService.cs", ""),
                ("src/Shop.Core/Invites/README.md", ""),
                ("src/Shop.Api/Models/InviteDto.cs", ""),
                ("src/Shop.Core/Guards/Guard.cs", ""),
                ("src/Shop.Core/Time/SystemClock.cs", ""),
            ],
            "src/Shop.Api/Controllers/InvitesController.cs -> src/Shop.Core/Invites/Invite.cs, \
             src/Shop.Core/Invites/InviteService.cs, src/Shop.Api/Models/InviteDto.cs, \
             src/Shop.Core/Guards/Guard.cs, src/Shop.Core/Time/SystemClock.cs",
        );
    }

    #[test]
    fn namespaces_within_the_projects_a_project_sees() {
        check_in(
            &[
                (
                    "src/Web/Pages/Index.cs",
                    "+using Shop.Core.Orders;\n+using static Shop.Core.Guard;\n+using Legacy = Shop.Core.Orders.Order;",
                ),
                // In a folder that doesn't follow its namespace: its text at the head says.
                ("src/Core/Lines/OrderLine.cs", ""),
                ("src/Core/Orders/Order.cs", " }"),
                ("src/Core/Checks.cs", ""),
                // Shown whole: its `namespace` line is in view.
                ("src/Core/Orders/Status.cs", "+namespace Shop.Core.Orders;\n+public enum Status { A }"),
                // Same namespace, in a project nobody references.
                ("old/Legacy/Orders/Order.cs", "+namespace Shop.Core.Orders {\n+}"),
                // No text read, no namespace in view: the project's root namespace and folders.
                ("src/Core/Orders/Rules/Rule.cs", ""),
            ],
            &[
                (
                    "src/Web/Web.csproj",
                    "<Project Sdk=\"Microsoft.NET.Sdk.Web\"><ItemGroup>\
                     <ProjectReference Include=\"..\\Core\\Core.csproj\" /></ItemGroup></Project>",
                ),
                (
                    "src/Core/Core.csproj",
                    "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup>\
                     <RootNamespace>Shop.Core</RootNamespace></PropertyGroup></Project>",
                ),
                ("old/Legacy/Legacy.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\"></Project>"),
                ("src/Core/Lines/OrderLine.cs", "namespace Shop.Core.Orders;\npublic record OrderLine;"),
                ("src/Core/Orders/Order.cs", "namespace Shop.Core.Orders\n{\n    public class Order { }\n}"),
                ("src/Core/Checks.cs", "namespace Shop.Core;\npublic static class Guard { }"),
            ],
            "src/Web/Pages/Index.cs -> src/Core/Lines/OrderLine.cs, src/Core/Orders/Order.cs, \
             src/Core/Checks.cs, src/Core/Orders/Status.cs",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "src/App/Program.cs",
                    "+// using App.Commented;\n-using App.Removed;\n+using (var scope = Create()) { }\n\
                     +    using var stream = Open();\n+var s = \"using App.InString;\";\n+using App.Unchanged;",
                ),
                ("src/App/Commented/A.cs", ""),
                ("src/App/Removed/B.cs", ""),
                ("src/App/InString/C.cs", ""),
            ],
            "",
        );
    }
}
