//! A small, safe renderer for a CommonMark subset: our own docs, and notes written by agents.
//!
//! Why: the ordering guide is served as a web page and agents' notes are shown to reviewers, and
//! neither may become a way to inject markup. Every piece of text goes through `html::escape`;
//! links are kept only for `http(s)`, root-relative (`/`) and fragment (`#`) URLs, anything else
//! (`javascript:`, `data:`, relative paths) is shown as the plain link text.
//! Three entry points trust their input less and less: `render` (block Markdown, our docs),
//! `render_inline` (one paragraph's inline syntax) and `render_code_spans` (only backtick spans,
//! for untrusted notes).
//!
//! Blocks: ATX headings with GitHub-style ids and a self-link, paragraphs, bullet and ordered lists
//! (nested by indentation, tight or loose), fenced code blocks, blockquotes, GitHub pipe tables and
//! thematic breaks. Inlines: code spans, `**strong**`, `*em*` and `_em_` with CommonMark's
//! flanking rules, `[text](url "title")` links and backslash escapes.
//!
//! The renderer never panics and runs in about linear time: container nesting stops at
//! `MAX_DEPTH` (deeper markers stay text), code spans find their closer with a precomputed index,
//! emphasis uses CommonMark's delimiter algorithm with openers-bottom bounds, and link
//! destinations and titles are length-capped.
//!
//! What not: no raw HTML (it is escaped), no setext headings, no indented code blocks, no images,
//! no autolinks, no entity decoding, no hard line breaks, no link reference definitions.

use std::collections::HashMap;

use super::html::{escape, escape_into};

/// How every code block opens: a `<pre>` scrolls sideways when a line is long, so it takes
/// keyboard focus and has a name (WCAG 2.1.1; axe-core's `scrollable-region-focusable`), or a
/// keyboard user could never read the end of the line.
pub const PRE_OPEN: &str = "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\">";

/// How deep blockquotes and lists may nest; deeper markers are rendered as text.
const MAX_DEPTH: usize = 16;
/// Longest link destination, in bytes, before the text is left as written.
const MAX_LINK_DESTINATION: usize = 2048;
/// Longest link title, in bytes.
const MAX_LINK_TITLE: usize = 512;
/// Deepest nesting of parentheses inside a bare link destination (CommonMark allows "at least 32").
const MAX_LINK_PARENS: usize = 32;

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

/// A rendered document and its headings in document order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub html: String,
    pub headings: Vec<Heading>,
}

/// Renders block Markdown to HTML. All text is escaped.
pub fn render(markdown: &str) -> String {
    render_document(markdown).html
}

/// Renders block Markdown to HTML and lists its headings with their ids.
pub fn render_document(markdown: &str) -> Rendered {
    let text = normalize(markdown);
    let lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let (blocks, _) = parse_blocks(&lines, 0);
    let mut renderer = Renderer {
        out: String::with_capacity(text.len() + text.len() / 4),
        headings: Vec::new(),
        used_ids: HashMap::new(),
    };
    renderer.blocks(&blocks, false);
    Rendered {
        html: renderer.out,
        headings: renderer.headings,
    }
}

/// A document's title (its first `#` heading) and its HTML with a table of contents of its `##`
/// headings placed before the first of them: the ordering guide page's content.
pub fn with_contents(markdown: &str) -> (String, String) {
    let document = render_document(markdown);
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
        return (title, document.html);
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
    // Offsets come from the renderer and point at a tag start, which is a char boundary; `get`
    // keeps a wrong offset from panicking.
    let body = match (
        document.html.get(..first.offset),
        document.html.get(first.offset..),
    ) {
        (Some(before), Some(after)) => format!("{before}{toc}{after}"),
        _ => format!("{toc}{}", document.html),
    };
    (title, body)
}

/// Renders one paragraph's inline syntax (code spans, strong, emphasis, links), escaping all text.
/// Line breaks are kept as soft breaks.
pub fn render_inline(text: &str) -> String {
    let text = normalize(text);
    let mut html = String::with_capacity(text.len() + 16);
    let mut plain = String::new();
    write_nodes(&parse_inline(&text), &mut html, &mut plain);
    html
}

/// Escapes everything and turns only backtick code spans into `<code>`; newlines become `<br>`.
///
/// For untrusted notes, where nothing but code spans may render: `*`, `[` and `\` stay literal.
pub fn render_code_spans(text: &str) -> String {
    let text = normalize(text);
    let ticks = Backticks::new(&text);
    let mut out = String::with_capacity(text.len() + 16);
    let push_text = |out: &mut String, chunk: &str| {
        for (index, line) in chunk.split('\n').enumerate() {
            if index > 0 {
                out.push_str("<br>");
            }
            escape_into(out, line);
        }
    };
    let mut start = 0;
    let mut i = 0;
    while let Some(offset) = text[i..].find('`') {
        let at = i + offset;
        let run = run_length(text.as_bytes(), at, b'`');
        match ticks.closer(at + run, run) {
            Some(close) => {
                push_text(&mut out, &text[start..at]);
                out.push_str("<code>");
                escape_into(&mut out, &code_span_content(&text[at + run..close]));
                out.push_str("</code>");
                i = close + run;
                start = i;
            }
            None => i = at + run,
        }
    }
    push_text(&mut out, &text[start..]);
    out
}

/// Unifies line endings and replaces NUL, as CommonMark asks.
fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .replace('\0', "\u{FFFD}")
}

// ---------------------------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Align {
    None,
    Left,
    Center,
    Right,
}

#[derive(Debug)]
enum Block {
    Heading {
        level: u8,
        text: String,
    },
    Paragraph(String),
    Code {
        language: String,
        text: String,
    },
    Quote(Vec<Block>),
    List {
        ordered: bool,
        start: u64,
        loose: bool,
        items: Vec<Vec<Block>>,
    },
    Table {
        aligns: Vec<Align>,
        head: Vec<String>,
        rows: Vec<Vec<String>>,
    },
    Rule,
}

/// Parses a container's lines into blocks. The flag says whether a blank line separated two of
/// them, which makes a list item loose.
fn parse_blocks(lines: &[String], depth: usize) -> (Vec<Block>, bool) {
    let mut blocks = Vec::new();
    let mut blank_between = false;
    let mut pending_blank = false;
    let mut i = 0;
    while i < lines.len() {
        if is_blank(&lines[i]) {
            pending_blank = true;
            i += 1;
            continue;
        }
        if pending_blank && !blocks.is_empty() {
            blank_between = true;
        }
        pending_blank = false;
        let (block, next) = parse_block(lines, i, depth);
        blocks.push(block);
        // Every parser consumes at least the line it starts on; `max` keeps that explicit.
        i = next.max(i + 1);
    }
    (blocks, blank_between)
}

/// Parses the block starting at non-blank line `i`; returns it and the index of the next line.
fn parse_block(lines: &[String], i: usize, depth: usize) -> (Block, usize) {
    let line = lines[i].as_str();
    if let Some(fence) = fence_open(line) {
        return parse_fence(lines, i, &fence);
    }
    if let Some((level, text)) = atx_heading(line) {
        let text = text.to_string();
        return (Block::Heading { level, text }, i + 1);
    }
    if is_rule(line) {
        return (Block::Rule, i + 1);
    }
    if depth < MAX_DEPTH {
        if quote_content(line).is_some() {
            return parse_quote(lines, i, depth);
        }
        if let Some(marker) = list_marker(line) {
            return parse_list(lines, i, depth, marker);
        }
    }
    if let Some(aligns) = table_start(line, lines.get(i + 1).map(String::as_str)) {
        return parse_table(lines, i, depth, aligns);
    }
    parse_paragraph(lines, i, depth)
}

fn parse_paragraph(lines: &[String], i: usize, depth: usize) -> (Block, usize) {
    let mut text = lines[i].trim().to_string();
    let mut k = i + 1;
    while k < lines.len() {
        let line = lines[k].as_str();
        if is_blank(line) || interrupts_paragraph(line, lines.get(k + 1), depth) {
            break;
        }
        text.push('\n');
        text.push_str(line.trim());
        k += 1;
    }
    (Block::Paragraph(text), k)
}

/// Whether `line` starts a block that ends a paragraph running above it.
fn interrupts_paragraph(line: &str, next: Option<&String>, depth: usize) -> bool {
    fence_open(line).is_some()
        || atx_heading(line).is_some()
        || is_rule(line)
        || (depth < MAX_DEPTH
            && (quote_content(line).is_some()
                || list_marker(line)
                    .is_some_and(|marker| !marker.empty && (!marker.ordered || marker.start == 1))))
        || table_start(line, next.map(String::as_str)).is_some()
}

/// Whether `line` starts any block other than a paragraph or a table (which end table bodies).
fn starts_block(line: &str, depth: usize) -> bool {
    fence_open(line).is_some()
        || atx_heading(line).is_some()
        || is_rule(line)
        || (depth < MAX_DEPTH && (quote_content(line).is_some() || list_marker(line).is_some()))
}

fn is_blank(line: &str) -> bool {
    line.bytes().all(|b| b == b' ' || b == b'\t')
}

/// Columns of leading whitespace, with tab stops every 4 columns.
fn indent(line: &str) -> usize {
    let mut column = 0;
    for byte in line.bytes() {
        match byte {
            b' ' => column += 1,
            b'\t' => column += 4 - column % 4,
            _ => break,
        }
    }
    column
}

/// Removes up to `columns` columns of leading whitespace; a tab only partly removed leaves spaces.
fn strip_columns(line: &str, columns: usize) -> String {
    let mut column = 0;
    for (index, byte) in line.bytes().enumerate() {
        if column >= columns {
            return line[index..].to_string();
        }
        match byte {
            b' ' => column += 1,
            b'\t' => {
                let next = column + 4 - column % 4;
                if next > columns {
                    let mut rest = " ".repeat(next - columns);
                    rest.push_str(&line[index + 1..]);
                    return rest;
                }
                column = next;
            }
            _ => return line[index..].to_string(),
        }
    }
    String::new()
}

/// The line without its indentation, when that indentation is at most 3 columns.
fn unindented(line: &str) -> Option<&str> {
    (indent(line) <= 3).then(|| line.trim_start_matches([' ', '\t']))
}

fn run_length(bytes: &[u8], start: usize, byte: u8) -> usize {
    bytes
        .get(start..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| b == byte).count())
}

// Fenced code blocks.

struct Fence {
    byte: u8,
    length: usize,
    indent: usize,
    language: String,
}

fn fence_open(line: &str) -> Option<Fence> {
    let rest = unindented(line)?;
    let byte = *rest.as_bytes().first()?;
    if byte != b'`' && byte != b'~' {
        return None;
    }
    let length = run_length(rest.as_bytes(), 0, byte);
    if length < 3 {
        return None;
    }
    let info = rest[length..].trim();
    if byte == b'`' && info.contains('`') {
        return None;
    }
    let language = info.split_whitespace().next().unwrap_or("").to_string();
    Some(Fence {
        byte,
        length,
        indent: indent(line),
        language,
    })
}

fn fence_closes(line: &str, fence: &Fence) -> bool {
    let Some(rest) = unindented(line) else {
        return false;
    };
    let length = run_length(rest.as_bytes(), 0, fence.byte);
    length >= fence.length && is_blank(&rest[length..])
}

/// An unclosed fence runs to the end of its container, as in CommonMark.
fn parse_fence(lines: &[String], i: usize, fence: &Fence) -> (Block, usize) {
    let mut text = String::new();
    let mut k = i + 1;
    while k < lines.len() {
        if fence_closes(&lines[k], fence) {
            k += 1;
            break;
        }
        text.push_str(&strip_columns(&lines[k], fence.indent));
        text.push('\n');
        k += 1;
    }
    let language = fence.language.clone();
    (Block::Code { language, text }, k)
}

// Headings and thematic breaks.

fn atx_heading(line: &str) -> Option<(u8, &str)> {
    let rest = unindented(line)?;
    let level = run_length(rest.as_bytes(), 0, b'#');
    if !(1..=6).contains(&level) {
        return None;
    }
    let after = &rest[level..];
    if !after.is_empty() && !after.starts_with([' ', '\t']) {
        return None;
    }
    let text = after.trim_matches([' ', '\t']);
    let without_closing = text.trim_end_matches('#');
    let text = if without_closing.is_empty() {
        ""
    } else if without_closing.ends_with([' ', '\t']) {
        without_closing.trim_end_matches([' ', '\t'])
    } else {
        text
    };
    // `level` is in 1..=6, so it fits a byte.
    Some((level as u8, text))
}

fn is_rule(line: &str) -> bool {
    let Some(rest) = unindented(line) else {
        return false;
    };
    let Some(&byte) = rest.as_bytes().first() else {
        return false;
    };
    matches!(byte, b'-' | b'*' | b'_')
        && rest.bytes().all(|b| b == byte || b == b' ' || b == b'\t')
        && rest.bytes().filter(|&b| b == byte).count() >= 3
}

// Blockquotes.

/// The line's content after `>` and one optional space, when it is a quote line.
fn quote_content(line: &str) -> Option<String> {
    let after = unindented(line)?.strip_prefix('>')?;
    Some(if let Some(rest) = after.strip_prefix(' ') {
        rest.to_string()
    } else if after.starts_with('\t') {
        strip_columns(after, 1)
    } else {
        after.to_string()
    })
}

/// Quote lines, plus lazy continuation lines of a paragraph inside the quote.
fn parse_quote(lines: &[String], i: usize, depth: usize) -> (Block, usize) {
    let mut content: Vec<String> = Vec::new();
    let mut k = i;
    while k < lines.len() {
        let line = lines[k].as_str();
        if let Some(inner) = quote_content(line) {
            content.push(inner);
        } else if !is_blank(line)
            && content.last().is_some_and(|last| !is_blank(last))
            && !interrupts_paragraph(line, lines.get(k + 1), depth)
        {
            content.push(line.to_string());
        } else {
            break;
        }
        k += 1;
    }
    let (blocks, _) = parse_blocks(&content, depth + 1);
    (Block::Quote(blocks), k)
}

// Lists.

#[derive(Debug, Clone, Copy)]
struct Marker {
    ordered: bool,
    /// The bullet (`-`, `*`, `+`) or the ordered delimiter (`.`, `)`).
    byte: u8,
    start: u64,
    /// The column where the item's content starts; continuation lines indent at least this much.
    width: usize,
    /// Nothing follows the marker on its line.
    empty: bool,
}

impl Marker {
    fn same_list(&self, other: &Marker) -> bool {
        self.ordered == other.ordered && self.byte == other.byte
    }
}

fn list_marker(line: &str) -> Option<Marker> {
    let leading = indent(line);
    let rest = unindented(line)?;
    let bytes = rest.as_bytes();
    let (ordered, byte, start, marker_length) = match *bytes.first()? {
        bullet @ (b'-' | b'*' | b'+') => (false, bullet, 0, 1),
        b'0'..=b'9' => {
            let digits = run_digits(bytes);
            if digits > 9 {
                return None;
            }
            let delimiter = *bytes.get(digits)?;
            if delimiter != b'.' && delimiter != b')' {
                return None;
            }
            (true, delimiter, rest[..digits].parse().ok()?, digits + 1)
        }
        _ => return None,
    };
    let after = &rest[marker_length..];
    let base = leading + marker_length;
    if is_blank(after) {
        return Some(Marker {
            ordered,
            byte,
            start,
            width: base + 1,
            empty: true,
        });
    }
    if !after.starts_with([' ', '\t']) {
        return None;
    }
    let mut column = base;
    for b in after.bytes() {
        match b {
            b' ' => column += 1,
            b'\t' => column += 4 - column % 4,
            _ => break,
        }
    }
    // Five or more spaces would start indented code in CommonMark: the content starts after one.
    let width = if column - base > 4 { base + 1 } else { column };
    Some(Marker {
        ordered,
        byte,
        start,
        width,
        empty: false,
    })
}

fn run_digits(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// The text of a marker line after the marker and the spaces that belong to it.
fn item_first_line(line: &str, marker: &Marker) -> String {
    let Some(rest) = unindented(line) else {
        return String::new();
    };
    let marker_length = if marker.ordered {
        run_digits(rest.as_bytes()) + 1
    } else {
        1
    };
    let after = rest.get(marker_length..).unwrap_or("");
    if marker.empty {
        return String::new();
    }
    let base = indent(line) + marker_length;
    strip_columns(after, marker.width.saturating_sub(base))
}

fn parse_list(lines: &[String], i: usize, depth: usize, first: Marker) -> (Block, usize) {
    let mut items = Vec::new();
    let mut loose = false;
    let mut j = i;
    let mut marker = first;
    loop {
        let mut content = vec![item_first_line(&lines[j], &marker)];
        let mut last_filled = j;
        let mut open_fence: Option<Fence> = fence_open(&content[0]);
        let mut k = j + 1;
        // An item may start with one blank line, but not two.
        let starts_empty = marker.empty && lines.get(k).is_some_and(|line| is_blank(line));
        while k < lines.len() && !starts_empty {
            let line = lines[k].as_str();
            let entry = if is_blank(line) {
                String::new()
            } else if indent(line) >= marker.width {
                strip_columns(line, marker.width)
            } else if last_filled == k - 1
                && open_fence.is_none()
                && content
                    .last()
                    .is_none_or(|last| atx_heading(last).is_none())
                && list_marker(line).is_none()
                && !interrupts_paragraph(line, lines.get(k + 1), depth)
            {
                // A lazy continuation line of the item's paragraph.
                line.trim_start().to_string()
            } else {
                break;
            };
            if !is_blank(&entry) {
                last_filled = k;
                open_fence = match open_fence {
                    Some(fence) if fence_closes(&entry, &fence) => None,
                    Some(fence) => Some(fence),
                    None => fence_open(&entry),
                };
            }
            content.push(entry);
            k += 1;
        }
        content.truncate(last_filled - j + 1);
        let (blocks, blank_inside) = parse_blocks(&content, depth + 1);
        loose |= blank_inside;
        items.push(blocks);
        let next = lines.get(k).and_then(|line| {
            list_marker(line).filter(|next| next.same_list(&marker) && !is_rule(line))
        });
        match next {
            Some(next_marker) => {
                if k > last_filled + 1 {
                    loose = true;
                }
                marker = next_marker;
                j = k;
            }
            None => {
                let block = Block::List {
                    ordered: first.ordered,
                    start: first.start,
                    loose,
                    items,
                };
                // Trailing blank lines are left to the container, which notes them.
                return (block, last_filled + 1);
            }
        }
    }
}

// Tables.

/// The column alignments when `line` is a table header and `next` its delimiter row.
fn table_start(line: &str, next: Option<&str>) -> Option<Vec<Align>> {
    let next = next?;
    if unindented(line)?.is_empty() || !line.contains('|') || !next.contains('|') {
        return None;
    }
    unindented(next)?;
    let aligns = split_cells(next)
        .iter()
        .map(|cell| delimiter_cell(cell))
        .collect::<Option<Vec<Align>>>()?;
    (split_cells(line).len() == aligns.len()).then_some(aligns)
}

fn delimiter_cell(cell: &str) -> Option<Align> {
    let left = cell.starts_with(':');
    let inner = cell.strip_prefix(':').unwrap_or(cell);
    let right = inner.ends_with(':');
    let inner = inner.strip_suffix(':').unwrap_or(inner);
    if inner.is_empty() || !inner.bytes().all(|b| b == b'-') {
        return None;
    }
    Some(match (left, right) {
        (true, true) => Align::Center,
        (true, false) => Align::Left,
        (false, true) => Align::Right,
        (false, false) => Align::None,
    })
}

/// Splits a table row on unescaped pipes; `\|` becomes `|` in the cell (also inside code spans,
/// as in GitHub Flavored Markdown).
fn split_cells(line: &str) -> Vec<String> {
    let mut row = line.trim();
    row = row.strip_prefix('|').unwrap_or(row);
    if let Some(without) = row.strip_suffix('|') {
        let backslashes = without.bytes().rev().take_while(|&b| b == b'\\').count();
        if backslashes % 2 == 0 {
            row = without;
        }
    }
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = row.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('|') => cell.push('|'),
                Some(other) => {
                    cell.push('\\');
                    cell.push(other);
                }
                None => cell.push('\\'),
            },
            '|' => {
                cells.push(cell.trim().to_string());
                cell.clear();
            }
            _ => cell.push(c),
        }
    }
    cells.push(cell.trim().to_string());
    cells
}

fn parse_table(lines: &[String], i: usize, depth: usize, aligns: Vec<Align>) -> (Block, usize) {
    let head = split_cells(&lines[i]);
    let mut rows = Vec::new();
    let mut k = i + 2;
    while k < lines.len() && !is_blank(&lines[k]) && !starts_block(&lines[k], depth) {
        let mut row = split_cells(&lines[k]);
        row.resize(aligns.len(), String::new());
        rows.push(row);
        k += 1;
    }
    (Block::Table { aligns, head, rows }, k)
}

// Rendering blocks.

struct Renderer {
    out: String,
    headings: Vec<Heading>,
    used_ids: HashMap<String, usize>,
}

impl Renderer {
    /// In a tight list item, paragraphs are written without `<p>`.
    fn blocks(&mut self, blocks: &[Block], tight: bool) {
        for (index, block) in blocks.iter().enumerate() {
            let last = index + 1 == blocks.len();
            self.block(block, tight, last);
        }
    }

    fn block(&mut self, block: &Block, tight: bool, last: bool) {
        match block {
            Block::Heading { level, text } => self.heading(*level, text),
            Block::Paragraph(text) => {
                let (html, _) = inline(text);
                if tight {
                    self.out.push_str(&html);
                    if !last {
                        self.out.push('\n');
                    }
                } else {
                    self.out.push_str("<p>");
                    self.out.push_str(&html);
                    self.out.push_str("</p>\n");
                }
            }
            Block::Code { language, text } => {
                self.out.push_str(PRE_OPEN);
                self.out.push_str("<code");
                if !language.is_empty() {
                    self.out.push_str(" class=\"language-");
                    escape_into(&mut self.out, language);
                    self.out.push('"');
                }
                self.out.push('>');
                escape_into(&mut self.out, text);
                self.out.push_str("</code></pre>\n");
            }
            Block::Quote(children) => {
                self.out.push_str("<blockquote>\n");
                self.blocks(children, false);
                self.out.push_str("</blockquote>\n");
            }
            Block::List {
                ordered,
                start,
                loose,
                items,
            } => {
                let tag = if *ordered { "ol" } else { "ul" };
                self.out.push('<');
                self.out.push_str(tag);
                if *ordered && *start != 1 {
                    self.out.push_str(&format!(" start=\"{start}\""));
                }
                self.out.push_str(">\n");
                for item in items {
                    self.out.push_str("<li>");
                    if *loose && !item.is_empty() {
                        self.out.push('\n');
                    }
                    self.blocks(item, !loose);
                    self.out.push_str("</li>\n");
                }
                self.out.push_str("</");
                self.out.push_str(tag);
                self.out.push_str(">\n");
            }
            Block::Table { aligns, head, rows } => {
                self.out
                    .push_str("<div class=\"table-wrap\"><table>\n<thead>\n");
                self.row("th", head, aligns);
                self.out.push_str("</thead>\n");
                if !rows.is_empty() {
                    self.out.push_str("<tbody>\n");
                    for row in rows {
                        self.row("td", row, aligns);
                    }
                    self.out.push_str("</tbody>\n");
                }
                self.out.push_str("</table></div>\n");
            }
            Block::Rule => self.out.push_str("<hr>\n"),
        }
    }

    fn row(&mut self, tag: &str, cells: &[String], aligns: &[Align]) {
        self.out.push_str("<tr>");
        for (cell, align) in cells.iter().zip(aligns) {
            self.out.push('<');
            self.out.push_str(tag);
            match align {
                Align::None => {}
                Align::Left => self.out.push_str(" style=\"text-align:left\""),
                Align::Center => self.out.push_str(" style=\"text-align:center\""),
                Align::Right => self.out.push_str(" style=\"text-align:right\""),
            }
            self.out.push('>');
            self.out.push_str(&inline(cell).0);
            self.out.push_str("</");
            self.out.push_str(tag);
            self.out.push('>');
        }
        self.out.push_str("</tr>\n");
    }

    fn heading(&mut self, level: u8, text: &str) {
        let (html, plain) = inline(text);
        let id = self.unique_id(slug(&plain));
        let offset = self.out.len();
        let id_html = escape(&id);
        self.out.push_str(&format!("<h{level} id=\"{id_html}\">"));
        self.out.push_str(&html);
        self.out.push_str(&format!(
            "<a class=\"anchor\" href=\"#{id_html}\" aria-label=\"Link to this section\">#</a></h{level}>\n"
        ));
        self.headings.push(Heading {
            level,
            id,
            text: plain,
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

// ---------------------------------------------------------------------------------------------
// Inlines
// ---------------------------------------------------------------------------------------------

/// Renders inline syntax; returns the HTML and the plain text (for ids and tables of contents).
fn inline(text: &str) -> (String, String) {
    let mut html = String::with_capacity(text.len() + 16);
    let mut plain = String::with_capacity(text.len());
    write_nodes(&parse_inline(text), &mut html, &mut plain);
    (html, plain)
}

#[derive(Debug)]
enum Node {
    Text(String),
    Code(String),
    /// A run of `*` or `_`: the characters not used for emphasis stay literal; tags closed by this
    /// run come before them, tags opened after them.
    Delimiters {
        byte: u8,
        remaining: usize,
        opens: Vec<&'static str>,
        closes: Vec<&'static str>,
    },
    /// `href` is `None` when the destination isn't allowed: the link text stays, as plain text.
    LinkStart {
        href: Option<String>,
        title: Option<String>,
    },
    LinkEnd {
        linked: bool,
    },
}

/// One entry of CommonMark's delimiter stack, kept as a doubly linked list over a vector.
#[derive(Clone, Copy)]
struct Delimiter {
    node: usize,
    byte: u8,
    original: usize,
    can_open: bool,
    can_close: bool,
    previous: Option<usize>,
    next: Option<usize>,
}

#[derive(Default)]
struct DelimiterStack {
    entries: Vec<Delimiter>,
    tail: Option<usize>,
}

impl DelimiterStack {
    fn push(&mut self, node: usize, byte: u8, length: usize, can_open: bool, can_close: bool) {
        let index = self.entries.len();
        if let Some(tail) = self.tail {
            self.entries[tail].next = Some(index);
        }
        self.entries.push(Delimiter {
            node,
            byte,
            original: length,
            can_open,
            can_close,
            previous: self.tail,
            next: None,
        });
        self.tail = Some(index);
    }

    fn remove(&mut self, index: usize) {
        let (previous, next) = (self.entries[index].previous, self.entries[index].next);
        if let Some(previous) = previous {
            self.entries[previous].next = next;
        }
        match next {
            Some(next) => self.entries[next].previous = previous,
            None => self.tail = previous,
        }
    }
}

/// An open `[` waiting for its `]`.
struct Bracket {
    node: usize,
    /// Delimiters from this index on were pushed after the bracket.
    delimiter_bottom: usize,
}

fn parse_inline(text: &str) -> Vec<Node> {
    let bytes = text.as_bytes();
    let ticks = Backticks::new(text);
    let mut nodes: Vec<Node> = Vec::new();
    let mut delimiters = DelimiterStack::default();
    let mut brackets: Vec<Bracket> = Vec::new();
    // Brackets below this stack height are inside a link already: links don't nest.
    let mut inactive_below = 0;
    let mut buffer = String::new();
    let flush = |buffer: &mut String, nodes: &mut Vec<Node>| {
        if !buffer.is_empty() {
            nodes.push(Node::Text(std::mem::take(buffer)));
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => match bytes.get(i + 1) {
                Some(&next) if next.is_ascii_punctuation() => {
                    buffer.push(char::from(next));
                    i += 2;
                }
                _ => {
                    buffer.push('\\');
                    i += 1;
                }
            },
            b'`' => {
                let run = run_length(bytes, i, b'`');
                match ticks.closer(i + run, run) {
                    Some(close) => {
                        flush(&mut buffer, &mut nodes);
                        nodes.push(Node::Code(code_span_content(&text[i + run..close])));
                        i = close + run;
                    }
                    None => {
                        buffer.push_str(&text[i..i + run]);
                        i += run;
                    }
                }
            }
            byte @ (b'*' | b'_') => {
                let run = run_length(bytes, i, byte);
                let before = text[..i].chars().next_back();
                let after = text[i + run..].chars().next();
                let (left, right) = flanking(before, after);
                let (can_open, can_close) = if byte == b'*' {
                    (left, right)
                } else {
                    (
                        left && (!right || before.is_some_and(is_punctuation)),
                        right && (!left || after.is_some_and(is_punctuation)),
                    )
                };
                flush(&mut buffer, &mut nodes);
                nodes.push(Node::Delimiters {
                    byte,
                    remaining: run,
                    opens: Vec::new(),
                    closes: Vec::new(),
                });
                delimiters.push(nodes.len() - 1, byte, run, can_open, can_close);
                i += run;
            }
            b'[' => {
                flush(&mut buffer, &mut nodes);
                nodes.push(Node::Text("[".to_string()));
                brackets.push(Bracket {
                    node: nodes.len() - 1,
                    delimiter_bottom: delimiters.entries.len(),
                });
                i += 1;
            }
            b']' => {
                let opener = brackets.pop();
                let active = brackets.len() >= inactive_below;
                inactive_below = inactive_below.min(brackets.len());
                let link = opener
                    .filter(|_| active)
                    .and_then(|opener| Some((opener, link_tail(text, i + 1)?)));
                match link {
                    Some((opener, (destination, title, end))) => {
                        flush(&mut buffer, &mut nodes);
                        process_emphasis(&mut nodes, &mut delimiters, opener.delimiter_bottom);
                        let href = allowed_href(&destination);
                        let linked = href.is_some();
                        nodes[opener.node] = Node::LinkStart { href, title };
                        nodes.push(Node::LinkEnd { linked });
                        inactive_below = brackets.len();
                        i = end;
                    }
                    None => {
                        buffer.push(']');
                        i += 1;
                    }
                }
            }
            _ => {
                let end = bytes[i..]
                    .iter()
                    .position(|b| matches!(b, b'\\' | b'`' | b'*' | b'_' | b'[' | b']'))
                    .map_or(bytes.len(), |offset| i + offset);
                buffer.push_str(&text[i..end]);
                i = end;
            }
        }
    }
    flush(&mut buffer, &mut nodes);
    process_emphasis(&mut nodes, &mut delimiters, 0);
    nodes
}

/// Left- and right-flanking, per CommonMark 0.31 §6.2; the text's ends count as whitespace.
fn flanking(before: Option<char>, after: Option<char>) -> (bool, bool) {
    let space = |c: Option<char>| c.is_none_or(char::is_whitespace);
    let punctuation = |c: Option<char>| c.is_some_and(is_punctuation);
    let left = !space(after) && (!punctuation(after) || space(before) || punctuation(before));
    let right = !space(before) && (!punctuation(before) || space(after) || punctuation(after));
    (left, right)
}

/// ASCII punctuation, or any non-ASCII character that is neither alphanumeric nor whitespace
/// (an approximation of Unicode's P and S categories).
fn is_punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace())
}

/// CommonMark's "process emphasis" over delimiters from index `bottom` on; afterwards those
/// delimiters are gone from the stack.
fn process_emphasis(nodes: &mut [Node], stack: &mut DelimiterStack, bottom: usize) {
    // Lowest opener index worth trying, per closer byte, closer-can-open and length mod 3.
    let mut openers_bottom = [[[bottom; 3]; 2]; 2];
    let mut first = None;
    let mut cursor = stack.tail;
    while let Some(index) = cursor.filter(|&index| index >= bottom) {
        first = Some(index);
        cursor = stack.entries[index].previous;
    }
    let mut closer = first;
    while let Some(c) = closer {
        let Delimiter {
            node: closer_node,
            byte,
            original,
            can_open,
            can_close,
            previous,
            next,
        } = stack.entries[c];
        if !can_close {
            closer = next;
            continue;
        }
        let slot =
            &mut openers_bottom[usize::from(byte == b'_')][usize::from(can_open)][original % 3];
        let lowest = (*slot).max(bottom);
        let mut found = None;
        let mut candidate = previous;
        while let Some(o) = candidate.filter(|&o| o >= lowest) {
            let opener = &stack.entries[o];
            if opener.byte == byte && opener.can_open {
                let odd_match = (opener.can_close || can_open)
                    && (opener.original + original).is_multiple_of(3)
                    && !(opener.original.is_multiple_of(3) && original.is_multiple_of(3));
                if !odd_match {
                    found = Some(o);
                    break;
                }
            }
            candidate = opener.previous;
        }
        let Some(o) = found else {
            *slot = c;
            if !can_open {
                stack.remove(c);
            }
            closer = next;
            continue;
        };
        let opener_node = stack.entries[o].node;
        let opener_left = remaining(&nodes[opener_node]);
        let closer_left = remaining(&nodes[closer_node]);
        let used = if opener_left >= 2 && closer_left >= 2 {
            2
        } else {
            1
        };
        let (open_tag, close_tag) = if used == 2 {
            ("<strong>", "</strong>")
        } else {
            ("<em>", "</em>")
        };
        use_delimiters(&mut nodes[opener_node], used, Some(open_tag), None);
        use_delimiters(&mut nodes[closer_node], used, None, Some(close_tag));
        // Delimiters between the pair can no longer match anything.
        stack.entries[o].next = Some(c);
        stack.entries[c].previous = Some(o);
        if opener_left <= used {
            stack.remove(o);
        }
        if closer_left <= used {
            closer = stack.entries[c].next;
            stack.remove(c);
        }
    }
    while let Some(tail) = stack.tail.filter(|&tail| tail >= bottom) {
        stack.remove(tail);
    }
}

fn remaining(node: &Node) -> usize {
    match node {
        Node::Delimiters { remaining, .. } => *remaining,
        _ => 0,
    }
}

fn use_delimiters(
    node: &mut Node,
    used: usize,
    open: Option<&'static str>,
    close: Option<&'static str>,
) {
    if let Node::Delimiters {
        remaining,
        opens,
        closes,
        ..
    } = node
    {
        *remaining = remaining.saturating_sub(used);
        opens.extend(open);
        closes.extend(close);
    }
}

fn write_nodes(nodes: &[Node], html: &mut String, plain: &mut String) {
    for node in nodes {
        match node {
            Node::Text(text) => {
                escape_into(html, text);
                plain.push_str(text);
            }
            Node::Code(code) => {
                html.push_str("<code>");
                escape_into(html, code);
                html.push_str("</code>");
                plain.push_str(code);
            }
            Node::Delimiters {
                byte,
                remaining,
                opens,
                closes,
            } => {
                for tag in closes {
                    html.push_str(tag);
                }
                for _ in 0..*remaining {
                    html.push(char::from(*byte));
                    plain.push(char::from(*byte));
                }
                for tag in opens.iter().rev() {
                    html.push_str(tag);
                }
            }
            Node::LinkStart {
                href: Some(href),
                title,
            } => {
                html.push_str("<a href=\"");
                escape_into(html, href);
                html.push('"');
                if let Some(title) = title {
                    html.push_str(" title=\"");
                    escape_into(html, title);
                    html.push('"');
                }
                html.push('>');
            }
            Node::LinkStart { href: None, .. } => {}
            Node::LinkEnd { linked } => {
                if *linked {
                    html.push_str("</a>");
                }
            }
        }
    }
}

/// Finds code span closers in constant time per lookup: the start of every maximal backtick run,
/// grouped by run length.
struct Backticks {
    starts_by_length: HashMap<usize, Vec<usize>>,
}

impl Backticks {
    fn new(text: &str) -> Backticks {
        let bytes = text.as_bytes();
        let mut starts_by_length: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'`' {
                let run = run_length(bytes, i, b'`');
                starts_by_length.entry(run).or_default().push(i);
                i += run;
            } else {
                i += 1;
            }
        }
        Backticks { starts_by_length }
    }

    /// The start of the first run of exactly `length` backticks at or after `from`.
    fn closer(&self, from: usize, length: usize) -> Option<usize> {
        let starts = self.starts_by_length.get(&length)?;
        let index = starts.partition_point(|&start| start < from);
        starts.get(index).copied()
    }
}

/// Code span content per CommonMark: line endings become spaces, and one space is stripped from
/// each end when both ends have one and the content isn't only spaces.
fn code_span_content(raw: &str) -> String {
    let content = raw.replace('\n', " ");
    if content.len() >= 2
        && content.starts_with(' ')
        && content.ends_with(' ')
        && !content.bytes().all(|b| b == b' ')
    {
        content[1..content.len() - 1].to_string()
    } else {
        content
    }
}

/// Parses `(destination "title")` at `start`, right after a `]`. Returns the unescaped
/// destination, the title and the index after `)`.
fn link_tail(text: &str, start: usize) -> Option<(String, Option<String>, usize)> {
    let bytes = text.as_bytes();
    if bytes.get(start) != Some(&b'(') {
        return None;
    }
    let escaped_punctuation = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_punctuation);
    let mut i = skip_whitespace(bytes, start + 1);
    let destination;
    if bytes.get(i) == Some(&b'<') {
        let from = i + 1;
        let mut j = from;
        loop {
            match bytes.get(j) {
                None | Some(b'\n' | b'<') => return None,
                Some(b'>') => break,
                Some(b'\\') if escaped_punctuation(j + 1) => j += 2,
                Some(_) => j += 1,
            }
            if j - from > MAX_LINK_DESTINATION {
                return None;
            }
        }
        destination = unescape(&text[from..j]);
        i = j + 1;
    } else {
        let from = i;
        let mut parens = 0usize;
        loop {
            match bytes.get(i) {
                None => break,
                Some(&b) if b <= b' ' || b == 0x7f => break,
                Some(b'\\') if escaped_punctuation(i + 1) => i += 2,
                Some(b'(') => {
                    parens += 1;
                    if parens > MAX_LINK_PARENS {
                        return None;
                    }
                    i += 1;
                }
                Some(b')') => {
                    if parens == 0 {
                        break;
                    }
                    parens -= 1;
                    i += 1;
                }
                Some(_) => i += 1,
            }
            if i - from > MAX_LINK_DESTINATION {
                return None;
            }
        }
        if parens != 0 {
            return None;
        }
        destination = unescape(&text[from..i]);
    }
    let after_destination = i;
    i = skip_whitespace(bytes, i);
    let mut title = None;
    if i > after_destination {
        if let Some(&open) = bytes.get(i).filter(|b| matches!(b, b'"' | b'\'' | b'(')) {
            let close = if open == b'(' { b')' } else { open };
            let from = i + 1;
            let mut j = from;
            loop {
                match bytes.get(j) {
                    None => return None,
                    Some(&b) if b == close => break,
                    Some(b'(') if open == b'(' => return None,
                    Some(b'\\') if escaped_punctuation(j + 1) => j += 2,
                    Some(_) => j += 1,
                }
                if j - from > MAX_LINK_TITLE {
                    return None;
                }
            }
            title = Some(unescape(&text[from..j]));
            i = skip_whitespace(bytes, j + 1);
        }
    }
    if bytes.get(i) != Some(&b')') {
        return None;
    }
    Some((destination, title, i + 1))
}

fn skip_whitespace(bytes: &[u8], mut i: usize) -> usize {
    while bytes
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n'))
    {
        i += 1;
    }
    i
}

/// Resolves backslash escapes of ASCII punctuation.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&next) = chars.peek().filter(|next| next.is_ascii_punctuation()) {
                out.push(next);
                chars.next();
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// The destination when a link may point there: `http://`, `https://`, `/` or `#`, with no
/// whitespace or control characters.
fn allowed_href(destination: &str) -> Option<String> {
    if destination
        .chars()
        .any(|c| c.is_whitespace() || c.is_control())
    {
        return None;
    }
    let has_scheme = |scheme: &str| {
        destination
            .get(..scheme.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(scheme))
    };
    let allowed = has_scheme("http://")
        || has_scheme("https://")
        || destination.starts_with('/')
        || destination.starts_with('#');
    allowed.then(|| destination.to_string())
}

#[cfg(test)]
// A path, so the module resolves the same when build.rs compiles this file by path.
#[path = "markdown/tests.rs"]
mod tests;
