// synth.mjs — synthetic and hand-written pull-request data for the GitHub stand-in.
//
// Why: the stand-in must serve realistic pull requests that do not exist in this repository's
// git history (a 3,200-file PR, a PR with a rename, a binary file and a lockfile, a private PR).
// This module builds GitHub-style `patch` strings (unified diff hunks without the `diff --git` /
// `---` / `+++` header, exactly like the `patch` field of GET /pulls/{n}/files) with hunk headers
// whose line counts are always correct, because they are computed from the hunk bodies.
// Everything here is deterministic: randomness comes from a PRNG seeded by file paths.

import { createHash } from 'node:crypto';

/** sha1 hex of a string; used for deterministic synthetic commit and blob SHAs. */
export function sha1(text) {
  return createHash('sha1').update(text).digest('hex');
}

/** git blob SHA of some content (what GitHub reports as a file's `sha`). */
export function blobSha(content) {
  const buf = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${buf.length}\0`).update(buf).digest('hex');
}

/** git commit SHA of a commit object with the given tree, parents and message (never written). */
export function commitSha({ tree, parents = [], author, date, message }) {
  const stamp = `${author} ${Math.floor(Date.parse(date) / 1000)} +0000`;
  const body =
    `tree ${tree}\n` +
    parents.map((p) => `parent ${p}\n`).join('') +
    `author ${stamp}\ncommitter ${stamp}\n\n${message}\n`;
  const buf = Buffer.from(body, 'utf8');
  return createHash('sha1').update(`commit ${buf.length}\0`).update(buf).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Patch construction
// ---------------------------------------------------------------------------------------------

/** "start,count" the way git prints a hunk range (",1" is omitted). */
function hunkRange(start, count) {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/**
 * Builds a GitHub `patch` string from hunks.
 * Each hunk is `{ oldStart, context?, lines }` where lines start with ' ', '-', '+' or '\'.
 * The new-side start and both counts are computed, so headers always match the bodies.
 * Returns `{ patch, additions, deletions }`.
 */
export function buildPatch(hunks) {
  let delta = 0;
  let additions = 0;
  let deletions = 0;
  const out = [];
  for (const hunk of hunks) {
    let oldCount = 0;
    let newCount = 0;
    for (const line of hunk.lines) {
      const mark = line[0];
      if (mark === ' ') {
        oldCount++;
        newCount++;
      } else if (mark === '-') {
        oldCount++;
        deletions++;
      } else if (mark === '+') {
        newCount++;
        additions++;
      } else if (mark !== '\\') {
        throw new Error(`bad patch line: ${JSON.stringify(line)}`);
      }
    }
    // git convention: an empty side names the line *before* the change.
    let newStart = hunk.oldStart + delta;
    if (oldCount === 0) newStart += 1;
    if (newCount === 0) newStart -= 1;
    const context = hunk.context ? ` ${hunk.context}` : '';
    out.push(`@@ -${hunkRange(hunk.oldStart, oldCount)} +${hunkRange(newStart, newCount)} @@${context}`);
    out.push(...hunk.lines);
    delta += newCount - oldCount;
  }
  return { patch: out.join('\n'), additions, deletions };
}

/**
 * Parses a GitHub `patch` back into hunks: `[{ header, oldStart, oldCount, newStart, newCount,
 * context, lines }]`. Used by the push control endpoint and by the tests.
 */
export function parsePatch(patch) {
  const hunks = [];
  let current = null;
  for (const line of patch.split('\n')) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/.exec(line);
    if (m) {
      current = {
        header: line,
        oldStart: Number(m[1]),
        oldCount: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newCount: m[4] === undefined ? 1 : Number(m[4]),
        context: m[5],
        lines: [],
      };
      hunks.push(current);
    } else if (current) {
      current.lines.push(line);
    }
  }
  return hunks;
}

/**
 * A file's text at the head of a pull request, made from its patch: the new side of each hunk at
 * its line numbers, a numbered filler line everywhere else, and ten filler lines after the last
 * hunk. Synthetic files have no contents of their own; this is what "expand context" on the review
 * page reads for them (the lines between and around hunks).
 */
export function headTextFromPatch(patch) {
  const known = new Map();
  let last = 0;
  for (const hunk of parsePatch(patch)) {
    let at = hunk.newStart;
    for (const line of hunk.lines) {
      if (line[0] === ' ' || line[0] === '+') known.set(at++, line.slice(1));
    }
    last = Math.max(last, at - 1);
  }
  const lines = [];
  for (let n = 1; n <= last + 10; n++) lines.push(known.get(n) ?? `// line ${n}`);
  return `${lines.join('\n')}\n`;
}

/** Serialises parsed hunks back into a patch string (headers recomputed from bodies). */
export function rebuildPatch(hunks) {
  const out = [];
  for (const h of hunks) {
    let oldCount = 0;
    let newCount = 0;
    for (const line of h.lines) {
      if (line[0] === ' ') {
        oldCount++;
        newCount++;
      } else if (line[0] === '-') oldCount++;
      else if (line[0] === '+') newCount++;
    }
    const context = h.context ? ` ${h.context}` : '';
    out.push(`@@ -${hunkRange(h.oldStart, oldCount)} +${hunkRange(h.newStart, newCount)} @@${context}`);
    out.push(...h.lines);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness and code-ish text
// ---------------------------------------------------------------------------------------------

/** mulberry32 PRNG seeded from a string (via sha1), returning floats in [0, 1). */
export function seededRandom(seedText) {
  let a = parseInt(sha1(seedText).slice(0, 8), 16) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (rng, lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
const pick = (rng, list) => list[Math.floor(rng() * list.length)];

const WORDS = [
  'order', 'review', 'hint', 'diagram', 'patch', 'session', 'cache', 'flow', 'node', 'edge',
  'owner', 'commit', 'branch', 'label', 'reviewer', 'digest', 'limit', 'page', 'cursor', 'batch',
  'quota', 'token', 'scope', 'grant', 'ledger', 'invoice', 'account', 'report', 'schema', 'metric',
  'route', 'handler', 'worker', 'queue', 'event', 'stream', 'window', 'filter', 'bucket', 'shard',
];
const pascal = (w) => w[0].toUpperCase() + w.slice(1);

/** Per-language line pools. `{a}`/`{b}` are words, `{A}`/`{B}` their PascalCase, `{n}` a number. */
const LANGS = {
  ts: {
    comment: '//',
    fn: (w) => `export async function load${pascal(w)}(id: string): Promise<${pascal(w)} | null> {`,
    lines: [
      '  const {a} = await {b}Client.get{A}(id);',
      '  if (!{a}) return null;',
      '  const {a}Count = items.filter((item) => item.{b}).length;',
      '  logger.debug("{a} resolved", { {b}: {a}.{b} });',
      '  return { ...{a}, {b}: normalize{B}({a}.{b}) };',
      '  for (const {a} of {b}List) {',
      '    total += {a}.size ?? 0;',
      '  }',
      '  await cache.set(`{a}:${id}`, {b}, { ttl: {n} });',
      '  // {a} must be resolved before {b} is read.',
      '  const limit = Math.min(options.limit ?? {n}, MAX_{A});',
      '  if ({a}.{b} === undefined) {',
      '    throw new Error(`missing {b} on {a} ${id}`);',
      '  }',
    ],
  },
  py: {
    comment: '#',
    fn: (w) => `def load_${w}(self, ident: str) -> dict | None:`,
    lines: [
      '        {a} = self.{b}_client.get_{a}(ident)',
      '        if {a} is None:',
      '            return None',
      '        count = sum(1 for item in items if item.{b})',
      '        log.debug("{a} resolved", extra={"{b}": {a}.{b}})',
      '        return {**{a}, "{b}": normalize_{b}({a}["{b}"])}',
      '        for {a} in self.{b}_list:',
      '            total += {a}.size or 0',
      '        self.cache.set(f"{a}:{ident}", {b}, ttl={n})',
      '        # {a} must be resolved before {b} is read.',
      '        limit = min(options.get("limit", {n}), MAX_{A})',
    ],
  },
  rs: {
    comment: '//',
    fn: (w) => `pub fn load_${w}(&self, id: &str) -> Result<Option<${pascal(w)}>, Error> {`,
    lines: [
      '        let {a} = self.{b}_client.get_{a}(id)?;',
      '        let Some({a}) = {a} else { return Ok(None) };',
      '        let count = items.iter().filter(|item| item.{b}).count();',
      '        tracing::debug!({b} = ?{a}.{b}, "{a} resolved");',
      '        Ok(Some({A} { {b}: normalize_{b}(&{a}.{b}), ..{a} }))',
      '        for {a} in &self.{b}_list {',
      '            total += {a}.size.unwrap_or(0);',
      '        }',
      '        self.cache.insert(format!("{a}:{id}"), {b}.clone());',
      '        // {a} must be resolved before {b} is read.',
      '        let limit = options.limit.unwrap_or({n}).min(MAX_{A});',
    ],
  },
  go: {
    comment: '//',
    fn: (w) => `func (s *Service) Load${pascal(w)}(ctx context.Context, id string) (*${pascal(w)}, error) {`,
    lines: [
      '\t{a}, err := s.{b}Client.Get{A}(ctx, id)',
      '\tif err != nil {',
      '\t\treturn nil, fmt.Errorf("load {a}: %w", err)',
      '\t}',
      '\tcount := countWhere(items, func(i Item) bool { return i.{A} })',
      '\ts.log.Debug("{a} resolved", "{b}", {a}.{B})',
      '\tfor _, {a} := range s.{b}List {',
      '\t\ttotal += {a}.Size',
      '\t}',
      '\t// {a} must be resolved before {b} is read.',
      '\tlimit := min(opts.Limit, max{A})',
    ],
  },
  md: {
    comment: null,
    fn: (w) => `## ${pascal(w)}`,
    lines: [
      'The {a} step runs before {b} so reviewers see the {a} first.',
      '- `{a}`: how the {b} is chosen ({n} at most).',
      'See the {b} section for how {a} values are stored.',
      '',
      '| {A} | {B} | Limit |',
      '| --- | --- | ----- |',
      '| yes | no | {n} |',
    ],
  },
  yaml: {
    comment: '#',
    fn: () => '',
    lines: [
      '  {a}:',
      '    {b}: {n}',
      '    enabled: true',
      '  {a}_{b}_limit: {n}',
      '# {a} settings are read at start-up.',
      '    mode: {b}',
    ],
  },
  css: {
    comment: null,
    fn: (w) => `.${w}-panel {`,
    lines: [
      '  padding: {n}px;',
      '  border-radius: 6px;',
      '  color: var(--{a}-fg);',
      '  background: var(--{b}-bg);',
      '  display: grid;',
      '  gap: 8px;',
      '}',
    ],
  },
  js: {
    comment: '//',
    fn: (w) => `function ${w}Factory(options) {`,
    lines: [
      '  var {a} = options.{a} || {};',
      '  if (!{a}.{b}) { {a}.{b} = {n}; }',
      '  return Object.assign({}, defaults, {a});',
      '  // {a}: vendored copy, do not edit by hand.',
    ],
  },
};

function fill(template, rng) {
  const a = pick(rng, WORDS);
  const b = pick(rng, WORDS);
  return template
    .replaceAll('{a}', a)
    .replaceAll('{b}', b)
    .replaceAll('{A}', pascal(a))
    .replaceAll('{B}', pascal(b))
    .replaceAll('{n}', String(int(rng, 2, 500)));
}

const codeLine = (rng, lang) => fill(pick(rng, LANGS[lang].lines), rng);

/** A modified file: 1–4 hunks, each with 3 lines of context either side, like `git diff -U3`. */
function modifiedPatch(rng, lang) {
  const hunks = [];
  let oldLine = int(rng, 1, 25);
  const count = int(rng, 1, 4);
  for (let i = 0; i < count; i++) {
    oldLine += int(rng, 8, 60);
    const removed = int(rng, 0, 3);
    const added = int(rng, removed === 0 ? 1 : 0, 4);
    const lines = [];
    for (let k = 0; k < 3; k++) lines.push(` ${codeLine(rng, lang)}`);
    for (let k = 0; k < removed; k++) lines.push(`-${codeLine(rng, lang)}`);
    for (let k = 0; k < added; k++) lines.push(`+${codeLine(rng, lang)}`);
    for (let k = 0; k < 3; k++) lines.push(` ${codeLine(rng, lang)}`);
    hunks.push({ oldStart: oldLine, context: LANGS[lang].fn(pick(rng, WORDS)), lines });
    oldLine += 6 + removed;
  }
  return buildPatch(hunks);
}

/** A whole file added (`@@ -0,0 +1,N @@`) or removed (`@@ -1,N +0,0 @@`). */
function wholeFilePatch(rng, lang, mark) {
  const n = int(rng, 4, 40);
  const lines = [`${mark}${LANGS[lang].fn(pick(rng, WORDS)) || `${LANGS[lang].comment} ${pick(rng, WORDS)}`}`];
  for (let k = 1; k < n; k++) lines.push(`${mark}${codeLine(rng, lang)}`);
  return buildPatch([{ oldStart: mark === '+' ? 0 : 1, lines }]);
}

// ---------------------------------------------------------------------------------------------
// Synthetic pull requests (logikflow/big and the no-git fallback)
// ---------------------------------------------------------------------------------------------

/** Directory layouts for synthetic files: [directory pattern, extension, language]. */
const LAYOUTS = [
  ['services/{svc}/src', 'ts', 'ts'],
  ['services/{svc}/src', 'test.ts', 'ts'],
  ['web/src/components', 'ts', 'ts'],
  ['crates/{crate}/src', 'rs', 'rs'],
  ['crates/{crate}/tests', 'rs', 'rs'],
  ['tools', 'py', 'py'],
  ['tests/python', 'py', 'py'],
  ['internal/{pkg}', 'go', 'go'],
  ['docs', 'md', 'md'],
  ['config', 'yaml', 'yaml'],
  ['web/styles', 'css', 'css'],
  ['gen/api', 'pb.ts', 'ts'],
  ['vendor/{lib}', 'js', 'js'],
];
const SVCS = ['billing', 'review', 'auth', 'search', 'notify', 'export', 'ingest', 'audit'];
const CRATES = ['flow-core', 'order', 'hints', 'store'];
const PKGS = ['queue', 'ratelimit', 'webhook', 'sync'];
const LIBS = ['left-pad', 'tiny-diff', 'mini-yaml'];
const BINARY_EXTS = ['png', 'woff2', 'ico', 'pdf'];

/**
 * Generates `count` changed files for a synthetic PR. Mix: ~78% modified, ~10% added, ~5% removed,
 * ~4% renamed (from `legacy/…`, `previous_filename` set) and ~3% binary (no `patch`).
 * Files are returned sorted by path like GitHub (git diff order). Fast: 3,200 files in ~30 ms.
 */
export function syntheticFiles(seed, count) {
  const rng = seededRandom(`${seed}:layout`);
  const used = new Set();
  const files = [];
  for (let i = 0; i < count; i++) {
    const roll = rng();
    const binary = roll > 0.97;
    const [dirPattern, ext, lang] = pick(rng, LAYOUTS);
    const dir = dirPattern
      .replace('{svc}', pick(rng, SVCS))
      .replace('{crate}', pick(rng, CRATES))
      .replace('{pkg}', pick(rng, PKGS))
      .replace('{lib}', pick(rng, LIBS));
    const stem = `${WORDS[i % WORDS.length]}_${WORDS[Math.floor(i / WORDS.length) % WORDS.length]}`;
    let filename = binary
      ? `assets/${pick(rng, ['icons', 'fonts', 'docs'])}/${stem}.${pick(rng, BINARY_EXTS)}`
      : `${dir}/${lang === 'py' && dir.startsWith('tests') ? 'test_' : ''}${stem}.${ext}`;
    for (let k = 2; used.has(filename); k++) filename = filename.replace(/(\.[^/]*)$/, `_${k}$1`);
    used.add(filename);
    const fileRng = seededRandom(`${seed}:${filename}`);
    let status = 'modified';
    let previous;
    let built = null;
    if (binary) {
      status = roll > 0.985 ? 'added' : 'modified';
    } else if (roll < 0.78) {
      built = modifiedPatch(fileRng, lang);
    } else if (roll < 0.88) {
      status = 'added';
      built = wholeFilePatch(fileRng, lang, '+');
    } else if (roll < 0.93) {
      status = 'removed';
      built = wholeFilePatch(fileRng, lang, '-');
    } else {
      status = 'renamed';
      previous = `legacy/${filename.split('/').slice(-2).join('/')}`;
      // Half the renames are pure moves (GitHub then sends no patch and changes = 0).
      built = fileRng() < 0.5 ? modifiedPatch(fileRng, lang) : null;
    }
    files.push({
      filename,
      previous_filename: previous,
      status,
      sha: sha1(`${seed}:blob:${filename}`),
      additions: built ? built.additions : 0,
      deletions: built ? built.deletions : 0,
      patch: built ? built.patch : undefined,
    });
  }
  files.sort((x, y) => (x.filename < y.filename ? -1 : x.filename > y.filename ? 1 : 0));
  return files;
}

/** Comment marker to use when the push control endpoint adds a line to a file, or null. */
export function commentFor(filename) {
  const ext = filename.split('.').pop();
  if (['ts', 'js', 'mjs', 'rs', 'go', 'java', 'c', 'h', 'cpp', 'kt', 'swift'].includes(ext)) return '//';
  if (['py', 'yml', 'yaml', 'toml', 'sh', 'rb', 'gitignore'].includes(ext)) return '#';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Hand-written pull requests
// ---------------------------------------------------------------------------------------------

/** Turns hand-written file specs (`hunks` with oldStart/context/lines) into PR file records. */
/** Files of a hand-labelled fixture PR (`measure.mjs`): `[{ filename, status, hunks }]`. */
export function fixtureFiles(seed, specs) {
  return handFiles(seed, specs);
}

function handFiles(seed, specs) {
  return specs.map((spec) => {
    const built = spec.hunks ? buildPatch(spec.hunks) : null;
    return {
      filename: spec.filename,
      previous_filename: spec.previous_filename,
      status: spec.status,
      sha: sha1(`${seed}:blob:${spec.filename}`),
      additions: built ? built.additions : 0,
      deletions: built ? built.deletions : 0,
      patch: built ? built.patch : undefined,
    };
  });
}

/**
 * logikflow/demo PR 3: a small, realistic PR across TypeScript, Python and Rust with a test file,
 * a lockfile, a rename, a binary file (no patch), a generated file (matched by the base's
 * `.gitattributes`) and a 3-hunk file whose last two hunks have identical bodies.
 */
export function demoPr3Files() {
  return handFiles('logikflow/demo#3', [
    {
      filename: 'docs/images/review-order.png',
      status: 'added', // binary: GitHub sends no patch, additions = deletions = 0
    },
    {
      filename: 'gen/api_types.ts',
      status: 'modified',
      hunks: [
        {
          oldStart: 1,
          lines: [
            '-// Code generated by schema-gen v0.8.1. DO NOT EDIT.',
            '+// Code generated by schema-gen v0.9.0. DO NOT EDIT.',
            ' // Source: schema/review.schema.json',
            ' ',
            ' export interface ReviewFile {',
          ],
        },
        {
          oldStart: 14,
          context: 'export interface ReviewFile {',
          lines: [
            '   deletions: number;',
            '   patch?: string;',
            '   previousFilename?: string;',
            '+  /** True when .gitattributes marks the file linguist-generated. */',
            '+  generated?: boolean;',
            ' }',
            ' ',
            ' export interface ReadingHint {',
          ],
        },
      ],
    },
    {
      filename: 'package-lock.json',
      status: 'modified',
      hunks: [
        {
          oldStart: 1,
          lines: [
            ' {',
            '   "name": "logikflow-review-ui",',
            '-  "version": "0.3.0",',
            '+  "version": "0.4.0",',
            '   "lockfileVersion": 3,',
            '   "requires": true,',
            '   "packages": {',
            '     "": {',
            '       "name": "logikflow-review-ui",',
            '-      "version": "0.3.0",',
            '+      "version": "0.4.0",',
            '       "dependencies": {',
            '-        "minimatch": "^9.0.3"',
            '+        "minimatch": "^9.0.5"',
            '       }',
            '     },',
            '     "node_modules/balanced-match": {',
          ],
        },
        {
          oldStart: 24,
          lines: [
            '       }',
            '     },',
            '     "node_modules/minimatch": {',
            '-      "version": "9.0.3",',
            '-      "integrity": "sha512-RHiac9mvaRw0x3AYRgDC1CxAP7HTcNrrECeA8YYJeWnpo+2Q5CegtZjaotWTWxDG3UeGA1coE05iH1mPjT/2mDQ==",',
            '+      "version": "9.0.5",',
            '+      "integrity": "sha512-G6T0ZX48xgozx7587koeX9Ys2NYy6Gmv//P89sEte9V9whIapMNF4idKxnW2QtCcLiTWlb/wfCabAtAFWhhBow==",',
            '       "dependencies": {',
            '         "brace-expansion": "^2.0.1"',
            '       },',
          ],
        },
      ],
    },
    {
      filename: 'src/flow/graph.rs',
      previous_filename: 'src/flow/diagram.rs',
      status: 'renamed',
      hunks: [
        {
          oldStart: 1,
          lines: [
            '-//! Builds the flow diagram shown next to a saved reading order.',
            '+//! Builds the flow graph behind the diagram shown next to a saved reading order.',
            ' ',
            ' use crate::review::order::ReadingOrder;',
            ' use std::collections::BTreeMap;',
            ' ',
            '-pub struct Diagram {',
            '+pub struct FlowGraph {',
            '     nodes: BTreeMap<String, Node>,',
            '     edges: Vec<Edge>,',
            ' }',
          ],
        },
        {
          oldStart: 21,
          context: 'pub struct Edge {',
          lines: [
            '     pub label: Option<String>,',
            ' }',
            ' ',
            '-impl Diagram {',
            '+impl FlowGraph {',
            '     pub fn from_order(order: &ReadingOrder) -> Self {',
            '         let mut nodes = BTreeMap::new();',
            '         for (rank, step) in order.steps().iter().enumerate() {',
          ],
        },
      ],
    },
    {
      filename: 'src/review/order.test.ts',
      status: 'added',
      hunks: [
        {
          oldStart: 0,
          lines: [
            '+import { describe, expect, it } from "vitest";',
            '+import { ReviewOrder } from "./order";',
            '+import type { FileEntry } from "./types";',
            '+',
            '+const file = (path: string, extra: Partial<FileEntry> = {}): FileEntry => ({',
            '+  path,',
            '+  additions: 1,',
            '+  deletions: 0,',
            '+  generated: false,',
            '+  ...extra,',
            '+});',
            '+',
            '+describe("ReviewOrder", () => {',
            '+  it("skips generated files when ordering for review", () => {',
            '+    const order = new ReviewOrder();',
            '+    const result = order.forReview([file("src/a.ts"), file("gen/b.ts", { generated: true })]);',
            '+    expect(result.map((f) => f.path)).toEqual(["src/a.ts"]);',
            '+  });',
            '+',
            '+  it("skips vendored files when building the diagram", () => {',
            '+    const order = new ReviewOrder();',
            '+    const result = order.forDiagram([file("src/a.ts"), file("vendor/x/index.js")]);',
            '+    expect(result.map((f) => f.path)).toEqual(["src/a.ts"]);',
            '+  });',
            '+});',
          ],
        },
      ],
    },
    {
      filename: 'src/review/order.ts',
      status: 'modified',
      hunks: [
        {
          oldStart: 1,
          lines: [
            ' import { FileEntry, ReadingHint } from "./types";',
            ' import { classify } from "./classify";',
            '+import { isVendored } from "./attributes";',
            ' ',
            ' export const DEFAULT_LIMIT = 300;',
            ' ',
          ],
        },
        // The next two hunks have identical bodies (same change in two methods): clients that
        // key hunks by content alone will collide here.
        {
          oldStart: 58,
          context: 'export class ReviewOrder {',
          lines: [
            '     const result: FileEntry[] = [];',
            '     for (const file of files) {',
            '       if (file.binary) continue;',
            '-      if (file.generated) continue;',
            '+      if (file.generated || isVendored(file.path)) continue;',
            '       result.push(file);',
            '     }',
            '     return result;',
          ],
        },
        {
          oldStart: 84,
          context: 'export class ReviewOrder {',
          lines: [
            '     const result: FileEntry[] = [];',
            '     for (const file of files) {',
            '       if (file.binary) continue;',
            '-      if (file.generated) continue;',
            '+      if (file.generated || isVendored(file.path)) continue;',
            '       result.push(file);',
            '     }',
            '     return result;',
          ],
        },
      ],
    },
    {
      filename: 'tools/hints.py',
      status: 'modified',
      hunks: [
        {
          oldStart: 8,
          context: 'import json',
          lines: [
            ' import sys',
            ' from pathlib import Path',
            ' ',
            '+GENERATED_MARKERS = ("linguist-generated", "linguist-generated=true")',
            ' LOCKFILES = {"package-lock.json", "Cargo.lock", "poetry.lock"}',
            ' ',
            ' ',
          ],
        },
        {
          oldStart: 31,
          context: 'def classify(path: str, attributes: dict[str, str]) -> str:',
          lines: [
            '     name = Path(path).name',
            '     if name in LOCKFILES:',
            '         return "lockfile"',
            '-    if attributes.get(path) == "linguist-generated":',
            '-        return "generated"',
            '+    marker = attributes.get(path, "")',
            '+    if marker in GENERATED_MARKERS:',
            '+        return "generated"',
            '+    if path.startswith("tests/") or name.startswith("test_"):',
            '+        return "test"',
            '     if path.endswith((".md", ".rst")):',
            '         return "docs"',
            '     return "source"',
          ],
        },
      ],
    },
  ]);
}

/** logikflow/private PR 1: three files in a small Rust billing crate. */
export function privatePr1Files() {
  return handFiles('logikflow/private#1', [
    {
      filename: 'README.md',
      status: 'modified',
      hunks: [
        {
          oldStart: 3,
          context: '# billing',
          lines: [
            ' Internal billing engine. Not for public release.',
            ' ',
            ' ## Rounding',
            '-Invoices round each line item to cents.',
            '+Invoices round the invoice total to cents; line items keep full precision.',
            ' ',
            ' ## Running the tests',
            ' ',
          ],
        },
      ],
    },
    {
      filename: 'billing/src/invoice.rs',
      status: 'modified',
      hunks: [
        {
          oldStart: 11,
          context: 'pub struct Invoice {',
          lines: [
            ' ',
            ' impl Invoice {',
            '     pub fn total(&self) -> Cents {',
            '-        self.lines.iter().map(|l| l.amount.round_to_cents()).sum()',
            '+        let exact: Decimal = self.lines.iter().map(|l| l.amount).sum();',
            '+        exact.round_to_cents()',
            '     }',
            ' ',
            '     pub fn is_empty(&self) -> bool {',
          ],
        },
        {
          oldStart: 38,
          context: 'impl Invoice {',
          lines: [
            '     }',
            ' ',
            '     pub fn add_line(&mut self, line: Line) {',
            '-        debug_assert!(line.amount >= Decimal::ZERO);',
            '+        assert!(line.amount >= Decimal::ZERO, "negative line amount");',
            '         self.lines.push(line);',
            '     }',
            ' }',
          ],
        },
      ],
    },
    {
      filename: 'billing/tests/invoice_test.rs',
      status: 'added',
      hunks: [
        {
          oldStart: 0,
          lines: [
            '+use billing::invoice::{Invoice, Line};',
            '+use rust_decimal_macros::dec;',
            '+',
            '+#[test]',
            '+fn total_rounds_once() {',
            '+    let mut invoice = Invoice::default();',
            '+    invoice.add_line(Line::new("a", dec!(0.004)));',
            '+    invoice.add_line(Line::new("b", dec!(0.004)));',
            '+    assert_eq!(invoice.total().as_u64(), 1);',
            '+}',
          ],
        },
      ],
    },
  ]);
}

// ---------------------------------------------------------------------------------------------
// The MCP reference's own examples (team invites), so tests can save them exactly as shown
// ---------------------------------------------------------------------------------------------

const INVITE_MODEL = {
  filename: 'models/invite.ts',
  status: 'added',
  hunks: [{ oldStart: 0, lines: [
    '+export interface Invite {', '+  id: string;', '+  teamId: string;', '+  email: string;',
    '+  token: string;', '+  expiresAt: Date;', '+  acceptedAt?: Date;', '+}',
  ] }],
};

const INVITE_SERVICE = {
  filename: 'services/invite-service.ts',
  status: 'added',
  hunks: [{ oldStart: 0, lines: [
    "+import { Invite } from '../models/invite';", "+import { flags } from '../lib/flags';", '+',
    '+export class InviteService {', '+  private open = new Map<string, Invite>();', '+',
    '+  invite(teamId: string, email: string): Invite {',
    "+    if (!flags.invitesEnabled) throw new Error('invites are off');",
    '+    // Re-inviting the same email replaces the open invite.',
    '+    const invite = { id: crypto.randomUUID(), teamId, email, token: crypto.randomUUID(), expiresAt: new Date(Date.now() + 7 * 864e5) };',
    '+    this.open.set(`${teamId}:${email}`, invite);', '+    return invite;', '+  }', '+',
    '+  accept(token: string, now = new Date()): Invite {',
    '+    const invite = [...this.open.values()].find((i) => i.token === token);',
    "+    if (!invite) throw new Error('unknown invite');",
    "+    if (invite.expiresAt < now) throw new Error('invite expired');",
    '+    invite.acceptedAt = now;', '+    this.open.delete(`${invite.teamId}:${invite.email}`);', '+    return invite;', '+  }', '+}',
  ] }],
};

/** The four files of the reference's example order (`save_reading_order`). */
export function invitesPr123Files() {
  return handFiles('logikflow/invites#123', [
    {
      filename: 'lib/flags.ts',
      status: 'modified',
      hunks: [{ oldStart: 1, context: 'export const flags = {', lines: [
        ' export const flags = {', '   newBilling: false,', '+  invitesEnabled: false,', ' };',
      ] }],
    },
    {
      filename: 'db/migrations/0003_invites.sql',
      status: 'added',
      hunks: [{ oldStart: 0, lines: [
        '+CREATE TABLE invites (', '+  id TEXT PRIMARY KEY,', '+  team_id TEXT NOT NULL REFERENCES teams(id),',
        '+  email TEXT NOT NULL,', '+  token TEXT NOT NULL UNIQUE,', '+  expires_at TIMESTAMP NOT NULL,',
        '+  accepted_at TIMESTAMP', '+);',
      ] }],
    },
    INVITE_MODEL,
    INVITE_SERVICE,
  ]);
}

/** The five files of the reference's `get_pull_request` example, used by its diagram example. */
export function invitesPr124Files() {
  return handFiles('logikflow/invites#124', [
    INVITE_MODEL,
    INVITE_SERVICE,
    {
      filename: 'services/invite-service.test.ts',
      status: 'added',
      hunks: [{ oldStart: 0, lines: [
        "+import { InviteService } from './invite-service';", '+',
        "+test('re-inviting replaces the open invite', () => {", '+  const service = new InviteService();',
        "+  const first = service.invite('t1', 'a@example.com');", "+  const second = service.invite('t1', 'a@example.com');",
        '+  expect(() => service.accept(first.token)).toThrow();', '+  expect(service.accept(second.token).email).toBe(\'a@example.com\');', '+});',
      ] }],
    },
    {
      filename: 'package-lock.json',
      status: 'modified',
      hunks: [{ oldStart: 3, context: '"version": "1.4.0",', lines: [
        '   "lockfileVersion": 3,', '-  "requires": true,', '+  "requires": false,', '   "packages": {',
      ] }],
    },
    {
      filename: 'app/router.ts',
      status: 'modified',
      hunks: [
        { oldStart: 12, context: 'import', lines: [" import { home } from './home';", "+import { invites } from './invites';", " import { members } from './members';"] },
        { oldStart: 40, context: 'export const routes', lines: ["   { path: '/members', view: members },", "-  { path: '/team', view: members },", "+  { path: '/invites', view: invites },", '+  // Invites are behind invitesEnabled.', '   { path: \'/\', view: home },'] },
      ],
    },
  ]);
}
