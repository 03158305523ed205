//! The one Markdown renderer: reviewers' comments, agents' notes and the ordering guide, all parsed
//! by `pulldown-cmark` (CommonMark with GitHub's extensions) and written to HTML here, under one
//! set of safety rules and one set of bounds (issues 36 and 37).
//!
//! Why: comments and notes are someone else's text shown to every reviewer, so they must never
//! become markup and never make a page heavy; the guide is our own text but goes through the same
//! writer, so there is one set of rules to read and test. The rules:
//! - raw HTML (blocks and inline) is written as escaped text, exactly as typed;
//! - links keep only `http:`, `https:`, `mailto:` and relative destinations (`allowed_href`),
//!   each with `rel="noopener noreferrer nofollow"`; anything else is the link's text alone;
//! - images are never loaded: they become a link to the image named by its alt text;
//! - agents' notes are less trusted still: only their code spans render (`code_spans`), every
//!   other character is shown as typed;
//! - blocks nest at most `MAX_NESTING` deep (deeper block quotes and lists are shown flat), and
//!   one text renders to at most about `MAX_HTML_BYTES`; where it is cut, every open element is
//!   closed and a line says where to read the rest.
//!
//! The three surfaces differ only where `Surface` says: a comment's headings are shown two levels
//! lower and its ```` ```suggestion ```` blocks as a diff; the guide's headings get GitHub-style
//! ids and a self-link, and a caller can list them for a table of contents (`with_contents`).
//!
//! What not: no HTML passthrough of any kind, no footnotes, no math, no `@mention` or issue links
//! (they need GitHub's lookups). `build.rs` compiles this file by path to render the guide at
//! build time, so it names nothing of the crate but `html` (escaping).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::html::{escape, escape_into};

/// How every code block opens: a `<pre>` scrolls sideways when a line is long, so it takes
/// keyboard focus and has a name (WCAG 2.1.1; axe-core's `scrollable-region-focusable`), or a
/// keyboard user could never read the end of the line.
pub const PRE_OPEN: &str = "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\">";

/// How many block quotes and lists may be open at once; deeper ones are shown flat (their text
/// stays, their boxes don't). People quote a quote of a quote, and lists go three or four deep;
/// 16 is far beyond that, and it bounds a hostile comment of 65,536 `>` to 16 `<blockquote>`
/// elements instead of 65,535 (1.8 MB of markup, issue 36 W-C).
pub const MAX_NESTING: usize = 16;

/// The most HTML one text renders to, in bytes, before it is cut (plus the closing tags of what
/// is open, at most `MAX_NESTING` deep, and the line saying where the rest is). A 65,536-character
/// comment, GitHub's limit, of ordinary prose renders to about 70 KB; text that escapes to more
/// (`"` becomes `&quot;`) or piles up elements could reach several hundred KB on the page of
/// everyone who opens the pull request. 96 KiB keeps every realistic comment and the ordering
/// guide (about 31 KB) whole, and a page with twenty hostile comments under 2 MB.
pub const MAX_HTML_BYTES: usize = 96 * 1024;

/// How many container markers (`>`, `-`, `+`, `*`, `1.`, `1)`) at the start of a line reach the
/// parser; more are dropped before parsing. Block quotes and lists deeper than `MAX_NESTING` are
/// shown flat anyway, but `pulldown-cmark` still builds every level: a comment of 65,536 `>` took
/// 12 ms to parse natively, one of 32,768 `+ ` as long (the Worker's CPU budget is 10 ms a
/// request); 64 levels take microseconds. Four times `MAX_NESTING` keeps what the parser sees
/// identical for everything shown nested; a code line starting with more than 64 of them would
/// lose the rest, which no real code does.
const MAX_LINE_MARKERS: usize = 4 * MAX_NESTING;

/// The `rel` every link gets: the target can't reach back into the page (`noopener`), learns
/// nothing of where it was linked from (`noreferrer`), and gains no search ranking from it
/// (`nofollow`, as GitHub marks user content).
const LINK_REL: &str = "noopener noreferrer nofollow";

/// The line where a cut comment ends, linking to the comment on GitHub.
const CUT_LINK: &str = "Read the rest on GitHub";
/// The line where a cut text ends when it is not on GitHub (a draft, a preview, a note).
const CUT_NOTICE: &str = "The rest is too long to show here.";

/// The extensions every surface parses: GitHub's tables, strikethrough and task lists.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM
}

/// What is being rendered, where the surfaces differ.
pub enum Surface<'c> {
    /// A review comment or draft. `commented` is the text of the lines it is on (oldest first,
    /// without `+`/`-`), to show a suggestion as a diff; `github` is the comment's URL, linked
    /// where a long comment is cut.
    Comment {
        commented: Option<&'c [String]>,
        github: Option<&'c str>,
    },
    /// Our own document (the ordering guide): headings with ids and self-links.
    Document,
}

/// A heading of a rendered document, for tables of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// 1 for `#` through 6 for `######`.
    pub level: u8,
    /// The unique `id` attribute given to the heading.
    pub id: String,
    /// The heading's text without markup, unescaped.
    pub text: String,
    /// Byte offset in `Rendered::html` where the heading's opening tag starts.
    pub offset: usize,
}

/// Rendered HTML, its headings in document order (documents only) and whether it was cut at
/// `MAX_HTML_BYTES`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub html: String,
    pub headings: Vec<Heading>,
    pub cut: bool,
}

/// Renders Markdown for `surface` under the bounds.
pub fn render(markdown: &str, surface: Surface<'_>) -> Rendered {
    render_bounded(markdown, surface, MAX_HTML_BYTES)
}

/// `render` with another size limit: a lower one for a comment among many on a page
/// (`comment_markdown::render_capped`), and for tests of the cut.
pub(crate) fn render_bounded(markdown: &str, surface: Surface<'_>, limit: usize) -> Rendered {
    // CommonMark replaces NUL with U+FFFD; the parser leaves it to the writer.
    let markdown = if markdown.contains('\0') {
        Cow::Owned(markdown.replace('\0', "\u{FFFD}"))
    } else {
        Cow::Borrowed(markdown)
    };
    write(&shallow_containers(&markdown), surface, limit)
}

/// Parses and writes, with no bound on container markers per line (`render_bounded` applies it).
fn write(markdown: &str, surface: Surface<'_>, limit: usize) -> Rendered {
    let mut writer = Writer {
        out: String::with_capacity((markdown.len() + markdown.len() / 2 + 16).min(limit + 1024)),
        surface,
        limit,
        cut: false,
        open: Vec::new(),
        depth: 0,
        code: None,
        image: None,
        table: None,
        heading: None,
        headings: Vec::new(),
        used_ids: HashMap::new(),
    };
    for event in Parser::new_ext(markdown, options()) {
        writer.event(event);
        if writer.cut || writer.out.len() >= writer.limit {
            writer.cut = true;
            break;
        }
    }
    writer.finish()
}

/// The text with at most `MAX_LINE_MARKERS` container markers at the start of each line: the
/// markers between the first `MAX_LINE_MARKERS - 1` and the last are dropped, so the innermost
/// container (a quote or a list item) and what follows it are kept.
fn shallow_containers(markdown: &str) -> Cow<'_, str> {
    if !markdown
        .split('\n')
        .any(|line| markers(line).len() > MAX_LINE_MARKERS)
    {
        return Cow::Borrowed(markdown);
    }
    let mut out = String::with_capacity(markdown.len());
    for line in markdown.split_inclusive('\n') {
        let found = markers(line);
        match (found.get(MAX_LINE_MARKERS - 2), found.last()) {
            (Some(&(_, kept_end)), Some(&(last_start, _))) if found.len() > MAX_LINE_MARKERS => {
                // Markers are ASCII, so both splits are on character boundaries. The space ends
                // a kept bullet or number, which needs one, and is a quote's optional one.
                out.push_str(line.get(..kept_end).unwrap_or(line));
                out.push(' ');
                out.push_str(line.get(last_start..).unwrap_or(""));
            }
            _ => out.push_str(line),
        }
    }
    Cow::Owned(out)
}

/// The container markers at the start of `line`, as byte ranges (start, end): `>`, a bullet
/// (`-`, `+`, `*`) or an ordered marker (up to nine digits and `.` or `)`), each bullet and
/// number followed by a space or tab, with any spaces and tabs between them.
fn markers(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let spaced = |at: usize| matches!(bytes.get(at), Some(b' ' | b'\t'));
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let start = i;
        match byte {
            b' ' | b'\t' => {
                i += 1;
                continue;
            }
            b'>' => i += 1,
            b'-' | b'+' | b'*' if spaced(i + 1) => i += 1,
            b'0'..=b'9' => {
                let digits = bytes
                    .get(i..)
                    .unwrap_or_default()
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                let after = i + digits;
                if digits > 9
                    || !matches!(bytes.get(after), Some(b'.' | b')'))
                    || !spaced(after + 1)
                {
                    break;
                }
                i = after + 1;
            }
            _ => break,
        }
        found.push((start, i));
    }
    found
}

/// The guide's title (its first `#` heading) and its HTML with a table of contents of its `##`
/// headings placed before the first of them; and whether it was cut.
pub fn with_contents(markdown: &str) -> (String, String, bool) {
    let document = render(markdown, Surface::Document);
    let title = document
        .headings
        .iter()
        .find(|heading| heading.level == 1 && !heading.text.trim().is_empty())
        .map_or("Ordering guide", |heading| heading.text.trim())
        .to_string();
    let sections: Vec<&Heading> = document
        .headings
        .iter()
        .filter(|heading| heading.level == 2)
        .collect();
    let Some(first) = sections.first() else {
        return (title, document.html, document.cut);
    };
    let mut toc =
        String::from("<nav class=\"toc\" aria-label=\"Contents\">\n<h2>Contents</h2>\n<ol>\n");
    for heading in &sections {
        toc.push_str("<li><a href=\"#");
        toc.push_str(&escape(&heading.id));
        toc.push_str("\">");
        toc.push_str(&escape(&heading.text));
        toc.push_str("</a></li>\n");
    }
    toc.push_str("</ol>\n</nav>\n");
    // Offsets come from the writer and point at a tag start, which is a char boundary; `get`
    // keeps a wrong offset from panicking.
    let body = match (
        document.html.get(..first.offset),
        document.html.get(first.offset..),
    ) {
        (Some(before), Some(after)) => format!("{before}{toc}{after}"),
        _ => format!("{toc}{}", document.html),
    };
    (title, body, document.cut)
}

/// An agent's note: everything shown as typed (escaped, newlines as `<br>`) except its code
/// spans, which become `<code>`. Code spans are found by the same parser as everywhere else, so
/// a backtick means in a note what it means in a comment; nothing else of Markdown applies
/// (`*`, `[`, `#`, `>` and `\` stay literal). A note has no blocks either: the parser reads it as
/// one paragraph, so a line that would open a code block, an HTML block or a link definition
/// in a comment keeps its code spans (as notes showed them before `pulldown-cmark`). Cut at
/// `MAX_HTML_BYTES` like the rest.
pub fn code_spans(text: &str) -> String {
    code_spans_bounded(text, MAX_HTML_BYTES)
}

/// What `code_spans` puts before a note for the parser: a letter, which opens a paragraph.
const NOTE_OPENER: &str = "a";

/// `code_spans` with another size limit, for tests of the cut.
pub(crate) fn code_spans_bounded(text: &str, limit: usize) -> String {
    // CommonMark's line endings and NUL replacement, so offsets and the text agree.
    let text = text
        .replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "\u{FFFD}");
    let mut out = String::with_capacity((text.len() + 16).min(limit + 64));
    // One paragraph: a letter first (so no line opens a block) and every line ending a space,
    // which a code span reads as a line ending would be read; same byte length, so the
    // parser's offsets less the letter are the note's.
    let inline = format!("{NOTE_OPENER}{}", text.replace('\n', " "));
    let mut done = 0;
    let mut cut = false;
    for (event, range) in Parser::new(&inline).into_offset_iter() {
        let Event::Code(code) = event else {
            continue;
        };
        let Some(start) = range.start.checked_sub(NOTE_OPENER.len()) else {
            continue;
        };
        let Some(before) = text.get(done..start) else {
            continue;
        };
        if !plain_lines(&mut out, before, limit) || out.len() + 13 > limit {
            cut = true;
            break;
        }
        out.push_str("<code>");
        let whole = bounded_escape(&mut out, &code, limit);
        out.push_str("</code>");
        done = range.end.saturating_sub(NOTE_OPENER.len());
        if !whole {
            cut = true;
            break;
        }
    }
    if !cut {
        cut = !plain_lines(&mut out, text.get(done..).unwrap_or(""), limit);
    }
    if cut {
        let _ = write!(out, "<br><span class=\"md-cut\">{CUT_NOTICE}</span>");
    }
    out
}

/// Escaped text with its newlines as `<br>`, within `limit`; false when it didn't all fit.
fn plain_lines(out: &mut String, text: &str, limit: usize) -> bool {
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            if out.len() + 4 > limit {
                return false;
            }
            out.push_str("<br>");
        }
        if !bounded_escape(out, line, limit) {
            return false;
        }
    }
    true
}

/// Escapes `text` into `out` while `out` stays within `limit` bytes; false when it stopped early
/// (never inside a character or an entity).
fn bounded_escape(out: &mut String, text: &str, limit: usize) -> bool {
    // One byte escapes to at most six (`&quot;`).
    if out.len() + text.len() * 6 <= limit {
        escape_into(out, text);
        return true;
    }
    let mut buffer = [0u8; 4];
    for c in text.chars() {
        let piece: &str = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            _ => c.encode_utf8(&mut buffer),
        };
        if out.len() + piece.len() > limit {
            return false;
        }
        out.push_str(piece);
    }
    true
}

/// What an open element needs when it ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// Nothing was written for it (nested too deep, a link to a refused destination).
    Skipped,
    /// A block quote or list that counts towards `MAX_NESTING`, and its closing tag.
    Nested(&'static str),
    /// Any other element's closing tag.
    Tag(&'static str),
    /// A table: its body, when it has one, is closed first.
    Table,
    /// A document heading: its opening tag is written at its end, once its id is known.
    DocumentHeading,
}

/// A code block being collected: it is written at its end (a suggestion as a diff).
struct Code {
    language: String,
    suggestion: bool,
    text: String,
}

struct TableState {
    aligns: Vec<Alignment>,
    head: bool,
    column: usize,
    body: bool,
}

struct HeadingState {
    level: u8,
    offset: usize,
    plain: String,
}

struct Writer<'c> {
    out: String,
    surface: Surface<'c>,
    limit: usize,
    cut: bool,
    open: Vec<Open>,
    /// Block quotes and lists written and still open.
    depth: usize,
    code: Option<Code>,
    /// Inside an image: its destination (when allowed) and the alt text so far.
    image: Option<(Option<String>, String)>,
    table: Option<TableState>,
    heading: Option<HeadingState>,
    headings: Vec<Heading>,
    used_ids: HashMap<String, usize>,
}

impl Writer<'_> {
    /// Starts a block on a line of its own, as CommonMark's reference HTML does.
    fn fresh_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with('\n') {
            self.out.push('\n');
        }
    }

    /// Whether `bytes` more fit under the limit; marks the text cut when they don't.
    fn fits(&mut self, bytes: usize) -> bool {
        if self.out.len() + bytes > self.limit {
            self.cut = true;
        }
        !self.cut
    }

    /// Escaped text, cut at the limit.
    fn text(&mut self, text: &str) {
        if let Some(heading) = &mut self.heading {
            heading.plain.push_str(text);
        }
        if !bounded_escape(&mut self.out, text, self.limit) {
            self.cut = true;
        }
    }

    fn event(&mut self, event: Event<'_>) {
        if let Some((_, alt)) = &mut self.image {
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
            // Raw HTML, as typed: text, never markup.
            Event::Text(text)
            | Event::Html(text)
            | Event::InlineHtml(text)
            | Event::InlineMath(text)
            | Event::DisplayMath(text) => self.text(&text),
            Event::Code(text) => {
                self.out.push_str("<code>");
                self.text(&text);
                self.out.push_str("</code>");
            }
            Event::FootnoteReference(name) => {
                self.out.push_str("[^");
                self.text(&name);
                self.out.push(']');
            }
            Event::SoftBreak => self.text("\n"),
            Event::HardBreak => self.out.push_str("<br>\n"),
            Event::Rule => {
                self.fresh_line();
                self.out.push_str("<hr>\n");
            }
            Event::TaskListMarker(done) => self.out.push_str(if done {
                "<input type=\"checkbox\" disabled checked aria-label=\"Done\"> "
            } else {
                "<input type=\"checkbox\" disabled aria-label=\"Not done\"> "
            }),
        }
    }

    /// Opens a block quote or list unless `MAX_NESTING` are open already.
    fn nested(&mut self, open: &str, close: &'static str) {
        if self.depth >= MAX_NESTING {
            self.open.push(Open::Skipped);
            return;
        }
        self.fresh_line();
        self.out.push_str(open);
        self.depth += 1;
        self.open.push(Open::Nested(close));
    }

    fn tag(&mut self, open: &str, close: &'static str) {
        self.out.push_str(open);
        self.open.push(Open::Tag(close));
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => {
                self.fresh_line();
                self.tag("<p>", "</p>\n");
            }
            Tag::Heading { level, .. } => {
                self.fresh_line();
                if let Surface::Document = self.surface {
                    self.heading = Some(HeadingState {
                        level: level as u8,
                        offset: self.out.len(),
                        plain: String::new(),
                    });
                    self.open.push(Open::DocumentHeading);
                } else {
                    // Comment headings sit inside a page with its own outline: they are shown
                    // two levels lower than written (at most `h6`), as GitHub's comment styles
                    // make them small.
                    let (open, close) = comment_heading(level);
                    self.tag(open, close);
                }
            }
            Tag::BlockQuote(_) => self.nested("<blockquote>\n", "</blockquote>\n"),
            Tag::CodeBlock(kind) => {
                let (language, suggestion) = match &kind {
                    CodeBlockKind::Fenced(info) => {
                        let language = info.split_whitespace().next().unwrap_or("");
                        let suggestion = language == "suggestion"
                            && matches!(self.surface, Surface::Comment { .. });
                        (language.to_string(), suggestion)
                    }
                    CodeBlockKind::Indented => (String::new(), false),
                };
                self.code = Some(Code {
                    language,
                    suggestion,
                    text: String::new(),
                });
            }
            Tag::HtmlBlock => self.open.push(Open::Skipped),
            Tag::List(Some(1)) => self.nested("<ol>\n", "</ol>\n"),
            Tag::List(Some(start)) => self.nested(&format!("<ol start=\"{start}\">\n"), "</ol>\n"),
            Tag::List(None) => self.nested("<ul>\n", "</ul>\n"),
            Tag::Item => {
                self.fresh_line();
                if self.open.last() == Some(&Open::Skipped) {
                    // An item of a list nested too deep: its text stays, on a line of its own.
                    self.open.push(Open::Skipped);
                } else {
                    self.tag("<li>", "</li>\n");
                }
            }
            Tag::Table(aligns) => {
                self.fresh_line();
                let class = match self.surface {
                    Surface::Document => "table-wrap",
                    Surface::Comment { .. } => "md-table",
                };
                let _ = writeln!(self.out, "<div class=\"{class}\"><table>");
                self.table = Some(TableState {
                    aligns,
                    head: false,
                    column: 0,
                    body: false,
                });
                self.open.push(Open::Table);
            }
            Tag::TableHead => {
                if let Some(table) = &mut self.table {
                    table.head = true;
                    table.column = 0;
                }
                self.tag("<thead>\n<tr>", "</tr>\n</thead>\n");
            }
            Tag::TableRow => {
                if let Some(table) = &mut self.table {
                    table.column = 0;
                    if !table.body {
                        table.body = true;
                        self.out.push_str("<tbody>\n");
                    }
                }
                self.tag("<tr>", "</tr>\n");
            }
            Tag::TableCell => {
                let (head, align) = match &mut self.table {
                    Some(table) => {
                        let align = table.aligns.get(table.column).copied();
                        table.column += 1;
                        (table.head, align.unwrap_or(Alignment::None))
                    }
                    None => (false, Alignment::None),
                };
                let (name, close) = if head {
                    ("th", "</th>")
                } else {
                    ("td", "</td>")
                };
                let style = match align {
                    Alignment::None => "",
                    Alignment::Left => " style=\"text-align:left\"",
                    Alignment::Center => " style=\"text-align:center\"",
                    Alignment::Right => " style=\"text-align:right\"",
                };
                let _ = write!(self.out, "<{name}{style}>");
                self.open.push(Open::Tag(close));
            }
            Tag::Emphasis => self.tag("<em>", "</em>"),
            Tag::Strong => self.tag("<strong>", "</strong>"),
            Tag::Strikethrough => self.tag("<del>", "</del>"),
            Tag::Superscript => self.tag("<sup>", "</sup>"),
            Tag::Subscript => self.tag("<sub>", "</sub>"),
            Tag::Link {
                dest_url, title, ..
            } => match allowed_href(&dest_url) {
                Some(href) if self.fits(64 + 6 * (href.len() + title.len())) => {
                    let _ = write!(self.out, "<a href=\"{}\" rel=\"{LINK_REL}\"", escape(&href));
                    if !title.is_empty() {
                        let _ = write!(self.out, " title=\"{}\"", escape(&title));
                    }
                    self.tag(">", "</a>");
                }
                _ => self.open.push(Open::Skipped),
            },
            Tag::Image { dest_url, .. } => {
                self.image = Some((allowed_href(&dest_url), String::new()));
            }
            Tag::FootnoteDefinition(_)
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => self.tag("<div>", "</div>"),
        }
    }

    fn end(&mut self, tag: TagEnd) {
        if let TagEnd::Image | TagEnd::CodeBlock = tag {
            return;
        }
        if let Some(open) = self.open.pop() {
            self.close(open);
        }
    }

    /// Writes the end of an open element.
    fn close(&mut self, open: Open) {
        match open {
            Open::Skipped => {}
            Open::Nested(close) => {
                self.depth = self.depth.saturating_sub(1);
                self.out.push_str(close);
            }
            Open::Tag(close) => self.out.push_str(close),
            Open::Table => {
                if self.table.take().is_some_and(|table| table.body) {
                    self.out.push_str("</tbody>\n");
                }
                self.out.push_str("</table></div>\n");
            }
            Open::DocumentHeading => self.end_document_heading(),
        }
        if let Open::Tag("</tr>\n</thead>\n") = open {
            if let Some(table) = &mut self.table {
                table.head = false;
            }
        }
    }

    /// Puts the heading's opening tag, with its id, before its content, and ends it with a
    /// self-link.
    fn end_document_heading(&mut self) {
        let Some(heading) = self.heading.take() else {
            return;
        };
        let id = self.unique_id(slug(&heading.plain));
        let id_html = escape(&id);
        let level = heading.level;
        let offset = heading.offset.min(self.out.len());
        self.out
            .insert_str(offset, &format!("<h{level} id=\"{id_html}\">"));
        let _ = writeln!(
            self.out,
            "<a class=\"anchor\" href=\"#{id_html}\" aria-label=\"Link to this section\">#</a></h{level}>"
        );
        self.headings.push(Heading {
            level,
            id,
            text: heading.plain,
            offset,
        });
    }

    /// GitHub's rule for repeated ids: `x`, then `x-1`, `x-2`, skipping ids already taken.
    fn unique_id(&mut self, base: String) -> String {
        let mut count = match self.used_ids.get(&base) {
            None => {
                self.used_ids.insert(base.clone(), 0);
                return base;
            }
            Some(&count) => count,
        };
        loop {
            count += 1;
            let candidate = format!("{base}-{count}");
            if !self.used_ids.contains_key(&candidate) {
                self.used_ids.insert(base, count);
                self.used_ids.insert(candidate.clone(), 0);
                return candidate;
            }
        }
    }

    fn end_image(&mut self) {
        let Some((href, alt)) = self.image.take() else {
            return;
        };
        let alt = if alt.trim().is_empty() {
            "image"
        } else {
            alt.trim()
        };
        let in_link = self.open.contains(&Open::Tag("</a>"));
        match href {
            // Inside a link the image's own link would nest `<a>`: its alt text is enough.
            Some(href) if !in_link && self.fits(64 + 6 * href.len()) => {
                let _ = write!(
                    self.out,
                    "<a href=\"{}\" rel=\"{LINK_REL}\">",
                    escape(&href)
                );
                self.text(alt);
                self.out.push_str("</a>");
            }
            _ => self.text(alt),
        }
    }

    fn end_code(&mut self) {
        let Some(code) = self.code.take() else {
            return;
        };
        self.fresh_line();
        if code.suggestion {
            let commented = match self.surface {
                Surface::Comment { commented, .. } => commented,
                Surface::Document => None,
            };
            self.suggestion(&lines(&code.text), commented);
            return;
        }
        self.out.push_str(PRE_OPEN);
        self.out.push_str("<code");
        if !code.language.is_empty() && self.fits(32 + 6 * code.language.len()) {
            self.out.push_str(" class=\"language-");
            escape_into(&mut self.out, &code.language);
            self.out.push('"');
        }
        self.out.push('>');
        self.text(&code.text);
        self.out.push_str("</code></pre>\n");
    }

    /// A suggested change as GitHub shows it: the commented lines removed, the suggested lines
    /// added; rows that don't fit under the limit are left out, and the table still closes.
    fn suggestion(&mut self, suggested: &[String], commented: Option<&[String]>) {
        self.out.push_str(
            "<div class=\"suggestion\"><p class=\"suggestion-title\">Suggested change</p>\
             <table class=\"suggestion-diff\"><caption class=\"vh\">Lines removed, then lines suggested in their place</caption>",
        );
        let removed = commented
            .unwrap_or_default()
            .iter()
            .map(|line| ("del", '-', line));
        let added = suggested.iter().map(|line| ("add", '+', line));
        for (class, mark, line) in removed.chain(added) {
            if !self.fits(80 + 6 * line.len()) {
                break;
            }
            let _ = write!(
                self.out,
                "<tr class=\"{class}\"><td class=\"code\"><span class=\"mk\">{mark}</span>"
            );
            escape_into(&mut self.out, line);
            self.out.push_str("</td></tr>");
        }
        if suggested.is_empty() {
            self.out
                .push_str("<tr><td class=\"code muted\">(the lines are removed)</td></tr>");
        }
        self.out.push_str("</table></div>\n");
    }

    /// Closes what is open and, when the text was cut, says where the rest is.
    fn finish(mut self) -> Rendered {
        if self.code.is_some() {
            self.end_code();
        }
        if self.image.is_some() {
            self.end_image();
        }
        while let Some(open) = self.open.pop() {
            self.close(open);
        }
        if self.cut {
            self.fresh_line();
            match self.surface {
                Surface::Comment {
                    github: Some(url), ..
                } => {
                    let _ = writeln!(
                        self.out,
                        "<p class=\"md-cut\">… <a href=\"{}\" rel=\"{LINK_REL}\">{CUT_LINK}</a></p>",
                        escape(url)
                    );
                }
                _ => {
                    let _ = writeln!(self.out, "<p class=\"md-cut\">… {CUT_NOTICE}</p>");
                }
            }
        }
        Rendered {
            html: self.out,
            headings: self.headings,
            cut: self.cut,
        }
    }
}

/// A comment heading written at `level` is shown two levels lower, at most `h6`.
fn comment_heading(level: HeadingLevel) -> (&'static str, &'static str) {
    match level {
        HeadingLevel::H1 => ("<h3>", "</h3>\n"),
        HeadingLevel::H2 => ("<h4>", "</h4>\n"),
        HeadingLevel::H3 => ("<h5>", "</h5>\n"),
        _ => ("<h6>", "</h6>\n"),
    }
}

/// A code block's text as lines, without the last line's newline.
pub(crate) fn lines(text: &str) -> Vec<String> {
    let text = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    text.split('\n').map(str::to_string).collect()
}

/// GitHub-style heading id: lowercase, spaces become `-`, punctuation other than `-` and `_` is
/// dropped. A heading with nothing left gets `section`.
fn slug(text: &str) -> String {
    let mut slug = String::with_capacity(text.len());
    for c in text.trim().chars() {
        if c.is_alphanumeric() {
            slug.extend(c.to_lowercase());
        } else if c == ' ' {
            slug.push('-');
        } else if c == '-' || c == '_' {
            slug.push(c);
        }
    }
    if slug.is_empty() {
        slug.push_str("section");
    }
    slug
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
// A path, so the module resolves the same when build.rs compiles this file by path.
#[path = "safe_markdown/tests.rs"]
mod tests;
