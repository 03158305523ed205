//! Reads a repository's `.gitattributes` for the attributes that mark files generated or vendored.
//!
//! Why: GitHub folds files marked `linguist-generated` and GitLab those marked `gitlab-generated`;
//! a repository that says so knows better than any path rule. `linguist-vendored` is read too.
//! Semantics follow gitattributes(5) and linguist's overrides: `attr`, `attr=true` set it;
//! `-attr`, `attr=false` unset it (so `-linguist-generated` un-marks a file the built-in rules
//! would fold); `!attr` returns it to unspecified; for each attribute the last matching line wins.
//! Only the last [`MAX_RULES`] relevant lines are kept and patterns longer than
//! [`MAX_PATTERN_LEN`] are skipped, so a hostile file cannot make matching slow.
//! What not: no macro attributes (`[attr]…` lines are skipped), no nested `.gitattributes` files,
//! no other attributes.

use super::glob::Glob;

/// Most relevant lines kept (the last ones, which win).
pub const MAX_RULES: usize = 256;

/// Longest pattern read, in bytes.
pub const MAX_PATTERN_LEN: usize = 256;

/// The attributes of one file that matter for folding; `None` means "not specified".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Marks {
    pub generated: Option<bool>,
    pub vendored: Option<bool>,
}

/// A parsed `.gitattributes`, keeping only lines that mention attributes we read.
#[derive(Debug, Clone, Default)]
pub struct Gitattributes {
    rules: Vec<Rule>,
}

#[derive(Debug, Clone)]
struct Rule {
    glob: Glob,
    linguist_generated: Option<State>,
    gitlab_generated: Option<State>,
    linguist_vendored: Option<State>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Set,
    Unset,
    Unspecified,
}

impl Gitattributes {
    /// Parses the file's text; lines it cannot read are skipped.
    pub fn parse(text: &str) -> Gitattributes {
        let mut rules: Vec<Rule> = text.lines().filter_map(parse_line).collect();
        let excess = rules.len().saturating_sub(MAX_RULES);
        rules.drain(..excess);
        Gitattributes { rules }
    }

    /// The marks for a repository-relative path.
    pub fn marks(&self, path: &str) -> Marks {
        let (mut linguist, mut gitlab, mut vendored) = (None, None, None);
        // Split once for all rules, not once per rule (a 3,000-file pull request's first read
        // spent ~0.4% splitting paths here, #19).
        let parts: Vec<&str> = if self.rules.is_empty() {
            Vec::new()
        } else {
            path.split('/').collect()
        };
        for rule in self
            .rules
            .iter()
            .filter(|rule| rule.glob.matches_parts(&parts))
        {
            linguist = rule.linguist_generated.or(linguist);
            gitlab = rule.gitlab_generated.or(gitlab);
            vendored = rule.linguist_vendored.or(vendored);
        }
        Marks {
            generated: as_bool(linguist).or(as_bool(gitlab)),
            vendored: as_bool(vendored),
        }
    }
}

fn as_bool(state: Option<State>) -> Option<bool> {
    match state? {
        State::Set => Some(true),
        State::Unset => Some(false),
        State::Unspecified => None,
    }
}

fn parse_line(line: &str) -> Option<Rule> {
    let line = line.trim_start();
    if line.is_empty() || line.starts_with('#') || line.starts_with("[attr]") {
        return None;
    }
    let (pattern, attributes) = split_pattern(line)?;
    if pattern.len() > MAX_PATTERN_LEN {
        return None;
    }
    let mut rule = Rule {
        glob: Glob::new(&pattern)?,
        linguist_generated: None,
        gitlab_generated: None,
        linguist_vendored: None,
    };
    for token in attributes.split_whitespace() {
        let (name, state) = parse_attribute(token);
        let slot = match name {
            "linguist-generated" => &mut rule.linguist_generated,
            "gitlab-generated" => &mut rule.gitlab_generated,
            "linguist-vendored" => &mut rule.linguist_vendored,
            _ => continue,
        };
        *slot = Some(state);
    }
    let mentioned = rule.linguist_generated.is_some()
        || rule.gitlab_generated.is_some()
        || rule.linguist_vendored.is_some();
    mentioned.then_some(rule)
}

/// Splits off the pattern: a bare word, or a C-style quoted string.
fn split_pattern(line: &str) -> Option<(String, &str)> {
    let Some(quoted) = line.strip_prefix('"') else {
        let (pattern, rest) = line
            .split_once(|c: char| c.is_ascii_whitespace())
            .unwrap_or((line, ""));
        return Some((pattern.to_string(), rest));
    };
    let mut pattern = String::new();
    let mut chars = quoted.char_indices();
    while let Some((index, c)) = chars.next() {
        match c {
            '"' => return Some((pattern, quoted.get(index + 1..).unwrap_or(""))),
            '\\' => match chars.next() {
                Some((_, 'n')) => pattern.push('\n'),
                Some((_, 't')) => pattern.push('\t'),
                Some((_, other)) => pattern.push(other),
                None => return None,
            },
            other => pattern.push(other),
        }
    }
    None
}

fn parse_attribute(token: &str) -> (&str, State) {
    if let Some(name) = token.strip_prefix('-') {
        return (name, State::Unset);
    }
    if let Some(name) = token.strip_prefix('!') {
        return (name, State::Unspecified);
    }
    match token.split_once('=') {
        Some((name, "true")) => (name, State::Set),
        Some((name, "false")) => (name, State::Unset),
        // linguist reads only true and false; other values leave the default rules in charge.
        Some((name, _)) => (name, State::Unspecified),
        None => (token, State::Set),
    }
}

#[cfg(test)]
mod tests {
    use super::{Gitattributes, Marks};

    fn check(attributes: &str, path: &str, expected: Marks) {
        assert_eq!(
            Gitattributes::parse(attributes).marks(path),
            expected,
            "{path} with\n{attributes}"
        );
    }

    const NONE: Marks = Marks {
        generated: None,
        vendored: None,
    };
    const GENERATED: Marks = Marks {
        generated: Some(true),
        vendored: None,
    };
    const NOT_GENERATED: Marks = Marks {
        generated: Some(false),
        vendored: None,
    };

    #[test]
    fn set_and_unset_forms() {
        check("*.pb.go linguist-generated", "api/x.pb.go", GENERATED);
        check("*.pb.go linguist-generated=true", "api/x.pb.go", GENERATED);
        check("*.pb.go -linguist-generated", "api/x.pb.go", NOT_GENERATED);
        check(
            "*.pb.go linguist-generated=false",
            "api/x.pb.go",
            NOT_GENERATED,
        );
        check("*.pb.go gitlab-generated", "api/x.pb.go", GENERATED);
        check("*.pb.go linguist-generated=1", "api/x.pb.go", NONE);
        check("*.pb.go text eol=lf", "api/x.pb.go", NONE);
        check(
            "third_party/** linguist-vendored",
            "third_party/a/b.c",
            Marks {
                generated: None,
                vendored: Some(true),
            },
        );
    }

    #[test]
    fn later_lines_win_per_attribute() {
        let text = "# kubernetes-style\n\
                    **/zz_generated.*.go linguist-generated=true\n\
                    api/** -linguist-generated\n";
        check(text, "pkg/zz_generated.deepcopy.go", GENERATED);
        check(text, "api/zz_generated.deepcopy.go", NOT_GENERATED);
        check(
            "*.js linguist-generated\n*.js !linguist-generated",
            "a.js",
            NONE,
        );
        check("*.js linguist-generated\n*.js text", "a.js", GENERATED);
    }

    #[test]
    fn linguist_overrides_gitlab() {
        check(
            "*.js gitlab-generated\n*.js -linguist-generated",
            "a.js",
            NOT_GENERATED,
        );
    }

    #[test]
    fn quoted_patterns_comments_and_junk() {
        check(
            "\"dir with space/*.js\" linguist-generated",
            "dir with space/a.js",
            GENERATED,
        );
        check("\"unterminated linguist-generated", "unterminated", NONE);
        check("[attr]gen linguist-generated\n*.x gen", "a.x", NONE);
        check("  # *.js linguist-generated", "a.js", NONE);
        check("/ linguist-generated", "a.js", NONE);
        check("", "a.js", NONE);
        check("\u{0}\u{7f} linguist-generated", "a", NONE);
        let long = format!("{}.js linguist-generated", "*a".repeat(200));
        check(&long, "aaa.js", NONE);
    }

    #[test]
    fn only_the_last_rules_are_kept() {
        let mut text = String::from("*.gen linguist-generated\n");
        for n in 0..super::MAX_RULES {
            text.push_str(&format!("unrelated{n} linguist-generated\n"));
        }
        check(&text, "a.gen", NONE);
        check(&text, "unrelated7", GENERATED);
    }
}
