use super::*;

fn round_trip(result: ToolResult) -> Option<ToolResult> {
    let (kind, body) = reply_of(result);
    result_of(Some(&kind), body)
}

#[test]
fn every_answer_comes_back_as_it_went() {
    for result in [
        ToolResult::Error("Pull request acme/app#1 was not found.".into()),
        ToolResult::JsonQuoted {
            text: r#"{"title":"é ✓ 🚀"}"#.into(),
            quoted: r#""{\"title\":\"é ✓ 🚀\"}""#.into(),
        },
        ToolResult::JsonQuoted {
            text: String::new(),
            quoted: String::new(),
        },
        // An error's text may hold newlines and anything else.
        ToolResult::Error("line one\nline two: 42".into()),
    ] {
        assert_eq!(round_trip(result.clone()), Some(result));
    }
}

#[test]
fn json_comes_back_with_its_text_quoted_as_the_worker_would() {
    let value = serde_json::json!({"a": [1, 2], "b": "c \"é\"\n"});
    let text = value.to_string();
    let quoted = crate::json::string(&text);
    let expected = Some(ToolResult::JsonQuoted {
        text: text.clone(),
        quoted: quoted.clone(),
    });
    assert_eq!(round_trip(ToolResult::Structured(value)), expected);
    assert_eq!(round_trip(ToolResult::Json(text.clone())), expected);
    // The quoted text is the JSON string of the text.
    assert_eq!(serde_json::from_str::<String>(&quoted).ok(), Some(text));
}

#[test]
fn a_reply_that_is_not_an_answer_is_refused() {
    let body = || "{\"é\":1}".to_string();
    // No header, an unknown kind, a length past the end or inside a character.
    assert_eq!(result_of(None, body()), None);
    assert_eq!(result_of(Some("quoted"), body()), None);
    assert_eq!(result_of(Some("json"), body()), None);
    assert_eq!(result_of(Some("-1"), body()), None);
    assert_eq!(result_of(Some("99"), body()), None);
    assert_eq!(result_of(Some("3"), body()), None);
    // The whole body as the text, nothing quoted: a length at the end is one.
    assert_eq!(
        result_of(Some("8"), body()),
        Some(ToolResult::JsonQuoted {
            text: body(),
            quoted: String::new()
        })
    );
}

fn rpc_body(arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"view_change","arguments":{arguments},"_meta":{{}}}}}}"#
    )
}

#[test]
fn the_call_reads_back_whole() {
    let mut arguments = Map::new();
    arguments.insert("owner".into(), "acme".into());
    arguments.insert("number".into(), 7.into());
    arguments.insert("note".into(), "line one\nline two é".into());
    let call = RelayedCall {
        tool: "save_reading_order".into(),
        arguments: Map::new(),
        github_token: "gho_\"quoted\"\\token".into(),
        may_write: true,
        base_url: "https://logikflow.example".into(),
        login: "octo".into(),
        client: Some("Claude \"Code\"\n".into()),
    };
    let body = rpc_body(&Value::Object(arguments.clone()).to_string());
    let read = RelayedCall::from_wire(&call.to_wire(&body)).expect("reads");
    assert_eq!(read.arguments, arguments);
    assert_eq!(read.github_token, call.github_token);
    assert!(read.may_write);
    assert_eq!(read.base_url, call.base_url);
    assert_eq!(read.tool, call.tool);
    assert_eq!(read.login, call.login);
    assert_eq!(read.client, call.client);
    let without_client = RelayedCall {
        client: None,
        ..call
    };
    let read = RelayedCall::from_wire(&without_client.to_wire(&body)).expect("reads");
    assert_eq!(read.client, None);
}

#[test]
fn no_arguments_are_none_as_dispatch_reads_them() {
    let call = r#"{"tool":"view_change","github_token":"t","may_write":false,"base_url":"u","login":"l","client":null}"#;
    for arguments in ["null", "{}"] {
        let text = format!("{call}\n{}", rpc_body(arguments));
        let read = RelayedCall::from_wire(&text).expect("reads");
        assert!(read.arguments.is_empty(), "{arguments}");
    }
    let without = format!(
        "{call}\n{}",
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"view_change"}}"#
    );
    assert!(RelayedCall::from_wire(&without).is_some_and(|read| read.arguments.is_empty()));
}

#[test]
fn a_call_missing_a_field_is_refused() {
    let whole = r#"{"tool":"view_change","github_token":"t","may_write":false,"base_url":"u","login":"l","client":null}"#;
    let body = rpc_body("{}");
    assert!(RelayedCall::from_wire(&format!("{whole}\n{body}")).is_some());
    for field in ["tool", "github_token", "may_write", "base_url", "login"] {
        let mut value: serde_json::Value = serde_json::from_str(whole).expect("parses");
        if let Some(object) = value.as_object_mut() {
            object.remove(field);
        }
        let text = format!("{value}\n{body}");
        assert!(RelayedCall::from_wire(&text).is_none(), "{text}");
    }
    for text in [
        format!("{}\n{body}", whole.replace(r#""t""#, "7")),
        format!("{whole}\n{}", rpc_body("[]")),
        format!("{whole}\n{}", rpc_body("\"x\"")),
        format!("{whole}\n[]"),
        format!("{whole}\n{{\"params\":[]}}"),
        format!("{whole}\n"),
        whole.to_string(),
        format!("[]\n{body}"),
        String::new(),
    ] {
        assert!(RelayedCall::from_wire(&text).is_none(), "{text}");
    }
}
