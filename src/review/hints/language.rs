//! The language a changed file is read as, by its extension.
//!
//! Why: import readers (`imports`) and the build files worth reading (`project`) both choose by
//! language; the enum lives apart from both so neither has to import the other for it (they
//! did, and made the one import loop of `review::hints`, issue #32).
//! What not: no content sniffing, no shebang lines.

use super::paths;

/// The import syntax a file is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    JavaScript,
    Python,
    Rust,
    Go,
    JavaKotlin,
    Ruby,
    C,
    CSharp,
    Php,
    Css,
    Swift,
    Scala,
}

/// The language of a path, by extension.
pub fn language(path: &str) -> Option<Language> {
    Some(match paths::extension(path) {
        "ts" | "tsx" | "js" | "jsx" | "mjs" | "cjs" | "mts" | "cts" | "vue" | "svelte"
        | "astro" => Language::JavaScript,
        "py" | "pyi" => Language::Python,
        "rs" => Language::Rust,
        "go" => Language::Go,
        "java" | "kt" | "kts" => Language::JavaKotlin,
        "rb" | "rake" => Language::Ruby,
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" | "m" | "mm" | "ipp" | "inl"
        | "cu" => Language::C,
        "cs" => Language::CSharp,
        "php" => Language::Php,
        "css" | "scss" | "sass" | "less" => Language::Css,
        "swift" => Language::Swift,
        "scala" => Language::Scala,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{language, Language};

    fn check(path: &str, expected: Option<Language>) {
        assert_eq!(language(path), expected, "{path}");
    }

    #[test]
    fn languages_by_extension() {
        check("src/App.tsx", Some(Language::JavaScript));
        check("src/App.vue", Some(Language::JavaScript));
        check("pkg/__init__.py", Some(Language::Python));
        check("src/lib.rs", Some(Language::Rust));
        check("main.go", Some(Language::Go));
        check("build.gradle.kts", Some(Language::JavaKotlin));
        check("Rakefile.rake", Some(Language::Ruby));
        check("Include/Python.h", Some(Language::C));
        check("Program.cs", Some(Language::CSharp));
        check("index.php", Some(Language::Php));
        check("_variables.scss", Some(Language::Css));
        check("Sources/Kit/Client.swift", Some(Language::Swift));
        check("src/main/scala/a/B.scala", Some(Language::Scala));
        check("README.md", None);
        check("Makefile", None);
        check(".ts", None);
    }
}
