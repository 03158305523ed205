//! Renders the ordering guide page at build time with the crate's own Markdown renderer and page
//! shell (compiled here from the same source files), so the Worker carries neither the renderer
//! nor the page: `tests/scripts/build.sh` copies the page into the static assets, where it is
//! served as `/docs/ordering-guide`, with the pages' security headers in `_headers` (the same CSP
//! as `web::html::CSP`, which this reads). Outputs go to `OUT_DIR`.

#[allow(dead_code)]
#[path = "src/web/escape.rs"]
mod escape;
#[allow(dead_code)]
#[path = "src/web/html.rs"]
mod html;
#[allow(dead_code)]
#[path = "src/web/markdown.rs"]
mod markdown;
#[allow(dead_code)]
#[path = "src/unicode.rs"]
mod unicode;

use std::path::Path;

const GUIDE: &str = "src/guide/ordering-guide.md";

fn main() {
    for input in [
        GUIDE,
        "src/web/markdown.rs",
        "src/web/escape.rs",
        "src/web/html.rs",
        "src/unicode.rs",
        "build.rs",
    ] {
        println!("cargo::rerun-if-changed={input}");
    }
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let text =
        std::fs::read_to_string(GUIDE).unwrap_or_else(|error| panic!("reading {GUIDE}: {error}"));
    let (title, body) = markdown::with_contents(&text);
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
}
