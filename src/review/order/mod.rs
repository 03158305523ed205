//! Reading orders: their types, validation against a pull request, checklist identity, counts,
//! suggestions and the `nextStep` sentence (the `save_reading_order` section of the MCP reference,
//! "Splitting a file into parts", and the Errors table).
//!
//! Why: an order is the product reviewers rely on, and the reference promises that it "hides
//! nothing": every changed file appears once, or is split into parts that place every change once.
//! [`validate_order`] enforces that promise before anything is stored, and reports every problem at
//! once, each with its JSON path, so an agent can fix a rejected save in one round.
//! Validation runs in two steps, and only the first failing step is reported:
//!
//! 1. `parse`: shapes, types, enum values and limits (characters, not bytes) → "The order is
//!    invalid".
//! 2. `coverage`: missing, unknown and doubly listed files, and the split rules → "The order must
//!    list every changed file" or, when any split rule is broken, "… and place every change of a
//!    split file exactly once".
//!
//! After a save, [`checklist_ids`] gives each checklist item a content-derived id,
//! [`suggestions::suggest`] checks the order against the ordering guide, and
//! [`next_step::next_step`] writes the `nextStep` sentence.
//!
//! What not: no storage, versions or conflicts (the store decides those), no GitHub calls, no JSON
//! result shaping beyond the [`OrderCounts`] value. The pull request is given as [`PullFacts`],
//! built by the tools layer from the same files `get_pull_request` returns.

mod checklist;
mod coverage;
pub(crate) mod input;
pub mod next_step;
mod parse;
pub mod suggestions;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::review::files::FileStatus;
use crate::review::hints::FileHints;

pub use checklist::{checklist_ids, ChecklistItem};
pub use next_step::next_step;
pub use suggestions::{suggest, suggest_for_current};

/// Most sections in an order.
pub const MAX_SECTIONS: usize = 50;
/// Longest section title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest section or file note, in characters.
pub const MAX_NOTE_CHARS: usize = 4_000;
/// Most checklist items per section or file.
pub const MAX_CHECKS: usize = 20;
/// Longest checklist item, in characters.
pub const MAX_CHECK_CHARS: usize = 300;
/// Longest overview, in characters.
pub const MAX_OVERVIEW_CHARS: usize = 2_000;

/// A reading order, in the shape `save_reading_order` takes and `currentOrder` returns.
/// `Deserialize` reads a stored order back (its `checklist` key is ignored); agents' input is
/// validated by [`validate_order`] instead, which reports every problem with the reference's
/// messages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overview: Option<String>,
    pub sections: Vec<Section>,
}

/// One section of an order, in reading order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Section {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<Layer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::json::or_default"
    )]
    pub checks: Vec<String>,
    pub files: Vec<FileEntry>,
}

/// One entry of a section's `files`: a whole file, or one part of a split file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FileEntry {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "crate::json::or_default"
    )]
    pub checks: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<Focus>,
    /// Change ids of this part; `None` takes every change no other part names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hunks: Option<Vec<String>>,
}

/// A section's `layer`, in the ordering guide's table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Contracts,
    Models,
    Logic,
    Storage,
    App,
    Ui,
    Wiring,
    Resources,
    Tooling,
}

impl Layer {
    /// Every layer with its spelling, in rank order.
    pub const ALL: [(&'static str, Layer); 9] = [
        ("contracts", Layer::Contracts),
        ("models", Layer::Models),
        ("logic", Layer::Logic),
        ("storage", Layer::Storage),
        ("app", Layer::App),
        ("ui", Layer::Ui),
        ("wiring", Layer::Wiring),
        ("resources", Layer::Resources),
        ("tooling", Layer::Tooling),
    ];

    /// The spelling the reference uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Contracts => "contracts",
            Layer::Models => "models",
            Layer::Logic => "logic",
            Layer::Storage => "storage",
            Layer::App => "app",
            Layer::Ui => "ui",
            Layer::Wiring => "wiring",
            Layer::Resources => "resources",
            Layer::Tooling => "tooling",
        }
    }

    /// The layer rank of suggestions.md ("Terms"): `contracts` 0 … `tooling` 8.
    pub fn rank(self) -> u8 {
        self as u8
    }
}

/// A file entry's `focus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Focus {
    Key,
    Skim,
    Generated,
}

impl Focus {
    /// Every focus with its spelling.
    pub const ALL: [(&'static str, Focus); 3] = [
        ("key", Focus::Key),
        ("skim", Focus::Skim),
        ("generated", Focus::Generated),
    ];

    /// The spelling the reference uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Focus::Key => "key",
            Focus::Skim => "skim",
            Focus::Generated => "generated",
        }
    }
}

/// The pull request as validation and suggestions need it: the `files` of `get_pull_request`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PullFacts {
    pub files: Vec<PullFileFacts>,
}

/// One changed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullFileFacts {
    pub path: String,
    pub status: FileStatus,
    pub additions: u64,
    pub deletions: u64,
    /// Every change id of the file in diff order, also for a file with one change (which
    /// `get_pull_request` shows without `changes`). Empty when there is no patch.
    pub change_ids: Vec<String>,
    /// False when GitHub gave no patch (binary or very large files); such files can't be split.
    pub has_diff: bool,
    pub hints: FileHints,
}

impl PullFacts {
    /// The file with this path; the first one if GitHub ever listed a path twice.
    pub fn file(&self, path: &str) -> Option<&PullFileFacts> {
        self.files.iter().find(|file| file.path == path)
    }
}

/// Which step of validation refused an order; each has its own message prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectionKind {
    /// Shapes, types, values or limits: "The order is invalid".
    Invalid,
    /// Missing, unknown or doubly listed files: "The order must list every changed file".
    Coverage,
    /// A broken split rule: "The order must list every changed file, and place every change of a
    /// split file exactly once".
    Split,
}

/// Why [`validate_order`] refused an order: every problem found by the step that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderRejection {
    pub kind: RejectionKind,
    pub problems: Vec<String>,
}

/// Most problems a rejection message names; the rest are counted.
pub const MAX_PROBLEMS_SHOWN: usize = 50;

impl OrderRejection {
    /// The message prefix of the reference's Errors table.
    pub fn prefix(&self) -> &'static str {
        match self.kind {
            RejectionKind::Invalid => "The order is invalid",
            RejectionKind::Coverage => "The order must list every changed file",
            RejectionKind::Split => {
                "The order must list every changed file, and place every change of a split file \
                 exactly once"
            }
        }
    }

    /// The tool error text: the prefix, `: `, then the problems joined by `; ` (at most
    /// [`MAX_PROBLEMS_SHOWN`], then a count of the rest).
    pub fn message(&self) -> String {
        render_message(self.prefix(), &self.problems)
    }
}

/// `prefix: problem; problem; …`, naming at most [`MAX_PROBLEMS_SHOWN`] problems.
pub(crate) fn render_message(prefix: &str, problems: &[String]) -> String {
    let shown = problems.get(..MAX_PROBLEMS_SHOWN).unwrap_or(problems);
    let mut message = format!("{prefix}: {}", shown.join("; "));
    let rest = problems.len() - shown.len();
    if rest > 0 {
        message.push_str(&format!("; and {rest} more problems"));
    }
    message
}

/// The shape checks alone (types, values, limits), which need no pull request: run before
/// reading GitHub, so a malformed order is told so at once, with the target's problems. The
/// parsed order goes on to [`check_order`] once the pull request is read.
pub fn order_shape(input: &Value) -> Result<Order, Vec<String>> {
    parse::parse_order(input)
}

/// Validates the `overview` and `sections` of `save_reading_order` arguments against the pull
/// request (MCP reference: `save_reading_order`, "Splitting a file into parts", Errors):
/// [`order_shape`], then [`check_order`].
///
/// `input` is the arguments object; its `owner`, `repo`, `number` and `base_version` keys are
/// left to the tools layer and skipped here, so either the whole arguments or just
/// `{ overview, sections }` may be passed. Invalid input is reported alone; otherwise coverage
/// and split problems are reported together.
pub fn validate_order(input: &Value, facts: &PullFacts) -> Result<Order, OrderRejection> {
    let order = order_shape(input).map_err(|problems| OrderRejection {
        kind: RejectionKind::Invalid,
        problems,
    })?;
    check_order(order, facts)
}

/// Checks an order of the right shape against the pull request: every changed file placed,
/// every split file's changes placed exactly once.
pub fn check_order(order: Order, facts: &PullFacts) -> Result<Order, OrderRejection> {
    let found = coverage::check_coverage(&order, facts);
    if found.coverage.is_empty() && found.split.is_empty() {
        return Ok(order);
    }
    let kind = if found.split.is_empty() {
        RejectionKind::Coverage
    } else {
        RejectionKind::Split
    };
    let mut problems = found.coverage;
    problems.extend(found.split);
    Err(OrderRejection { kind, problems })
}

/// The counts of the `save_reading_order` result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderCounts {
    /// Whether the order has a non-blank overview.
    pub overview: bool,
    pub sections: usize,
    /// Distinct paths placed; after validation, the number of changed files.
    pub files: usize,
    /// Checklist items in sections and files.
    pub checklist_items: usize,
}

/// Counts an order for the `save_reading_order` result.
pub fn order_counts(order: &Order) -> OrderCounts {
    let mut paths = std::collections::HashSet::new();
    let mut checklist_items = 0;
    for section in &order.sections {
        checklist_items += section.checks.len();
        for entry in &section.files {
            checklist_items += entry.checks.len();
            paths.insert(entry.path.as_str());
        }
    }
    OrderCounts {
        overview: order
            .overview
            .as_deref()
            .is_some_and(|text| !text.trim().is_empty()),
        sections: order.sections.len(),
        files: paths.len(),
        checklist_items,
    }
}

/// Builds [`PullFacts`] for tests from JSON in the shape of `get_pull_request`'s `files`, where
/// `changes` is a list of ids and `noDiff: true` marks a file without a patch.
#[cfg(test)]
pub(crate) fn facts_from_json(files: &serde_json::Value) -> PullFacts {
    let strings = |value: Option<&serde_json::Value>| -> Vec<String> {
        value
            .and_then(|v| v.as_array())
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| item.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let files = files.as_array().cloned().unwrap_or_default();
    PullFacts {
        files: files
            .iter()
            .map(|file| {
                let path = file["path"].as_str().unwrap_or("").to_string();
                let mut change_ids = strings(file.get("changes"));
                let has_diff = !file["noDiff"].as_bool().unwrap_or(false);
                if change_ids.is_empty() && has_diff {
                    change_ids.push(format!("h{}", path.len()));
                }
                PullFileFacts {
                    status: FileStatus::from_github(file["status"].as_str().unwrap_or("modified"))
                        .unwrap_or(FileStatus::Modified),
                    additions: file["additions"].as_u64().unwrap_or(1),
                    deletions: file["deletions"].as_u64().unwrap_or(0),
                    change_ids,
                    has_diff,
                    hints: FileHints {
                        depends_on: strings(file.get("dependsOn")),
                        test_of: file["testOf"].as_str().map(str::to_string),
                        likely_generated: file["likelyGenerated"].as_bool().unwrap_or(false),
                    },
                    path,
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests;
