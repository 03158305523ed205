//! Fuzzes `json::FromJson` on the types read from outside the Worker or from storage: GitHub's
//! answers, the pull request object's state, stored orders and diagrams, and the person object's
//! messages; and the compact reader of the KV snapshot and listing texts (`snapshot_text::reader`,
//! `snapshot_text::read_cached`, `Listing::read`). Any input must give a value, a `DecodeError`
//! or `None`, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logikflow::github::api::{Comparison, Contents, PullFile, PullRequest, Repository};
use logikflow::json::decode;
use logikflow::oauth::person_api::{CheckReply, SettingsReply, TokenReply};
use logikflow::review::diagram::Diagram;
use logikflow::review::order::Order;
use logikflow::tools::get_pull_request::listing::Listing;
use logikflow::tools::get_pull_request::snapshot_text::{read_cached, reader};
use logikflow::tools::saved::CurrentState;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = decode::<PullRequest>(text);
    let _ = decode::<Vec<PullFile>>(text);
    let _ = decode::<Repository>(text);
    let _ = decode::<Contents>(text);
    let _ = decode::<Comparison>(text);
    let _ = reader::read_snapshot(text);
    let _ = reader::cached_header(text);
    let _ = read_cached(text);
    let _ = Listing::read(text).map(|listing| listing.lean_snapshot());
    let _ = decode::<CurrentState>(text);
    let _ = decode::<Order>(text);
    let _ = decode::<Diagram>(text);
    let _ = decode::<CheckReply>(text);
    let _ = decode::<TokenReply>(text);
    let _ = decode::<SettingsReply>(text);
});
