//! The repository's conventions file, `.github/logikflow.yml`, read at the pull request's base.
//!
//! Only the keys LogiKFlow uses are read, with a tiny line parser rather than a YAML crate:
//! `diagrams: always | ask | never`, and `status: on | off` (whether a save sets the `LogiKFlow`
//! commit status on the pull request's head, issue #47; on when the file doesn't say). Anything
//! we cannot read is reported back to the agent as a problem, never a failure, and the defaults
//! apply.

/// Where the conventions file lives in a repository.
pub const PATH: &str = ".github/logikflow.yml";

/// Whether the repository wants a flow diagram with each reading order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiagramPreference {
    Always,
    Ask,
    Never,
}

impl DiagramPreference {
    pub fn as_str(self) -> &'static str {
        match self {
            DiagramPreference::Always => "always",
            DiagramPreference::Ask => "ask",
            DiagramPreference::Never => "never",
        }
    }

    pub fn parse(text: &str) -> Option<DiagramPreference> {
        match text {
            "always" => Some(DiagramPreference::Always),
            "ask" => Some(DiagramPreference::Ask),
            "never" => Some(DiagramPreference::Never),
            _ => None,
        }
    }
}

/// What the file says, and what in it could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conventions {
    pub diagrams: DiagramPreference,
    /// Whether saves and reviews sent from the page set the commit status (`status: on | off`).
    pub commit_status: bool,
    /// A sentence for the agent when the file was present but (partly) unreadable.
    pub problem: Option<String>,
}

impl Default for Conventions {
    fn default() -> Self {
        Conventions {
            diagrams: DiagramPreference::Ask,
            commit_status: true,
            problem: None,
        }
    }
}

/// Reads the file's text. Unknown top-level keys are ignored so repositories can add their own.
pub fn parse(text: &str) -> Conventions {
    let mut conventions = Conventions::default();
    for (index, raw) in text.lines().enumerate() {
        let line = strip_comment(raw);
        if line.trim().is_empty() || line.starts_with(char::is_whitespace) || line.trim() == "---" {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            conventions.problem = Some(format!(
                "{PATH} line {}: expected `key: value`; the defaults apply",
                index + 1
            ));
            continue;
        };
        let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
        match key.trim() {
            "diagrams" => match DiagramPreference::parse(&value.to_ascii_lowercase()) {
                Some(preference) => conventions.diagrams = preference,
                None => {
                    conventions.problem = Some(format!(
                        "{PATH} line {}: `diagrams` must be always, ask or never, not {value:?}; using ask",
                        index + 1
                    ))
                }
            },
            "status" => match value.to_ascii_lowercase().as_str() {
                "on" => conventions.commit_status = true,
                "off" => conventions.commit_status = false,
                _ => {
                    conventions.problem = Some(format!(
                        "{PATH} line {}: `status` must be on or off, not {value:?}; using on",
                        index + 1
                    ))
                }
            },
            _ => {}
        }
    }
    conventions
}

/// Drops a `#` comment that starts the line or follows whitespace (a `#` inside a value stays).
fn strip_comment(line: &str) -> &str {
    if line.trim_start().starts_with('#') {
        return "";
    }
    match line.find(" #") {
        Some(at) => &line[..at],
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, diagrams: DiagramPreference, problem: bool) {
        let got = parse(text);
        assert_eq!(got.diagrams, diagrams, "{text:?}");
        assert_eq!(
            got.problem.is_some(),
            problem,
            "{text:?}: {:?}",
            got.problem
        );
    }

    #[test]
    fn files() {
        check("", DiagramPreference::Ask, false);
        check("diagrams: always\n", DiagramPreference::Always, false);
        check(
            "diagrams: never # no pictures\n",
            DiagramPreference::Never,
            false,
        );
        check(
            "# LogiKFlow\n---\ndiagrams: \"ask\"\n",
            DiagramPreference::Ask,
            false,
        );
        check("diagrams: ALWAYS", DiagramPreference::Always, false);
        check(
            "other: 1\nnested:\n  diagrams: never\n",
            DiagramPreference::Ask,
            false,
        );
        check("diagrams: sometimes", DiagramPreference::Ask, true);
        check("just text", DiagramPreference::Ask, true);
        check("diagrams: always\r\n", DiagramPreference::Always, false);
    }

    /// `status: on | off` (issue #47): on unless the file says off; anything else is a problem
    /// and on applies.
    #[test]
    fn the_status_switch() {
        let status = |text: &str| {
            let got = parse(text);
            (got.commit_status, got.problem)
        };
        assert_eq!(status(""), (true, None));
        assert_eq!(status("status: off\n"), (false, None));
        assert_eq!(status("status: 'OFF' # quiet\n"), (false, None));
        assert_eq!(status("status: on\ndiagrams: never\n"), (true, None));
        let (on, problem) = status("status: false");
        assert!(on);
        let problem = problem.unwrap_or_default();
        assert!(problem.contains("`status` must be on or off"), "{problem}");
        assert!(problem.contains("line 1"), "{problem}");
        assert_eq!(
            parse("status: off\ndiagrams: never").diagrams,
            DiagramPreference::Never
        );
    }
}
