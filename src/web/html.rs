//! HTML escaping and the document shell every LogiKFlow page shares.
//!
//! Why: one place decides how text becomes HTML and what each page's `<head>`, style and top bar
//! are, so pages stay consistent and every inserted value goes through `escape`.
//! The styles and the review page's script are static files of our own (`src/static/`, served as
//! Workers Static Assets, so they cost no wasm); no web fonts or third-party loads, which is what
//! lets `CSP` forbid everything else.
//!
//! What not: no templating language, no scripts, no per-page style; callers pass `body_html`
//! already escaped (built with `escape` or `safe_markdown`).

/// The Content-Security-Policy sent with every page built on `page`.
///
/// Nothing may load except inline and same-origin style, same-origin or `data:` images and
/// same-origin scripts (the review page's script files and its diff style, some of them Workers
/// Static Assets; no inline script ever runs, so injected markup can't run code); scripts may
/// only call this site; the page can't be framed (CSP Level 3,
/// `frame-ancestors`), can't change its base URL and can only post forms to itself.
pub const CSP: &str =
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
                       script-src 'self'; connect-src 'self'; \
                       base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

pub use super::escape::{escape, escape_into};

/// The product name shown in the top bar and in every title.
pub const PRODUCT: &str = "LogiKFlow";

/// A name someone else chose (an OAuth client's), for element content: without control and
/// format characters (names stored before they were refused may hold them) and inside `<bdi>`,
/// so right-to-left text in it can't reorder the words around it.
pub fn isolated_name(name: &str) -> String {
    format!(
        "<bdi>{}</bdi>",
        escape(&crate::unicode::without_hidden(name))
    )
}

/// A page that says what went wrong: `title` as its heading and `message` as its paragraph,
/// both escaped. The one message page, for the Worker's refusals and the object's alike.
pub fn message_page(title: &str, message: &str, base_url: &str) -> String {
    let body = format!("<h1>{}</h1><p>{}</p>", escape(title), escape(message));
    page(title, &body, base_url)
}

/// A complete HTML5 document: head with charset, viewport, color scheme and the shared style, a
/// top bar linking home and to the ordering guide, `body_html` as the main content, and a footer
/// naming the MCP endpoint under `base_url`.
///
/// `title` and `base_url` are escaped here; `body_html` is inserted as is.
pub fn page(title: &str, body_html: &str, base_url: &str) -> String {
    let full_title = if title.is_empty() || title == PRODUCT {
        PRODUCT.to_string()
    } else {
        format!("{} · {PRODUCT}", escape(title))
    };
    let endpoint = escape(&format!("{}/mcp", base_url.trim_end_matches('/')));
    let mut out = String::with_capacity(body_html.len() + 1024);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    out.push_str("<meta name=\"referrer\" content=\"strict-origin-when-cross-origin\">\n");
    out.push_str("<title>");
    out.push_str(&full_title);
    out.push_str(
        "</title>\n<link rel=\"stylesheet\" href=\"/static/base.css\">\n</head>\n<body>\n",
    );
    out.push_str("<a class=\"skip\" href=\"#main\">Skip to content</a>\n");
    out.push_str("<header class=\"top\"><nav aria-label=\"Site\">");
    out.push_str("<a class=\"brand\" href=\"/\">LogiKFlow</a>");
    out.push_str(
        "<a href=\"/docs/ordering-guide\">Ordering guide</a><a href=\"/settings\">Settings</a>",
    );
    out.push_str("</nav></header>\n<main id=\"main\">\n");
    out.push_str(body_html);
    out.push_str("\n</main>\n<footer class=\"foot\"><p>");
    out.push_str("LogiKFlow: reading orders for pull requests. MCP endpoint: <code>");
    out.push_str(&endpoint);
    out.push_str("</code></p></footer>\n</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &str) {
        assert_eq!(escape(input), expected, "input: {input}");
    }

    #[test]
    fn escapes_the_five_characters() {
        check("", "");
        check("plain text", "plain text");
        check(
            "<script>alert(1)</script>",
            "&lt;script&gt;alert(1)&lt;/script&gt;",
        );
        check("a & b", "a &amp; b");
        check("\"quoted\" 'single'", "&quot;quoted&quot; &#39;single&#39;");
        check("&amp;", "&amp;amp;");
        check("héllo → 世界 <", "héllo → 世界 &lt;");
    }

    #[test]
    fn page_has_the_shell() {
        let html = page("Ordering guide", "<p>body</p>", "https://example.test");
        assert!(html.starts_with("<!doctype html>"));
        assert!(html.contains("<meta charset=\"utf-8\">"));
        assert!(html.contains("name=\"viewport\""));
        assert!(html.contains("<meta name=\"color-scheme\" content=\"light dark\">"));
        assert!(html.contains("<title>Ordering guide · LogiKFlow</title>"));
        assert!(html.contains("<link rel=\"stylesheet\" href=\"/static/base.css\">"));
        let css = include_str!("../static/base.css");
        assert!(css.contains("prefers-color-scheme:dark"));
        assert!(css.contains(":focus-visible"));
        assert!(!css.contains("http://") && !css.contains("@import") && !css.contains("url("));
        assert!(html.contains("<a class=\"brand\" href=\"/\">LogiKFlow</a>"));
        assert!(html.contains("href=\"/docs/ordering-guide\""));
        assert!(html.contains("<p>body</p>"));
        assert!(html.contains("<code>https://example.test/mcp</code>"));
        assert!(!html.contains("<script"));
        assert!(!html.contains("http://") && !html.contains("@import") && !html.contains("url("));
    }

    #[test]
    fn page_escapes_title_and_base_url() {
        let html = page("<b>x</b>", "", "https://e.test/\"><script>");
        assert!(html.contains("<title>&lt;b&gt;x&lt;/b&gt; · LogiKFlow</title>"));
        assert!(html.contains("https://e.test/&quot;&gt;&lt;script&gt;/mcp"));
        assert!(!html.contains("<script>"));
    }

    #[test]
    fn product_title_is_not_repeated() {
        assert!(page("LogiKFlow", "", "").contains("<title>LogiKFlow</title>"));
        assert!(page("", "", "").contains("<title>LogiKFlow</title>"));
    }

    #[test]
    fn csp_is_strict() {
        for directive in [
            "default-src 'none'",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(CSP.contains(directive), "{directive}");
        }
        assert!(CSP.contains("script-src 'self';"), "no inline script");
        assert!(!CSP.contains("unsafe-inline'; script") && !CSP.contains("script-src 'unsafe"));
        assert!(!CSP.contains("  "), "{CSP}");
    }
}
