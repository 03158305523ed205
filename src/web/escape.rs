//! HTML escaping, on its own so the build script can compile it with the Markdown renderer and
//! render the ordering guide at build time (`build.rs`); `html` re-exports it.

/// Escapes text for HTML element content and quoted attribute values (`&`, `<`, `>`, `"`, `'`).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    escape_into(&mut out, text);
    out
}

/// Appends `text` to `out`, escaped as `escape` does.
pub fn escape_into(out: &mut String, text: &str) {
    let mut rest = text;
    while let Some(index) = rest.find(['&', '<', '>', '"', '\'']) {
        out.push_str(&rest[..index]);
        let replacement = match rest.as_bytes()[index] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#39;",
        };
        out.push_str(replacement);
        rest = &rest[index + 1..];
    }
    out.push_str(rest);
}
