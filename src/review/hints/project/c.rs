//! Include directories of C and C++ builds: `CMakeLists.txt` (`include_directories`,
//! `target_include_directories`), Makefiles (`-I`) and `meson.build` (`include_directories`).
//!
//! Why: `#include "foo/bar.h"` is looked up beside the file and then in the directories the build
//! names (`include/`, `src/`, `lib/foo/include`), not anywhere a file of that name sits; knowing
//! them picks the header the compiler picks when several changed files end the same way.
//! Paths come back as repository paths: relative ones from the build file's directory, CMake's
//! `${CMAKE_CURRENT_SOURCE_DIR}`/`${CMAKE_CURRENT_LIST_DIR}` as that directory,
//! `${PROJECT_SOURCE_DIR}`/`${CMAKE_SOURCE_DIR}` and Make's `$(top_srcdir)` as the root,
//! `$<BUILD_INTERFACE:…>` unwrapped, a variable `set` in the same file replaced by its value;
//! anything else with a variable, an install path or an absolute path outside the sources is
//! skipped.
//!
//! What not: no `add_subdirectory` walking, no generator expressions beyond `BUILD_INTERFACE`,
//! no per-target scoping (every directory applies to every file), no `compile_commands.json`
//! (rarely committed, and its absolute paths name the machine that made it).

use crate::review::hints::paths;

/// The include directories a build file in `dir` names, by file name; `None` when it is not one.
pub fn include_dirs(path: &str, text: &str) -> Option<Vec<String>> {
    let dir = paths::parent(path);
    let mut out = Vec::new();
    match paths::file_name(path) {
        "CMakeLists.txt" => {
            let calls = calls(text);
            // `set(NAME value)`, for arguments written `${NAME}` (the first value).
            let mut variables: Vec<(String, String)> = Vec::new();
            for (command, args) in &calls {
                if let ("set", [name, value, ..]) = (command.as_str(), args.as_slice()) {
                    variables.push((format!("${{{name}}}"), value.clone()));
                }
            }
            for (command, args) in &calls {
                let args = match command.as_str() {
                    "include_directories" => args.as_slice(),
                    "target_include_directories" => args.get(1..).unwrap_or(&[]),
                    _ => continue,
                };
                for arg in args {
                    let mut arg = arg.clone();
                    for (name, value) in &variables {
                        arg = arg.replace(name.as_str(), value);
                    }
                    out.extend(cmake_dir(dir, &arg));
                }
            }
        }
        "meson.build" => {
            for (command, args) in calls(text) {
                if command == "include_directories" {
                    out.extend(args.iter().filter_map(|arg| relative(dir, arg)));
                }
            }
        }
        _ => {
            let words: Vec<&str> = text.lines().flat_map(uncommented).collect();
            for (at, word) in words.iter().enumerate() {
                let value = match word.strip_prefix("-I") {
                    Some("") => words.get(at + 1).copied().unwrap_or(""),
                    Some(value) => value,
                    None => continue,
                };
                let value = value.replace("$(srcdir)", ".").replace("$(CURDIR)", ".");
                out.extend(match value.strip_prefix("$(top_srcdir)") {
                    Some(rest) => relative("", rest.trim_start_matches('/')),
                    None => relative(dir, &value),
                });
            }
        }
    }
    Some(out)
}

/// A line's words before a `#` comment.
fn uncommented(line: &str) -> std::str::SplitWhitespace<'_> {
    line.split('#').next().unwrap_or("").split_whitespace()
}

/// A relative path without variables, joined to `dir`.
fn relative(dir: &str, arg: &str) -> Option<String> {
    if arg.is_empty() || arg.starts_with('/') || arg.contains(['$', '@', ':']) {
        return None;
    }
    paths::join(dir, arg)
}

fn cmake_dir(dir: &str, arg: &str) -> Option<String> {
    if matches!(
        arg,
        "PUBLIC" | "PRIVATE" | "INTERFACE" | "SYSTEM" | "BEFORE" | "AFTER"
    ) {
        return None;
    }
    let arg = arg
        .strip_prefix("$<BUILD_INTERFACE:")
        .and_then(|rest| rest.strip_suffix('>'))
        .unwrap_or(arg);
    for (variable, base) in [
        ("${CMAKE_CURRENT_SOURCE_DIR}", dir),
        ("${CMAKE_CURRENT_LIST_DIR}", dir),
        ("${PROJECT_SOURCE_DIR}", ""),
        ("${CMAKE_SOURCE_DIR}", ""),
    ] {
        if let Some(rest) = arg.strip_prefix(variable) {
            return relative(base, rest.trim_start_matches('/'))
                .or_else(|| rest.is_empty().then(|| base.to_string()));
        }
    }
    relative(dir, arg)
}

/// `name(args…)` calls of CMake and Meson: the name and its arguments, quotes removed, comments
/// dropped (arguments stop at the first `)`).
fn calls(text: &str) -> Vec<(String, Vec<String>)> {
    let code: Vec<&str> = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or(""))
        .collect();
    let code = code.join("\n");
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(open) = rest.find('(') {
        let name = rest
            .get(..open)
            .unwrap_or("")
            .trim_end()
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        let body = rest.get(open + 1..).unwrap_or("");
        let close = body.find(')').unwrap_or(body.len());
        let args = body
            .get(..close)
            .unwrap_or("")
            .split(|c: char| c.is_whitespace() || c == ',')
            .map(|arg| arg.trim_matches(['"', '\'']))
            .filter(|arg| !arg.is_empty())
            .map(str::to_string)
            .collect();
        // CMake's command names are case-insensitive.
        out.push((name.to_ascii_lowercase(), args));
        rest = body.get(close..).unwrap_or("");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::include_dirs;

    fn check(path: &str, text: &str, expected: &[&str]) {
        assert_eq!(
            include_dirs(path, text),
            Some(expected.iter().map(|d| d.to_string()).collect())
        );
    }

    #[test]
    fn cmake() {
        check(
            "lib/CMakeLists.txt",
            "# include_directories(commented)\nINCLUDE_DIRECTORIES(include \"${CMAKE_CURRENT_SOURCE_DIR}/src\")\n\
             set(MY_INCLUDE_DIRS \"${CMAKE_CURRENT_SOURCE_DIR}/c/include\")\ninclude_directories(${MY_INCLUDE_DIRS})\n\
             target_include_directories(mylib\n  PUBLIC\n    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>\n    $<INSTALL_INTERFACE:include>\n\
               PRIVATE ${CMAKE_CURRENT_LIST_DIR} ${CMAKE_CURRENT_BINARY_DIR} ../third_party/x /usr/include)\n\
             add_library(mylib src/a.c)\n",
            &["lib/include", "lib/src", "lib/c/include", "include", "lib", "third_party/x"],
        );
    }

    #[test]
    fn make_and_meson() {
        check(
            "src/Makefile",
            "CFLAGS += -Wall -Iinclude -I ../common -I/usr/include # -Inot\nAM_CPPFLAGS = -I$(top_srcdir)/lib -I$(srcdir)/x -I$(OTHER)/y\n",
            &["src/include", "common", "lib", "src/x"],
        );
        check(
            "meson.build",
            "inc = include_directories('include', 'src/internal')\nlib = library('x', 'a.c', include_directories : inc)\n",
            &["include", "src/internal"],
        );
    }
}
