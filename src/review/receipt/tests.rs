//! The receipt: what it counts, how it names what was not read, and how it joins the summary.

use super::*;
use crate::review::coverage::{coverage, EntryItems, OrderItems, ReviewerTicks, SectionItems};

fn order(files: usize) -> OrderItems {
    let entry = |n: usize| EntryItems {
        path: format!("src/f{n}.rs"),
        items: vec![format!("change:src/f{n}.rs#h{n}")],
    };
    OrderItems {
        sections: vec![
            SectionItems {
                title: Some("First".into()),
                entries: vec![entry(0), entry(1)],
            },
            SectionItems {
                title: Some("Rest".into()),
                entries: (2..files).map(entry).collect(),
            },
        ],
        not_in_order: vec![],
    }
}

fn ana(files: &[usize]) -> ReviewerTicks {
    ReviewerTicks {
        login: "ana".into(),
        ticked: files
            .iter()
            .map(|n| format!("change:src/f{n}.rs#h{n}"))
            .collect(),
        changed: Default::default(),
        last_active: "t".into(),
    }
}

#[test]
fn counts_what_the_reviewer_read_of_the_order() {
    let coverage = coverage(&order(4), vec![ana(&[0, 1, 2])]);
    let receipt = receipt(&coverage, "ana", 3, "abcdef0123", "2026-12-08T01:00:00Z");
    assert_eq!(receipt.files_read, 3);
    assert_eq!(receipt.files, 4);
    assert_eq!((receipt.sections_read, receipt.sections), (1, 2));
    assert_eq!(receipt.unread_files, ["src/f3.rs"]);
    let text = markdown(&receipt, "https://lf.test/r/o/r/pull/1");
    assert!(text.starts_with(MARKER), "{text}");
    assert!(
        text.contains("**Read with LogiKFlow**: 3 of 4 files and 1 of 2 sections of reading order v3, at `abcdef0`."),
        "{text}"
    );
    assert!(text.contains("Not read: `src/f3.rs`."), "{text}");
    assert!(
        text.contains("[The review in reading order](https://lf.test/r/o/r/pull/1)"),
        "{text}"
    );
}

#[test]
fn names_ten_unread_files_then_counts_the_rest() {
    let coverage = coverage(&order(30), vec![ana(&[0])]);
    let receipt = receipt(&coverage, "ana", 1, "h", "t");
    assert_eq!(receipt.unread_files.len(), 29);
    let text = markdown(&receipt, "u");
    assert!(text.contains("`src/f10.rs` and 19 more."), "{text}");
    assert!(!text.contains("src/f11.rs"), "{text}");
}

#[test]
fn a_reviewer_without_ticks_read_nothing() {
    let coverage = coverage(&order(3), vec![]);
    let receipt = receipt(&coverage, "bo", 1, "h", "t");
    assert_eq!(receipt.files_read, 0);
    assert_eq!(receipt.sections_read, 0);
    assert_eq!(receipt.unread_files.len(), 3);
}

#[test]
fn the_record_keeps_fifty_names_and_counts_the_rest() {
    let coverage = coverage(&order(80), vec![]);
    let receipt = receipt(&coverage, "bo", 1, "h", "t");
    assert_eq!(receipt.unread_files.len(), MAX_RECORDED_UNREAD);
    assert_eq!(receipt.more_unread, 30);
    assert!(markdown(&receipt, "u").contains("and 70 more."));
}

#[test]
fn paths_with_backticks_and_bidi_controls_stay_one_code_span() {
    assert_eq!(code("a`b.rs"), "``a`b.rs``");
    assert_eq!(code("`x"), "`` `x ``");
    assert_eq!(code("evil\u{202e}sr.txt"), "`evilsr.txt`");
    assert_eq!(link("https://x.test/a (b)"), "https://x.test/a%20%28b%29");
}

#[test]
fn the_receipt_follows_the_summary_unless_it_would_pass_the_limit() {
    assert_eq!(with_receipt("", "R", 10).as_deref(), Some("R"));
    assert_eq!(
        with_receipt("Looks good.\n", "R", 100).as_deref(),
        Some("Looks good.\n\nR")
    );
    assert_eq!(with_receipt("0123456789", "R", 10), None);
}
