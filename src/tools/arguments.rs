//! Reading tool arguments: typed fields out of a JSON object, with messages that name the field,
//! the value and what was expected, so an agent can fix its call in one go.
//!
//! Why not serde's derive, as for everything else read (`json::decode`): a derived
//! `Deserialize` stops at the first problem and words it in Rust's terms ("invalid type:
//! string, expected u64"), while an agent should get every problem of a call at once, each in
//! the reference's words with the value it sent (`number must be a positive integer, got
//! "12"`). So arguments are read field by field from the parsed object.

use serde_json::{Map, Value};

use crate::github::api::is_repo_name;
use crate::json::describe;

/// Collects every problem with a call's arguments, not just the first.
#[derive(Debug, Default)]
pub struct Problems(Vec<String>);

impl Problems {
    pub fn push(&mut self, problem: impl Into<String>) {
        self.0.push(problem.into());
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// All problems in one sentence list, after `prefix`.
    pub fn message(&self, prefix: &str) -> String {
        format!("{prefix}: {}", self.0.join("; "))
    }

    pub fn into_vec(self) -> Vec<String> {
        self.0
    }
}

/// A required owner or repository name: GitHub allows letters, digits, `-`, `_` and `.`, but
/// not `.` or `..` ([`is_repo_name`]).
pub fn repo_part(args: &Map<String, Value>, key: &str, problems: &mut Problems) -> String {
    match args.get(key) {
        Some(Value::String(text)) if is_repo_name(text) => text.clone(),
        Some(value) => {
            problems.push(format!(
                "{key} must be a GitHub owner or repository name (1 to 100 letters, digits, '-', '_', '.'; not '.' or '..'), got {}",
                describe(value)
            ));
            String::new()
        }
        None => {
            problems.push(format!("{key} is required"));
            String::new()
        }
    }
}

/// A non-negative whole number; `3.0` counts, as JSON Schema's `integer` says it does.
fn whole_number(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        value
            .as_f64()
            .filter(|n| n.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(n))
            .map(|n| n as u64)
    })
}

/// A required pull request number (a positive integer).
pub fn pull_number(args: &Map<String, Value>, problems: &mut Problems) -> u64 {
    match args.get("number") {
        Some(value) => match whole_number(value).filter(|n| *n > 0 && *n <= u64::from(u32::MAX)) {
            Some(number) => number,
            None => {
                problems.push(format!(
                    "number must be a positive integer, got {}",
                    describe(value)
                ));
                0
            }
        },
        None => {
            problems.push("number is required");
            0
        }
    }
}

/// An optional boolean, `default` when absent.
pub fn flag(args: &Map<String, Value>, key: &str, default: bool, problems: &mut Problems) -> bool {
    match args.get(key) {
        None | Some(Value::Null) => default,
        Some(Value::Bool(value)) => *value,
        Some(value) => {
            problems.push(format!(
                "{key} must be true or false, got {}",
                describe(value)
            ));
            default
        }
    }
}

/// A required version number (0 or more).
pub fn version(args: &Map<String, Value>, key: &str, problems: &mut Problems) -> u64 {
    match args.get(key) {
        Some(value) => match whole_number(value) {
            Some(version) => version,
            None => {
                problems.push(format!(
                    "{key} must be a whole number (0 when nothing was saved yet), got {}",
                    describe(value)
                ));
                0
            }
        },
        None => {
            problems.push(format!(
                "{key} is required (use the version get_pull_request returned, 0 when nothing was saved yet)"
            ));
            0
        }
    }
}

/// An optional positive whole number (a saved version, a page): `None` when absent or null.
pub fn optional_positive(
    args: &Map<String, Value>,
    key: &str,
    problems: &mut Problems,
) -> Option<u64> {
    match args.get(key) {
        None | Some(Value::Null) => None,
        Some(value) => match whole_number(value).filter(|n| *n > 0 && *n <= u64::from(u32::MAX)) {
            Some(number) => Some(number),
            None => {
                problems.push(format!(
                    "{key} must be a positive integer when given, got {}",
                    describe(value)
                ));
                None
            }
        },
    }
}

/// A string of 1 to `max_chars` characters; `required` says whether it may be left out.
pub fn text(
    args: &Map<String, Value>,
    key: &str,
    max_chars: usize,
    required: bool,
    problems: &mut Problems,
) -> Option<String> {
    match args.get(key) {
        None | Some(Value::Null) if !required => None,
        None | Some(Value::Null) => {
            problems.push(format!("{key} is required"));
            None
        }
        Some(Value::String(text)) if !text.is_empty() && text.chars().count() <= max_chars => {
            Some(text.clone())
        }
        Some(value) => {
            problems.push(format!(
                "{key} must be a string of 1 to {max_chars} characters, got {}",
                describe(value)
            ));
            None
        }
    }
}

/// Names of keys the tool does not take.
pub fn unknown_keys(args: &Map<String, Value>, known: &[&str], problems: &mut Problems) {
    for key in args.keys() {
        if !known.contains(&key.as_str()) {
            problems.push(format!(
                "{} is not an argument of this tool (it takes {})",
                describe(&Value::String(key.clone())),
                known.join(", ")
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn names_and_numbers() {
        let mut problems = Problems::default();
        let a = args(json!({ "owner": "acme", "repo": "app.js", "number": 12 }));
        assert_eq!(repo_part(&a, "owner", &mut problems), "acme");
        assert_eq!(repo_part(&a, "repo", &mut problems), "app.js");
        assert_eq!(pull_number(&a, &mut problems), 12);
        assert!(problems.is_empty());

        let a = args(json!({ "owner": "ac/me", "repo": "", "number": -1 }));
        repo_part(&a, "owner", &mut problems);
        repo_part(&a, "repo", &mut problems);
        pull_number(&a, &mut problems);
        let message = problems.message("The request is invalid");
        assert!(message.contains("owner must be"), "{message}");
        assert!(message.contains("repo must be"), "{message}");
        assert!(
            message.contains("number must be a positive integer, got -1"),
            "{message}"
        );
    }

    #[test]
    fn dot_names_are_refused() {
        let mut problems = Problems::default();
        let a = args(json!({ "owner": "..", "repo": ".", "number": 3 }));
        repo_part(&a, "owner", &mut problems);
        repo_part(&a, "repo", &mut problems);
        let message = problems.message("The request is invalid");
        assert!(
            message.contains("owner must be a GitHub owner or repository name"),
            "{message}"
        );
        assert!(message.contains("not '.' or '..'), got \".\""), "{message}");
    }

    #[test]
    fn missing_and_wrong_types() {
        let mut problems = Problems::default();
        let a = args(json!({ "include_patches": "yes", "extra": 1 }));
        pull_number(&a, &mut problems);
        flag(&a, "include_patches", false, &mut problems);
        version(&a, "base_version", &mut problems);
        unknown_keys(&a, &["include_patches"], &mut problems);
        let all = problems.into_vec();
        assert_eq!(all.len(), 4, "{all:?}");
        assert!(all[0].contains("number is required"));
        assert!(all[1].contains("include_patches must be true or false"));
        assert!(all[2].contains("base_version is required"));
        assert!(all[3].contains("\"extra\" is not an argument"));
    }

    #[test]
    fn whole_floats_are_integers_as_json_schema_says() {
        let mut problems = Problems::default();
        let a = args(json!({ "number": 12.0, "base_version": 0.0 }));
        assert_eq!(pull_number(&a, &mut problems), 12);
        assert_eq!(version(&a, "base_version", &mut problems), 0);
        assert!(problems.is_empty());
        let a = args(json!({ "number": 1.5, "base_version": -1.0 }));
        pull_number(&a, &mut problems);
        version(&a, "base_version", &mut problems);
        assert_eq!(problems.into_vec().len(), 2);
        let a = args(json!({ "number": 4_294_967_296_u64 }));
        let mut problems = Problems::default();
        pull_number(&a, &mut problems);
        assert!(!problems.is_empty(), "above the schema's maximum");
    }

    #[test]
    fn optional_numbers_and_texts() {
        let mut problems = Problems::default();
        let a = args(json!({ "version": 3, "page": null, "path": "src/a.rs" }));
        assert_eq!(optional_positive(&a, "version", &mut problems), Some(3));
        assert_eq!(optional_positive(&a, "page", &mut problems), None);
        assert_eq!(optional_positive(&a, "missing", &mut problems), None);
        assert_eq!(
            text(&a, "path", 10, true, &mut problems).as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(text(&a, "change", 10, false, &mut problems), None);
        assert!(problems.is_empty());
        let a = args(json!({ "version": 0, "path": "", "change": 5 }));
        optional_positive(&a, "version", &mut problems);
        text(&a, "path", 10, true, &mut problems);
        text(&a, "change", 10, false, &mut problems);
        text(&a, "absent", 10, true, &mut problems);
        let all = problems.into_vec();
        assert_eq!(all.len(), 4, "{all:?}");
        assert!(all[0].contains("version must be a positive integer when given, got 0"));
        assert!(all[1].contains("path must be a string of 1 to 10 characters"));
        assert!(all[2].contains("change must be a string"));
        assert!(all[3].contains("absent is required"));
    }
}
