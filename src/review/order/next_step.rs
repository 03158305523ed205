//! The `nextStep` sentence of the `save_reading_order` result (MCP reference: "`nextStep` says so
//! when there are suggestions, then tells the agent what to do about a diagram: nothing, ask the
//! user, or draw one because the repository wants one for every pull request").
//!
//! Why: the agent reads one field to know what to do after a save, so the repository's
//! `diagramPreference` and the suggestions are folded into plain instructions here, in one place.
//!
//! What not: no reading of the conventions file (the tools layer passes the preference) and no
//! decision about the suggestions themselves.

/// Pull requests with at most this many changed files count as small: with `ask`, the agent skips
/// the diagram unless the user asks for one.
pub const SMALL_PULL_REQUEST_FILES: usize = 5;

/// Writes `nextStep`. `version` is the version just saved, `diagram_preference` is `always`, `ask`
/// or `never` (anything else counts as `ask`, the reference's default), `changed_files` is N and
/// `has_diagram` says whether the pull request already has a diagram.
///
/// Without suggestions the text starts with "Done."; for a small pull request with `ask` it is
/// exactly the reference's example: "Done. Share the review link with the user. The pull request
/// is small, so skip the diagram unless the user asks for one."
pub fn next_step(
    suggestions: &[String],
    version: u64,
    diagram_preference: &str,
    changed_files: usize,
    has_diagram: bool,
) -> String {
    let mut text = String::new();
    let share = if suggestions.is_empty() {
        "Done. Share"
    } else {
        text.push_str(&format!(
            "Apply the suggestions that fit and save again with base_version {version}. "
        ));
        "Then share"
    };
    let how = "save_diagram, base_version set to diagramBaseVersion from get_pull_request, \
               following the Diagrams section of the ordering guide";
    match diagram_preference.trim() {
        "never" => text.push_str(&format!("{share} the review link with the user.")),
        "always" => {
            if has_diagram {
                text.push_str(&format!(
                    "This repository wants a diagram for every pull request, and this one has one: \
                     if the change affects the flow it shows, update it with {how}. "
                ));
            } else {
                text.push_str(&format!(
                    "This repository wants a diagram for every pull request: draw one now with \
                     {how}. "
                ));
            }
            let then = if suggestions.is_empty() {
                "Then share"
            } else {
                "Finally, share"
            };
            text.push_str(&format!("{then} the review link with the user."));
        }
        _ if changed_files <= SMALL_PULL_REQUEST_FILES => text.push_str(&format!(
            "{share} the review link with the user. The pull request is small, so skip the \
             diagram unless the user asks for one."
        )),
        _ => {
            if has_diagram {
                text.push_str(&format!(
                    "{share} the review link with the user. This pull request has a diagram: if \
                     the change affects the flow it shows, ask the user whether to update it, and \
                     if they agree, update it with {how}."
                ));
            } else {
                text.push_str(&format!(
                    "{share} the review link with the user and ask whether they want a flow \
                     diagram of the change; if they do, draw one with {how}."
                ));
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::next_step;

    fn check(
        suggestions: usize,
        preference: &str,
        files: usize,
        has_diagram: bool,
        expected: &str,
    ) {
        let suggestions = vec!["x.".to_string(); suggestions];
        assert_eq!(
            next_step(&suggestions, 3, preference, files, has_diagram),
            expected
        );
    }

    #[test]
    fn reference_example_for_a_small_pull_request() {
        check(0, "ask", 4, false, "Done. Share the review link with the user. The pull request is small, so skip the diagram unless the user asks for one.");
        check(0, "ask", 5, true, "Done. Share the review link with the user. The pull request is small, so skip the diagram unless the user asks for one.");
    }

    #[test]
    fn suggestions_come_first() {
        check(2, "ask", 4, false, "Apply the suggestions that fit and save again with base_version 3. Then share the review link with the user. The pull request is small, so skip the diagram unless the user asks for one.");
        check(1, "never", 40, false, "Apply the suggestions that fit and save again with base_version 3. Then share the review link with the user.");
    }

    #[test]
    fn never() {
        check(
            0,
            "never",
            40,
            true,
            "Done. Share the review link with the user.",
        );
    }

    #[test]
    fn ask_for_a_larger_pull_request() {
        check(0, "ask", 6, false, "Done. Share the review link with the user and ask whether they want a flow diagram of the change; if they do, draw one with save_diagram, base_version set to diagramBaseVersion from get_pull_request, following the Diagrams section of the ordering guide.");
        check(0, "ask", 6, true, "Done. Share the review link with the user. This pull request has a diagram: if the change affects the flow it shows, ask the user whether to update it, and if they agree, update it with save_diagram, base_version set to diagramBaseVersion from get_pull_request, following the Diagrams section of the ordering guide.");
        // Unknown preferences count as `ask`, the reference's default.
        check(0, "sometimes", 2, false, "Done. Share the review link with the user. The pull request is small, so skip the diagram unless the user asks for one.");
    }

    #[test]
    fn always() {
        check(0, "always", 2, false, "This repository wants a diagram for every pull request: draw one now with save_diagram, base_version set to diagramBaseVersion from get_pull_request, following the Diagrams section of the ordering guide. Then share the review link with the user.");
        check(1, "always", 2, true, "Apply the suggestions that fit and save again with base_version 3. This repository wants a diagram for every pull request, and this one has one: if the change affects the flow it shows, update it with save_diagram, base_version set to diagramBaseVersion from get_pull_request, following the Diagrams section of the ordering guide. Finally, share the review link with the user.");
    }
}
