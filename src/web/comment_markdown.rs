//! Review comments as GitHub-flavoured Markdown, rendered into safe HTML (issue 29).
//!
//! Why: reviewers write comments in the Markdown GitHub renders (tables, task lists, strikethrough,
//! fenced code, ```` ```suggestion ```` blocks), and the page shows both GitHub's comments and the
//! viewer's drafts and preview the way GitHub would. The text is someone else's, so it must never
//! become markup: the parser is `pulldown-cmark` (the well-kept CommonMark parser, with GitHub's
//! extensions), and this module writes the HTML itself from its events:
//! - raw HTML (blocks and inline) is written as escaped text, exactly as typed;
//! - links keep only `http:`, `https:`, `mailto:` and relative destinations, each with
//!   `rel="noopener noreferrer nofollow"`; anything else (`javascript:`, `data:`, `vbscript:`) is
//!   the link's text alone;
//! - images are never loaded (the page's CSP would refuse them anyway): they become a link to the
//!   image named by its alt text, under the same rule;
//! - a ```` ```suggestion ```` block becomes a small diff: the commented lines removed, then the
//!   suggested ones added (when the caller knows the commented lines).
//!
//! What not: no HTML passthrough of any kind, no footnotes, no math, no heading ids (comments are
//! fragments inside a page), no `@mention` or issue links (they need GitHub's lookups).

use std::fmt::Write as _;

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::html::{escape, escape_into};

/// The `rel` every link in a comment gets: the target can't reach back into the page
/// (`noopener`), learns nothing of where it was linked from (`noreferrer`), and gains no search
/// ranking from it (`nofollow`, as GitHub marks user content).
const LINK_REL: &str = "noopener noreferrer nofollow";

/// Renders a comment's `body`. `commented` is the text of the lines the comment is on (oldest
/// first, without their `+`/`-` markers), used to show a suggestion as a diff; `None` when they
/// are not known (the suggestion then shows only its new lines).
pub fn render(body: &str, commented: Option<&[String]>) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM;
    let mut writer = Writer {
        out: String::with_capacity(body.len() + body.len() / 2 + 16),
        commented,
        links: Vec::new(),
        code: None,
        table_head: false,
        image_alt: None,
    };
    for event in Parser::new_ext(body, options) {
        writer.event(event);
    }
    writer.out
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
            Event::End(TagEnd::CodeBlock) if inside => return Some(lines(&text)),
            _ => {}
        }
    }
    None
}

fn is_suggestion(info: &str) -> bool {
    info.split_whitespace().next() == Some("suggestion")
}

fn lines(text: &str) -> Vec<String> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    text.split('\n').map(str::to_string).collect()
}

/// A code block being collected: fenced `suggestion` blocks are written at their end.
struct Code {
    suggestion: bool,
    text: String,
}

struct Writer<'c> {
    out: String,
    commented: Option<&'c [String]>,
    /// For each open link: whether it was written as `<a>` (an allowed destination) and so needs
    /// its `</a>`.
    links: Vec<bool>,
    code: Option<Code>,
    table_head: bool,
    /// Inside an image: its destination (when allowed) and the alt text so far.
    image_alt: Option<(Option<String>, String)>,
}

impl Writer<'_> {
    fn event(&mut self, event: Event<'_>) {
        if let Some((_, alt)) = &mut self.image_alt {
            match event {
                Event::End(TagEnd::Image) => self.end_image(),
                Event::Text(t) | Event::Code(t) => alt.push_str(&t),
                _ => {}
            }
            return;
        }
        if let Some(code) = &mut self.code {
            match event {
                Event::End(TagEnd::CodeBlock) => self.end_code(),
                Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => code.text.push_str(&t),
                _ => {}
            }
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => escape_into(&mut self.out, &text),
            Event::Code(text) => {
                self.out.push_str("<code>");
                escape_into(&mut self.out, &text);
                self.out.push_str("</code>");
            }
            // Raw HTML, as typed: text, never markup.
            Event::Html(text) | Event::InlineHtml(text) => escape_into(&mut self.out, &text),
            Event::InlineMath(text) | Event::DisplayMath(text) => escape_into(&mut self.out, &text),
            Event::FootnoteReference(name) => {
                self.out.push_str("[^");
                escape_into(&mut self.out, &name);
                self.out.push(']');
            }
            Event::SoftBreak => self.out.push('\n'),
            Event::HardBreak => self.out.push_str("<br>\n"),
            Event::Rule => self.out.push_str("<hr>\n"),
            Event::TaskListMarker(done) => self.out.push_str(if done {
                "<input type=\"checkbox\" disabled checked aria-label=\"Done\"> "
            } else {
                "<input type=\"checkbox\" disabled aria-label=\"Not done\"> "
            }),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        let out = &mut self.out;
        match tag {
            Tag::Paragraph => out.push_str("<p>"),
            Tag::Heading { level, .. } => {
                // Comment headings sit inside a page with its own outline: they are shown a
                // level lower than written, as GitHub's own comment styles make them small.
                let _ = write!(out, "<h{}>", heading(level));
            }
            Tag::BlockQuote(_) => out.push_str("<blockquote>\n"),
            Tag::CodeBlock(kind) => {
                let suggestion =
                    matches!(&kind, CodeBlockKind::Fenced(info) if is_suggestion(info));
                self.code = Some(Code {
                    suggestion,
                    text: String::new(),
                });
            }
            Tag::HtmlBlock => {}
            Tag::List(Some(1)) => out.push_str("<ol>\n"),
            Tag::List(Some(start)) => {
                let _ = writeln!(out, "<ol start=\"{start}\">");
            }
            Tag::List(None) => out.push_str("<ul>\n"),
            Tag::Item => out.push_str("<li>"),
            Tag::Table(_) => out.push_str("<div class=\"md-table\"><table>"),
            Tag::TableHead => {
                self.table_head = true;
                out.push_str("<thead><tr>");
            }
            Tag::TableRow => out.push_str("<tr>"),
            Tag::TableCell => out.push_str(if self.table_head { "<th>" } else { "<td>" }),
            Tag::Emphasis => out.push_str("<em>"),
            Tag::Strong => out.push_str("<strong>"),
            Tag::Strikethrough => out.push_str("<del>"),
            Tag::Superscript => out.push_str("<sup>"),
            Tag::Subscript => out.push_str("<sub>"),
            Tag::Link {
                dest_url, title, ..
            } => match allowed_href(&dest_url) {
                Some(href) => {
                    let _ = write!(out, "<a href=\"{}\" rel=\"{LINK_REL}\"", escape(&href));
                    if !title.is_empty() {
                        let _ = write!(out, " title=\"{}\"", escape(&title));
                    }
                    out.push('>');
                    self.links.push(true);
                }
                None => self.links.push(false),
            },
            Tag::Image { dest_url, .. } => {
                self.image_alt = Some((allowed_href(&dest_url), String::new()));
            }
            Tag::FootnoteDefinition(_)
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => out.push_str("<div>"),
        }
    }

    fn end(&mut self, tag: TagEnd) {
        let out = &mut self.out;
        match tag {
            TagEnd::Paragraph => out.push_str("</p>\n"),
            TagEnd::Heading(level) => {
                let _ = writeln!(out, "</h{}>", heading(level));
            }
            TagEnd::BlockQuote(_) => out.push_str("</blockquote>\n"),
            TagEnd::CodeBlock => {}
            TagEnd::HtmlBlock => {}
            TagEnd::List(true) => out.push_str("</ol>\n"),
            TagEnd::List(false) => out.push_str("</ul>\n"),
            TagEnd::Item => out.push_str("</li>\n"),
            TagEnd::Table => out.push_str("</tbody></table></div>\n"),
            TagEnd::TableHead => {
                self.table_head = false;
                out.push_str("</tr></thead><tbody>");
            }
            TagEnd::TableRow => out.push_str("</tr>"),
            TagEnd::TableCell => out.push_str(if self.table_head { "</th>" } else { "</td>" }),
            TagEnd::Emphasis => out.push_str("</em>"),
            TagEnd::Strong => out.push_str("</strong>"),
            TagEnd::Strikethrough => out.push_str("</del>"),
            TagEnd::Superscript => out.push_str("</sup>"),
            TagEnd::Subscript => out.push_str("</sub>"),
            TagEnd::Link => {
                if self.links.pop() == Some(true) {
                    out.push_str("</a>");
                }
            }
            TagEnd::Image => {}
            TagEnd::FootnoteDefinition
            | TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition
            | TagEnd::MetadataBlock(_) => out.push_str("</div>"),
        }
    }

    fn end_image(&mut self) {
        let Some((href, alt)) = self.image_alt.take() else {
            return;
        };
        let alt = if alt.trim().is_empty() {
            "image"
        } else {
            alt.trim()
        };
        match href {
            // Inside a link the image's own link would nest `<a>`: its alt text is enough.
            Some(href) if !self.links.contains(&true) => {
                let _ = write!(
                    self.out,
                    "<a href=\"{}\" rel=\"{LINK_REL}\">{}</a>",
                    escape(&href),
                    escape(alt)
                );
            }
            _ => escape_into(&mut self.out, alt),
        }
    }

    fn end_code(&mut self) {
        let Some(code) = self.code.take() else {
            return;
        };
        if code.suggestion {
            suggestion_html(&mut self.out, &lines(&code.text), self.commented);
            return;
        }
        self.out.push_str(super::markdown::PRE_OPEN);
        self.out.push_str("<code>");
        escape_into(&mut self.out, &code.text);
        self.out.push_str("</code></pre>\n");
    }
}

/// A suggested change as GitHub shows it: the commented lines removed, the suggested lines added.
fn suggestion_html(out: &mut String, suggested: &[String], commented: Option<&[String]>) {
    out.push_str(
        "<div class=\"suggestion\"><p class=\"suggestion-title\">Suggested change</p>\
         <table class=\"suggestion-diff\"><caption class=\"vh\">Lines removed, then lines suggested in their place</caption>",
    );
    for line in commented.unwrap_or_default() {
        out.push_str("<tr class=\"del\"><td class=\"code\"><span class=\"mk\">-</span>");
        escape_into(out, line);
        out.push_str("</td></tr>");
    }
    for line in suggested {
        out.push_str("<tr class=\"add\"><td class=\"code\"><span class=\"mk\">+</span>");
        escape_into(out, line);
        out.push_str("</td></tr>");
    }
    if suggested.is_empty() {
        out.push_str("<tr><td class=\"code muted\">(the lines are removed)</td></tr>");
    }
    out.push_str("</table></div>\n");
}

/// A heading written at `level` is shown one level lower, at most `h6`, never `h1`/`h2`.
fn heading(level: HeadingLevel) -> u8 {
    let written = level as u8;
    (written + 2).min(6)
}

/// A link destination we keep: `http:`, `https:` and `mailto:` URLs and relative references
/// (a path, a query or a fragment); `None` for any other scheme. Control characters and spaces
/// are stripped first, as browsers strip them when they read a URL (so `java\tscript:` is
/// caught).
pub fn allowed_href(destination: &str) -> Option<String> {
    let cleaned: String = destination
        .chars()
        .filter(|c| !c.is_control() && *c != ' ')
        .collect();
    if cleaned.is_empty() {
        return None;
    }
    let lower = cleaned.to_ascii_lowercase();
    let scheme_end = lower.find(':');
    let first_delimiter = lower.find(['/', '?', '#']);
    let has_scheme = match (scheme_end, first_delimiter) {
        (Some(colon), Some(delimiter)) => colon < delimiter,
        (Some(_), None) => true,
        _ => false,
    };
    if !has_scheme {
        // Relative. A leading `//` would name another host with this page's scheme: refused,
        // as a scheme-relative link is not a relative reference GitHub users mean.
        return (!cleaned.starts_with("//") && !cleaned.starts_with("\\\\")).then_some(cleaned);
    }
    ["http:", "https:", "mailto:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
        .then_some(cleaned)
}

#[cfg(test)]
mod tests {
    use super::{allowed_href, render, suggestion};

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
            "<div class=\"md-table\"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><code>2</code></td></tr></tbody></table></div>\n",
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
            "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>fn a() {}\n&lt;b&gt;\n</code></pre>\n",
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
