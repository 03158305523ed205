//! The status's description (plain numbers in, at most 140 characters out) and the reasons a
//! save's answer gives when no status was set.

use super::*;

fn check(version: u64, sections: usize, read: Option<ReadCounts>, expected: &str) {
    assert_eq!(description(version, sections, read), expected);
}

#[test]
fn the_description_says_the_version_sections_and_what_was_read() {
    let read = |reviewers, files_read, files_total| {
        Some(ReadCounts {
            reviewers,
            files_read,
            files_total,
        })
    };
    check(
        3,
        4,
        read(2, 14, 20),
        "Reading order v3 · 4 sections · 2 reviewers, 14 of 20 files read",
    );
    check(
        1,
        1,
        read(1, 0, 1),
        "Reading order v1 · 1 section · 1 reviewer, 0 of 1 file read",
    );
    check(
        2,
        5,
        read(0, 0, 7),
        "Reading order v2 · 5 sections · 7 files to read",
    );
    check(7, 2, None, "Reading order v7 · 2 sections");
}

#[test]
fn the_description_is_cut_at_140_characters_not_bytes() {
    let long = description(
        u64::MAX,
        usize::MAX,
        Some(ReadCounts {
            reviewers: usize::MAX,
            files_read: usize::MAX,
            files_total: usize::MAX,
        }),
    );
    assert_eq!(long.chars().count(), MAX_DESCRIPTION_CHARS, "{long}");
    assert!(long.ends_with('…'), "{long}");
    // Every "·" is two bytes: a cut by bytes would be shorter than 140 characters or split one.
    assert!(long.len() > MAX_DESCRIPTION_CHARS);
    let exact = "x".repeat(MAX_DESCRIPTION_CHARS);
    assert_eq!(cut(exact.clone()), exact, "140 characters are kept whole");
}

#[test]
fn the_body_is_a_success_status_of_the_logikflow_context() {
    let body = serde_json::to_value(NewStatus::new("https://r.test/r/o/r/pull/1", "d"))
        .expect("the body serializes");
    assert_eq!(
        body,
        serde_json::json!({
            "state": "success",
            "target_url": "https://r.test/r/o/r/pull/1",
            "description": "d",
            "context": "LogiKFlow",
        })
    );
}

#[test]
fn each_refusal_has_its_sentence() {
    let reason = |status: u16, body: &str| NotSet::Refused(Refusal::parse(status, body)).reason();
    assert!(reason(
        403,
        r#"{"message":"Resource not accessible by integration"}"#
    )
    .contains("Commit statuses: Read and write"));
    assert!(reason(403, r#"{"message":"Must have push access"}"#).contains("Must have push access"));
    assert!(reason(404, r#"{"message":"Not Found"}"#).contains("404"));
    let moved = reason(
        422,
        r#"{"message":"Validation Failed","errors":[{"resource":"Status","code":"custom","message":"No commit found for SHA: h1"}]}"#,
    );
    assert!(moved.contains("No commit found for SHA: h1") && moved.contains("save again"));
    assert!(reason(503, "").contains("HTTP 503"));
    assert!(reason(429, "").contains("rate limit"));
    let mut limited = Refusal::parse(403, r#"{"message":"API rate limit exceeded"}"#);
    limited.message = format!("rate limit: {}", limited.message);
    assert!(NotSet::Refused(limited).reason().contains("rate limit"));
    assert!(NotSet::Off.reason().contains("status: off"));
    assert!(NotSet::ReadOnly.reason().contains("read access only"));
}
