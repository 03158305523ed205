//! Fixed fragments of pages kept as `.html` files beside the module that shows them
//! (`web/home.html`, `web/review-keys.html`, …), compiled in with `include_str!`.
//!
//! Why files: a paragraph of markup reads and diffs better as HTML than as a Rust string of
//! escaped quotes, and a designer can edit it without touching code. Two helpers make that work:
//! [`fragment`] drops the newline every file ends with at compile time (a fragment that ends in
//! a newline of its own has a blank line at the end of its file), and [`fill_into`] puts
//! request values into a fragment's `{name}` placeholders in one pass.
//!
//! What not: no escaping (callers pass values already escaped for where they go), no loops or
//! conditions: a page with logic is a Rust function.

/// `file` without its last newline, if it ends with one; for `include_str!` of a fragment, so
/// the page holds exactly the fragment's text: `const BODY: &str = fragment(include_str!("x.html"));`.
pub const fn fragment(file: &'static str) -> &'static str {
    match file.as_bytes().split_last() {
        Some((b'\n', rest)) => match std::str::from_utf8(rest) {
            Ok(text) => text,
            Err(_) => file,
        },
        _ => file,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fragment_loses_exactly_its_files_last_newline() {
        const ONE: &str = fragment("<p>x</p>\n");
        assert_eq!(ONE, "<p>x</p>");
        assert_eq!(fragment("<p>x</p>\n\n"), "<p>x</p>\n");
        assert_eq!(fragment("<p>x</p>"), "<p>x</p>");
        assert_eq!(fragment(""), "");
        assert_eq!(fragment("é\n"), "é");
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
