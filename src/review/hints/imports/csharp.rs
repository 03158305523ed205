//! C# `using` directives, mapped to folders by the namespace-to-folder convention (best effort).
//!
//! Why: `dependsOn` for C# files.
//! Read forms, at the start of a line: `using A.B;`, `global using A.B;`, `using static A.B.C;`,
//! `using Alias = A.B.C;`.
//! Resolution, against changed files only: a namespace `A.B.C` means every changed `.cs` file in
//! a directory ending with `A/B/C`, or with the leading parts joined by dots as project folders
//! are often named (`A.B/C`, `A.B.C`); `using static` and aliases may name a type, tried as
//! `C.cs` in such a directory for `A.B`.
//!
//! What not: same-namespace references (no `using`), fully qualified names in code, project files.

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
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

/// Adds the changed files a `using` resolves to.
pub fn resolve(importer: &str, using: &Using, index: &PathIndex<'_>, out: &mut Vec<usize>) {
    let parts: Vec<&str> = using.name.split('.').collect();
    let before = out.len();
    for dir in folder_names(&parts) {
        for found in index.dirs_with_suffix(&dir) {
            out.extend(
                index
                    .in_dir(found)
                    .iter()
                    .filter(|&&position| paths::extension(index.path(position)) == "cs"),
            );
        }
        if out.len() > before {
            return;
        }
    }
    if let (true, Some((type_name, namespace))) = (using.may_be_type, parts.split_last()) {
        let file = format!("{type_name}.cs");
        let folders = folder_names(namespace);
        let candidates = index.named(&file).iter().copied().filter(|&position| {
            let dir = paths::parent(index.path(position));
            folders
                .iter()
                .any(|folder| paths::ends_with_components(dir, folder))
        });
        out.extend(index.closest(importer, candidates));
    }
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
    use crate::review::hints::testing::check_deps as check;

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
