//! Table-driven tests for the Markdown renderer: one `check` per construct, escaping, unsafe
//! links, unclosed syntax, the real ordering guide, and a crude fuzz pass over awkward inputs.

use super::*;

fn check(input: &str, expected: &str) {
    assert_eq!(render(input), expected, "input:\n{input}");
}

fn check_inline(input: &str, expected: &str) {
    assert_eq!(render_inline(input), expected, "input:\n{input}");
}

fn check_code_spans(input: &str, expected: &str) {
    assert_eq!(render_code_spans(input), expected, "input:\n{input}");
}

#[test]
fn empty_and_blank_input() {
    check("", "");
    check("\n\n  \n\t\n", "");
}

#[test]
fn paragraphs() {
    check("Hello", "<p>Hello</p>\n");
    check("one\ntwo\n\nthree", "<p>one\ntwo</p>\n<p>three</p>\n");
    check("  padded  \n", "<p>padded</p>\n");
    check("a\r\nb\rc", "<p>a\nb\nc</p>\n");
}

#[test]
fn headings() {
    check("# Title", "<h1 id=\"title\">Title<a class=\"anchor\" href=\"#title\" aria-label=\"Link to this section\">#</a></h1>\n");
    check("## Reading hints", "<h2 id=\"reading-hints\">Reading hints<a class=\"anchor\" href=\"#reading-hints\" aria-label=\"Link to this section\">#</a></h2>\n");
    check("###### Six ###", "<h6 id=\"six\">Six<a class=\"anchor\" href=\"#six\" aria-label=\"Link to this section\">#</a></h6>\n");
    check("####### seven", "<p>####### seven</p>\n");
    check("#hashtag", "<p>#hashtag</p>\n");
    check("#", "<h1 id=\"section\"><a class=\"anchor\" href=\"#section\" aria-label=\"Link to this section\">#</a></h1>\n");
    check("    # indented", "<p># indented</p>\n");
}

#[test]
fn heading_ids_follow_github() {
    let ids = |markdown: &str| -> Vec<String> {
        render_document(markdown)
            .headings
            .into_iter()
            .map(|heading| heading.id)
            .collect()
    };
    assert_eq!(
        ids("## Splitting a file into parts"),
        ["splitting-a-file-into-parts"]
    );
    assert_eq!(
        ids("## What's *new*, `save_diagram`?"),
        ["whats-new-save_diagram"]
    );
    assert_eq!(ids("## Tests & docs"), ["tests--docs"]);
    assert_eq!(ids("## Ünïcode 世界"), ["ünïcode-世界"]);
    assert_eq!(ids("# A\n# A\n# A-1\n# A"), ["a", "a-1", "a-1-1", "a-2"]);
    assert_eq!(ids("# !!!"), ["section"]);
    let document = render_document("intro\n\n## `layer` table");
    assert_eq!(document.headings[0].text, "layer table");
    assert_eq!(document.headings[0].level, 2);
    assert!(document.html[document.headings[0].offset..].starts_with("<h2 id=\"layer-table\">"));
}

#[test]
fn thematic_breaks() {
    check("---", "<hr>\n");
    check("* * *", "<hr>\n");
    check("a\n___\nb", "<p>a</p>\n<hr>\n<p>b</p>\n");
    check("--", "<p>--</p>\n");
}

#[test]
fn fenced_code() {
    check(
        "```rust\nfn main() { if a < b && c > d {} }\n```",
        "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-rust\">fn main() { if a &lt; b &amp;&amp; c &gt; d {} }\n</code></pre>\n",
    );
    check(
        "```\n<script>alert(1)</script>\n```",
        "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n",
    );
    check(
        "~~~ json extra\n{}\n~~~",
        "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-json\">{}\n</code></pre>\n",
    );
    check("````\n```\n````", "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>```\n</code></pre>\n");
    check(
        "  ```\n  indented\n    more\n  ```",
        "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>indented\n  more\n</code></pre>\n",
    );
    check(
        "```\n\n**not bold**\n\n```",
        "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>\n**not bold**\n\n</code></pre>\n",
    );
    check(
        "```\"><script>\nx\n```",
        "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-&quot;&gt;&lt;script&gt;\">x\n</code></pre>\n",
    );
    check(
        "text\n```\ncode\n```",
        "<p>text</p>\n<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>code\n</code></pre>\n",
    );
}

#[test]
fn unclosed_constructs() {
    check(
        "```\nnever closed\n# not a heading",
        "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>never closed\n# not a heading\n</code></pre>\n",
    );
    check("**bold", "<p>**bold</p>\n");
    check("*em", "<p>*em</p>\n");
    check("`code", "<p>`code</p>\n");
    check("[text](http://x.test", "<p>[text](http://x.test</p>\n");
    check("[text", "<p>[text</p>\n");
    check("a ]b[ c", "<p>a ]b[ c</p>\n");
    check("| a | b |\n| --- |", "<p>| a | b |\n| --- |</p>\n");
    check(
        "> quote\n> ```\n> code",
        "<blockquote>\n<p>quote</p>\n<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>code\n</code></pre>\n</blockquote>\n",
    );
}

#[test]
fn inline_code() {
    check_inline("`a < b`", "<code>a &lt; b</code>");
    check_inline(
        "`**not bold** [x](http://y)`",
        "<code>**not bold** [x](http://y)</code>",
    );
    check_inline("`` a ` b ``", "<code>a ` b</code>");
    check_inline("``", "``");
    check_inline("` `", "<code> </code>");
    check_inline("`multi\nline`", "<code>multi line</code>");
    check_inline("\\`not code`", "`not code`");
    check_inline("`a\\`b", "<code>a\\</code>b");
}

#[test]
fn emphasis() {
    check_inline("**bold**", "<strong>bold</strong>");
    check_inline("*em* and _em_", "<em>em</em> and <em>em</em>");
    check_inline("***both***", "<em><strong>both</strong></em>");
    check_inline(
        "**bold *nested* bold**",
        "<strong>bold <em>nested</em> bold</strong>",
    );
    check_inline("snake_case_name", "snake_case_name");
    check_inline("a*b*c", "a<em>b</em>c");
    check_inline("2 * 3 * 4", "2 * 3 * 4");
    check_inline("**unmatched*", "*<em>unmatched</em>");
    check_inline("\\*literal\\*", "*literal*");
    check_inline("*a **b** c*", "<em>a <strong>b</strong> c</em>");
    check_inline(
        "**It reads as a story.** Then",
        "<strong>It reads as a story.</strong> Then",
    );
    check_inline("_(note)_", "<em>(note)</em>");
}

#[test]
fn links() {
    check_inline(
        "[LogiKFlow](https://example.test/a?b=1&c=2)",
        "<a href=\"https://example.test/a?b=1&amp;c=2\">LogiKFlow</a>",
    );
    check_inline(
        "[guide](/docs/ordering-guide)",
        "<a href=\"/docs/ordering-guide\">guide</a>",
    );
    check_inline(
        "[hints](#reading-hints)",
        "<a href=\"#reading-hints\">hints</a>",
    );
    check_inline(
        "[t](HTTP://X.TEST \"Title <b>\")",
        "<a href=\"HTTP://X.TEST\" title=\"Title &lt;b&gt;\">t</a>",
    );
    check_inline(
        "[**bold** `code`](/x)",
        "<a href=\"/x\"><strong>bold</strong> <code>code</code></a>",
    );
    check_inline("[a](/x(y))", "<a href=\"/x(y)\">a</a>");
    check_inline("[a](</with space>)", "a");
    check_inline(
        "[a](<https://x.test/p>)",
        "<a href=\"https://x.test/p\">a</a>",
    );
    check_inline("[a]", "[a]");
    check_inline("[a] (/x)", "[a] (/x)");
    check_inline(
        "[outer [inner](/i)](/o)",
        "[outer <a href=\"/i\">inner</a>](/o)",
    );
    check_inline("*[a*](/x)", "*<a href=\"/x\">a*</a>");
    check_inline(
        "[a](/x\"onmouseover=\"alert(1))",
        "<a href=\"/x&quot;onmouseover=&quot;alert(1)\">a</a>",
    );
}

#[test]
fn unsafe_links_become_text() {
    check_inline("[click](javascript:alert(1))", "click");
    check_inline("[click](JavaScript:alert(1))", "click");
    check_inline("[click](data:text/html;base64,PHNjcmlwdD4=)", "click");
    check_inline("[click](vbscript:x)", "click");
    check_inline("[click](relative/path)", "click");
    check_inline("[click]( javascript:alert(1) )", "click");
    check_inline("[**x**](mailto:a@b.test)", "<strong>x</strong>");
    check_inline("[x](java\\script:alert(1))", "x");
    check("[x](javascript:alert(1))", "<p>x</p>\n");
}

#[test]
fn escaping() {
    check(
        "<script>alert(1)</script>",
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n",
    );
    check(
        "<img src=x onerror=alert(1)>",
        "<p>&lt;img src=x onerror=alert(1)&gt;</p>\n",
    );
    check(
        "&amp; \"q\" 'a'",
        "<p>&amp;amp; &quot;q&quot; &#39;a&#39;</p>\n",
    );
    check("# <b>head</b>", "<h1 id=\"bheadb\">&lt;b&gt;head&lt;/b&gt;<a class=\"anchor\" href=\"#bheadb\" aria-label=\"Link to this section\">#</a></h1>\n");
    check("| <i> |\n| - |\n| \" |", "<div class=\"table-wrap\"><table>\n<thead>\n<tr><th>&lt;i&gt;</th></tr>\n</thead>\n<tbody>\n<tr><td>&quot;</td></tr>\n</tbody>\n</table></div>\n");
}

#[test]
fn lists() {
    check("- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
    check("* a\n* b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
    check(
        "1. one\n2. two",
        "<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n",
    );
    check(
        "3) three\n4) four",
        "<ol start=\"3\">\n<li>three</li>\n<li>four</li>\n</ol>\n",
    );
    check(
        "- a\n+ b",
        "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>\n",
    );
    check(
        "- a\n\n- b",
        "<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n",
    );
    check(
        "- first line\n  second line\n- next",
        "<ul>\n<li>first line\nsecond line</li>\n<li>next</li>\n</ul>\n",
    );
    check(
        "- lazy\ncontinuation",
        "<ul>\n<li>lazy\ncontinuation</li>\n</ul>\n",
    );
    check(
        "- a\n\n  more\n- b",
        "<ul>\n<li>\n<p>a</p>\n<p>more</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>\n",
    );
    check("- a\n\nafter", "<ul>\n<li>a</li>\n</ul>\n<p>after</p>\n");
    check("text\n- item", "<p>text</p>\n<ul>\n<li>item</li>\n</ul>\n");
    check("text\n2. not a list", "<p>text\n2. not a list</p>\n");
    check("-not a list", "<p>-not a list</p>\n");
    check("-\n- b", "<ul>\n<li></li>\n<li>b</li>\n</ul>\n");
    check("1234567890. too long", "<p>1234567890. too long</p>\n");
    check(
        "- ```\n  <code>\n  ```",
        "<ul>\n<li><pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code>&lt;code&gt;\n</code></pre>\n</li>\n</ul>\n",
    );
}

#[test]
fn nested_lists() {
    check(
        "- a\n  - b\n    - c\n- d",
        "<ul>\n<li>a\n<ul>\n<li>b\n<ul>\n<li>c</li>\n</ul>\n</li>\n</ul>\n</li>\n<li>d</li>\n</ul>\n",
    );
    check(
        "1. step\n   - detail\n2. next",
        "<ol>\n<li>step\n<ul>\n<li>detail</li>\n</ul>\n</li>\n<li>next</li>\n</ol>\n",
    );
    check("- a\n - b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
    check(
        "- a\n\t- b",
        "<ul>\n<li>a\n<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>\n",
    );
    check(
        "- **Checklists** (`checks`): text.\n  - Good: \"x\".\n  - Weak: \"y\".",
        "<ul>\n<li><strong>Checklists</strong> (<code>checks</code>): text.\n<ul>\n<li>Good: &quot;x&quot;.</li>\n<li>Weak: &quot;y&quot;.</li>\n</ul>\n</li>\n</ul>\n",
    );
}

#[test]
fn blockquotes() {
    check(
        "> quoted *text*",
        "<blockquote>\n<p>quoted <em>text</em></p>\n</blockquote>\n",
    );
    check("> a\nlazy", "<blockquote>\n<p>a\nlazy</p>\n</blockquote>\n");
    check(
        "> a\n>\n> b",
        "<blockquote>\n<p>a</p>\n<p>b</p>\n</blockquote>\n",
    );
    check(
        "> > nested",
        "<blockquote>\n<blockquote>\n<p>nested</p>\n</blockquote>\n</blockquote>\n",
    );
    check(
        "> - item",
        "<blockquote>\n<ul>\n<li>item</li>\n</ul>\n</blockquote>\n",
    );
    check(">", "<blockquote>\n</blockquote>\n");
}

#[test]
fn tables() {
    check(
        "| `layer` | What |\n|---|---|\n| `models` | Domain records |",
        "<div class=\"table-wrap\"><table>\n<thead>\n<tr><th><code>layer</code></th><th>What</th></tr>\n</thead>\n<tbody>\n<tr><td><code>models</code></td><td>Domain records</td></tr>\n</tbody>\n</table></div>\n",
    );
    check(
        "a | b | c\n:-- | :-: | --:\n1 | 2",
        "<div class=\"table-wrap\"><table>\n<thead>\n<tr><th style=\"text-align:left\">a</th><th style=\"text-align:center\">b</th><th style=\"text-align:right\">c</th></tr>\n</thead>\n<tbody>\n<tr><td style=\"text-align:left\">1</td><td style=\"text-align:center\">2</td><td style=\"text-align:right\"></td></tr>\n</tbody>\n</table></div>\n",
    );
    check(
        "| a |\n| - |\n| x \\| y | extra |",
        "<div class=\"table-wrap\"><table>\n<thead>\n<tr><th>a</th></tr>\n</thead>\n<tbody>\n<tr><td>x | y</td></tr>\n</tbody>\n</table></div>\n",
    );
    check(
        "| a |\n| - |\n\nafter",
        "<div class=\"table-wrap\"><table>\n<thead>\n<tr><th>a</th></tr>\n</thead>\n</table></div>\n<p>after</p>\n",
    );
    check("| a | b |\n| - | x |", "<p>| a | b |\n| - | x |</p>\n");
}

#[test]
fn unicode() {
    check(
        "héllo **wörld** 世界 🎉",
        "<p>héllo <strong>wörld</strong> 世界 🎉</p>\n",
    );
    check_inline("*é*", "<em>é</em>");
    check_inline("_🎉_", "<em>🎉</em>");
    check_inline(
        "[世界](https://例え.test/パス)",
        "<a href=\"https://例え.test/パス\">世界</a>",
    );
    check_inline("\\é `ü`", "\\é <code>ü</code>");
    check(
        "- ü\n\t- é",
        "<ul>\n<li>ü\n<ul>\n<li>é</li>\n</ul>\n</li>\n</ul>\n",
    );
    check("\0", "<p>\u{FFFD}</p>\n");
}

#[test]
fn code_spans_only() {
    check_code_spans("", "");
    check_code_spans("plain", "plain");
    check_code_spans("use `a < b` here", "use <code>a &lt; b</code> here");
    check_code_spans("**not bold** [x](/y) <b>", "**not bold** [x](/y) &lt;b&gt;");
    check_code_spans("line one\nline two", "line one<br>line two");
    check_code_spans("a\r\nb", "a<br>b");
    check_code_spans(
        "`multi\nline` and `open",
        "<code>multi line</code> and `open",
    );
    check_code_spans("`` a`b ``", "<code>a`b</code>");
    check_code_spans("\\`x`", "\\<code>x</code>");
    check_code_spans("`<script>`", "<code>&lt;script&gt;</code>");
}

#[test]
fn deep_nesting_stays_text() {
    let quotes = ">".repeat(5000) + " deep";
    let html = render(&quotes);
    assert_eq!(html.matches("<blockquote>").count(), MAX_DEPTH);
    assert!(html.contains("&gt; deep"));
    let mut list = String::new();
    for depth in 0..100 {
        list.push_str(&"  ".repeat(depth));
        list.push_str("- x\n");
    }
    let html = render(&list);
    assert!(html.matches("<ul>").count() <= MAX_DEPTH);
}

#[test]
fn ordering_guide_renders() {
    let guide = include_str!("../../guide/ordering-guide.md");
    let document = render_document(guide);
    let ids: Vec<&str> = document.headings.iter().map(|h| h.id.as_str()).collect();
    for id in [
        "ordering-guide",
        "suggestions",
        "reading-hints",
        "diagrams",
        "workflow",
        "worked-example",
    ] {
        assert!(ids.contains(&id), "missing {id} in {ids:?}");
    }
    let html = &document.html;
    for expected in [
        "<h2 id=\"suggestions\">",
        "<h2 id=\"reading-hints\">",
        "<h2 id=\"diagrams\">",
        "<code>save_reading_order</code>",
        "<strong>It reads as a story.</strong>",
        "<ol>\n<li>Call <code>get_pull_request</code>",
        "<th><code>layer</code></th>",
        "<td><code>contracts</code></td>",
        "<pre tabindex=\"0\" role=\"region\" aria-label=\"Code example\"><code class=\"language-json\">{\n  &quot;title&quot;",
        "<li>Good: &quot;With <code>invitesEnabled</code> off",
        "<em>Invite service</em>",
    ] {
        assert!(html.contains(expected), "missing {expected:?}");
    }
    // Nothing is left as raw Markdown syntax outside code blocks.
    let outside_code: String = html
        .split(super::PRE_OPEN)
        .map(|part| part.split_once("</pre>").map_or(part, |(_, rest)| rest))
        .collect();
    for leftover in ["**", "`", "](", "\n- ", "\n| ", "## "] {
        assert!(!outside_code.contains(leftover), "leftover {leftover:?}");
    }
    assert_eq!(html.matches("<table>").count(), 3);
    assert_eq!(html.matches(super::PRE_OPEN).count(), 2);
}

/// Awkward and adversarial inputs: nothing panics, tags stay balanced, nothing unescaped leaks.
#[test]
fn fuzz_like_inputs_are_safe() {
    let pieces = [
        "*",
        "**",
        "_",
        "__",
        "`",
        "``",
        "[",
        "]",
        "(",
        ")",
        "](",
        "\\",
        "\n",
        "\n\n",
        " ",
        "    ",
        "\t",
        ">",
        "- ",
        "+ ",
        "1. ",
        "2) ",
        "|",
        "---",
        "```",
        "~~~",
        "#",
        "<",
        "&",
        "\"",
        "é",
        "🎉",
        "a",
        "javascript:",
        "http://",
        "/",
        "<script>",
        "\r",
        "\0",
        ":-:",
        "\u{a0}",
        "\u{301}",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..10_000 {
        let mut input = String::new();
        let length = (seed % 40) as usize;
        for _ in 0..length {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            input.push_str(pieces[(seed % pieces.len() as u64) as usize]);
        }
        for html in [
            render(&input),
            render_inline(&input),
            render_code_spans(&input),
        ] {
            assert!(!html.contains("<script"), "input {input:?}: {html}");
            for tag in [
                "strong",
                "em",
                "a",
                "code",
                "ul",
                "ol",
                "li",
                "blockquote",
                "table",
                "pre",
            ] {
                let opens = html.matches(&format!("<{tag}>")).count()
                    + html.matches(&format!("<{tag} ")).count();
                let closes = html.matches(&format!("</{tag}>")).count();
                assert_eq!(opens, closes, "<{tag}> in {input:?}: {html}");
            }
            assert!(
                !html.contains("href=\"javascript"),
                "input {input:?}: {html}"
            );
        }
    }
}

#[test]
fn pathological_inputs_are_fast() {
    let started = std::time::Instant::now();
    for input in [
        "*a ".repeat(20_000),
        "[".repeat(50_000) + &"](".repeat(20_000),
        "[x](".repeat(20_000) + "aaaa",
        "`".repeat(30_000) + &" ` `` ```".repeat(5_000),
        "_a_".repeat(20_000),
        "**".repeat(30_000),
        "- ".repeat(10_000),
        "> - ".repeat(5_000),
        "|".repeat(30_000) + "\n" + &"|-".repeat(15_000),
        "a\n".repeat(50_000),
    ] {
        let _ = render(&input);
        let _ = render_inline(&input);
        let _ = render_code_spans(&input);
    }
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
}
