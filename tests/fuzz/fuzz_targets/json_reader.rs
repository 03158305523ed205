//! Fuzzes the typed JSON reading (serde's derived `Deserialize` through `json::decode`, which
//! names the path of a failure) on the types read from outside the Worker or from storage:
//! GitHub's answers, the pull request object's state, stored orders and diagrams, the person
//! object's messages and records; and the readers of the KV snapshot and listing texts
//! (`snapshot_text::read_cached`, `snapshot_text::read_json`, `Listing::read`). Any input must give
//! a value, a `DecodeError` or `None`, never a panic; a value read back must write and read
//! again to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logikflow::github::api::{
    Comparison, Contents, PullFile, PullRequest, Repository, ReviewComment,
};
use logikflow::json::decode;
use logikflow::oauth::clients::ClientRecord;
use logikflow::oauth::grants::CodeRecord;
use logikflow::oauth::person_api::{CheckReply, ConsentReply, SettingsReply, TokenReply};
use logikflow::review::diagram::Diagram;
use logikflow::review::order::Order;
use logikflow::tools::get_pull_request::listing::Listing;
use logikflow::tools::get_pull_request::snapshot_text::{read_cached, read_json, write_cached};
use logikflow::review::model::saved::{CurrentState, SaveOutcome};
use logikflow::review::model::ticks::ReviewerState;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = decode::<PullRequest>(text);
    let _ = decode::<Vec<PullFile>>(text);
    let _ = decode::<Repository>(text);
    let _ = decode::<Contents>(text);
    let _ = decode::<Comparison>(text);
    let _ = decode::<Vec<ReviewComment>>(text);
    if let Some(snapshot) = read_cached(text) {
        assert_eq!(read_cached(&write_cached(&snapshot)).as_ref(), Some(&snapshot));
    }
    let _ = read_json(text);
    let _ = Listing::read(text).map(|listing| listing.lean_snapshot());
    let _ = decode::<CurrentState>(text);
    let _ = decode::<ReviewerState>(text);
    let _ = decode::<SaveOutcome>(text);
    let _ = decode::<Order>(text);
    let _ = decode::<Diagram>(text);
    let _ = decode::<CheckReply>(text);
    let _ = decode::<TokenReply>(text);
    let _ = decode::<ConsentReply>(text);
    let _ = decode::<SettingsReply>(text);
    let _ = decode::<ClientRecord>(text);
    let _ = decode::<CodeRecord>(text);
});
