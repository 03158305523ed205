//! The pages LogiKFlow serves outside a review: the landing page, the ordering guide and the 404.
//!
//! Why: the landing page is where a person learns what LogiKFlow does and how to connect an agent,
//! so its snippets must be exact and copyable; the guide is the same Markdown agents read, shown
//! with a table of contents. Each page is a function from data to a full document built on
//! `html::page`; `base_url` is escaped wherever it appears (and JSON-encoded inside JSON snippets).
//!
//! What not: no routing, status codes or headers (the entry point sends `html::CSP` and the
//! status), no review view, no scripts.

use super::html::{escape, page};
use super::safe_markdown;
use super::template::{fill_into, fragment};

/// The landing page's main content, with `{endpoint}` and `{endpoint_json}` to fill in.
const HOME_BODY: &str = fragment(include_str!("home.html"));

/// The 404 page's main content.
const NOT_FOUND_BODY: &str = fragment(include_str!("not-found.html"));

/// The landing page at `/`: what LogiKFlow is, how to connect an agent to `{base_url}/mcp`, what to
/// ask it, and the four tools.
pub fn home(base_url: &str) -> String {
    let endpoint = format!("{}/mcp", base_url.trim_end_matches('/'));
    let endpoint_html = escape(&endpoint);
    // `serde_json` quotes and escapes the URL so the snippets stay valid JSON for any base URL.
    let endpoint_json = escape(&serde_json::Value::from(endpoint.as_str()).to_string());
    let mut body = String::with_capacity(HOME_BODY.len() + 4 * endpoint.len());
    fill_into(
        &mut body,
        HOME_BODY,
        &[
            ("{endpoint_json}", &endpoint_json),
            ("{endpoint}", &endpoint_html),
        ],
    );
    page("Reading orders for pull requests", &body, base_url)
}

/// The ordering guide at `/docs/ordering-guide`, rendered from its Markdown, with a table of
/// contents of its `##` headings placed before the first of them.
pub fn ordering_guide(markdown: &str, base_url: &str) -> String {
    let (title, body, _cut) = safe_markdown::with_contents(markdown);
    page(&title, &body, base_url)
}

/// The page for any unknown path.
/// The sign-out page: one button that POSTs with the CSRF token. A GET never signs out, so a
/// link or a navigation from another site can't end someone's session.
pub fn sign_out(csrf: &str, base_url: &str) -> String {
    let body = format!(
        "<h1>Sign out</h1>\n<p>Sign this browser out of LogiKFlow's review pages? Agents you connected stay connected; manage them in <a href=\"/settings\">Settings</a>.</p>\n\
         <form method=\"post\" action=\"/signout\"><input type=\"hidden\" name=\"csrf\" value=\"{}\"><button type=\"submit\">Sign out</button></form>\n",
        escape(csrf)
    );
    page("Sign out", &body, base_url)
}

pub fn not_found(base_url: &str) -> String {
    page("Page not found", NOT_FOUND_BODY, base_url)
}

/// A page as a reply: its status, the pages' CSP (`html::CSP`), no framing, no referrer.
pub fn reply(status: u16, page: String) -> crate::http::HttpReply {
    crate::http::HttpReply::new(status, "text/html; charset=utf-8", page)
        .with_header("content-security-policy", super::html::CSP)
        .with_header("x-frame-options", "DENY")
        .with_header("referrer-policy", "no-referrer")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::html::CSP;

    const BASE: &str = "https://logikflow.example";
    const HOSTILE_BASE: &str = "https://x.test/\"><script>alert(1)</script>";

    /// Checks that the page contains every expected fragment and no raw `<script`.
    fn check(html: &str, expected: &[&str]) {
        assert!(html.starts_with("<!doctype html>"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        for fragment in expected {
            assert!(html.contains(fragment), "missing {fragment:?} in:\n{html}");
        }
    }

    #[test]
    fn home_explains_and_connects() {
        check(
            &home(BASE),
            &[
                "<title>Reading orders for pull requests · LogiKFlow</title>",
                "<h1>LogiKFlow</h1>",
                "MCP",
                "reading order",
                "claude mcp add --transport http logikflow https://logikflow.example/mcp",
                "<code>~/.cursor/mcp.json</code>",
                "&quot;mcpServers&quot;: {\n    &quot;logikflow&quot;: { &quot;url&quot;: &quot;https://logikflow.example/mcp&quot; }",
                "<code>.vscode/mcp.json</code>",
                "&quot;servers&quot;: {\n    &quot;logikflow&quot;: { &quot;type&quot;: &quot;http&quot;, &quot;url&quot;: &quot;https://logikflow.example/mcp&quot; }",
                "Arrange acme/app#123 for review with LogiKFlow",
                "<code>arrange-pull-request</code>",
                "<code>get_ordering_guide</code>",
                "<code>get_pull_request</code>",
                "<code>save_reading_order</code>",
                "<code>save_diagram</code>",
                "<a href=\"/docs/ordering-guide\">",
            ],
        );
    }

    #[test]
    fn home_snippets_are_valid_json() {
        let html = home(BASE);
        let unescape = |s: &str| s.replace("&quot;", "\"").replace("&amp;", "&");
        let snippets: Vec<String> = html
            .split("<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-json\">")
            .skip(1)
            .filter_map(|rest| {
                rest.split_once("</code></pre>")
                    .map(|(json, _)| unescape(json))
            })
            .collect();
        assert_eq!(snippets.len(), 2);
        for snippet in snippets {
            let value: serde_json::Value =
                serde_json::from_str(&snippet).unwrap_or_else(|error| panic!("{error}: {snippet}"));
            assert!(
                value.to_string().contains("https://logikflow.example/mcp"),
                "{value}"
            );
        }
    }

    #[test]
    fn home_fills_each_placeholder_once() {
        // An endpoint holding a placeholder's name is text, not a place to fill in again.
        let html = home("https://x.test/{endpoint_json}/{endpoint}");
        let endpoint = "https://x.test/{endpoint_json}/{endpoint}/mcp";
        assert!(html.contains(&format!("<code>{endpoint}</code>")), "{html}");
        assert_eq!(
            html.matches(&format!("&quot;{endpoint}&quot;")).count(),
            2,
            "{html}"
        );
    }

    #[test]
    fn home_trims_a_trailing_slash() {
        check(
            &home("https://a.test/"),
            &["<code>https://a.test/mcp</code>"],
        );
    }

    #[test]
    fn base_url_is_escaped_everywhere() {
        for html in [
            home(HOSTILE_BASE),
            ordering_guide("# G\n\n## A", HOSTILE_BASE),
            not_found(HOSTILE_BASE),
        ] {
            check(
                &html,
                &["https://x.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/mcp"],
            );
        }
        // Inside JSON the quote is JSON-escaped first, then HTML-escaped.
        check(
            &home(HOSTILE_BASE),
            &["&quot;https://x.test/\\&quot;&gt;&lt;script&gt;"],
        );
    }

    #[test]
    fn ordering_guide_has_a_table_of_contents() {
        let guide = include_str!("../guide/ordering-guide.md");
        let html = ordering_guide(guide, BASE);
        check(
            &html,
            &[
                "<title>Ordering guide · LogiKFlow</title>",
                "<nav class=\"toc\" aria-label=\"Contents\">",
                "<li><a href=\"#what-a-good-order-is\">What a good order is</a></li>",
                "<li><a href=\"#reading-hints\">Reading hints</a></li>",
                "<li><a href=\"#suggestions\">Suggestions</a></li>",
                "<li><a href=\"#diagrams\">Diagrams</a></li>",
                "<h2 id=\"suggestions\">",
            ],
        );
        let toc = html.find("<nav class=\"toc\"").unwrap_or(usize::MAX);
        let intro = html
            .find("reviewers follow from the review link")
            .unwrap_or(usize::MAX);
        let first_section = html.find("<h2 id=\"what-a-good-order-is\"").unwrap_or(0);
        assert!(
            intro < toc && toc < first_section,
            "{intro} {toc} {first_section}"
        );
    }

    #[test]
    fn ordering_guide_edge_cases() {
        check(
            &ordering_guide("", BASE),
            &["<title>Ordering guide · LogiKFlow</title>"],
        );
        let no_sections = ordering_guide("# Only a title\n\ntext", BASE);
        check(
            &no_sections,
            &["<title>Only a title · LogiKFlow</title>", "<p>text</p>"],
        );
        assert!(!no_sections.contains("class=\"toc\""));
        check(
            &ordering_guide("# <i>x</i>\n## <b>y</b>", BASE),
            &[
                "<title>&lt;i&gt;x&lt;/i&gt; · LogiKFlow</title>",
                "<a href=\"#byb\">&lt;b&gt;y&lt;/b&gt;</a>",
            ],
        );
    }

    #[test]
    fn not_found_is_friendly() {
        check(
            &not_found(BASE),
            &[
                "<title>Page not found · LogiKFlow</title>",
                "<h1>Page not found</h1>",
                "href=\"/\"",
                "href=\"/docs/ordering-guide\"",
            ],
        );
    }

    #[test]
    fn csp_forbids_framing() {
        assert!(CSP.contains("frame-ancestors 'none'"));
        assert!(CSP.starts_with("default-src 'none'"));
    }

    #[test]
    fn the_static_guide_page_is_what_the_renderer_makes() {
        // build.rs renders it for the static assets, with no base URL.
        assert_eq!(
            include_str!(concat!(env!("OUT_DIR"), "/ordering-guide.html")),
            ordering_guide(crate::mcp::catalog::ordering_guide(), "")
        );
        let headers = include_str!(concat!(env!("OUT_DIR"), "/_headers"));
        assert!(headers.contains(&format!(
            "Content-Security-Policy: {}",
            super::super::html::CSP
        )));
    }
}
