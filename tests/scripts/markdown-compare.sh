#!/usr/bin/env bash
# Renders the ordering guide, a set of agents' notes and a set of comments with the Markdown
# renderer of two commits and prints the difference (issue 37: one renderer, `pulldown-cmark`,
# for the guide, notes and comments; the hand-written `web/markdown.rs` it replaced rendered the
# guide and notes). Inputs are this checkout's: src/guide/ordering-guide.md,
# tests/data/markdown/notes.json (the notes of the renderer's tests, the review page tests, the
# MCP reference's and the guide's example orders, and edge cases) and
# tests/data/markdown/comments.json. Each commit is checked out in a temporary worktree and a small
# program is compiled against its crate (cargo, natively, sharing target/markdown-compare).
#   bash tests/scripts/markdown-compare.sh [BEFORE [AFTER]]
# BEFORE defaults to the last commit with src/web/markdown.rs, AFTER to HEAD. Prints `diff -u`
# of the two renderings (empty when equal) and keeps them in target/markdown-compare/.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
removed=$(git rev-list -1 HEAD -- src/web/markdown.rs)
if [ -n "$removed" ] && ! git cat-file -e HEAD:src/web/markdown.rs 2>/dev/null; then
  default_before="$removed^"
else
  default_before=HEAD
fi
before=$(git rev-parse "${1:-$default_before}")
after=$(git rev-parse "${2:-HEAD}")
out=$root/target/markdown-compare
mkdir -p "$out"
export CARGO_TARGET_DIR=$out/target
trees=()
cleanup() {
  for tree in "${trees[@]}"; do git worktree remove --force "$tree" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT

# The dump program for a checkout: its renderer's entry points, old or new.
dump_program() {
  local tree=$1 guide notes comment
  if [ -f "$tree/src/web/safe_markdown.rs" ]; then
    guide='let (title, body, _cut) = logikflow::web::safe_markdown::with_contents(&guide);'
    notes='logikflow::web::safe_markdown::code_spans(note)'
  else
    guide='let (title, body) = logikflow::web::markdown::with_contents(&guide);'
    notes='logikflow::web::markdown::render_code_spans(note)'
  fi
  comment='logikflow::web::comment_markdown::render(comment, None)'
  cat <<EOF
//! Written by tests/scripts/markdown-compare.sh: prints the guide, notes and comments rendered.
fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("reading {path}: {error}"))
}
fn list(path: &str) -> Vec<String> {
    serde_json::from_str(&read(path)).unwrap_or_else(|error| panic!("{path}: {error}"))
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let guide = read(&args[1]);
    $guide
    println!("=== guide title ===\n{title}\n=== guide body ===\n{body}");
    for (index, note) in list(&args[2]).iter().enumerate() {
        let input = serde_json::to_string(note).unwrap_or_default();
        println!("=== note {index}: {input} ===\n{}", $notes);
    }
    for (index, comment) in list(&args[3]).iter().enumerate() {
        let input = serde_json::to_string(comment).unwrap_or_default();
        println!("=== comment {index}: {input} ===\n{}", $comment);
    }
}
EOF
}

render() {
  local name=$1 commit=$2
  local tree
  tree=$(mktemp -d "${TMPDIR:-/tmp}/markdown-compare-$name.XXXXXX")
  rmdir "$tree"
  git worktree add --detach "$tree" "$commit" >/dev/null 2>&1
  trees+=("$tree")
  mkdir -p "$tree/examples"
  dump_program "$tree" >"$tree/examples/markdown_dump.rs"
  (cd "$tree" && cargo run --quiet --example markdown_dump -- \
    "$root/src/guide/ordering-guide.md" "$root/tests/data/markdown/notes.json" \
    "$root/tests/data/markdown/comments.json") >"$out/$name.txt"
}

render before "$before"
render after "$after"
echo "markdown-compare: before $before, after $after (renderings in $out/)" >&2
diff -u "$out/before.txt" "$out/after.txt" || true
