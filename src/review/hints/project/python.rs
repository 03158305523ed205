//! The few `pyproject.toml` keys Python import resolution needs: that a directory is a project
//! (a distribution's root) and which directories a workspace names as its members.
//!
//! Why: a repository of several distributions (a uv, PDM, Poetry or Hatch workspace) keeps each
//! member's modules under its own root (`packages/core/src/acme/…`), and a module of one member
//! imports modules of the others by their absolute name (issue #39). Each member's source root is
//! a place an absolute import may start from.
//! Read: any `pyproject.toml` makes its directory a project; `members = [ … ]` in a table whose
//! name has `workspace` in it (uv's `[tool.uv.workspace]`, Hatch's
//! `[tool.hatch.envs.<env>.workspace]`) lists member globs; `path = "…"` in an inline table or a
//! `[….dependencies.<name>]` table (Poetry and uv path dependencies, PDM's editable members as
//! `-e file:///${PROJECT_ROOT}/…`) names one member directory. A line reader for that TOML
//! subset, as `cargo` reads manifests.
//!
//! What not: no `exclude` lists (an excluded member with changed files is still a project), no
//! `package-dir` or `where` keys (the source root is found from the changed paths), no full TOML.

use crate::review::hints::paths;

/// What one `pyproject.toml` says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PyProject {
    /// The directory holding the `pyproject.toml` (empty at the root).
    pub dir: String,
    /// Member directories or globs (`packages/*`), relative to the repository root.
    pub members: Vec<String>,
}

/// Reads a `pyproject.toml` in `dir`; `None` when it has no table at all (not TOML we know).
pub fn pyproject(dir: &str, text: &str) -> Option<PyProject> {
    let mut project = PyProject {
        dir: dir.to_string(),
        members: Vec::new(),
    };
    let mut table = String::new();
    let mut saw_table = false;
    // Inside a multi-line `members = [` array.
    let mut in_members = false;
    for raw in text.lines() {
        let line = raw.split(" #").next().unwrap_or(raw).trim();
        if in_members {
            add_strings(line, dir, &mut project.members);
            in_members = !line.contains(']');
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            table = header
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string();
            saw_table = true;
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim();
        let value = value.trim();
        if key == "members" && table.contains("workspace") {
            add_strings(value, dir, &mut project.members);
            in_members = value.starts_with('[') && !value.contains(']');
        } else if key == "path" && table.contains("dependencies") {
            add_strings(value, dir, &mut project.members);
        } else if value.starts_with('{') {
            // `name = { path = "../core", develop = true }`.
            if let Some(at) = value.find("path") {
                let rest = value.get(at + 4..).unwrap_or("").trim_start();
                if let Some(rest) = rest.strip_prefix('=') {
                    let first = rest.split(',').next().unwrap_or("");
                    add_strings(first, dir, &mut project.members);
                }
            }
        } else if value.starts_with('[') || value.starts_with('"') {
            // PDM: `dev = ["-e file:///${PROJECT_ROOT}/packages/core"]`.
            for quoted in strings(value) {
                if let Some(member) = quoted.split("${PROJECT_ROOT}/").nth(1) {
                    push_member(member, dir, &mut project.members);
                }
            }
        }
    }
    saw_table.then_some(project)
}

/// Adds every string literal of `text` as a member path relative to `dir`.
fn add_strings(text: &str, dir: &str, members: &mut Vec<String>) {
    for quoted in strings(text) {
        push_member(quoted, dir, members);
    }
}

fn push_member(relative: &str, dir: &str, members: &mut Vec<String>) {
    let relative = relative.trim_end_matches('/');
    if relative.is_empty() || relative.contains("://") || relative.starts_with('/') {
        return;
    }
    if let Some(joined) = paths::join(dir, relative).filter(|joined| !joined.is_empty()) {
        if !members.contains(&joined) {
            members.push(joined);
        }
    }
}

/// The `"…"` and `'…'` literals of a line.
fn strings(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(['"', '\'']) {
        let quote = rest.as_bytes().get(start).copied().unwrap_or(b'"') as char;
        let after = rest.get(start + 1..).unwrap_or("");
        let Some(end) = after.find(quote) else { break };
        found.push(after.get(..end).unwrap_or(""));
        rest = after.get(end + 1..).unwrap_or("");
    }
    found
}

#[cfg(test)]
mod tests {
    use super::{pyproject, PyProject};

    fn members(dir: &str, text: &str) -> Option<Vec<String>> {
        pyproject(dir, text).map(|PyProject { members, .. }| members)
    }

    #[test]
    fn uv_and_hatch_workspaces() {
        assert_eq!(
            members(
                "",
                "[project]\nname = \"acme\"\n\n[tool.uv.workspace]\nmembers = [\"packages/*\", \"libs/core\"]\nexclude = [\"packages/legacy\"]\n"
            ),
            Some(vec!["packages/*".to_string(), "libs/core".to_string()])
        );
        assert_eq!(
            members(
                "",
                "[tool.uv.workspace]\nmembers = [\n  \"packages/*\",  # every package\n  'tools/cli',\n]\n[tool.uv.sources]\nacme-core = { workspace = true }\n"
            ),
            Some(vec!["packages/*".to_string(), "tools/cli".to_string()])
        );
        assert_eq!(
            members(
                "",
                "[tool.hatch.envs.default.workspace]\nmembers = [\"packages/*\"]\n"
            ),
            Some(vec!["packages/*".to_string()])
        );
    }

    #[test]
    fn poetry_and_pdm_path_members() {
        assert_eq!(
            members(
                "services/api",
                "[tool.poetry]\nname = \"api\"\n[tool.poetry.dependencies]\npython = \"^3.11\"\nacme-core = { path = \"../../libs/core\", develop = true }\n"
            ),
            Some(vec!["libs/core".to_string()])
        );
        assert_eq!(
            members(
                "",
                "[tool.poetry.group.dev.dependencies.acme-util]\npath = \"libs/util\"\n"
            ),
            Some(vec!["libs/util".to_string()])
        );
        assert_eq!(
            members(
                "",
                "[tool.pdm.dev-dependencies]\ndev = [\"-e file:///${PROJECT_ROOT}/packages/core\", \"pytest\"]\n"
            ),
            Some(vec!["packages/core".to_string()])
        );
    }

    #[test]
    fn negatives() {
        assert_eq!(members("", "not toml"), None);
        assert_eq!(
            members(
                "",
                "[project]\nname = \"x\"\ndependencies = [\"requests>=2\", \"httpx @ https://example.com/x.whl\"]\n[tool.other]\nmembers = [\"a\"]\npath = \"b\"\n"
            ),
            Some(Vec::new())
        );
        // Paths out of the repository are not members.
        assert_eq!(
            members("", "[tool.poetry.dependencies]\nx = { path = \"../x\" }\n"),
            Some(Vec::new())
        );
    }
}
