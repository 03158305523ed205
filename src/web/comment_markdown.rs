//! Review comments as GitHub-flavoured Markdown, rendered into safe HTML (issue 29), through the
//! one renderer, `safe_markdown` (its rules: no raw HTML, safe link schemes only, images as links,
//! nesting and size bounded, issue 36 W-C).
//!
//! Why: reviewers write comments in the Markdown GitHub renders (tables, task lists, strikethrough,
//! fenced code, ```` ```suggestion ```` blocks), and the page shows both GitHub's comments and the
//! viewer's drafts and preview the way GitHub would. This module is the comments' entry to the
//! renderer, and finds a body's suggestion for applying it.
//!
//! What not: no HTML writing of its own (`safe_markdown` writes it all).

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use super::safe_markdown::{self, Surface};

/// Renders a comment's `body`. `commented` is the text of the lines the comment is on (oldest
/// first, without their `+`/`-` markers), used to show a suggestion as a diff; `None` when they
/// are not known (the suggestion then shows only its new lines). A body too long to show whole
/// is cut with a line saying so (a draft or a preview is not on GitHub yet).
pub fn render(body: &str, commented: Option<&[String]>) -> String {
    render_from(body, commented, None)
}

/// `render` for a comment on GitHub at `github` (its `html_url`, already checked to be
/// GitHub's): where a long comment is cut, a link reads the rest there.
pub fn render_from(body: &str, commented: Option<&[String]>, github: Option<&str>) -> String {
    safe_markdown::render(body, Surface::Comment { commented, github }).html
}

/// `render_from` cut at `limit` bytes of HTML instead of the renderer's own bound: a comment
/// among many on a page (`review_page::discussion::MAX_COMMENT_HTML_BYTES`, issue #44).
pub fn render_capped(
    body: &str,
    commented: Option<&[String]>,
    github: Option<&str>,
    limit: usize,
) -> String {
    safe_markdown::render_bounded(body, Surface::Comment { commented, github }, limit).html
}

/// The first ```` ```suggestion ```` block's lines of a body, if it has one: what applying the
/// suggestion would put in place of the commented lines.
pub fn suggestion(body: &str) -> Option<Vec<String>> {
    let mut inside = false;
    let mut text = String::new();
    for event in Parser::new_ext(body, Options::ENABLE_GFM) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if is_suggestion(&info) => {
                inside = true
            }
            Event::Text(t) if inside => text.push_str(&t),
            Event::End(TagEnd::CodeBlock) if inside => return Some(safe_markdown::lines(&text)),
            _ => {}
        }
    }
    None
}

fn is_suggestion(info: &str) -> bool {
    info.split_whitespace().next() == Some("suggestion")
}

#[cfg(test)]
mod tests {
    use super::{render, suggestion};
    use crate::web::safe_markdown::allowed_href;

    fn check(body: &str, expected: &str) {
        assert_eq!(render(body, None), expected, "{body}");
    }

    #[test]
    fn raw_html_is_text() {
        check(
            "<script>alert(1)</script>",
            "&lt;script&gt;alert(1)&lt;/script&gt;",
        );
        check(
            "Hi <img src=x onerror=alert(1)> there",
            "<p>Hi &lt;img src=x onerror=alert(1)&gt; there</p>\n",
        );
        check(
            "<div onclick=\"x()\">\n*a*\n</div>",
            "&lt;div onclick=&quot;x()&quot;&gt;\n*a*\n&lt;/div&gt;",
        );
        let html = render("a <iframe src=//evil> b <svg onload=alert(1)>", None);
        assert!(
            !html.contains("<iframe") && !html.contains("<svg"),
            "{html}"
        );
    }

    #[test]
    fn links_keep_only_safe_destinations() {
        check(
            "[x](https://example.com/a?b=1)",
            "<p><a href=\"https://example.com/a?b=1\" rel=\"noopener noreferrer nofollow\">x</a></p>\n",
        );
        check("[x](javascript:alert(1))", "<p>x</p>\n");
        check("[x](JaVaScRiPt:alert(1))", "<p>x</p>\n");
        check("[x](<java\tscript:alert(1)>)", "<p>x</p>\n");
        check("[x](data:text/html;base64,PHNjcmlwdD4=)", "<p>x</p>\n");
        check("[x](vbscript:msgbox)", "<p>x</p>\n");
        check(
            "[x](#L10)",
            "<p><a href=\"#L10\" rel=\"noopener noreferrer nofollow\">x</a></p>\n",
        );
        check(
            "[x](mailto:a@b.c)",
            "<p><a href=\"mailto:a@b.c\" rel=\"noopener noreferrer nofollow\">x</a></p>\n",
        );
        check("[x](//evil.example/)", "<p>x</p>\n");
        check(
            "[a\"b](https://x.y/\"onmouseover=\"alert(1))",
            "<p><a href=\"https://x.y/&quot;onmouseover=&quot;alert(1)\" rel=\"noopener noreferrer nofollow\">a&quot;b</a></p>\n",
        );
        check(
            "<https://example.com>",
            "<p><a href=\"https://example.com\" rel=\"noopener noreferrer nofollow\">https://example.com</a></p>\n",
        );
        assert_eq!(allowed_href("src/lib.rs"), Some("src/lib.rs".into()));
        assert_eq!(allowed_href("a/b:c"), Some("a/b:c".into()));
        assert_eq!(allowed_href(" javascript:x"), None);
    }

    #[test]
    fn images_are_links_never_loaded() {
        check(
            "![a cat](https://example.com/cat.png)",
            "<p><a href=\"https://example.com/cat.png\" rel=\"noopener noreferrer nofollow\">a cat</a></p>\n",
        );
        check("![x](javascript:alert(1))", "<p>x</p>\n");
        let html = render("![x\" onerror=\"alert(1)](https://e.x/p.png)", None);
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("onerror=\""), "{html}");
    }

    #[test]
    fn github_flavoured_blocks() {
        check(
            "| a | b |\n|---|---|\n| 1 | `2` |",
            "<div class=\"md-table\"><table>\n<thead>\n<tr><th>a</th><th>b</th></tr>\n</thead>\n<tbody>\n<tr><td>1</td><td><code>2</code></td></tr>\n</tbody>\n</table></div>\n",
        );
        check(
            "~~gone~~ **bold**",
            "<p><del>gone</del> <strong>bold</strong></p>\n",
        );
        check(
            "- [x] done\n- [ ] todo",
            "<ul>\n<li><input type=\"checkbox\" disabled checked aria-label=\"Done\"> done</li>\n<li><input type=\"checkbox\" disabled aria-label=\"Not done\"> todo</li>\n</ul>\n",
        );
        check(
            "```rust\nfn a() {}\n<b>\n```",
            "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-rust\">fn a() {}\n&lt;b&gt;\n</code></pre>\n",
        );
        check("# Title", "<h3>Title</h3>\n");
        check("> quoted", "<blockquote>\n<p>quoted</p>\n</blockquote>\n");
    }

    #[test]
    fn suggestions_render_as_a_diff_of_the_commented_lines() {
        let body = "Simpler:\n```suggestion\nlet x = 1;\nlet y = <2>;\n```";
        let commented = vec!["let x = 0;".to_string()];
        let html = render(body, Some(&commented));
        assert_eq!(
            html,
            "<p>Simpler:</p>\n<div class=\"suggestion\"><p class=\"suggestion-title\">Suggested change</p>\
             <table class=\"suggestion-diff\"><caption class=\"vh\">Lines removed, then lines suggested in their place</caption>\
             <tr class=\"del\"><td class=\"code\"><span class=\"mk\">-</span>let x = 0;</td></tr>\
             <tr class=\"add\"><td class=\"code\"><span class=\"mk\">+</span>let x = 1;</td></tr>\
             <tr class=\"add\"><td class=\"code\"><span class=\"mk\">+</span>let y = &lt;2&gt;;</td></tr></table></div>\n"
        );
        assert_eq!(
            suggestion(body),
            Some(vec!["let x = 1;".to_string(), "let y = <2>;".to_string()])
        );
        assert_eq!(suggestion("```rust\nx\n```"), None);
        let removal = render("```suggestion\n```", Some(&commented));
        assert!(removal.contains("(the lines are removed)"), "{removal}");
    }

    #[test]
    fn nothing_panics_on_odd_input() {
        for body in [
            "",
            "[",
            "![",
            "```",
            "[![a](javascript:x)](https://a.b)",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
            &"> ".repeat(500),
            &"*a ".repeat(2000),
        ] {
            let html = render(body, None);
            assert!(!html.contains("<script"), "{body}");
        }
        let nested = render("[![a](https://i.x/p.png)](https://a.b)", None);
        assert_eq!(
            nested,
            "<p><a href=\"https://a.b\" rel=\"noopener noreferrer nofollow\">a</a></p>\n"
        );
    }
}
