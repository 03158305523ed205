//! The team on the review page (issue #47): who else has reviewed each file and section, a short
//! summary beside the progress bar, and the names the outline gives files.
//!
//! Why: with two or three reviewers nobody could see that a colleague had already read a
//! section, or that nobody had read the migration. Coverage (`review::coverage`) comes from the
//! pull request object's own ticks, so showing it costs no GitHub request.
//!
//! A page with one reviewer looks as before: everything here is drawn only when somebody other
//! than the viewer has ticked something ([`Team::of`]). The marks are a count with the names in a
//! tooltip and in text for screen readers, never colour alone.
//! What not: the coverage rules, the viewer's own state (their ticks are the page's checkboxes).

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::review::coverage::{Coverage, EntryCoverage, Readers};
use crate::web::html::{escape, escape_into};

/// Coverage as one viewer's page shows it: the others, never the viewer themselves.
#[derive(Clone, Copy)]
pub struct Team<'c> {
    pub coverage: &'c Coverage,
    /// The viewer's place among the reviewers, when they have ticked anything.
    viewer: Option<usize>,
}

impl<'c> Team<'c> {
    /// The team of `coverage` for `viewer`, or `None` when nobody else has ticked anything (then
    /// the page is the one-reviewer page it always was).
    pub fn of(coverage: Option<&'c Coverage>, viewer: &str) -> Option<Team<'c>> {
        let coverage = coverage?;
        let viewer_at = coverage.reviewer(viewer);
        let others = coverage.reviewers.len() - usize::from(viewer_at.is_some());
        (others > 0).then_some(Team {
            coverage,
            viewer: viewer_at,
        })
    }

    /// The logins of `readers` other than the viewer.
    fn others(&self, readers: &Readers) -> Vec<&'c str> {
        readers
            .members()
            .filter(|at| Some(*at) != self.viewer)
            .filter_map(|at| self.coverage.reviewers.get(at))
            .map(|reviewer| reviewer.login.as_str())
            .collect()
    }

    /// Others who read, read an earlier version of, or read part of an entry.
    fn of_entry(&self, entry: &EntryCoverage) -> (Vec<&'c str>, Vec<&'c str>, Vec<&'c str>) {
        (
            self.others(&entry.read),
            self.others(&entry.earlier),
            self.others(&entry.partly),
        )
    }
}

/// "ana, bo and cy".
fn names(logins: &[&str]) -> String {
    match logins {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// One sentence of who else has been here: "Read by ana. bo read an earlier version. cy read
/// part of it."
fn who(read: &[&str], earlier: &[&str], partly: &[&str]) -> String {
    let mut text = String::new();
    if !read.is_empty() {
        let _ = write!(text, "Read by {}.", names(read));
    }
    if !earlier.is_empty() {
        let verb = if earlier.len() == 1 {
            "read"
        } else {
            "each read"
        };
        let _ = write!(text, " {} {verb} an earlier version.", names(earlier));
    }
    if !partly.is_empty() {
        let _ = write!(text, " {} read part of it.", names(partly));
    }
    text.trim_start().to_string()
}

/// The outline's mark on an entry: `✓2` when two others read it, `◐1` when someone read only
/// part or an earlier version; the names in the tooltip and for screen readers. Nothing when
/// nobody else has been here.
pub fn outline_mark(out: &mut String, team: &Team<'_>, entry: &EntryCoverage) {
    let (read, earlier, partly) = team.of_entry(entry);
    if read.is_empty() && earlier.is_empty() && partly.is_empty() {
        return;
    }
    let (class, symbol, count) = if read.is_empty() {
        ("team-mark part", "◐", earlier.len() + partly.len())
    } else {
        ("team-mark", "✓", read.len())
    };
    let sentence = who(&read, &earlier, &partly);
    let _ = write!(
        out,
        " <span class=\"{class}\" title=\"{title}\"><span aria-hidden=\"true\">{symbol}{count}</span>\
         <span class=\"vh\"> {title}</span></span>",
        title = escape(&sentence)
    );
}

/// The line under a file's header naming who else reviewed it.
pub fn entry_note(out: &mut String, team: &Team<'_>, entry: &EntryCoverage) {
    let (read, earlier, partly) = team.of_entry(entry);
    if read.is_empty() && earlier.is_empty() && partly.is_empty() {
        if entry.items > 0 && entry.unread.len() == entry.items {
            out.push_str("<p class=\"team-note\">Nobody has reviewed this yet.</p>\n");
        }
        return;
    }
    out.push_str("<p class=\"team-note\">");
    escape_into(out, &who(&read, &earlier, &partly));
    out.push_str("</p>\n");
}

/// The line under a section's title: who read all of it, who read part.
pub fn section_note(out: &mut String, team: &Team<'_>, section: usize) {
    let Some(coverage) = team.coverage.sections.get(section) else {
        return;
    };
    let others = |logins: &[String]| -> Vec<String> {
        logins
            .iter()
            .filter(|login| {
                team.viewer
                    .and_then(|at| team.coverage.reviewers.get(at))
                    .is_none_or(|viewer| !viewer.login.eq_ignore_ascii_case(login))
            })
            .cloned()
            .collect()
    };
    let read = others(&coverage.read_by);
    let partly = others(&coverage.partly_read_by);
    if read.is_empty() && partly.is_empty() {
        return;
    }
    let mut text = String::new();
    if !read.is_empty() {
        let _ = write!(text, "Read in full by {}.", names(&as_str(&read)));
    }
    if !partly.is_empty() {
        let _ = write!(text, " Read in part by {}.", names(&as_str(&partly)));
    }
    out.push_str("<p class=\"team-note\">");
    escape_into(out, text.trim_start());
    out.push_str("</p>\n");
}

/// The team summary beside the progress bar: each reviewer with the files they reviewed of the
/// total and when they were last active, and what nobody has read yet, linked to that view.
pub fn summary(out: &mut String, team: &Team<'_>, pull: &str, time_html: &dyn Fn(&str) -> String) {
    let coverage = team.coverage;
    let totals = &coverage.totals;
    out.push_str(
        "<section class=\"team\" aria-labelledby=\"team-h\"><h2 id=\"team-h\" class=\"team-h\">Team</h2><ul class=\"team-list\">",
    );
    for (at, reviewer) in coverage.reviewers.iter().enumerate() {
        out.push_str("<li><strong>");
        escape_into(out, &reviewer.login);
        out.push_str("</strong>");
        if Some(at) == team.viewer {
            out.push_str(" (you)");
        }
        let _ = write!(
            out,
            " · {} of {} files · last active {}</li>",
            reviewer.files_read,
            totals.files,
            time_html(&reviewer.last_active)
        );
    }
    out.push_str("</ul>");
    if totals.changes_unread == 0 {
        out.push_str("<p>Every change has been reviewed by someone.</p>");
    } else {
        let _ = write!(
            out,
            "<p>Nobody has read {} and {} yet. <a href=\"{}?view=unread\">Show only those</a></p>",
            count(totals.files_unread, "file", "files"),
            count(totals.changes_unread, "change", "changes"),
            escape(pull)
        );
    }
    out.push_str("</section>\n");
}

fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The names the outline gives files: the base name, or, where two files of the outline share
/// it, as much of the folder as tells them apart (as GitHub's file tree shows a folder), so two
/// `README.md`s read `docs/README.md` and `api/README.md`.
pub fn outline_names<'p>(paths: impl Iterator<Item = &'p str>) -> HashMap<&'p str, &'p str> {
    let mut by_base: HashMap<&str, Vec<&str>> = HashMap::new();
    for path in paths {
        let base = base_name(path, 1);
        let same = by_base.entry(base).or_default();
        if !same.contains(&path) {
            same.push(path);
        }
    }
    let mut names = HashMap::new();
    for (base, paths) in by_base {
        if let [only] = paths.as_slice() {
            names.insert(*only, base);
            continue;
        }
        for path in &paths {
            let depth = (2..=path.split('/').count())
                .find(|&depth| {
                    let name = base_name(path, depth);
                    paths
                        .iter()
                        .filter(|other| *other != path)
                        .all(|other| base_name(other, depth) != name)
                })
                .unwrap_or(usize::MAX);
            names.insert(*path, base_name(path, depth));
        }
    }
    names
}

/// The last `parts` segments of `path` (all of it when it has fewer).
fn base_name(path: &str, parts: usize) -> &str {
    let mut at = path.len();
    for _ in 0..parts {
        match path.get(..at).and_then(|head| head.rfind('/')) {
            Some(slash) => at = slash,
            None => return path,
        }
    }
    path.get(at + 1..).unwrap_or(path)
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::expect_used)]
mod tests;

/// Borrows each login.
fn as_str(logins: &[String]) -> Vec<&str> {
    logins.iter().map(String::as_str).collect()
}
