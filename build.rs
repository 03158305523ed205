//! Renders the ordering guide page at build time with the crate's own Markdown renderer
//! (`web::safe_markdown`, over `pulldown-cmark`, a build dependency too) and page shell (compiled
//! here from the same source files), so the Worker carries neither the guide nor the page: `tests/scripts/build.sh` copies the page into the static assets, where it is
//! served as `/docs/ordering-guide`, with the pages' security headers in `_headers` (the same CSP
//! as `web::html::CSP`, which this reads). Outputs go to `OUT_DIR`.
//!
//! It also composes the MCP Apps view: `src/mcp/apps/reading-order.html` with the diagram's
//! drawing code, `src/static/diagram.js` (the review page's static asset), inlined at the view's
//! one `/*@logikflow/diagram.js*/` marker, so both draw with one copy of the code. The crate
//! compiles the composed file in (`mcp::apps::view_html`), in the wasm as natively.

#[allow(dead_code)]
#[path = "src/web/escape.rs"]
mod escape;
#[allow(dead_code)]
#[path = "src/web/html.rs"]
mod html;
#[allow(dead_code)]
#[path = "src/web/safe_markdown.rs"]
mod safe_markdown;
#[allow(dead_code)]
#[path = "src/unicode.rs"]
mod unicode;

use std::path::Path;

const GUIDE: &str = "src/guide/ordering-guide.md";
const VIEW: &str = "src/mcp/apps/reading-order.html";
const DIAGRAM_JS: &str = "src/static/diagram.js";
/// Where the view takes the drawing code: an inline script holding only this comment.
const DIAGRAM_MARKER: &str = "<script>/*@logikflow/diagram.js*/</script>";

fn main() {
    for input in [
        GUIDE,
        "src/web/safe_markdown.rs",
        "src/web/escape.rs",
        "src/web/html.rs",
        "src/unicode.rs",
        VIEW,
        DIAGRAM_JS,
        "build.rs",
    ] {
        println!("cargo::rerun-if-changed={input}");
    }
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let text =
        std::fs::read_to_string(GUIDE).unwrap_or_else(|error| panic!("reading {GUIDE}: {error}"));
    let (title, body, cut) = safe_markdown::with_contents(&text);
    assert!(
        !cut,
        "{GUIDE} renders to more than safe_markdown::MAX_HTML_BYTES: raise the bound or split the guide"
    );
    let write = |name: &str, content: &str| {
        let path = Path::new(&out_dir).join(name);
        std::fs::write(&path, content)
            .unwrap_or_else(|error| panic!("writing {}: {error}", path.display()));
    };
    // No base URL: a static page names the endpoint as a path on whatever host serves it.
    write("ordering-guide.html", &html::page(&title, &body, ""));
    write("ordering-guide.title", &title);
    write(
        "_headers",
        &format!(
            "/docs/*\n  Content-Security-Policy: {}\n  X-Frame-Options: DENY\n  Referrer-Policy: no-referrer\n  X-Content-Type-Options: nosniff\n/static/*\n  X-Content-Type-Options: nosniff\n",
            html::CSP
        ),
    );
    write("reading-order.html", &compose_view());
}

/// The view with the drawing code in place of its marker. Panics (fails the build) unless the
/// marker is there exactly once and the script can't end its own `<script>` element early.
fn compose_view() -> String {
    let read = |path: &str| {
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("reading {path}: {error}"))
    };
    let view = read(VIEW);
    let script = read(DIAGRAM_JS);
    assert_eq!(
        view.matches(DIAGRAM_MARKER).count(),
        1,
        "{VIEW} must hold {DIAGRAM_MARKER} exactly once"
    );
    let lower = script.to_ascii_lowercase();
    assert!(
        !lower.contains("</script") && !lower.contains("<!--"),
        "{DIAGRAM_JS} must not contain `</script` or `<!--`: it is inlined into {VIEW}"
    );
    view.replace(DIAGRAM_MARKER, &format!("<script>\n{}</script>", script))
}
