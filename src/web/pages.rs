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
use super::markdown;

/// The landing page at `/`: what LogiKFlow is, how to connect an agent to `{base_url}/mcp`, what to
/// ask it, and the four tools.
pub fn home(base_url: &str) -> String {
    let endpoint = format!("{}/mcp", base_url.trim_end_matches('/'));
    let endpoint_html = escape(&endpoint);
    // `serde_json` quotes and escapes the URL so the snippets stay valid JSON for any base URL.
    let endpoint_json = escape(&serde_json::Value::from(endpoint.as_str()).to_string());
    let mut body = String::with_capacity(6 * 1024);
    body.push_str(
        "<h1>LogiKFlow</h1>\n\
         <p class=\"lead\">Pull requests, read in the order that makes sense.</p>\n\
         <p>LogiKFlow is an <abbr title=\"Model Context Protocol\">MCP</abbr> server. \
         Your coding agent reads a GitHub pull request together with reading hints \
         (which changed files import which, which tests cover what, what looks generated) \
         and saves a <strong>reading order</strong>: sections of files with short notes, \
         checklists and focus marks, plus an optional flow diagram.</p>\n\
         <p>Reviewers open the review link and read the pull request in that order, \
         ticking checks as they go.</p>\n\
         <h2 id=\"how-it-works\">How it works</h2>\n\
         <ol>\n\
         <li>You ask your agent to arrange a pull request.</li>\n\
         <li>The agent reads the changed files and their hints, follows the \
         <a href=\"/docs/ordering-guide\">ordering guide</a>, and saves the order; \
         LogiKFlow checks it and suggests fixes.</li>\n\
         <li>The agent gives you the review link to share with reviewers.</li>\n\
         </ol>\n\
         <h2 id=\"connect\">Connect your agent</h2>\n",
    );
    body.push_str("<p>The MCP endpoint is <code>");
    body.push_str(&endpoint_html);
    body.push_str(
        "</code> (Streamable HTTP). The first time your agent connects, it opens a browser \
         window so you can sign in with GitHub. Saving an order needs write access to the \
         repository.</p>\n",
    );
    body.push_str(
        "<h3 id=\"claude-code\">Claude Code</h3>\n<p>Run:</p>\n<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-sh\">",
    );
    body.push_str("claude mcp add --transport http logikflow ");
    body.push_str(&endpoint_html);
    body.push_str("</code></pre>\n");
    body.push_str(
        "<h3 id=\"cursor\">Cursor</h3>\n<p>Add to <code>~/.cursor/mcp.json</code>:</p>\n\
         <pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-json\">{\n  &quot;mcpServers&quot;: {\n    \
         &quot;logikflow&quot;: { &quot;url&quot;: ",
    );
    body.push_str(&endpoint_json);
    body.push_str(" }\n  }\n}</code></pre>\n");
    body.push_str(
        "<h3 id=\"vs-code\">VS Code</h3>\n<p>Add to <code>.vscode/mcp.json</code>:</p>\n\
         <pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-json\">{\n  &quot;servers&quot;: {\n    \
         &quot;logikflow&quot;: { &quot;type&quot;: &quot;http&quot;, &quot;url&quot;: ",
    );
    body.push_str(&endpoint_json);
    body.push_str(" }\n  }\n}</code></pre>\n");
    body.push_str(
        "<p>Other clients: add a remote MCP server with the endpoint above.</p>\n\
         <h2 id=\"ask\">What to ask</h2>\n\
         <blockquote>\n<p>Arrange acme/app#123 for review with LogiKFlow</p>\n</blockquote>\n\
         <p>Or pick the <code>arrange-pull-request</code> prompt, which many clients offer as a \
         slash command, and give it the pull request link.</p>\n\
         <h2 id=\"tools\">Tools</h2>\n\
         <ul>\n\
         <li><code>get_ordering_guide</code>: how to group, order and annotate a pull request \
         for reviewers.</li>\n\
         <li><code>get_pull_request</code>: the changed files with reading hints, the saved \
         order and the review link.</li>\n\
         <li><code>save_reading_order</code>: saves the order (sections, notes, checks, focus) \
         and returns suggestions.</li>\n\
         <li><code>save_diagram</code>: saves an optional flow diagram, shown in the \
         Diagram tab.</li>\n\
         </ul>\n\
         <p>Read the <a href=\"/docs/ordering-guide\">ordering guide</a> to see what makes a \
         good reading order.</p>",
    );
    page("Reading orders for pull requests", &body, base_url)
}

/// The ordering guide at `/docs/ordering-guide`, rendered from its Markdown, with a table of
/// contents of its `##` headings placed before the first of them.
pub fn ordering_guide(markdown: &str, base_url: &str) -> String {
    let (title, body) = markdown::with_contents(markdown);
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
    let body = "<h1>Page not found</h1>\n\
                <p class=\"lead\">There is nothing at this address.</p>\n\
                <p>The link may be mistyped or out of date. If someone shared a review link \
                with you, check that you copied all of it.</p>\n\
                <ul>\n\
                <li><a href=\"/\">What LogiKFlow is and how to connect an agent</a></li>\n\
                <li><a href=\"/docs/ordering-guide\">The ordering guide</a></li>\n\
                </ul>";
    page("Page not found", body, base_url)
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
