//! Long fixed texts kept out of the wasm: the landing and not-found pages' bodies
//! (`web/home.html`, `web/not-found.html`), the review page's keyboard help
//! and outline hint (`web/review-keys*.html`) and its notice when no order is saved, the
//! settings page's token form and data deletion (`web/settings-tail.html`), the fixed sentences of
//! OAuth errors (`oauth/sentences.txt`), parts of the consent page (`web/consent-*.html`), the Durable Objects' SQL schemas (`store/person.sql`,
//! `store/pull-request.sql`) and the OAuth metadata documents (`oauth/*-metadata.json`).
//!
//! Why: the wasm's size budget (400 KiB gzip, DESIGN.md section 7). These texts were about 4 KB of
//! it, and making a `get_pull_request` run in its pull request's object (issue #19,
//! `tools::relay`) needed about that much room. Like the guide and the tool schemas
//! (`service::view_asset`), they ride in the Worker's JavaScript bundle as strings
//! (`src/fixed-text.mjs`, inlined by esbuild in `tests/scripts/build.sh`) and cross into the wasm
//! when used: once per object for a schema, once per landing page view. Native builds and tests
//! read the same files with `include_str!`, so a test of a page checks the text it serves.

/// Which text; the number is its index in `src/fixed-text.mjs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixedText {
    /// The landing page's main content, with `{endpoint}` and `{endpoint_json}` to fill in.
    HomeBody = 0,
    /// `PersonStore`'s tables.
    PersonSchema = 1,
    /// `PullRequestStore`'s tables.
    PullRequestSchema = 2,
    /// The RFC 8414 document, with `{origin}` to fill in (`oauth::metadata`).
    ServerMetadata = 3,
    /// The RFC 9728 document, with `{origin}` to fill in (`oauth::challenge`).
    ResourceMetadata = 4,
    /// The 404 page's main content.
    NotFoundBody = 5,
    /// The review page's keyboard help dialog.
    ReviewKeys = 6,
    /// The review page outline's end, with its line on the keys.
    ReviewKeysHint = 7,
    /// The review page's notice when no order is saved.
    ReviewNoOrder = 8,
    /// The settings page's token form and "Delete my data", with `{csrf}` (the form field) and
    /// `{max_name}` to fill in.
    SettingsTail = 9,
    /// The fixed sentences of OAuth errors' `error_description`, one a line (`oauth::error`).
    OAuthSentences = 10,
    /// The consent page's words for an app not identified by a document.
    ConsentUnverified = 11,
    /// The consent page's note on what connecting grants.
    ConsentNote = 12,
}

/// Appends `template` to `out` with each `{name}` of `values` replaced by its value, in one pass:
/// a value that holds a placeholder's name (a base URL someone chose) is never filled in again.
/// Braces that start no listed placeholder stay as they are.
pub fn fill_into(out: &mut String, template: &str, values: &[(&str, &str)]) {
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match values.iter().find(|(name, _)| rest.starts_with(name)) {
            Some((name, value)) => {
                out.push_str(value);
                rest = &rest[name.len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// Where the texts come from in the wasm: `src/fixed-text.mjs`'s `fixedText`, installed by the
/// entry when an instance starts (this module stays free of the runtime).
#[cfg(target_arch = "wasm32")]
static SOURCE: std::sync::OnceLock<fn(u32) -> String> = std::sync::OnceLock::new();

/// Sets where [`text`] reads from, once per instance (the entry's start hook).
#[cfg(target_arch = "wasm32")]
pub fn install(source: fn(u32) -> String) {
    let _ = SOURCE.set(source);
}

/// The text: its file without the file's last newline (every file ends with one; a text that
/// ends in a newline of its own has a blank line at the end of its file).
pub fn text(which: FixedText) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        SOURCE
            .get()
            .map(|source| source(which as u32))
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let file = match which {
            FixedText::HomeBody => include_str!("web/home.html"),
            FixedText::PersonSchema => include_str!("store/person.sql"),
            FixedText::PullRequestSchema => include_str!("store/pull-request.sql"),
            FixedText::ServerMetadata => include_str!("oauth/server-metadata.json"),
            FixedText::ResourceMetadata => include_str!("oauth/resource-metadata.json"),
            FixedText::NotFoundBody => include_str!("web/not-found.html"),
            FixedText::ReviewKeys => include_str!("web/review-keys.html"),
            FixedText::ReviewKeysHint => include_str!("web/review-keys-hint.html"),
            FixedText::ReviewNoOrder => include_str!("web/review-no-order.html"),
            FixedText::SettingsTail => include_str!("web/settings-tail.html"),
            FixedText::OAuthSentences => include_str!("oauth/sentences.txt"),
            FixedText::ConsentUnverified => include_str!("web/consent-unverified.html"),
            FixedText::ConsentNote => include_str!("web/consent-note.html"),
        };
        file.strip_suffix('\n').unwrap_or(file).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each text: its place in the script's list is its number, the script imports it under an
    /// alias that build.sh points at its file, and the native build reads that same file.
    #[test]
    fn each_text_is_the_same_file_in_the_script_and_natively() {
        let script = include_str!("fixed-text.mjs");
        let build = include_str!("../tests/scripts/build.sh");
        let list = script
            .split("const TEXTS = [")
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .unwrap_or_else(|| panic!("the script's list"));
        let names: Vec<&str> = list
            .split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .collect();
        let table = [
            (
                FixedText::HomeBody,
                "homeBody",
                "home-html",
                "web/home.html",
            ),
            (
                FixedText::PersonSchema,
                "personSchema",
                "person-sql",
                "store/person.sql",
            ),
            (
                FixedText::PullRequestSchema,
                "pullRequestSchema",
                "pull-request-sql",
                "store/pull-request.sql",
            ),
            (
                FixedText::ServerMetadata,
                "serverMetadata",
                "server-metadata",
                "oauth/server-metadata.json",
            ),
            (
                FixedText::ResourceMetadata,
                "resourceMetadata",
                "resource-metadata",
                "oauth/resource-metadata.json",
            ),
            (
                FixedText::NotFoundBody,
                "notFoundBody",
                "not-found-html",
                "web/not-found.html",
            ),
            (
                FixedText::ReviewKeys,
                "reviewKeys",
                "review-keys-html",
                "web/review-keys.html",
            ),
            (
                FixedText::ReviewKeysHint,
                "reviewKeysHint",
                "review-keys-hint-html",
                "web/review-keys-hint.html",
            ),
            (
                FixedText::ReviewNoOrder,
                "reviewNoOrder",
                "review-no-order-html",
                "web/review-no-order.html",
            ),
            (
                FixedText::SettingsTail,
                "settingsTail",
                "settings-tail-html",
                "web/settings-tail.html",
            ),
            (
                FixedText::OAuthSentences,
                "oauthSentences",
                "oauth-sentences",
                "oauth/sentences.txt",
            ),
            (
                FixedText::ConsentUnverified,
                "consentUnverified",
                "consent-unverified-html",
                "web/consent-unverified.html",
            ),
            (
                FixedText::ConsentNote,
                "consentNote",
                "consent-note-html",
                "web/consent-note.html",
            ),
        ];
        assert_eq!(names.len(), table.len(), "{names:?}");
        for (which, name, alias, file) in table {
            assert_eq!(names[which as usize], name, "{which:?}");
            let import = format!("import {name} from '@logikflow/{alias}';");
            assert!(script.contains(&import), "{import}");
            let aliased = format!("--alias:@logikflow/{alias}=./src/{file}");
            assert!(build.contains(&aliased), "{aliased}");
            let on_disk =
                std::fs::read_to_string(format!("{}/src/{file}", env!("CARGO_MANIFEST_DIR")))
                    .unwrap_or_else(|error| panic!("{file}: {error}"));
            let without_last_newline = on_disk.strip_suffix('\n');
            assert_eq!(
                Some(text(which).as_str()),
                without_last_newline,
                "{which:?}"
            );
        }
    }

    #[test]
    fn every_text_is_there() {
        assert!(text(FixedText::HomeBody).contains("{endpoint}"));
        assert!(text(FixedText::HomeBody).contains("{endpoint_json}"));
        for schema in [FixedText::PersonSchema, FixedText::PullRequestSchema] {
            assert!(text(schema).starts_with("CREATE TABLE IF NOT EXISTS"));
        }
        assert!(text(FixedText::ServerMetadata).contains("\"issuer\": \"{origin}\""));
    }

    #[test]
    fn placeholders_are_filled_once_in_one_pass() {
        let fill = |template: &str, values: &[(&str, &str)]| {
            let mut out = String::from(">");
            fill_into(&mut out, template, values);
            out
        };
        let values = [("{a}", "{b}"), ("{b}", "B")];
        assert_eq!(fill("x{a}y{b}z", &values), ">x{b}yBz");
        assert_eq!(fill("{ {c} {a", &values), ">{ {c} {a");
        assert_eq!(fill("", &values), ">");
        assert_eq!(fill("é{b}ü{", &values), ">éBü{");
        // The longer name first when one starts another: the caller lists it first.
        let values = [("{endpoint_json}", "J"), ("{endpoint}", "E")];
        assert_eq!(fill("{endpoint}{endpoint_json}", &values), ">EJ");
    }
}
