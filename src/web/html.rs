//! HTML escaping and the document shell every LogiKFlow page shares.
//!
//! Why: one place decides how text becomes HTML and what each page's `<head>`, style and top bar
//! are, so pages stay consistent and every inserted value goes through `escape`.
//! The style is inline and small: no external assets, no web fonts and no scripts, which is what
//! lets `CSP` forbid everything else.
//!
//! What not: no templating language, no scripts, no per-page style; callers pass `body_html`
//! already escaped (built with `escape` or the `markdown` renderers).

/// The Content-Security-Policy sent with every page built on `page`.
///
/// Nothing may load except inline style, same-origin or `data:` images and same-origin scripts
/// (the review page's one script file; no inline script ever runs, so injected markup can't run
/// code); scripts may only call this site; the page can't be framed (CSP Level 3,
/// `frame-ancestors`), can't change its base URL and can only post forms to itself.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; \
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
    let mut out = String::with_capacity(STYLE.len() + body_html.len() + 1024);
    out.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    out.push_str("<meta name=\"referrer\" content=\"strict-origin-when-cross-origin\">\n");
    out.push_str("<title>");
    out.push_str(&full_title);
    out.push_str("</title>\n<style>");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n");
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

/// The shared style: system fonts, a ~46rem measure, light and dark palettes, visible focus.
///
/// `scrollbar-gutter: stable` and the absence of web fonts and images keep the layout from
/// jumping while a page loads.
const STYLE: &str = r#"
:root{--bg:#fbfbfa;--fg:#1d1f23;--muted:#5d6470;--line:#dfe1e6;--soft:#f1f2f4;--accent:#2957c7;--accent-soft:#e7edfb;--code:#f3f4f6;--quote:#6a7180}
@media (prefers-color-scheme:dark){:root{--bg:#15171b;--fg:#e5e7eb;--muted:#9aa1ad;--line:#2e323a;--soft:#1d2026;--accent:#8fb0ff;--accent-soft:#1f2a44;--code:#1f2329;--quote:#a3aab6}}
*,*::before,*::after{box-sizing:border-box}
html{scrollbar-gutter:stable;-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:break-word}
a{color:var(--accent);text-underline-offset:.15em}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px;border-radius:3px}
.skip{position:absolute;left:-999px;top:.5rem}
.skip:focus{left:.5rem;background:var(--bg);padding:.25rem .5rem;z-index:1}
.top{border-bottom:1px solid var(--line);background:var(--soft)}
.top nav{max-width:46rem;margin:0 auto;padding:.75rem 1.25rem;display:flex;gap:1.25rem;align-items:baseline;flex-wrap:wrap}
.top a{text-decoration:none;color:var(--fg)}
.top a:hover{color:var(--accent)}
.top .brand{font-weight:700;letter-spacing:-.01em;margin-right:auto}
main{display:block;max-width:46rem;margin:0 auto;padding:1.5rem 1.25rem 3rem}
.foot{max-width:46rem;margin:0 auto;padding:1rem 1.25rem 2rem;border-top:1px solid var(--line);color:var(--muted);font-size:.875rem}
h1,h2,h3,h4,h5,h6{line-height:1.25;margin:2rem 0 .75rem;scroll-margin-top:1rem}
h1{font-size:2rem;letter-spacing:-.02em;margin-top:1rem}
h2{font-size:1.45rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}
h3{font-size:1.15rem}
h4,h5,h6{font-size:1rem}
.anchor{margin-left:.4rem;color:var(--muted);text-decoration:none;opacity:0}
h1:hover .anchor,h2:hover .anchor,h3:hover .anchor,h4:hover .anchor,h5:hover .anchor,h6:hover .anchor,.anchor:focus-visible{opacity:1}
p,ul,ol,pre,blockquote,table,.table-wrap{margin:0 0 1rem}
ul,ol{padding-left:1.5rem}
li+li,li>ul,li>ol{margin-top:.25rem}
li>ul,li>ol{margin-bottom:0}
.lead{font-size:1.15rem;color:var(--muted)}
code,pre,kbd{font-family:ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace;font-size:.875em}
code{background:var(--code);padding:.1em .35em;border-radius:4px}
pre{background:var(--code);padding:.85rem 1rem;border-radius:8px;border:1px solid var(--line);overflow-x:auto;line-height:1.45;tab-size:4}
pre code{background:none;padding:0;border-radius:0;font-size:.85rem}
blockquote{margin-left:0;padding:.25rem 1rem;border-left:4px solid var(--line);color:var(--quote)}
hr{border:0;border-top:1px solid var(--line);margin:2rem 0}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{border:1px solid var(--line);padding:.45rem .7rem;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
.toc{background:var(--soft);border:1px solid var(--line);border-radius:8px;padding:.75rem 1.25rem;margin:0 0 1.5rem}
.toc h2{font-size:1rem;border:0;margin:0 0 .4rem;padding:0}
.toc ol{margin:0;columns:2 14rem}
"#;

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
        assert!(html.contains("prefers-color-scheme:dark"));
        assert!(html.contains(":focus-visible"));
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
            "style-src 'unsafe-inline'",
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
