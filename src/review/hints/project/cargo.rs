//! The few `Cargo.toml` keys import resolution needs: the package's name and its library target.
//!
//! Why: `use other_crate::…` in a workspace names a member by its package name (dashes become
//! underscores) or its `[lib] name`, which often differs from its directory (`crates/searcher` is
//! `grep-searcher`).
//! A line reader for the TOML subset manifests use for these keys (`key = "value"` under a
//! `[table]` header): two strings don't need a full TOML parser.
//!
//! What not: no inline tables, no multi-line strings, no `[[bin]]` targets, no `[lib] path`
//! (the root module is `src/lib.rs`), no workspace inheritance (names are never inherited).

use crate::review::hints::paths;

/// `(crate name, directory of the crate's root module)` of a manifest in `dir`; `None` for a
/// virtual manifest (only `[workspace]`) or one without a name.
pub fn crate_root(dir: &str, text: &str) -> Option<(String, String)> {
    let mut table = "";
    let mut package_name = None;
    let mut lib_name = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            table = header.trim_end_matches(']').trim();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim();
        let Some(value) = value
            .strip_prefix('"')
            .and_then(|rest| rest.split_once('"'))
            .map(|(inner, _)| inner)
        else {
            continue;
        };
        match (table, key.trim()) {
            ("package", "name") => package_name = Some(value),
            ("lib", "name") => lib_name = Some(value),
            _ => {}
        }
    }
    let name = lib_name.or(package_name)?.replace('-', "_");
    Some((name, paths::join(dir, "src")?))
}

#[cfg(test)]
mod tests {
    use super::crate_root;

    fn check(dir: &str, text: &str, expected: Option<(&str, &str)>) {
        let got = crate_root(dir, text);
        let got = got.as_ref().map(|(a, b)| (a.as_str(), b.as_str()));
        assert_eq!(got, expected);
    }

    #[test]
    fn names_and_roots() {
        check(
            "crates/searcher",
            "[package]\nname = \"grep-searcher\" # the searcher\nversion = \"0.1\"\n\n[dependencies]\nname = \"x\"\n",
            Some(("grep_searcher", "crates/searcher/src")),
        );
        check(
            "",
            "[package]\nname = \"app\"\n[lib]\nname = \"app_core\"\n",
            Some(("app_core", "src")),
        );
        check("", "[workspace]\nmembers = [\"a\", \"b\"]\n", None);
        check("", "not toml at all [[[", None);
    }
}
