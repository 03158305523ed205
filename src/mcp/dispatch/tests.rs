//! One test per protocol rule of DESIGN.md §4, each through `check`.

use super::*;

const CAPS: &str = r#""io.modelcontextprotocol/clientCapabilities":{}"#;

/// Sends `body` with `headers` and returns (status, parsed body or null, tool request if any).
fn send(headers: &[(&str, &str)], body: &str) -> (u16, Value, Option<ToolRequest>) {
    match dispatch(&Headers::new(headers.iter().copied()), body.as_bytes()) {
        Outcome::Reply(reply) => {
            let value = serde_json::from_str(&reply.body).unwrap_or(Value::Null);
            (reply.status, value, None)
        }
        Outcome::Tool(request) => (0, Value::Null, Some(request)),
    }
}

/// Client capabilities that declare the MCP Apps extension.
const CAPS_WITH_APPS: &str = r#""io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}}"#;

/// A 2026-07-28 request with matching headers, from a client that declares no extension.
fn modern(method: &str, params: &str) -> (u16, Value, Option<ToolRequest>) {
    modern_with(CAPS, method, params)
}

/// A 2026-07-28 request with matching headers and the client capabilities `caps`.
fn modern_with(caps: &str, method: &str, params: &str) -> (u16, Value, Option<ToolRequest>) {
    let name = serde_json::from_str::<Value>(&format!("{{{params}}}"))
        .ok()
        .and_then(|p| {
            p.get("name")
                .or(p.get("uri"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_default();
    let comma = if params.is_empty() { "" } else { "," };
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{{{params}{comma}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28",{caps},"io.modelcontextprotocol/clientInfo":{{"name":"test-agent","version":"1"}}}}}}}}"#
    );
    let mut headers = vec![
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", method),
    ];
    if !name.is_empty() {
        headers.push(("mcp-name", name.as_str()));
    }
    send(&headers, &body)
}

fn check_error(got: (u16, Value, Option<ToolRequest>), status: u16, code: i64) {
    assert_eq!(got.0, status, "{}", got.1);
    assert_eq!(got.1["error"]["code"], code, "{}", got.1);
}

#[test]
fn discover_describes_the_server() {
    let (status, body, _) = modern("server/discover", "");
    assert_eq!(status, 200);
    let result = &body["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"][0], "2026-07-28");
    assert!(result["supportedVersions"]
        .as_array()
        .is_some_and(|v| v.len() == 3));
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "logikflow"
    );
    assert!(result["ttlMs"].is_u64());
    assert_eq!(result["cacheScope"], "public");
    assert!(result["capabilities"]["tools"].is_object());
}

#[test]
fn modern_lists_carry_cache_hints_and_result_type() {
    for method in [
        "tools/list",
        "resources/list",
        "prompts/list",
        "resources/templates/list",
    ] {
        let (status, body, _) = modern(method, "");
        assert_eq!(status, 200, "{method}");
        assert_eq!(body["result"]["resultType"], "complete", "{method}");
        assert!(body["result"]["ttlMs"].is_u64(), "{method}");
    }
    let (_, body, _) = modern_with(CAPS_WITH_APPS, "tools/list", "");
    // Every tool of the catalog, in its order (the end-to-end tests hold the served list to
    // theirs, `tests/e2e/schemas.mjs`).
    let expected: Vec<&str> = ToolName::ALL.iter().map(|tool| tool.as_str()).collect();
    assert_eq!(tool_names(&body), expected);
}

fn tool_names(body: &Value) -> Vec<&str> {
    body["result"]["tools"]
        .as_array()
        .map(|tools| tools.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default()
}

/// Issue #30: a 2026-07-28 client that doesn't declare MCP Apps is not offered the view's own
/// tools; one that does gets them with `visibility: ["app"]`; the 2025 eras, which declare
/// capabilities only at `initialize`, always get the full list.
#[test]
fn app_only_tools_are_listed_only_for_clients_that_render_apps() {
    let app_only: Vec<&str> = ToolName::ALL
        .iter()
        .filter(|tool| tool.ui() == Some(apps::Visibility::App))
        .map(|tool| tool.as_str())
        .collect();
    assert_eq!(
        app_only,
        ["view_reading_order", "view_diagram", "view_change"]
    );
    let (status, plain, _) = modern("tools/list", "");
    assert_eq!(status, 200);
    let expected: Vec<&str> = ToolName::ALL
        .iter()
        .map(|tool| tool.as_str())
        .filter(|name| !app_only.contains(name))
        .collect();
    assert_eq!(tool_names(&plain), expected);
    assert_eq!(plain["result"]["resultType"], "complete");
    assert!(plain["result"]["ttlMs"].is_u64());
    // A null extension entry declares nothing.
    let null_caps = r#""io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/ui":null}}"#;
    let (_, null_ext, _) = modern_with(null_caps, "tools/list", "");
    assert_eq!(tool_names(&null_ext), expected);
    let (_, with_apps, _) = modern_with(CAPS_WITH_APPS, "tools/list", "");
    let view_tool = with_apps["result"]["tools"]
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["name"] == "view_change"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(view_tool["_meta"]["ui"]["visibility"], json!(["app"]));
    let legacy = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}"#;
    let (_, body, _) = send(&[("mcp-protocol-version", "2025-06-18")], legacy);
    let all: Vec<&str> = ToolName::ALL.iter().map(|tool| tool.as_str()).collect();
    assert_eq!(tool_names(&body), all);
}

#[test]
fn modern_requires_meta() {
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}"#;
    let got = send(
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/list"),
        ],
        body,
    );
    check_error(got.clone(), 400, -32602);
    assert_eq!(got.1["id"], 5);
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    check_error(
        send(
            &[
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", "tools/list"),
            ],
            body,
        ),
        400,
        -32602,
    );
}

#[test]
fn modern_header_must_match_meta() {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28",{CAPS}}}}}}}"#
    );
    check_error(
        send(
            &[
                ("mcp-protocol-version", "2099-01-01"),
                ("mcp-method", "tools/list"),
            ],
            &body,
        ),
        400,
        -32020,
    );
    // No header at all, but a 2026 _meta: the header is required.
    check_error(send(&[("mcp-method", "tools/list")], &body), 400, -32020);
}

#[test]
fn modern_unsupported_version_lists_supported() {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"v999.0.0",{CAPS}}}}}}}"#
    );
    let got = send(
        &[
            ("mcp-protocol-version", "v999.0.0"),
            ("mcp-method", "tools/list"),
        ],
        &body,
    );
    check_error(got.clone(), 400, -32022);
    assert_eq!(got.1["error"]["data"]["requested"], "v999.0.0");
    assert_eq!(got.1["error"]["data"]["supported"][0], "2026-07-28");
    assert_eq!(got.1["id"], 3);
}

#[test]
fn modern_method_and_name_headers_must_match() {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{{"name":"get_ordering_guide","_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28",{CAPS}}}}}}}"#
    );
    let base = [("mcp-protocol-version", "2026-07-28")];
    check_error(send(&base, &body), 400, -32020);
    check_error(
        send(
            &[
                base[0],
                ("mcp-method", "TOOLS/CALL"),
                ("mcp-name", "get_ordering_guide"),
            ],
            &body,
        ),
        400,
        -32020,
    );
    check_error(
        send(&[base[0], ("mcp-method", "tools/call")], &body),
        400,
        -32020,
    );
    check_error(
        send(
            &[
                base[0],
                ("mcp-method", "tools/call"),
                ("mcp-name", "save_diagram"),
            ],
            &body,
        ),
        400,
        -32020,
    );
    let (_, _, tool) = send(
        &[
            base[0],
            ("mcp-method", "tools/call"),
            ("mcp-name", " get_ordering_guide "),
        ],
        &body,
    );
    assert_eq!(tool.map(|t| t.tool), Some(ToolName::GetOrderingGuide));
}

#[test]
fn modern_unknown_methods_are_404() {
    for method in [
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "nope",
    ] {
        check_error(modern(method, ""), 404, -32601);
    }
}

#[test]
fn modern_tool_call_carries_the_client_name() {
    let (_, _, tool) = modern(
        "tools/call",
        r#""name":"get_pull_request","arguments":{"owner":"a"}"#,
    );
    let tool = tool.expect("a tool request");
    assert_eq!(tool.era, Era::Modern);
    assert_eq!(tool.client_name.as_deref(), Some("test-agent"));
    assert_eq!(tool.arguments["owner"], "a");
    let reply = tool_reply(&tool, ToolResult::Structured(json!({ "x": 1 })));
    let body: Value = serde_json::from_str(&reply.body).unwrap_or_default();
    assert_eq!(body["result"]["resultType"], "complete");
    assert_eq!(body["result"]["structuredContent"]["x"], 1);
    assert_eq!(body["result"]["content"][0]["text"], r#"{"x":1}"#);
}

#[test]
fn errors_have_no_structured_content() {
    let (_, _, tool) = modern("tools/call", r#""name":"get_pull_request""#);
    let reply = tool_reply(
        &tool.expect("a tool request"),
        ToolResult::Error("nope".into()),
    );
    let body: Value = serde_json::from_str(&reply.body).unwrap_or_default();
    assert_eq!(body["result"]["isError"], true);
    assert!(body["result"].get("structuredContent").is_none());
}

#[test]
fn unknown_tools_are_protocol_errors() {
    check_error(
        modern("tools/call", r#""name":"test_simple_text""#),
        200,
        -32602,
    );
    let body = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x"}}"#;
    check_error(send(&[], body), 200, -32602);
}

#[test]
fn initialize_negotiates() {
    let init = |version: &str| {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
        );
        send(&[], &body).1["result"]["protocolVersion"].clone()
    };
    assert_eq!(init("2025-11-25"), "2025-11-25");
    assert_eq!(init("2025-06-18"), "2025-06-18");
    assert_eq!(init("2024-11-05"), "2025-11-25");
    assert_eq!(init("2026-07-28"), "2025-11-25");
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#;
    let (_, value, _) = send(&[], body);
    assert_eq!(value["result"]["serverInfo"]["name"], "logikflow");
    assert!(value["result"]["instructions"].is_string());
    assert!(value["result"].get("resultType").is_none());
}

#[test]
fn initialize_accepts_early_headers() {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#;
    let (status, value, _) = send(
        &[
            ("mcp-protocol-version", "2025-11-25"),
            ("mcp-method", "initialize"),
        ],
        body,
    );
    assert_eq!(status, 200);
    assert_eq!(value["result"]["protocolVersion"], "2025-11-25");
}

#[test]
fn legacy_requests_stand_alone() {
    // No initialize was seen: a request with a valid header is served anyway.
    let body = r#"{"jsonrpc":"2.0","id":"x","method":"tools/list"}"#;
    for version in ["2025-11-25", "2025-06-18"] {
        let (status, value, _) = send(&[("mcp-protocol-version", version)], body);
        assert_eq!(status, 200);
        assert_eq!(value["id"], "x");
        assert_eq!(
            value["result"]["tools"].as_array().map(Vec::len),
            Some(ToolName::ALL.len())
        );
    }
}

#[test]
fn legacy_bad_header_is_400() {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    check_error(
        send(&[("mcp-protocol-version", "2024-11-05")], body),
        400,
        -32022,
    );
}

#[test]
fn notifications_are_accepted() {
    let body = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let (status, value, _) = send(&[], body);
    assert_eq!((status, value), (202, Value::Null));
    let (status, _, _) = send(
        &[("mcp-protocol-version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
    );
    assert_eq!(status, 202);
}

#[test]
fn legacy_ping_and_unknown() {
    let (status, value, _) = send(&[], r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    assert_eq!((status, value["result"].clone()), (200, json!({})));
    // 200, not 404: in the 2025 transport a 404 tells the client its session expired.
    check_error(
        send(&[], r#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#),
        200,
        -32601,
    );
    check_error(
        send(
            &[("mcp-protocol-version", "2025-06-18")],
            r#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#,
        ),
        200,
        -32601,
    );
}

#[test]
fn an_unknown_version_is_named_even_without_meta() {
    let got = send(
        &[("mcp-protocol-version", "2025-01-01")],
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#,
    );
    assert_eq!(got.1["id"], 3);
    assert_eq!(got.1["error"]["data"]["requested"], "2025-01-01");
    check_error(got, 400, -32022);
}

#[test]
fn a_2025_header_on_a_2026_body_is_a_mismatch() {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28",{CAPS}}}}}}}"#
    );
    check_error(
        send(&[("mcp-protocol-version", "2025-06-18")], &body),
        400,
        -32020,
    );
}

#[test]
fn malformed_bodies() {
    check_error(send(&[], "{"), 400, -32700);
    check_error(
        send(&[], r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#),
        400,
        -32600,
    );
    let got = send(&[], r#"{"jsonrpc":"2.0","id":12,"method":7}"#);
    check_error(got.clone(), 400, -32600);
    assert_eq!(got.1["id"], 12);
}

#[test]
fn resources_and_prompts() {
    let (_, value, _) = modern(
        "resources/read",
        r#""uri":"logikflow://docs/ordering-guide""#,
    );
    assert!(value["result"]["contents"][0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("## Suggestions")));
    let got = modern("resources/read", r#""uri":"test://static-text""#);
    check_error(got.clone(), 200, -32602);
    assert_eq!(got.1["error"]["data"]["uri"], "test://static-text");
    let (_, value, _) = modern(
        "prompts/get",
        r#""name":"arrange-pull-request","arguments":{"pull_request":"acme/app#3"}"#,
    );
    assert_eq!(value["result"]["resultType"], "complete");
    assert!(value["result"]["messages"][0]["content"]["text"]
        .as_str()
        .is_some_and(|t| t.contains("acme/app#3")));
    check_error(
        modern(
            "prompts/get",
            r#""name":"arrange-pull-request","arguments":{"pull_request":"x"}"#,
        ),
        200,
        -32602,
    );
}

#[test]
fn constant_results_echo_each_request_id() {
    for id in [r#"7"#, r#""req-α""#, r#"-3"#, r#""""#] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28",{CAPS}}}}}}}"#
        );
        let (status, reply, _) = send(
            &[
                ("mcp-protocol-version", "2026-07-28"),
                ("mcp-method", "tools/list"),
            ],
            &body,
        );
        assert_eq!(status, 200);
        let id: Value = serde_json::from_str(id).unwrap_or_default();
        assert_eq!(reply["id"], id);
        assert_eq!(reply["jsonrpc"], "2.0");
        // A client without the MCP Apps extension: every tool but the view's own.
        let listed = ToolName::ALL
            .iter()
            .filter(|tool| tool.ui() != Some(apps::Visibility::App))
            .count();
        assert_eq!(
            reply["result"]["tools"].as_array().map(Vec::len),
            Some(listed)
        );
    }
}

#[test]
fn constant_results_match_a_fresh_build() {
    for method in CONSTANT_METHODS {
        let fresh = common_method(&Value::Null, method, &Map::new())
            .map(with_cache)
            .unwrap_or_else(|_| with_cache(discover()));
        let cached: Value =
            serde_json::from_str(constant_result(Era::Modern, method).unwrap_or_default())
                .unwrap_or_default();
        let mut expected = fresh.clone();
        expected["resultType"] = json!("complete");
        assert_eq!(cached, expected, "{method}");
        if method != "server/discover" {
            let legacy: Value =
                serde_json::from_str(constant_result(Era::Legacy, method).unwrap_or_default())
                    .unwrap_or_default();
            let fresh = common_method(&Value::Null, method, &Map::new()).unwrap_or_default();
            assert_eq!(legacy, fresh, "{method}");
        }
    }
    assert_eq!(constant_result(Era::Legacy, "server/discover"), None);
    assert_eq!(constant_result(Era::Modern, "tools/call"), None);
}

#[test]
fn legacy_tools_list_is_served_from_the_cache_without_result_type() {
    let (status, body, _) = send(
        &[("mcp-protocol-version", "2025-11-25")],
        r#"{"jsonrpc":"2.0","id":"x","method":"tools/list"}"#,
    );
    assert_eq!(status, 200);
    assert_eq!(body["id"], "x");
    assert!(body["result"].get("resultType").is_none());
    assert_eq!(
        body["result"]["tools"].as_array().map(Vec::len),
        Some(ToolName::ALL.len())
    );
}

#[test]
fn arguments_that_are_not_an_object_are_a_tool_error() {
    let (status, body, tool) = modern("tools/call", r#""name":"save_diagram","arguments":[1]"#);
    assert!(tool.is_none(), "the tool must not run");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["result"]["isError"], true, "{body}");
    assert!(body["result"].get("structuredContent").is_none(), "{body}");
    let text = body["result"]["content"][0]["text"].as_str().unwrap_or("");
    assert!(
        text.starts_with("The request is invalid: arguments must be an object"),
        "{text}"
    );
}

#[test]
fn reported_client_names_are_cut_to_100_characters_in_both_eras() {
    let long = "n".repeat(5000);
    let (_, _, modern_request) = modern(
        "tools/call",
        &format!(r#""name":"get_ordering_guide","arguments":{{}},"_meta_ignored":"{long}""#),
    );
    assert_eq!(
        modern_request.and_then(|r| r.client_name),
        Some("test-agent".to_string())
    );
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"get_ordering_guide","arguments":{{}},"_meta":{{"io.modelcontextprotocol/clientInfo":{{"name":"{long}"}}}}}}}}"#
    );
    let (_, _, legacy) = send(&[("mcp-protocol-version", "2025-06-18")], &body);
    let name = legacy.and_then(|r| r.client_name).unwrap_or_default();
    assert_eq!(name.chars().count(), 100);
}

#[test]
fn reported_client_names_lose_format_and_control_characters() {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_ordering_guide","arguments":{},"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"Claude Code \u202Egnp.exe\u202C \u200B\n"}}}}"#;
    let (_, _, legacy) = send(&[("mcp-protocol-version", "2025-06-18")], body);
    assert_eq!(
        legacy.and_then(|r| r.client_name).as_deref(),
        Some("Claude Code gnp.exe")
    );
    let only_hidden = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_ordering_guide","arguments":{},"_meta":{"io.modelcontextprotocol/clientInfo":{"name":"\u200B\u202E"}}}}"#;
    let (_, _, legacy) = send(&[("mcp-protocol-version", "2025-06-18")], only_hidden);
    assert_eq!(legacy.and_then(|r| r.client_name), None);
}

/// The MCP Apps extension is declared in every era, to every client (issue #18).
#[test]
fn apps_extension_is_declared_in_all_three_eras() {
    let (_, discover, _) = modern("server/discover", "");
    let mut declared = vec![discover["result"]["capabilities"].clone()];
    for version in LEGACY {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"plain","version":"1"}}}}}}"#
        );
        let (status, value, _) = send(&[], &body);
        assert_eq!(status, 200);
        assert_eq!(value["result"]["protocolVersion"], version);
        declared.push(value["result"]["capabilities"].clone());
    }
    for capabilities in declared {
        assert_eq!(
            capabilities["extensions"]["io.modelcontextprotocol/ui"]["mimeTypes"],
            json!(["text/html;profile=mcp-app"]),
            "{capabilities}"
        );
        assert!(capabilities["resources"].is_object());
    }
}

#[test]
fn the_view_is_listed_and_read_with_its_mime_type_and_meta() {
    for (status, listed) in [
        modern("resources/list", ""),
        send(
            &[("mcp-protocol-version", "2025-06-18")],
            r#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#,
        ),
    ]
    .map(|(status, value, _)| (status, value))
    {
        assert_eq!(status, 200);
        let view = listed["result"]["resources"]
            .as_array()
            .and_then(|all| all.iter().find(|r| r["uri"] == "ui://reading-order/view"))
            .cloned()
            .unwrap_or_default();
        assert_eq!(view["mimeType"], "text/html;profile=mcp-app");
    }
    let (status, read, _) = modern("resources/read", r#""uri":"ui://reading-order/view""#);
    assert_eq!(status, 200);
    let content = &read["result"]["contents"][0];
    assert_eq!(content["uri"], "ui://reading-order/view");
    assert_eq!(content["mimeType"], "text/html;profile=mcp-app");
    assert!(content["text"]
        .as_str()
        .is_some_and(|html| html.starts_with("<!DOCTYPE html>")));
    assert_eq!(content["_meta"]["ui"]["prefersBorder"], true);
    assert_eq!(content["_meta"]["ui"]["csp"]["connectDomains"], json!([]));
}

#[test]
fn tools_carry_their_view_and_visibility() {
    let (_, body, _) = modern_with(CAPS_WITH_APPS, "tools/list", "");
    let tools = body["result"]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let meta = |name: &str| {
        tools
            .iter()
            .find(|tool| tool["name"] == name)
            .map(|tool| tool["_meta"].clone())
            .unwrap_or_default()
    };
    for name in ["get_ordering_guide", "get_pull_request"] {
        assert!(meta(name).is_null(), "{name} has no view");
    }
    for (name, visibility) in [
        ("save_reading_order", json!(["model"])),
        ("save_diagram", json!(["model"])),
        ("show_reading_order", json!(["model", "app"])),
        ("view_reading_order", json!(["app"])),
        ("view_diagram", json!(["app"])),
        ("view_change", json!(["app"])),
    ] {
        let meta = meta(name);
        assert_eq!(
            meta["ui"]["resourceUri"], "ui://reading-order/view",
            "{name}"
        );
        assert_eq!(meta["ui"]["visibility"], visibility, "{name}");
    }
}

/// `ToolResult::Json` carries written JSON as both the text and `structuredContent`, with the
/// era's framing, exactly as a `Structured` result of the same value would be.
#[test]
fn json_text_results_frame_like_structured_ones() {
    // Keys in order, as a `Value` writes them, so the two texts compare equal.
    let text = r#"{"n":1,"note":"<script>\"quoted\"</script>"}"#;
    for era in [Era::Modern, Era::Legacy] {
        let request = ToolRequest {
            id: json!("r-1"),
            era,
            tool: ToolName::ViewReadingOrder,
            arguments: Map::new(),
            client_name: None,
        };
        let reply = tool_reply(&request, ToolResult::Json(text.to_string()));
        assert_eq!(reply.status, 200);
        let got: Value = serde_json::from_str(&reply.body).unwrap_or(Value::Null);
        let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        let expected = tool_reply(&request, ToolResult::Structured(value.clone()));
        let expected: Value = serde_json::from_str(&expected.body).unwrap_or(Value::Null);
        assert_eq!(got, expected, "{era:?}");
        assert_eq!(got["result"]["structuredContent"], value);
        assert_eq!(got["result"]["content"][0]["text"], text);
        assert_eq!(got["id"], "r-1");
    }
}

#[test]
fn literal_documents_name_the_constants() {
    let caps = capabilities();
    assert_eq!(caps["extensions"][apps::EXTENSION], apps::capability());
    for key in ["tools", "resources", "prompts", "completions"] {
        assert_eq!(caps[key], json!({}), "{key}");
    }
    let info = server_info();
    assert_eq!(info["name"], SERVER.name);
    assert_eq!(info["version"], SERVER.version);
    assert_eq!(info["title"], "LogiKFlow");
}

// ---- moved from tests/e2e/mcp-transport.test.mjs (issue #37): the same requests and answers ----

/// `server/discover` names exactly the three eras, newest first, and its instructions tell the
/// agent that pull request text is untrusted.
#[test]
fn discover_lists_the_eras_and_warns_of_untrusted_text() {
    let (_, body, _) = modern("server/discover", "");
    assert_eq!(
        body["result"]["supportedVersions"],
        json!(["2026-07-28", "2025-11-25", "2025-06-18"])
    );
    assert!(body["result"]["instructions"]
        .as_str()
        .is_some_and(|text| text.contains("untrusted")));
}

/// Every listed tool has its words, both schemas and its hints; only the saves write; a list
/// carries `cacheScope: public` and a positive `ttlMs`.
#[test]
fn served_tools_carry_words_schemas_and_hints() {
    let (status, body, _) = modern("tools/list", "");
    assert_eq!(status, 200);
    let result = &body["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["cacheScope"], "public");
    assert!(result["ttlMs"].as_u64().is_some_and(|ttl| ttl > 0));
    let tools = result["tools"].as_array().cloned().unwrap_or_default();
    assert!(!tools.is_empty());
    for tool in &tools {
        let name = tool["name"].as_str().unwrap_or_default();
        for field in ["title", "description"] {
            assert!(
                tool[field].as_str().is_some_and(|text| !text.is_empty()),
                "{name} {field}"
            );
        }
        for field in ["inputSchema", "outputSchema"] {
            assert!(tool[field].is_object(), "{name} {field}");
        }
        assert_eq!(
            tool["annotations"]["readOnlyHint"],
            !name.starts_with("save_"),
            "{name}"
        );
        assert_eq!(tool["annotations"]["destructiveHint"], false, "{name}");
    }
}

/// A 2026-07-28 body whose `Mcp-Method` header names another method is -32020.
#[test]
fn a_method_header_naming_another_method_is_a_mismatch() {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28",{CAPS}}}}}}}"#
    );
    let got = send(
        &[
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "prompts/list"),
        ],
        &body,
    );
    check_error(got, 400, -32020);
}

/// A 2025 request for an unknown method is answered with its own id (a string here), -32601.
#[test]
fn an_unknown_method_answers_with_the_request_id() {
    let got = send(
        &[],
        r#"{"jsonrpc":"2.0","id":"abc","method":"no/such/method"}"#,
    );
    assert_eq!(got.1["id"], "abc");
    check_error(got, 200, -32601);
}

/// No reply of any era carries `Mcp-Session-Id`: the server keeps no session.
#[test]
fn no_session_id_is_ever_issued() {
    let replies = [
        (
            vec![],
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#.to_string(),
        ),
        (
            vec![("mcp-protocol-version", "2025-06-18")],
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#.to_string(),
        ),
        (
            vec![],
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string(),
        ),
    ];
    for (headers, body) in replies {
        match dispatch(&Headers::new(headers.iter().copied()), body.as_bytes()) {
            Outcome::Reply(reply) => {
                assert!(reply.status < 300, "{body}: {}", reply.status);
                assert_eq!(reply.header("mcp-session-id"), None, "{body}");
            }
            Outcome::Tool(_) => panic!("{body} is not a tool call"),
        }
    }
}
