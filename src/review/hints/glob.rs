//! A small matcher for `.gitattributes` patterns (git's gitignore-style globs).
//!
//! Why: a repository marks generated files with `pattern linguist-generated`, and the patterns use
//! git's rules, which no crate we may use implements; they are line-oriented and small.
//! Rules (from gitattributes(5) and gitignore(5)): a pattern without `/` matches the file name at
//! any depth; a leading or inner `/` anchors it to the repository root; `*` and `?` never match
//! `/`; `**` as a whole component matches any number of directories (`a/**` needs at least one
//! more); `[abc]`, `[a-z]`, `[!x]` are character classes; `\` escapes.
//! One deliberate difference: git never matches `dir/` patterns in attribute files, but people
//! write them meaning "everything inside"; we match them that way, as gitignore does, because the
//! hint is about what the author meant.
//! Matching is linear-time with one backtrack point per level, so hostile patterns cannot blow up.
//!
//! What not: no negated (`!pattern`) patterns (git forbids them in attribute files), no case folding.

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    segments: Vec<Segment>,
    anchored: bool,
    dir_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// `**`: zero or more whole components.
    AnyDirs,
    Atoms(Vec<Atom>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Atom {
    Literal(char),
    AnyChar,
    Star,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl Glob {
    /// Parses a pattern; `None` for an empty one.
    pub fn new(pattern: &str) -> Option<Glob> {
        let (pattern, dir_only) = match pattern.strip_suffix('/') {
            Some(rest) => (rest, true),
            None => (pattern, false),
        };
        let (pattern, leading_slash) = match pattern.strip_prefix('/') {
            Some(rest) => (rest, true),
            None => (pattern, false),
        };
        if pattern.is_empty() {
            return None;
        }
        let anchored = leading_slash || pattern.contains('/');
        let mut segments: Vec<Segment> = pattern
            .split('/')
            .filter(|part| !part.is_empty())
            .map(|part| {
                if part == "**" {
                    Segment::AnyDirs
                } else {
                    Segment::Atoms(parse_atoms(part))
                }
            })
            .collect();
        // A trailing `**` matches what is inside, not the directory itself: `a/**` is `a/*/**`.
        if matches!(segments.last(), Some(Segment::AnyDirs)) {
            let at = segments.len() - 1;
            segments.insert(at, Segment::Atoms(vec![Atom::Star]));
        }
        Some(Glob {
            segments,
            anchored,
            dir_only,
        })
    }

    /// Whether the file at `path` (repository-relative) matches.
    pub fn matches(&self, path: &str) -> bool {
        self.matches_parts(&path.split('/').collect::<Vec<_>>())
    }

    /// [`Glob::matches`] for a path already split at its slashes: a caller trying many globs on
    /// one path splits it once.
    pub fn matches_parts(&self, parts: &[&str]) -> bool {
        let dirs = parts.len().saturating_sub(1);
        if !self.anchored {
            // One segment, matched against the file name, or any directory for `name/`.
            let Some(Segment::Atoms(atoms)) = self.segments.first() else {
                return false;
            };
            return if self.dir_only {
                parts.iter().take(dirs).any(|part| atoms_match(atoms, part))
            } else {
                parts.last().is_some_and(|name| atoms_match(atoms, name))
            };
        }
        if self.dir_only {
            (1..=dirs).any(|end| self.segments_match(parts.get(..end).unwrap_or(&[])))
        } else {
            self.segments_match(parts)
        }
    }

    fn segments_match(&self, parts: &[&str]) -> bool {
        wildcard_match(
            &self.segments,
            parts,
            |segment| matches!(segment, Segment::AnyDirs),
            |segment, part| match segment {
                Segment::Atoms(atoms) => atoms_match(atoms, part),
                Segment::AnyDirs => true,
            },
        )
    }
}

fn atoms_match(atoms: &[Atom], text: &str) -> bool {
    let is_star = |atom: &Atom| matches!(atom, Atom::Star);
    if text.is_ascii() {
        // Paths are nearly always ASCII: match bytes without collecting characters.
        return wildcard_match(atoms, text.as_bytes(), is_star, |atom, byte| {
            atom_matches(atom, char::from(*byte))
        });
    }
    let chars: Vec<char> = text.chars().collect();
    wildcard_match(atoms, &chars, is_star, |atom, c| atom_matches(atom, *c))
}

fn atom_matches(atom: &Atom, c: char) -> bool {
    match atom {
        Atom::Literal(literal) => *literal == c,
        Atom::AnyChar | Atom::Star => true,
        Atom::Class { negated, ranges } => {
            ranges.iter().any(|(low, high)| *low <= c && c <= *high) != *negated
        }
    }
}

/// Glob matching where `is_star` elements match any run of items and the others match one item:
/// greedy with one backtrack point, O(patterns × items) at worst.
fn wildcard_match<P, T>(
    patterns: &[P],
    items: &[T],
    is_star: impl Fn(&P) -> bool,
    matches_one: impl Fn(&P, &T) -> bool,
) -> bool {
    let (mut p, mut i) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while let Some(item) = items.get(i) {
        match patterns.get(p) {
            Some(pattern) if is_star(pattern) => {
                backtrack = Some((p, i));
                p += 1;
            }
            Some(pattern) if matches_one(pattern, item) => {
                p += 1;
                i += 1;
            }
            _ => match backtrack {
                Some((star, start)) => {
                    p = star + 1;
                    i = start + 1;
                    backtrack = Some((star, start + 1));
                }
                None => return false,
            },
        }
    }
    patterns.get(p..).unwrap_or(&[]).iter().all(is_star)
}

fn parse_atoms(segment: &str) -> Vec<Atom> {
    let chars: Vec<char> = segment.chars().collect();
    let mut atoms = Vec::with_capacity(chars.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '*' => {
                if atoms.last() != Some(&Atom::Star) {
                    atoms.push(Atom::Star);
                }
            }
            '?' => atoms.push(Atom::AnyChar),
            '\\' => {
                let escaped = chars.get(i).copied().unwrap_or('\\');
                i += 1;
                atoms.push(Atom::Literal(escaped));
            }
            '[' => match parse_class(&chars, i) {
                Some((atom, next)) => {
                    atoms.push(atom);
                    i = next;
                }
                None => atoms.push(Atom::Literal('[')),
            },
            other => atoms.push(Atom::Literal(other)),
        }
    }
    atoms
}

/// Parses a class whose `[` is just before `start`; returns it and the index after `]`.
fn parse_class(chars: &[char], start: usize) -> Option<(Atom, usize)> {
    let mut i = start;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(i)?;
        if c == ']' && !first {
            return Some((Atom::Class { negated, ranges }, i + 1));
        }
        first = false;
        let low = if c == '\\' {
            i += 1;
            *chars.get(i)?
        } else {
            c
        };
        i += 1;
        if chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&next| next != ']') {
            let high = *chars.get(i + 1)?;
            ranges.push((low, high));
            i += 2;
        } else {
            ranges.push((low, low));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Glob;

    fn check(pattern: &str, path: &str, expected: bool) {
        let got = Glob::new(pattern).is_some_and(|glob| glob.matches(path));
        assert_eq!(got, expected, "{pattern} vs {path}");
    }

    #[test]
    fn basename_patterns_match_at_any_depth() {
        check("*.pb.go", "api/v1/types.pb.go", true);
        check("*.pb.go", "types.pb.go", true);
        check("*.pb.go", "api/v1/types.go", false);
        check("Cargo.lock", "crates/x/Cargo.lock", true);
        check("*.lock", "a/b", false);
        check("gen?.ts", "src/gen1.ts", true);
        check("gen?.ts", "src/gen10.ts", false);
        check("*", "anything/at/all", true);
    }

    #[test]
    fn slashes_anchor() {
        check("/dist/*.js", "dist/app.js", true);
        check("/dist/*.js", "web/dist/app.js", false);
        check("dist/*.js", "dist/app.js", true);
        check("dist/*.js", "dist/sub/app.js", false);
        check("src/*/gen.rs", "src/a/gen.rs", true);
        check("src/*/gen.rs", "src/a/b/gen.rs", false);
    }

    #[test]
    fn double_star() {
        check("**/generated/**", "a/b/generated/x/y.ts", true);
        check("**/generated/**", "generated/y.ts", true);
        check("**/generated/**", "generated", false);
        check("docs/**", "docs/a/b.md", true);
        check("docs/**", "docs", false);
        check("a/**/b.txt", "a/b.txt", true);
        check("a/**/b.txt", "a/x/y/b.txt", true);
        check("a/**/b.txt", "x/a/b.txt", false);
        check("**/*.snap", "src/__snapshots__/x.snap", true);
        check("foo**bar", "fooxbar", true);
    }

    #[test]
    fn directory_patterns_match_what_is_inside() {
        check("dist/", "dist/app.js", true);
        check("dist/", "web/dist/app.js", true);
        check("dist/", "dist", false);
        check("/web/dist/", "web/dist/a/app.js", true);
        check("/web/dist/", "x/web/dist/app.js", false);
    }

    #[test]
    fn classes_and_escapes() {
        check("[Mm]akefile", "Makefile", true);
        check("[Mm]akefile", "makefile", true);
        check("[!M]akefile", "Makefile", false);
        check("v[0-9].go", "v3.go", true);
        check("v[0-9].go", "vx.go", false);
        check("[]x]", "]", true);
        check("a\\*b", "a*b", true);
        check("a\\*b", "axb", false);
        check("[unclosed", "[unclosed", true);
        check("x[", "x[", true);
    }

    #[test]
    fn empty_and_hostile_patterns() {
        assert!(Glob::new("").is_none());
        assert!(Glob::new("/").is_none());
        let long_path = "a".repeat(5000);
        check(&"*a".repeat(200), &long_path, true);
        check(&format!("{}b", "*a".repeat(200)), &long_path, false);
        check(&"**/".repeat(50), "a/b/c", true);
        check("[z-a]", "m", false);
        check("\\", "\\", true);
    }
}
