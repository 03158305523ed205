//! What this server offers an agent: its tools, its resource, its prompt and its instructions.
//!
//! Tool schemas are the files in `schema/`, so `tools/list` serves exactly what the tests validate
//! real traffic against; the Worker's JavaScript bundle carries them (the wasm's size budget). Descriptions are written for an agent: what the tool is
//! for, when to call it, and that pull request text is untrusted data, never instructions.

use std::sync::OnceLock;

use serde_json::{json, Value};

use super::apps::{self, Visibility};

/// The four tools of the spec in the order an agent uses them, then the tool that shows a saved
/// order in the MCP Apps view, then the view's own read-only tools (`_meta.ui.visibility`
/// `["app"]`: hosts keep them out of the model's list, but `tools/list` serves them to everyone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolName {
    GetOrderingGuide,
    GetPullRequest,
    SaveReadingOrder,
    SaveDiagram,
    ShowReadingOrder,
    ViewReadingOrder,
    ViewDiagram,
    ViewChange,
}

impl ToolName {
    pub const ALL: [ToolName; 8] = [
        ToolName::GetOrderingGuide,
        ToolName::GetPullRequest,
        ToolName::SaveReadingOrder,
        ToolName::SaveDiagram,
        ToolName::ShowReadingOrder,
        ToolName::ViewReadingOrder,
        ToolName::ViewDiagram,
        ToolName::ViewChange,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ToolName::GetOrderingGuide => "get_ordering_guide",
            ToolName::GetPullRequest => "get_pull_request",
            ToolName::SaveReadingOrder => "save_reading_order",
            ToolName::SaveDiagram => "save_diagram",
            ToolName::ShowReadingOrder => "show_reading_order",
            ToolName::ViewReadingOrder => "view_reading_order",
            ToolName::ViewDiagram => "view_diagram",
            ToolName::ViewChange => "view_change",
        }
    }

    /// Every tool's name, for the message about an unknown one.
    pub fn list() -> String {
        let names: Vec<&str> = ToolName::ALL.iter().map(|tool| tool.as_str()).collect();
        names.join(", ")
    }

    /// The MCP Apps view a tool's result is shown in and who may call it, or `None` for tools
    /// whose result is text for the agent alone. Saves are `["model"]`, so hosts refuse them when
    /// the view asks: the view only reads.
    pub fn ui(self) -> Option<Visibility> {
        match self {
            ToolName::GetOrderingGuide | ToolName::GetPullRequest => None,
            ToolName::SaveReadingOrder | ToolName::SaveDiagram => Some(Visibility::Model),
            ToolName::ShowReadingOrder => Some(Visibility::Both),
            ToolName::ViewReadingOrder | ToolName::ViewDiagram | ToolName::ViewChange => {
                Some(Visibility::App)
            }
        }
    }

    pub fn parse(name: &str) -> Option<ToolName> {
        ToolName::ALL.into_iter().find(|tool| tool.as_str() == name)
    }

    /// Saves need the `reviews:write` grant; reads need only a valid token.
    pub fn writes(self) -> bool {
        matches!(self, ToolName::SaveReadingOrder | ToolName::SaveDiagram)
    }

    /// The tool's input and output schemas, as `schema/<tool>.{input,output}.json` hold them.
    fn schemas(self) -> (Value, Value) {
        let pair = tool_schemas().get(self.as_str());
        let pick = |key: &str| {
            pair.and_then(|pair| pair.get(key))
                .cloned()
                .unwrap_or_else(|| json!({ "type": "object" }))
        };
        (pick("input"), pick("output"))
    }

    /// The tool as `tools/list` describes it.
    pub fn definition(self) -> Value {
        // Name, title, description and annotations are data (`catalog-text.json`; a unit test
        // holds the annotations to `writes` and the rest of this type).
        let (input, output) = self.schemas();
        let mut definition = catalog_text()["tools"][self.as_str()].clone();
        definition["inputSchema"] = input;
        definition["outputSchema"] = output;
        if let Some(visibility) = self.ui() {
            definition["_meta"] = apps::tool_meta(visibility);
        }
        definition
    }
}

/// Every tool's schemas by tool name, `{"<tool>": {"input": …, "output": …}}`, parsed once.
fn tool_schemas() -> &'static Value {
    static SCHEMAS: OnceLock<Value> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let mut all = serde_json::from_str::<Value>(&schema_text()).unwrap_or_default();
        // `$schema` is noise for clients, and some reject unknown dialect URIs.
        if let Some(tools) = all.as_object_mut() {
            for pair in tools.values_mut().filter_map(Value::as_object_mut) {
                for schema in pair.values_mut().filter_map(Value::as_object_mut) {
                    schema.remove("$schema");
                }
            }
        }
        all
    })
}

/// The schemas' text, handed over by the adapter like the ordering guide: the Worker's
/// JavaScript bundle carries the files (`src/mcp/apps/view-asset.mjs`), so the wasm doesn't.
#[cfg(target_arch = "wasm32")]
static SCHEMA_TEXT: OnceLock<String> = OnceLock::new();

/// Takes the schemas' text from `load` unless this instance has it already (before the first
/// MCP request is dispatched).
#[cfg(target_arch = "wasm32")]
pub fn install_schemas(load: impl FnOnce() -> String) {
    SCHEMA_TEXT.get_or_init(load);
}

#[cfg(target_arch = "wasm32")]
fn schema_text() -> String {
    SCHEMA_TEXT.get().cloned().unwrap_or_default()
}

/// Native builds and tests compile the files in, in the shape the bundle hands over.
#[cfg(not(target_arch = "wasm32"))]
fn schema_text() -> String {
    macro_rules! pair {
        ($name:literal) => {
            (
                $name,
                include_str!(concat!("../../schema/", $name, ".input.json")),
                include_str!(concat!("../../schema/", $name, ".output.json")),
            )
        };
    }
    let files = [
        pair!("get_ordering_guide"),
        pair!("get_pull_request"),
        pair!("save_reading_order"),
        pair!("save_diagram"),
        pair!("show_reading_order"),
        pair!("view_reading_order"),
        pair!("view_diagram"),
        pair!("view_change"),
    ];
    let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap_or(Value::Null);
    let all: serde_json::Map<String, Value> = files
        .iter()
        .map(|(name, input, output)| {
            (
                name.to_string(),
                json!({ "input": parse(input), "output": parse(output) }),
            )
        })
        .collect();
    Value::Object(all).to_string()
}

/// The catalog's words for agents (`catalog-text.json`: tool titles and descriptions, the server's
/// instructions, the prompt), parsed once. Kept in a data file so the Worker's JavaScript bundle
/// carries them, not the wasm (its size budget); the adapter hands them over like the schemas.
fn catalog_text() -> &'static Value {
    static TEXT: OnceLock<Value> = OnceLock::new();
    TEXT.get_or_init(|| serde_json::from_str(&catalog_source()).unwrap_or_default())
}

/// The string at `path` in `catalog-text.json` (empty if missing: a unit test checks every path).
fn text(path: &[&str]) -> &'static str {
    path.iter()
        .try_fold(catalog_text(), |value, key| value.get(key))
        .and_then(Value::as_str)
        .unwrap_or_default()
}

#[cfg(target_arch = "wasm32")]
static CATALOG_SOURCE: OnceLock<String> = OnceLock::new();

/// Takes `catalog-text.json`'s text from `load` unless this instance has it already (before the
/// first MCP request is dispatched).
#[cfg(target_arch = "wasm32")]
pub fn install_text(load: impl FnOnce() -> String) {
    CATALOG_SOURCE.get_or_init(load);
}

#[cfg(target_arch = "wasm32")]
fn catalog_source() -> String {
    CATALOG_SOURCE.get().cloned().unwrap_or_default()
}

#[cfg(not(target_arch = "wasm32"))]
fn catalog_source() -> String {
    include_str!("catalog-text.json").to_string()
}

/// Every tool, as `tools/list` lists them (`mcp::dispatch` keeps the written result per instance).
pub fn tool_definitions() -> Vec<Value> {
    ToolName::ALL
        .into_iter()
        .map(ToolName::definition)
        .collect()
}

/// The ordering guide as Markdown: returned by `get_ordering_guide`, served as a resource and at
/// `/docs/ordering-guide`.
pub fn ordering_guide() -> &'static str {
    guide_text()
}

/// The guide's Markdown, handed over by the adapter like the MCP Apps view (`mcp::apps`): the
/// Worker's JavaScript bundle carries it, so the wasm doesn't (its size budget).
#[cfg(target_arch = "wasm32")]
static GUIDE: OnceLock<String> = OnceLock::new();

/// Takes the guide's Markdown from `load` unless this instance has it already (before any request
/// that serves it is answered).
#[cfg(target_arch = "wasm32")]
pub fn install_guide(load: impl FnOnce() -> String) {
    GUIDE.get_or_init(load);
}

#[cfg(target_arch = "wasm32")]
fn guide_text() -> &'static str {
    GUIDE.get().map_or("", String::as_str)
}

/// Native builds and tests compile the file in.
#[cfg(not(target_arch = "wasm32"))]
fn guide_text() -> &'static str {
    include_str!("../guide/ordering-guide.md")
}

/// The URI of the ordering guide resource.
pub const GUIDE_RESOURCE_URI: &str = "logikflow://docs/ordering-guide";

pub fn resource_definitions() -> Vec<Value> {
    vec![guide_resource_definition(), apps::resource_definition()]
}

fn guide_resource_definition() -> Value {
    let mut definition = catalog_text()["guide"].clone();
    definition["size"] = Value::from(ordering_guide().len());
    definition
}

/// The prompt's name.
pub const ARRANGE_PROMPT: &str = "arrange-pull-request";

pub fn prompt_definitions() -> Vec<Value> {
    vec![catalog_text()["prompt"]["definition"].clone()]
}

/// A pull request reference as a person types it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PullRef {
    pub owner: String,
    pub repo: String,
    pub number: u64,
}

/// Reads `https://github.com/o/r/pull/n` (any host, trailing parts ignored) or `o/r#n`.
pub fn parse_pull_ref(text: &str) -> Option<PullRef> {
    let text = text.trim();
    let (path, number) = if let Some((path, number)) = text.split_once('#') {
        (path.to_string(), number)
    } else {
        let without_scheme = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))?;
        let mut parts = without_scheme.split('/').skip(1);
        let owner = parts.next()?;
        let repo = parts.next()?;
        if !matches!(parts.next(), Some("pull" | "pulls")) {
            return None;
        }
        let number = parts.next()?;
        return build_pull_ref(owner, repo, number);
    };
    let (owner, repo) = path.split_once('/')?;
    build_pull_ref(owner, repo, number)
}

fn build_pull_ref(owner: &str, repo: &str, number: &str) -> Option<PullRef> {
    let number: u64 = number.trim().parse().ok().filter(|n| *n > 0)?;
    let valid = |s: &str| {
        !s.is_empty()
            && s.len() <= 100
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    };
    (valid(owner) && valid(repo)).then(|| PullRef {
        owner: owner.to_string(),
        repo: repo.to_string(),
        number,
    })
}

/// The `arrange-pull-request` prompt's messages, or `None` when the argument is not a pull request.
pub fn arrange_prompt(pull_request: &str) -> Option<Value> {
    let pr = parse_pull_ref(pull_request)?;
    let fill = |template: &str| {
        template
            .replace("{owner}", &pr.owner)
            .replace("{repo}", &pr.repo)
            .replace("{number}", &pr.number.to_string())
    };
    Some(json!({
        "description": fill(text(&["prompt", "result"])),
        "messages": [{ "role": "user", "content": { "type": "text", "text": fill(text(&["prompt", "message"])) } }],
    }))
}

/// Instructions returned at initialization and discovery.
pub fn instructions() -> &'static str {
    text(&["instructions"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_file_parses() {
        for tool in ToolName::ALL {
            let (input, output) = tool.schemas();
            for value in [input, output] {
                assert_eq!(value["type"], "object", "{}", tool.as_str());
                assert!(value.get("$schema").is_none(), "{}", tool.as_str());
                assert!(value.get("properties").is_some(), "{}", tool.as_str());
            }
        }
    }

    #[test]
    fn every_catalog_text_is_there() {
        for tool in ToolName::ALL {
            assert!(!text(&["tools", tool.as_str(), "title"]).is_empty());
            assert!(text(&["tools", tool.as_str(), "description"]).len() > 40);
        }
        for path in [
            &["instructions"][..],
            &["prompt", "definition", "title"],
            &["prompt", "definition", "description"],
            &["prompt", "result"],
            &["prompt", "message"],
            &["guide", "title"],
            &["guide", "description"],
        ] {
            assert!(!text(path).is_empty(), "{path:?}");
        }
        // The data agrees with the code.
        for tool in ToolName::ALL {
            let definition = tool.definition();
            assert_eq!(definition["name"], tool.as_str());
            let annotations = &definition["annotations"];
            assert_eq!(
                annotations["title"],
                definition["title"],
                "{}",
                tool.as_str()
            );
            assert_eq!(
                annotations["readOnlyHint"],
                !tool.writes(),
                "{}",
                tool.as_str()
            );
            assert_eq!(annotations["destructiveHint"], false);
            assert_eq!(annotations["idempotentHint"], true);
            let open_world = !matches!(tool, ToolName::GetOrderingGuide);
            assert_eq!(
                annotations["openWorldHint"],
                open_world,
                "{}",
                tool.as_str()
            );
            assert_eq!(
                definition.as_object().map(|d| d.len()),
                Some(6 + usize::from(tool.ui().is_some()))
            );
        }
        let prompt = &prompt_definitions()[0];
        assert_eq!(prompt["name"], ARRANGE_PROMPT);
        assert_eq!(prompt["arguments"][0]["name"], "pull_request");
        assert_eq!(prompt["arguments"][0]["required"], true);
        let guide = guide_resource_definition();
        assert_eq!(guide["uri"], GUIDE_RESOURCE_URI);
        assert_eq!(guide["mimeType"], "text/markdown");
        assert!(guide["size"].as_u64().is_some_and(|size| size > 1000));
        let bundle = include_str!("apps/view-asset.mjs");
        assert!(bundle.contains("@logikflow/catalog-text"));
    }

    /// The Worker's bundle hands the wasm every tool's schemas (`view-asset.mjs`); a tool
    /// missing there would list `{"type":"object"}` in production only.
    #[test]
    fn the_bundle_carries_every_tools_schemas() {
        let bundle = include_str!("apps/view-asset.mjs");
        for tool in ToolName::ALL {
            for kind in ["input", "output"] {
                let file = format!("@logikflow/schema/{}.{kind}.json", tool.as_str());
                assert!(bundle.contains(&file), "{file} is not imported");
            }
            assert!(
                bundle.contains(&format!("    {}: pair(", tool.as_str())),
                "{}",
                tool.as_str()
            );
        }
    }

    #[test]
    fn reads_are_read_only_and_saves_are_not() {
        for tool in ToolName::ALL {
            let annotations = &tool.definition()["annotations"];
            assert_eq!(annotations["readOnlyHint"], !tool.writes());
            assert_eq!(annotations["destructiveHint"], false);
            assert_eq!(annotations["idempotentHint"], true);
        }
    }

    #[test]
    fn only_read_only_tools_may_be_called_from_the_view() {
        for tool in ToolName::ALL {
            let app_may_call = matches!(tool.ui(), Some(Visibility::Both | Visibility::App));
            assert!(
                !(app_may_call && tool.writes()),
                "{} writes but the view may call it",
                tool.as_str()
            );
            if tool.writes() {
                assert_eq!(tool.ui(), Some(Visibility::Model), "{}", tool.as_str());
            }
        }
    }

    #[test]
    fn descriptions_warn_that_pull_request_text_is_untrusted() {
        for tool in [ToolName::GetPullRequest, ToolName::SaveReadingOrder] {
            let description = tool.definition()["description"].to_string();
            assert!(
                description.contains("untrusted")
                    || description.contains("never copy instructions")
            );
        }
    }

    fn check_ref(text: &str, expected: Option<(&str, &str, u64)>) {
        let got = parse_pull_ref(text).map(|r| (r.owner, r.repo, r.number));
        let want = expected.map(|(o, r, n)| (o.to_string(), r.to_string(), n));
        assert_eq!(got, want, "{text}");
    }

    #[test]
    fn pull_request_references() {
        check_ref("acme/app#123", Some(("acme", "app", 123)));
        check_ref(" acme/app#7 ", Some(("acme", "app", 7)));
        check_ref(
            "https://github.com/acme/app/pull/123",
            Some(("acme", "app", 123)),
        );
        check_ref(
            "https://github.com/acme/app/pull/123/files",
            Some(("acme", "app", 123)),
        );
        check_ref("https://github.com/acme/app/issues/123", None);
        check_ref("acme/app#0", None);
        check_ref("acme#1", None);
        check_ref("acme/app#x", None);
        check_ref("ac me/app#1", None);
        check_ref("", None);
    }

    #[test]
    fn prompt_names_the_pull_request() {
        let prompt = arrange_prompt("acme/app#5").expect("valid reference");
        let text = prompt["messages"][0]["content"]["text"]
            .as_str()
            .unwrap_or_default();
        assert!(text.contains("number 5") && text.contains("reviewUrl"));
        assert!(arrange_prompt("not a pr").is_none());
    }
}
