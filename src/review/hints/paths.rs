//! Arithmetic on repository-relative paths as GitHub spells them: `/`-separated, no leading slash.
//!
//! Why: every hint rule splits, joins and compares paths; doing it in one place keeps `..` handling
//! and "ends with at a component boundary" the same everywhere.
//! What not: no file system access, no Windows separators, no case folding.

/// The directory part: `a/b` for `a/b/c.rs`, empty for a file at the root.
pub fn parent(path: &str) -> &str {
    split_last(path, b'/').map_or("", |(dir, _)| dir)
}

/// The last component: `c.rs` for `a/b/c.rs`.
pub fn file_name(path: &str) -> &str {
    split_last(path, b'/').map_or(path, |(_, name)| name)
}

/// The file name without its last extension: `c` for `a/c.rs`, `foo.service` for `foo.service.ts`.
pub fn stem(path: &str) -> &str {
    let name = file_name(path);
    match split_last(name, b'.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => name,
    }
}

/// The last extension without its dot: `rs` for `a/c.rs`, empty when there is none.
pub fn extension(path: &str) -> &str {
    let name = file_name(path);
    match split_last(name, b'.') {
        Some((stem, ext)) if !stem.is_empty() => ext,
        _ => "",
    }
}

/// `text.rsplit_once(separator)` for an ASCII separator, as a plain byte scan: the hints split
/// every changed path several times, and the `char` searcher's setup and `memrchr` were ~1% of a
/// 3,000-file pull request's first read (#19).
fn split_last(text: &str, separator: u8) -> Option<(&str, &str)> {
    let mut at = text.len();
    while at > 0 {
        at -= 1;
        if text.as_bytes().get(at) == Some(&separator) {
            return Some((text.get(..at)?, text.get(at + 1..)?));
        }
    }
    None
}

/// Joins a directory and a `/`-separated relative path, resolving `.` and `..`.
/// `None` when `..` climbs above the repository root.
pub fn join(dir: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|part| !part.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

/// Whether `path` equals `suffix` or ends with `/` + `suffix`.
pub fn ends_with_components(path: &str, suffix: &str) -> bool {
    if suffix.is_empty() {
        return false;
    }
    match path.strip_suffix(suffix) {
        Some("") => true,
        Some(rest) => rest.ends_with('/'),
        None => false,
    }
}

/// How many leading directory components two paths share (file names are not compared).
pub fn shared_dirs(a: &str, b: &str) -> usize {
    parent(a)
        .split('/')
        .zip(parent(b).split('/'))
        .take_while(|(x, y)| !x.is_empty() && x == y)
        .count()
}

/// The ancestors of a directory, shortest first, the root (empty string) included:
/// `""`, `a`, `a/b` for `a/b`.
pub fn ancestors(dir: &str) -> impl Iterator<Item = &str> {
    let ends = dir
        .match_indices('/')
        .map(|(index, _)| index)
        .chain((!dir.is_empty()).then_some(dir.len()));
    std::iter::once("").chain(ends.filter_map(move |end| dir.get(..end)))
}

#[cfg(test)]
mod tests {
    use super::{
        ancestors, ends_with_components, extension, file_name, join, parent, shared_dirs,
        split_last, stem,
    };

    fn check(got: impl std::fmt::Debug, expected: &str) {
        assert_eq!(format!("{got:?}"), expected);
    }

    #[test]
    fn splitting() {
        check(parent("src/review/mod.rs"), "\"src/review\"");
        check(parent("Cargo.toml"), "\"\"");
        check(file_name("src/review/mod.rs"), "\"mod.rs\"");
        check(stem("app/foo.service.ts"), "\"foo.service\"");
        check(stem(".gitattributes"), "\".gitattributes\"");
        check(extension("a/b.d.ts"), "\"ts\"");
        check(extension("Makefile"), "\"\"");
        check(extension(".eslintrc"), "\"\"");
    }

    #[test]
    fn split_last_is_rsplit_once() {
        for text in [
            "",
            "/",
            "//",
            "a",
            "a/b",
            "a/b/c.rs",
            "/a",
            "a/",
            ".",
            "..",
            "a.b.c",
            "é/🦀.rs",
            "dir.d/file",
            "x\r/y\r",
            "a/./b",
        ] {
            for separator in ['/', '.'] {
                let byte = u8::try_from(separator).unwrap_or_default();
                assert_eq!(
                    split_last(text, byte),
                    text.rsplit_once(separator),
                    "{text:?} at {separator:?}"
                );
            }
        }
    }

    #[test]
    fn joining() {
        check(join("src/a", "./b"), "Some(\"src/a/b\")");
        check(join("src/a", "../b/c"), "Some(\"src/b/c\")");
        check(join("src", "../../x"), "None");
        check(join("", "x/./y/"), "Some(\"x/y\")");
        check(join("a", ".."), "Some(\"\")");
    }

    #[test]
    fn suffixes_and_sharing() {
        check(
            ends_with_components("src/main/java/a/B.java", "a/B.java"),
            "true",
        );
        check(ends_with_components("a/B.java", "a/B.java"), "true");
        check(ends_with_components("xa/B.java", "a/B.java"), "false");
        check(ends_with_components("a/B.java", ""), "false");
        check(shared_dirs("pkg/api/v1/types.go", "pkg/api/types.go"), "2");
        check(shared_dirs("a.go", "b.go"), "0");
        check(shared_dirs("x/a.go", "y/b.go"), "0");
    }

    #[test]
    fn ancestor_walk() {
        check(
            ancestors("a/b/c").collect::<Vec<_>>(),
            "[\"\", \"a\", \"a/b\", \"a/b/c\"]",
        );
        check(ancestors("").collect::<Vec<_>>(), "[\"\"]");
    }
}
