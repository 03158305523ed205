//! Ruby `require_relative` and `require`.
//!
//! Why: `dependsOn` for Ruby files.
//! Read forms: `require_relative 'x'`, `require 'x'`, with or without parentheses.
//! Resolution, against changed files only: `require_relative` from the importer's directory;
//! `require './x'` from the repository root (the usual working directory); `require` through the load paths a project usually has: `lib/`, `test/` and `spec/`
//! beside any ancestor directory of the importer, nearest first (a gem in a monorepo, such as
//! Rails' `activerecord/lib`), then the `lib/` of any other gem of the repository (Rails' gems
//! load each other's `lib/`), with `.rb` added when missing.
//!
//! What not: Rails autoloading (constants without `require`), `autoload`, `$LOAD_PATH` changes.

use super::lex::{self, Syntax, Tok};
use crate::review::hints::index::PathIndex;
use crate::review::hints::paths;
use crate::review::patch::Hunk;

const SYNTAX: Syntax = Syntax {
    line_comments: &["#"],
    block_comments: false,
    quotes: b"\"'",
    multiline_quote: None,
    triple_quotes: false,
    hash_bracket_is_code: false,
    begin_end_comments: true,
    star_lines_are_comments: false,
};

const TRIGGERS: &[&str] = &["require"];

const SUFFIXES: &[&str] = &[".rb", ""];

const LOAD_DIRS: &[&str] = &["lib", "test", "spec"];

/// A required feature and whether it was `require_relative`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Require<'a> {
    pub feature: &'a str,
    pub relative: bool,
}

/// Requires in the visible lines of the hunks.
pub fn requires<'a>(hunks: &[Hunk<'a>]) -> Vec<Require<'a>> {
    let mut found = Vec::new();
    let mut tokens = Vec::new();
    for hunk in hunks.iter().filter(|hunk| lex::mentions(hunk, TRIGGERS)) {
        tokens.clear();
        lex::tokens(hunk, &SYNTAX, &mut tokens);
        let code = lex::code(&tokens);
        for (i, token) in code.iter().enumerate() {
            let relative = match token {
                Tok::Ident("require_relative") => true,
                Tok::Ident("require") => false,
                _ => continue,
            };
            let after_dot = i
                .checked_sub(1)
                .and_then(|before| code.get(before))
                .is_some_and(|before| *before == Tok::Punct(b'.'));
            let argument = match code.get(i + 1) {
                Some(Tok::Punct(b'(')) => code.get(i + 2),
                other => other,
            };
            if let (false, Some(Tok::Str(feature))) = (after_dot, argument) {
                if !feature.is_empty() && !feature.contains("#{") {
                    found.push(Require { feature, relative });
                }
            }
        }
    }
    found
}

/// Adds the changed file a require in `importer` resolves to.
pub fn resolve(importer: &str, require: &Require<'_>, index: &PathIndex<'_>, out: &mut Vec<usize>) {
    let dir = paths::parent(importer);
    if require.relative {
        let found = paths::join(dir, require.feature).and_then(|base| index.probe(&base, SUFFIXES));
        out.extend(found);
        return;
    }
    if require.feature.starts_with("./") || require.feature.starts_with("../") {
        let found = paths::join("", require.feature).and_then(|path| index.probe(&path, SUFFIXES));
        out.extend(found);
        return;
    }
    let ancestors: Vec<&str> = paths::ancestors(dir).collect();
    let found = ancestors.iter().rev().find_map(|ancestor| {
        let own = LOAD_DIRS
            .contains(&paths::file_name(ancestor))
            .then(|| probe_under(ancestor, require.feature, index))
            .flatten();
        own.or_else(|| {
            LOAD_DIRS.iter().find_map(|load| {
                let root = paths::join(ancestor, load)?;
                probe_under(&root, require.feature, index)
            })
        })
    });
    // Another gem's `lib/` in the same repository; the closest if several.
    let found = found.or_else(|| {
        let feature = require
            .feature
            .strip_suffix(".rb")
            .unwrap_or(require.feature);
        let suffix = format!("lib/{feature}.rb");
        index.closest(importer, index.with_suffix(&suffix))
    });
    out.extend(found);
}

fn probe_under(root: &str, feature: &str, index: &PathIndex<'_>) -> Option<usize> {
    let base = paths::join(root, feature)?;
    index.probe(&base, SUFFIXES)
}

#[cfg(test)]
mod tests {
    use crate::review::hints::testing::check_deps as check;

    #[test]
    fn rails_requires() {
        check(
            &[
                (
                    "activerecord/lib/active_record/base.rb",
                    "+require \"active_support/descendants_tracker\"\n\
                     +require \"active_record/attribute_methods\"\n\
                     +require_relative \"relation/delegation\"\n+require(\"yaml\")",
                ),
                ("activerecord/lib/active_record/attribute_methods.rb", ""),
                ("activerecord/lib/active_record/relation/delegation.rb", ""),
                ("activesupport/lib/active_support/descendants_tracker.rb", ""),
                (
                    "activerecord/test/cases/base_test.rb",
                    "+require \"cases/helper\"\n+require \"models/topic\"",
                ),
                ("activerecord/test/cases/helper.rb", ""),
                ("activerecord/test/models/topic.rb", ""),
                ("spec/models/user_spec.rb", "+require 'rails_helper'\n+require_relative '../support/auth'"),
                ("spec/rails_helper.rb", ""),
                ("spec/support/auth.rb", ""),
            ],
            "activerecord/lib/active_record/base.rb -> activerecord/lib/active_record/attribute_methods.rb, \
             activerecord/lib/active_record/relation/delegation.rb, \
             activesupport/lib/active_support/descendants_tracker.rb\n\
             activerecord/test/cases/base_test.rb -> activerecord/test/cases/helper.rb, \
             activerecord/test/models/topic.rb\n\
             spec/models/user_spec.rb -> spec/rails_helper.rb, spec/support/auth.rb",
        );
    }

    #[test]
    fn negatives() {
        check(
            &[
                (
                    "lib/app.rb",
                    "+# require 'app/a'\n+=begin\n+require 'app/b'\n+=end\n-require 'app/c'\n\
                     +s = \"require 'app/d'\"\n+obj.require 'app/e'\n+require \"app/#{name}\"",
                ),
                ("lib/app/a.rb", ""),
                ("lib/app/b.rb", ""),
                ("lib/app/c.rb", ""),
                ("lib/app/d.rb", ""),
                ("lib/app/e.rb", ""),
            ],
            "",
        );
    }
}
