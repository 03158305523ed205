//! Renders the ordering guide to HTML at build time with the crate's own Markdown renderer
//! (compiled here from the same source files), so the Worker serves the HTML without carrying the
//! renderer in its wasm. `web::pages::ordering_guide_prerendered` includes the output.

#[allow(dead_code)]
#[path = "src/web/escape.rs"]
mod html;
#[allow(dead_code)]
#[path = "src/web/markdown.rs"]
mod markdown;

use std::path::Path;

const GUIDE: &str = "src/guide/ordering-guide.md";

fn main() {
    for input in [
        GUIDE,
        "src/web/markdown.rs",
        "src/web/escape.rs",
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
    write("ordering-guide.title", &title);
    write("ordering-guide.html", &body);
}
