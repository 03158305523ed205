//! Module directories of an sbt build, read from `build.sbt`.
//!
//! Why: Scala imports resolve within modules' source trees, and modules sit inside each other's
//! directories (`modules/server` and `modules/server/api`); which module a file belongs to is
//! the deepest directory the build declares (issue #46).
//! Read: `lazy val x = (project in file("d"))`, `project.in(file("d"))`,
//! `crossProject(…).in(file("d"))` (its `shared`, `jvm`, `js` and `native` trees too) and
//! `lazy val x = project` (the directory `x`).
//!
//! What not: no `Project(…)` calls of `project/*.scala` builds, no settings such as
//! `scalaSource` (source roots follow the conventions), no Mill or Gradle files.

use crate::review::hints::paths;

/// Module directories a `build.sbt` in `dir` declares: `project in file("x")`,
/// `project.in(file("x"))`, `crossProject(…).in(file("x"))` (with its `shared`, `jvm`, `js` and
/// `native` trees), and `lazy val x = project` (the directory `x`).
pub fn sbt_modules(dir: &str, text: &str) -> Vec<String> {
    let mut modules = Vec::new();
    for statement in text.split("lazy val ").skip(1) {
        let Some((name, rest)) = statement.split_once('=') else {
            continue;
        };
        let name = name.trim().trim_matches('`');
        let rest = rest.trim_start();
        let rest = rest.strip_prefix('(').unwrap_or(rest);
        let cross = rest.starts_with("crossProject");
        if !cross && !rest.starts_with("project") {
            continue;
        }
        // The declaration runs to the next `lazy val`; its `file("…")` names the directory.
        let base = match rest.find("file(\"") {
            Some(at) => rest
                .get(at + 6..)
                .and_then(|tail| tail.split('"').next())
                .unwrap_or(""),
            None => name,
        };
        let Some(base) = paths::join(dir, base) else {
            continue;
        };
        if cross {
            for tree in ["shared", "jvm", "js", "native"] {
                modules.extend(paths::join(&base, tree));
            }
        }
        modules.push(base);
    }
    modules
}
