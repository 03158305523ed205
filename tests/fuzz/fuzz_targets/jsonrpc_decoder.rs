//! Fuzzes the MCP endpoint's decoder and dispatch with arbitrary bodies and headers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use logikflow::http::Headers;
use logikflow::mcp::dispatch::dispatch;

fuzz_target!(|data: &[u8]| {
    let _ = dispatch(&Headers::default(), data);
    let modern = Headers::new([
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "get_pull_request"),
    ]);
    let _ = dispatch(&modern, data);
});
