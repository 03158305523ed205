//! The pull request a tool call names: `owner`, `repo` and `number`, read the same way, in the same
//! words and order, by every tool that reads or saves a pull request (`get_pull_request`,
//! `get_review_feedback`, the two saves, `show_reading_order` and the view's tools).
//!
//! Why one home: the Worker reads only this of a call before it routes the call to the pull
//! request's object ([`PullTarget::of`]), and each tool reads it first among its arguments, so a
//! message about the target is the same whichever tool was called.
//!
//! What not: a tool's other arguments and its unknown keys are its own module's.

use serde_json::{Map, Value};

use super::arguments::{flag, pull_number, repo_part, unknown_keys, Problems};

/// A pull request as a call names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullTarget {
    pub owner: String,
    pub repo: String,
    pub number: u64,
}

impl PullTarget {
    /// Reads `owner`, `repo` and `number`, adding a problem for each that is missing or wrong
    /// (the fields are then empty or 0).
    pub fn read(args: &Map<String, Value>, problems: &mut Problems) -> PullTarget {
        PullTarget {
            owner: repo_part(args, "owner", problems),
            repo: repo_part(args, "repo", problems),
            number: pull_number(args, problems),
        }
    }

    /// The target when all three are right, else `None`: what the Worker routes a call by,
    /// before the tool reads the rest of its arguments.
    pub fn of(args: &Map<String, Value>) -> Option<PullTarget> {
        let mut problems = Problems::default();
        let target = PullTarget::read(args, &mut problems);
        problems.is_empty().then_some(target)
    }

    /// `owner/repo#number`, as messages name the pull request.
    pub fn label(&self) -> String {
        label(&self.owner, &self.repo, self.number)
    }

    /// A call of a tool whose arguments are a pull request and one optional boolean
    /// (`get_pull_request`'s `include_patches`, `get_review_feedback`'s `include_resolved`): the
    /// target and the flag, or one message with every problem (the target's, the flag's, then
    /// unknown keys).
    pub fn with_flag(args: &Map<String, Value>, name: &str) -> Result<(PullTarget, bool), String> {
        let mut problems = Problems::default();
        let target = PullTarget::read(args, &mut problems);
        let value = flag(args, name, false, &mut problems);
        unknown_keys(args, &["owner", "repo", "number", name], &mut problems);
        if problems.is_empty() {
            Ok((target, value))
        } else {
            Err(problems.message("The request is invalid"))
        }
    }

    /// The target as the reads take it.
    pub fn path(&self) -> (&str, &str, u64) {
        (&self.owner, &self.repo, self.number)
    }
}

/// `owner/repo#number`.
pub fn label(owner: &str, repo: &str, number: u64) -> String {
    format!("{owner}/{repo}#{number}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_target_reads_in_the_same_words_for_every_tool() {
        let good = args(json!({ "owner": "acme", "repo": "app", "number": 7, "extra": 1 }));
        let target = PullTarget::of(&good);
        assert_eq!(
            target.as_ref().map(PullTarget::label).as_deref(),
            Some("acme/app#7")
        );
        let bad = args(json!({ "owner": "..", "number": "7" }));
        assert_eq!(PullTarget::of(&bad), None);
        let mut problems = Problems::default();
        PullTarget::read(&bad, &mut problems);
        assert_eq!(
            problems.into_vec(),
            [
                "owner must be a GitHub owner or repository name (1 to 100 letters, digits, '-', '_', '.'; not '.' or '..'), got \"..\"",
                "repo is required",
                "number must be a positive integer, got \"7\"",
            ]
        );
    }
}
