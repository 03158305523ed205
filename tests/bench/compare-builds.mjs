// What one build answers, shows and stores for a fixed sequence of requests, written to a folder,
// so two builds' folders can be compared with `diff -r` (issue #37: a refactor that must keep
// behaviour byte-identical). Wider than compare-tools.mjs, which stops at the first difference
// and covers logikflow/big's MCP answers: this covers every tool, the MCP catalog and resources,
// the stand-in's demo pull requests (demo#3, private#1, big#3, big#1, a hint fixture) and the
// review demo (a review with two comments and a push), the web pages (review page in its views,
// windows and versions, arrange editor, diff and context, the writes' answers and the message
// pages, home, sign-in, sign-out, settings as a signed-in person, read-only and with write
// access), the OAuth endpoints step by step (registration, /authorize and its refusals, the
// GitHub stand-in, the callback, consent and its refusals, token, refresh and replay, remembered
// consent, revocation, client ID metadata documents served, moved, too large and misnamed), the
// settings' actions (an API token made and revoked, an app disconnected, Delete my data) and
// sign-out, each followed by the stored state (OUT_DIR/after/NNN-step/), and then what the run
// stored: every SQLite table of the Durable Objects and every KV value under wrangler's local
// state.
//
//   node tests/bench/compare-builds.mjs BUILD_DIR OUT_DIR
//   diff -r OLD_OUT NEW_OUT
//
// Each run has its own stack (a fresh stand-in, so both builds see the same pull requests, and a
// fresh state folder). Run both builds from the same commit of this checkout: the stand-in makes
// logikflow/demo's pull requests on top of its HEAD, so a commit in between changes demo#3's
// head and every answer that shows it. Written with the stack's origins replaced (BASE, STANDIN), ISO times,
// CSRF tokens, nonces, session cookies, OAuth codes, states and tokens replaced by placeholders:
// what differs between two runs of one build. OUT_DIR/answers/NNN-label.txt per request,
// OUT_DIR/state/*.sql the stored rows (sqlite3 .dump), OUT_DIR/kv/* the KV values.
// What not: a pass/fail; read the diff.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createServer } from 'node:http';
import { root, standinControl, startStack } from '../e2e/harness.mjs';
import { OAUTH_VARS, authorizeUrl, cookieFrom, hidden, pkce, signIn, webSignIn } from '../e2e/oauth-flow.mjs';
import { fiftySections } from './cpu.mjs';

const [buildArg, outArg] = process.argv.slice(2);
if (!buildArg || !outArg) {
  console.error('usage: node tests/bench/compare-builds.mjs BUILD_DIR OUT_DIR');
  process.exit(2);
}
const out = resolve(outArg);
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'answers'), { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'logikflow-compare-'));
const config = readFileSync(join(root, 'wrangler.toml'), 'utf8').replace(/^\[build\]\n(?:(?!\[).*\n)*/m, '');
writeFileSync(join(dir, 'wrangler.toml'), config);
symlinkSync(resolve(buildArg), join(dir, 'build'));
const persistDir = join(dir, 'state');
mkdirSync(persistDir);
const vars = { ...OAUTH_VARS, RATE_LIMIT_PER_MINUTE: '100000000', ADDRESS_RATE_LIMIT_PER_MINUTE: '100000' };
const stack = await startStack({ config: join(dir, 'wrangler.toml'), devtools: false, persistDir, vars });
await standinControl(stack, 'POST', 'config', { unlimitedRate: true });

/** The origin of the metadata documents' server (its port differs between runs). */
let docOrigin = 'http://docs.invalid';
/** Replaces what differs between two runs of the same build. */
function normal(text) {
  return text
    .replaceAll(docOrigin, 'DOCS')
    .replaceAll(encodeURIComponent(docOrigin), 'DOCS_ENC')
    .replaceAll(stack.baseUrl, 'BASE')
    .replaceAll(stack.baseUrl.replace('http://', ''), 'BASEHOST')
    .replaceAll(encodeURIComponent(stack.baseUrl), 'BASE_ENC')
    .replaceAll(stack.standinUrl, 'STANDIN')
    .replaceAll(encodeURIComponent(stack.standinUrl), 'STANDIN_ENC')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, 'TIME')
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, 'SHOWNTIME')
    .replace(/(name=\\?"csrf\\?" value=\\?")[^"\\]*/g, '$1CSRF')
    .replace(/lfd_[A-Za-z0-9_-]+/g, 'lfd_CLIENT')
    .replace(/(id="arrange-csrf" value=")[^"]*"/g, '$1CSRF"')
    .replace(/(name="(?:consent|state|code|grant|token)" value=")[^"]*"/g, '$1TOKEN"')
    .replace(/(content=")[A-Za-z0-9_-]{20,}(" name="csrf")/g, '$1CSRF$2')
    .replace(/(name="csrf[^"]*" content=")[^"]*"/g, '$1CSRF"')
    .replace(/nonce="[^"]*"/g, 'nonce="NONCE"')
    .replace(/'nonce-[^']*'/g, "'nonce-NONCE'")
    .replace(/\b(lkf_[a-z_]+)=[^;\s,"]+/g, '$1=COOKIE')
    .replace(/__Host-(lf_[a-z]+)_[0-9a-f]+=[^;\s,"]*/g, '__Host-$1_ID=COOKIE')
    .replace(/\b(lfa|lfr|lfk|lfc|gho|ghu|ghr)_[A-Za-z0-9_-]{8,}/g, '$1_TOKEN')
    .replace(/([?&](?:code|state|code_challenge)=)[^&"\s]+/g, '$1X')
    .replace(/"client_id_issued_at":\d+/g, '"client_id_issued_at":EPOCH');
}

// ---- What was stored: every SQLite database and KV value under the state folder -------------
// `dumpState` writes it into a folder: after each OAuth step (OUT_DIR/after/NNN-label/) and at the end
// (OUT_DIR/state, OUT_DIR/kv).
const walk = (folder) => readdirSync(folder).flatMap((name) => {
  const path = join(folder, name);
  return statSync(path).isDirectory() ? walk(path) : [path];
});
/** What differs between two runs in stored rows too: sealed secrets, ids, hashes, epoch times. */
const stored = (text) => normal(text)
  .replace(/v1\.[A-Za-z0-9_-]{20,}/g, 'SEALED')
  .replace(/"(code_challenge|state|github_verifier)":"[^"]*"/g, '"$1":"X"')
  .replace(/\b[0-9a-f]{64}\b/g, 'HASH')
  .replace(/'[A-Za-z0-9_-]{22}'/g, "'ID'")
  .replace(/"[A-Za-z0-9_-]{22}"/g, '"ID"')
  .replace(/\b1[78]\d{11}\b/g, 'EPOCHMS')
  .replace(/\b1[78]\d{8}\b/g, 'EPOCH');
const sql = (path, query) => execFileSync('sqlite3', ['-json', path, query], { encoding: 'utf8', maxBuffer: 1 << 30 });
function dumpState(into) {
  mkdirSync(join(into, 'state'), { recursive: true });
  for (const path of walk(persistDir)) {
    if (!/\.sqlite$/.test(path) || /metadata\.sqlite$|observability|miniflare-(Cache|D1|R2|flagship)/.test(path)) continue;
    if (/KVNamespaceObject/.test(path)) {
      // A namespace's entries: each key's value from its blob (the blobs' names are random).
      // Keys that differ only by a hash (`flow:`, `cimd:`) share one file: their values sorted, so
      // the file does not depend on the hashes' order.
      const entries = JSON.parse(sql(path, 'SELECT key, blob_id, expiration, metadata FROM _mf_entries ORDER BY key') || '[]');
      const files = new Map();
      for (const { key, blob_id: blob, expiration, metadata } of entries) {
        const [file] = walk(join(persistDir, 'v3/kv')).filter((f) => f.endsWith(`/blobs/${blob}`));
        const ns = file ? relative(join(persistDir, 'v3/kv'), file).split('/')[0] : 'unknown';
        const value = file ? readFileSync(file).toString('latin1') : '(no blob)';
        const name = join(into, 'kv', ns, stored(key).replace(/[^A-Za-z0-9:._-]+/g, '_'));
        files.set(name, [...(files.get(name) ?? []), stored(`expiration: ${expiration ?? 'none'}\nmetadata: ${metadata ?? 'none'}\n\n${value}\n`)]);
      }
      for (const [name, values] of files) {
        mkdirSync(join(name, '..'), { recursive: true });
        writeFileSync(name, values.sort().join('---\n'));
      }
      continue;
    }
    const name = JSON.parse(sql(path, 'SELECT name FROM __miniflare_do_name') || '[]')[0]?.name ?? 'unnamed';
    const kind = /PersonStore/.test(path) ? 'person' : 'pull';
    const dump = execFileSync('sqlite3', [path, '.dump'], { encoding: 'utf8', maxBuffer: 1 << 30 });
    writeFileSync(join(into, 'state', `${kind}-${stored(name).replace(/[^A-Za-z0-9:#._-]+/g, '_')}.sql`), stored(dump));
  }
}
let steps = 0;
/** The stored state after an OAuth step, in OUT_DIR/after/. */
function snapshot(label) {
  steps += 1;
  dumpState(join(out, 'after', `${String(steps).padStart(3, '0')}-${label.replace(/[^A-Za-z0-9#._-]+/g, '_').slice(0, 60)}`));
}

let n = 0;
/** Writes one answer: the status, the headers that matter and the body. */
async function record(label, response) {
  const body = Buffer.from(await response.arrayBuffer()).toString('utf8');
  const keep = ['content-type', 'location', 'cache-control', 'content-security-policy', 'allow', 'x-frame-options', 'referrer-policy', 'www-authenticate', 'retry-after'];
  const headers = keep.filter((h) => response.headers.has(h)).map((h) => `${h}: ${response.headers.get(h)}`);
  const cookies = response.headers.getSetCookie().map((c) => `set-cookie: ${c}`);
  n += 1;
  const name = `${String(n).padStart(3, '0')}-${label.replace(/[^A-Za-z0-9#._-]+/g, '_').slice(0, 90)}.txt`;
  writeFileSync(join(out, 'answers', name), normal(`${label}\n${response.status}\n${[...headers, ...cookies].join('\n')}\n\n${body}\n`));
  return body;
}

const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
let rpcId = 0;
/** A JSON-RPC request to /mcp (modern: 2026-07-28 headers and `_meta`; else 2025-06-18). */
async function rpc(label, method, params = {}, { era = 'modern', headers = {} } = {}) {
  rpcId += 1;
  const modern = era === 'modern';
  const name = params.name ?? params.uri;
  const reply = await fetch(stack.mcpUrl, {
    method: 'POST', signal: AbortSignal.timeout(180_000),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers,
      ...(modern ? { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) } : { 'mcp-protocol-version': '2025-06-18' }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: rpcId, method, params: modern ? { ...params, _meta: meta } : params }),
  });
  const text = await record(`mcp ${label}`, reply);
  try { return JSON.parse(text); } catch { return undefined; }
}
const tool = async (label, name, args, options) => (await rpc(label, 'tools/call', { name, arguments: args }, options))?.result?.structuredContent;

/** A page or a form post; `cookie` and other headers as given. */
async function web(label, path, { method = 'GET', headers = {}, body } = {}) {
  const reply = await fetch(`${stack.baseUrl}${path}`, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(180_000) });
  return { text: await record(`web ${label}`, reply), reply };
}
const form = (fields) => new URLSearchParams(fields).toString();
const postHeaders = (cookie, accept = 'application/json') => ({ 'content-type': 'application/x-www-form-urlencoded', origin: stack.baseUrl, cookie, accept });
const csrfOf = (html) => html.match(/name="csrf" value="([^"]*)"/)?.[1] ?? html.match(/id="arrange-csrf" value="([^"]*)"/)?.[1];
const cookieOf = (reply) => reply.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');

const RICH_NOTE = 'Read **the parser** first: `parse()` then [the guide](https://example.com/guide "Guide").\n\n' +
  '- one\n- two with <b>raw HTML</b> and <script>alert(1)</script>\n  1. nested\n\n> a quote\n\n' +
  '[bad link](javascript:alert(1)) and <https://example.com/auto> and a bidi \u202Eevil\u202C word.\n\n' +
  '| a | b |\n|---|---|\n| 1 | 2 |\n\n```rust\nfn main() {}\n```\n';

try {
  // ---- MCP: the catalog ------------------------------------------------------------------
  await rpc('initialize', 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'compare', version: '1' } }, { era: 'legacy' });
  for (const era of ['modern', 'legacy']) {
    await rpc(`tools/list ${era}`, 'tools/list', {}, { era });
    await rpc(`prompts/list ${era}`, 'prompts/list', {}, { era });
    await rpc(`resources/templates/list ${era}`, 'resources/templates/list', {}, { era });
  }
  const resources = (await rpc('resources/list', 'resources/list', {}))?.result?.resources ?? [];
  for (const r of resources) await rpc(`resources/read ${r.uri}`, 'resources/read', { uri: r.uri });
  await rpc('tools/call unknown tool', 'tools/call', { name: 'no_such_tool', arguments: {} });

  // ---- MCP: every tool on each demo pull request -----------------------------------------
  const pulls = [['demo', 3], ['private', 1], ['fixtures', 1], ['big', 3], ['big', 1]];
  for (const [repo, number] of pulls) {
    const pull = { owner: 'logikflow', repo, number };
    const tag = `${repo}#${number}`;
    await tool(`${tag} view_reading_order, nothing saved`, 'view_reading_order', pull);
    await tool(`${tag} show_reading_order, nothing saved`, 'show_reading_order', pull);
    await tool(`${tag} view_diagram, nothing saved`, 'view_diagram', pull);
    await tool(`${tag} get_review_feedback`, 'get_review_feedback', pull);
    await tool(`${tag} save_reading_order, bad arguments`, 'save_reading_order', { owner: 'logikflow', number: 'x', sections: 3 });
    await tool(`${tag} save_diagram, bad arguments`, 'save_diagram', { ...pull, base_version: 0, diagram: { nodes: 'x' }, extra: 1 });
    await tool(`${tag} view_change, bad arguments`, 'view_change', { ...pull, path: 7 });
    await tool(`${tag} show_reading_order, bad version`, 'show_reading_order', { ...pull, version: -1 });
    const read = await tool(`${tag} get_pull_request`, 'get_pull_request', pull);
    await tool(`${tag} get_pull_request legacy`, 'get_pull_request', pull, { era: 'legacy' });
    if (!read?.files) continue;
    const paths = read.files.map((f) => f.path);
    const sections = fiftySections(paths).filter((s) => s.files.length > 0);
    if (repo === 'demo' || repo === 'private') {
      sections[0].note = RICH_NOTE;
      sections[0].files[0].note = RICH_NOTE;
    }
    const wrong = structuredClone(sections);
    wrong[0].files[0] = { ...wrong[0].files[0], path: 'not/there.rs' };
    await tool(`${tag} save_reading_order, a file not in the pull request`, 'save_reading_order', { ...pull, base_version: 0, sections: wrong });
    await tool(`${tag} save_reading_order, files missing`, 'save_reading_order', { ...pull, base_version: 0, sections: sections.slice(0, 1) });
    await tool(`${tag} save_reading_order, the first`, 'save_reading_order', { ...pull, base_version: read.baseVersion, overview: `First. ${RICH_NOTE}`, sections });
    await tool(`${tag} save_reading_order legacy`, 'save_reading_order', { ...pull, base_version: 1, overview: 'Second.', sections }, { era: 'legacy' });
    await tool(`${tag} save_reading_order, stale base`, 'save_reading_order', { ...pull, base_version: 1, overview: 'Stale.', sections });
    for (const name of ['show_reading_order', 'view_reading_order']) {
      await tool(`${tag} ${name}`, name, pull);
      await tool(`${tag} ${name} version 1`, name, { ...pull, version: 1 });
      await tool(`${tag} ${name} version 9`, name, { ...pull, version: 9 });
    }
    const split = read.files.find((f) => f.changes?.length);
    const plain = read.files.find((f) => f !== split) ?? split;
    if (split) {
      for (const change of split.changes.slice(0, 3)) await tool(`${tag} view_change ${change.id}`, 'view_change', { ...pull, path: split.path, change: change.id });
      await tool(`${tag} view_change, unknown change`, 'view_change', { ...pull, path: split.path, change: 'nope' });
    }
    await tool(`${tag} view_change, unknown file`, 'view_change', { ...pull, path: 'not/there.rs', change: 'x' });
    const diagram = {
      title: 'A diagram',
      groups: [{ id: 'server', title: 'Server' }],
      nodes: [
        { id: 'agent', title: 'Agent calls save', kind: 'trigger' },
        { id: 'check', title: 'Validate', kind: 'decision', group: 'server', file: split?.path ?? plain.path, ...(split ? { hunk: split.changes[0].id } : {}) },
        { id: 'store', title: 'Store version', kind: 'data', group: 'server', file: plain.path },
      ],
      edges: [{ from: 'agent', to: 'check', label: 'order' }, { from: 'check', to: 'store', dashed: true }],
    };
    await tool(`${tag} save_diagram, a file not in the pull request`, 'save_diagram', { ...pull, base_version: 0, diagram: { ...diagram, nodes: diagram.nodes.map((node) => (node.id === 'store' ? { ...node, file: 'not/there.rs' } : node)) } });
    await tool(`${tag} save_diagram`, 'save_diagram', { ...pull, base_version: read.diagramBaseVersion, diagram });
    await tool(`${tag} save_diagram, stale base`, 'save_diagram', { ...pull, base_version: 0, diagram });
    await tool(`${tag} view_diagram`, 'view_diagram', pull);
    await tool(`${tag} show_reading_order after the diagram`, 'show_reading_order', pull);
    await tool(`${tag} save_reading_order after the diagram`, 'save_reading_order', { ...pull, base_version: 2, overview: 'Third.', sections });
    await tool(`${tag} get_pull_request after the saves`, 'get_pull_request', pull);
    await tool(`${tag} get_pull_request with patches`, 'get_pull_request', { ...pull, include_patches: true });
  }
  // 3,000 files listed of 3,200 (big#2): the read, a 50-section order, the views, the page's windows.
  {
    const pull = { owner: 'logikflow', repo: 'big', number: 2 };
    const read = await tool('big#2 get_pull_request', 'get_pull_request', pull);
    if (read?.files) {
      const sections = fiftySections(read.files.map((f) => f.path)).filter((x) => x.files.length > 0);
      await tool('big#2 save_reading_order', 'save_reading_order', { ...pull, base_version: read.baseVersion, overview: 'Big.', sections });
      await tool('big#2 show_reading_order', 'show_reading_order', pull);
      await tool('big#2 view_reading_order', 'view_reading_order', pull);
      await tool('big#2 get_pull_request after the save', 'get_pull_request', pull);
    }
    for (const query of ['', '?from=101&fragment=1', '?from=2901&fragment=1', '?view=left']) {
      await web(`big#2 review page ${query}`, `/r/logikflow/big/pull/2${query}`);
    }
  }
  await tool('unknown pull request', 'get_pull_request', { owner: 'logikflow', repo: 'big', number: 999 });
  await tool('unknown repository', 'view_reading_order', { owner: 'logikflow', repo: 'nothing', number: 1 });

  // ---- Web: the review page and its routes, as the local user (loopback) ---------------
  for (const [repo, number] of [['demo', 3], ['big', 3]]) {
    const base = `/r/logikflow/${repo}/pull/${number}`;
    const first = await web(`${repo}#${number} review page`, base);
    const cookie = cookieOf(first.reply);
    const csrf = csrfOf(first.text);
    await web(`${repo}#${number} review page, cached`, base, { headers: { cookie } });
    for (const query of ['?view=left', '?view=since', '?version=1', '?version=99', '?from=1&fragment=1', '?view=nope']) {
      await web(`${repo}#${number} review page ${query}`, `${base}${query}`, { headers: { cookie } });
    }
    await web(`${repo}#${number} arrange editor`, `${base}/arrange`, { headers: { cookie } });
    const lazy = first.text.match(/href="(\/r\/[^"]*\/diff\?[^"]*)"/)?.[1]?.replaceAll('&amp;', '&');
    if (lazy) await web(`${repo}#${number} diff on demand`, `${lazy}&fragment=1`, { headers: { cookie } });
    await web(`${repo}#${number} diff, unknown path`, `${base}/diff?path=not/there&hunks=0&first=1&fragment=1`, { headers: { cookie } });
    const files = await (await fetch(`${stack.standinUrl}/repos/logikflow/${repo}/pulls/${number}/files?per_page=100`,
      { headers: { authorization: 'Bearer gho_standin_octo', 'user-agent': 'compare' } })).json();
    const withPatch = files.filter((f) => f.patch && f.status !== 'removed');
    const ctx = withPatch.find((f) => Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(f.patch)?.[1]) > 4) ?? withPatch[0];
    await web(`${repo}#${number} context`, `${base}/context?path=${encodeURIComponent(ctx.filename)}&from=1&to=3`, { headers: { cookie, accept: 'application/json' } });
    await web(`${repo}#${number} context html`, `${base}/context?path=${encodeURIComponent(ctx.filename)}&from=1&to=3`, { headers: { cookie } });
    await web(`${repo}#${number} context, bad range`, `${base}/context?path=${encodeURIComponent(ctx.filename)}&from=9&to=2`, { headers: { cookie, accept: 'application/json' } });

    // Ticks: one, a batch, refusals.
    const ticks = [...first.text.matchAll(/name="item" value="([^"]*)"/g)].map((m) => m[1].replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>'));
    const tickPost = (label, pairs, extra = {}, accept = 'application/json') => {
      const body = new URLSearchParams({ csrf, ...(pairs.length > 1 ? { batch: '1' } : {}), ...extra });
      for (const [item, done] of pairs) { body.append('item', item); body.append('done', done ? '1' : '0'); }
      return web(`${repo}#${number} ticks ${label}`, `${base}/ticks`, { method: 'POST', headers: postHeaders(cookie, accept), body: body.toString() });
    };
    if (ticks.length) {
      await tickPost('one', [[ticks[0], true]]);
      await tickPost('one, html', [[ticks[1] ?? ticks[0], true]], {}, 'text/html');
      await tickPost('a batch', ticks.slice(2, 8).map((t) => [t, true]));
      await tickPost('undo one', [[ticks[0], false]]);
      await tickPost('unknown item', [['no such item', true]]);
    }
    await web(`${repo}#${number} ticks, bad csrf`, `${base}/ticks`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf: 'x', item: ticks[0] ?? 'x', done: '1' }) });
    await web(`${repo}#${number} ticks, no origin`, `${base}/ticks`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: form({ csrf, item: ticks[0] ?? 'x', done: '1' }) });

    // Drafts, a single comment, a preview, a reply, a thread resolved, the review.
    const target = withPatch[0];
    let added = 0;
    for (let line = 0, lines = target.patch.split('\n'), i = 0; i < lines.length; i += 1) {
      const hunk = lines[i].match(/^@@ -\d+(?:,\d+)? \+(\d+)/);
      if (hunk) { line = Number(hunk[1]); continue; }
      if (lines[i].startsWith('+')) { added = line; break; }
      if (!lines[i].startsWith('-')) line += 1;
    }
    const comment = (label, fields) => web(`${repo}#${number} ${label}`, `${base}/comments`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, path: target.filename, side: 'RIGHT', ...fields }) });
    await comment('draft', { line: String(added), mode: 'draft', body: `A draft with ${RICH_NOTE}` });
    await comment('draft two', { line: String(added), mode: 'draft', body: 'Second draft.' });
    await comment('draft, line not in the diff', { line: '99999', mode: 'draft', body: 'Nowhere.' });
    await comment('draft, empty body', { line: String(added), mode: 'draft', body: '' });
    const withDrafts = await web(`${repo}#${number} review page with drafts`, base, { headers: { cookie } });
    const draftIds = [...withDrafts.text.matchAll(/name="id" value="(\d+)"/g)].map((m) => m[1]);
    if (draftIds.length) {
      await web(`${repo}#${number} draft edited`, `${base}/drafts`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, id: draftIds[0], body: 'Edited draft.' }) });
      await web(`${repo}#${number} draft deleted`, `${base}/drafts`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, id: draftIds.at(-1), action: 'delete' }) });
    }
    await web(`${repo}#${number} draft, unknown id`, `${base}/drafts`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, id: '987654', action: 'delete' }) });
    await web(`${repo}#${number} draft, unknown id, html`, `${base}/drafts`, { method: 'POST', headers: postHeaders(cookie, 'text/html'), body: form({ csrf, id: '987654', action: 'delete' }) });
    await web(`${repo}#${number} preview`, `${base}/preview`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, body: RICH_NOTE }) });
    const commentIds = [...withDrafts.text.matchAll(/name="comment" value="(\d+)"/g)].map((m) => m[1]);
    if (commentIds.length) await web(`${repo}#${number} reply`, `${base}/replies`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, comment: commentIds[0], body: 'A reply.' }) });
    await web(`${repo}#${number} reply, unknown comment`, `${base}/replies`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, comment: '1', body: 'A reply.' }) });
    const threadIds = [...withDrafts.text.matchAll(/name="thread" value="([^"]+)"/g)].map((m) => m[1]);
    if (threadIds.length) {
      await web(`${repo}#${number} resolve`, `${base}/threads`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, thread: threadIds[0], resolve: '1' }) });
      await web(`${repo}#${number} unresolve`, `${base}/threads`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, thread: threadIds[0], resolve: '0' }) });
    }
    await web(`${repo}#${number} resolve, not this pull request's thread`, `${base}/threads`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, thread: 'PRRT_nothing', resolve: '1' }) });
    await web(`${repo}#${number} review, bad event`, `${base}/review`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, event: 'maybe', body: '' }) });
    await comment('single comment', { line: String(added), mode: 'single', body: 'Sent at once.' });
    await web(`${repo}#${number} review page before the review`, base, { headers: { cookie } });
    await web(`${repo}#${number} review`, `${base}/review`, { method: 'POST', headers: postHeaders(cookie), body: form({ csrf, event: 'comment', body: 'The summary.' }) });
    await web(`${repo}#${number} review page after the review`, base, { headers: { cookie } });

    // The arrange editor's save.
    const arrange = await web(`${repo}#${number} arrange editor after saves`, `${base}/arrange`, { headers: { cookie } });
    const arrangeCsrf = csrfOf(arrange.text);
    const shown = await tool(`${repo}#${number} show_reading_order before arranging`, 'show_reading_order', { owner: 'logikflow', repo, number });
    const order = { overview: 'Arranged on the web.', sections: [{ title: 'All of it', note: 'From the editor.', files: files.map((f) => ({ path: f.filename, note: '' })) }] };
    const arrangeHeaders = { 'content-type': 'application/json', accept: 'application/json', origin: stack.baseUrl, cookie, 'x-csrf-token': arrangeCsrf ?? '' };
    await web(`${repo}#${number} arrange save`, `${base}/arrange`, { method: 'POST', headers: arrangeHeaders, body: JSON.stringify({ base_version: shown?.version ?? 0, order }) });
    await web(`${repo}#${number} arrange save, stale`, `${base}/arrange`, { method: 'POST', headers: arrangeHeaders, body: JSON.stringify({ base_version: 0, order }) });
    await web(`${repo}#${number} arrange save, bad json`, `${base}/arrange`, { method: 'POST', headers: arrangeHeaders, body: '{' });
    await web(`${repo}#${number} review page after arranging`, base, { headers: { cookie } });
    // Left in storage for the stored values: a draft, a multi-line one, and ticks.
    await comment('draft left', { line: String(added), mode: 'draft', body: 'Left for the stored values.' });
    await comment('draft left, a range', { line: String(added), start_line: String(added), mode: 'draft', body: `Multi\nline \u202E draft` });
    if (ticks.length) await tickPost('left', ticks.slice(0, 3).map((t) => [t, true]));
  }

  // The review demo (issue #38): a review requesting changes with two comments, then a push.
  await standinControl(stack, 'POST', 'reviews/demo', { repo: 'logikflow/private', number: 1, reviewer: 'maint', push: true });
  const privatePull = { owner: 'logikflow', repo: 'private', number: 1 };
  await tool('review demo get_pull_request', 'get_pull_request', privatePull);
  await tool('review demo get_review_feedback', 'get_review_feedback', privatePull);
  await tool('review demo get_review_feedback include_resolved', 'get_review_feedback', { ...privatePull, include_resolved: true });
  await tool('review demo view_reading_order', 'view_reading_order', privatePull);
  await web('review demo page', '/r/logikflow/private/pull/1');
  await web('review demo page ?view=since', '/r/logikflow/private/pull/1?view=since');

  // Other pages and message pages, as the local user.
  await web('home', '/');
  await web('guide markdown', '/docs/ordering-guide.md');
  await web('settings, local development', '/settings');
  await web('signout page', '/signout');
  await web('signin', '/signin');
  await web('setup with a client id', '/setup');
  await web('not found', '/nothing/here');
  await web('review page, unknown repository', '/r/logikflow/nothing/pull/1');
  await web('review page, unknown pull request', '/r/logikflow/big/pull/999');
  await web('review page, bad number', '/r/logikflow/big/pull/x');
  await web('ticks, GET', '/r/logikflow/big/pull/3/ticks');
  await web('mcp, GET', '/mcp');
  await web('well-known resource', '/.well-known/oauth-protected-resource');
  await web('well-known server', '/.well-known/oauth-authorization-server');

  // ---- Web as signed-in people (not loopback's local user) ----------------------------
  await stack.restart({ LOCAL_DEV: '0' });
  // The consent page of a first web sign-in (left unanswered).
  const start = await fetch(`${stack.baseUrl}/signin?next=${encodeURIComponent('/settings')}`, { redirect: 'manual' });
  const shown = await signIn(stack, new URL(start.headers.get('location'), stack.baseUrl), { login: 'maint' });
  if (shown.consent) await record('web consent page', new Response(shown.consent.html, { status: shown.consent.response.status, headers: shown.consent.response.headers }));
  else await record('web consent page (not shown)', new Response(JSON.stringify(shown.error ?? shown.redirect), { status: 599 }));
  for (const [login, write] of [['octo', true], ['reader', false], ['maint', false]]) {
    const session = await webSignIn(stack, login, '/settings', { write });
    const settings = await web(`${login} (write ${write}) settings`, '/settings', { headers: { cookie: session } });
    // The pages' CSRF cookie beside the session's, as a browser keeps it.
    const cookie = [session, cookieOf(settings.reply)].filter(Boolean).join('; ');
    const csrf = csrfOf(settings.text);
    if (login === 'octo') {
      await web(`${login} create API token`, '/settings/tokens', { method: 'POST', headers: postHeaders(cookie, 'text/html'), body: form({ csrf, name: 'compare' }) });
      await web(`${login} settings with a token`, '/settings', { headers: { cookie } });
    }
    for (const [repo, number] of [['demo', 3], ['private', 1]]) {
      const page = await web(`${login} (write ${write}) review page ${repo}#${number}`, `/r/logikflow/${repo}/pull/${number}`, { headers: { cookie } });
      const pageCsrf = csrfOf(page.text);
      const pageCookie = [cookie, cookieOf(page.reply)].filter(Boolean).join('; ');
      await web(`${login} (write ${write}) arrange ${repo}#${number}`, `/r/logikflow/${repo}/pull/${number}/arrange`, { headers: { cookie } });
      if (pageCsrf && write) {
        const item = page.text.match(/name="item" value="([^"]*)"/)?.[1]?.replaceAll('&amp;', '&');
        if (item) await web(`${login} tick ${repo}#${number}`, `/r/logikflow/${repo}/pull/${number}/ticks`, { method: 'POST', headers: postHeaders(pageCookie), body: form({ csrf: pageCsrf, item, done: '1' }) });
      }
      if (pageCsrf) {
        await web(`${login} (write ${write}) review ${repo}#${number}`, `/r/logikflow/${repo}/pull/${number}/review`, { method: 'POST', headers: postHeaders(pageCookie), body: form({ csrf: pageCsrf, event: 'comment', body: `From ${login}.` }) });
        await web(`${login} (write ${write}) review ${repo}#${number}, html`, `/r/logikflow/${repo}/pull/${number}/review`, { method: 'POST', headers: postHeaders(pageCookie, 'text/html'), body: form({ csrf: pageCsrf, event: 'comment', body: `From ${login}.` }) });
      }
    }
    await web(`${login} signout page`, '/signout', { headers: { cookie } });
  }

  // ---- OAuth, sign-in and settings step by step, with what is stored after each ----------
  // (issue #45: the Worker's endpoints moved to `app::oauth`; every answer and row must stay.)
  const redirectUri = 'http://127.0.0.1:33418/callback';
  const post = (path, headers, body) => fetch(`${stack.baseUrl}${path}`, { method: 'POST', redirect: 'manual', headers, body });
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
  const jsonHeaders = { 'content-type': 'application/json' };
  const step = async (label, response) => { const text = await record(`oauth ${label}`, response); snapshot(label); return text; };
  const registration = { client_name: 'Compare <App>', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' };
  const registered = JSON.parse(await step('register', await post('/oauth/register', jsonHeaders, JSON.stringify(registration))));
  const clientId = registered.client_id;
  await step('register, no redirect_uris', await post('/oauth/register', jsonHeaders, JSON.stringify({ client_name: 'X' })));
  await step('register, not JSON', await post('/oauth/register', jsonHeaders, 'nope'));
  const { verifier, challenge } = pkce();
  const authorize = (extra) => fetch(authorizeUrl(stack, { clientId, redirectUri, challenge, state: 'cmp', ...extra }), { redirect: 'manual' });
  await step('authorize, unknown client', await authorize({ clientId: 'lfd_nobody' }));
  await step('authorize, unregistered redirect', await authorize({ redirectUri: 'http://127.0.0.1:1/elsewhere' }));
  await step('authorize, plain PKCE', await authorize({ extra: { code_challenge_method: 'plain' } }));
  await step('authorize, bad resource', await authorize({ extra: { resource: 'https://elsewhere.example/mcp' } }));
  const started = await authorize({});
  const flowCookie = cookieFrom(started.clone(), '__Host-lf_flow');
  await step('authorize', started);
  const github = new URL(started.headers.get('location'));
  github.searchParams.set('login', 'octo');
  const callbackUrl = new URL((await fetch(github, { redirect: 'manual' })).headers.get('location'));
  await step('callback, another browser', await fetch(callbackUrl, { redirect: 'manual' }));
  const consentReply = await fetch(callbackUrl, { redirect: 'manual', headers: { cookie: flowCookie } });
  const csrfCookie = cookieFrom(consentReply.clone(), '__Host-lf_csrf');
  const consentHtml = await step('callback: the consent page', consentReply);
  await step('callback, replayed', await fetch(callbackUrl, { redirect: 'manual', headers: { cookie: flowCookie } }));
  const consentForm = (fields) => new URLSearchParams({ consent: hidden(consentHtml, 'consent'), csrf: hidden(consentHtml, 'csrf'), ...fields }).toString();
  await step('consent, no origin', await post('/authorize/consent', { ...formHeaders, cookie: csrfCookie }, consentForm({ action: 'approve' })));
  await step('consent, no csrf cookie', await post('/authorize/consent', { ...formHeaders, origin: stack.baseUrl }, consentForm({ action: 'approve' })));
  await step('consent, a text body', await post('/authorize/consent', { 'content-type': 'text/plain', origin: stack.baseUrl, cookie: csrfCookie }, consentForm({ action: 'approve' })));
  const approved = await post('/authorize/consent', { ...formHeaders, origin: stack.baseUrl, cookie: csrfCookie }, consentForm({ action: 'approve', write: 'on' }));
  const code = new URL(approved.headers.get('location')).searchParams.get('code');
  await step('consent, approved', approved);
  await step('consent, again', await post('/authorize/consent', { ...formHeaders, origin: stack.baseUrl, cookie: csrfCookie }, consentForm({ action: 'approve' })));
  const tokenForm = (fields) => new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, resource: stack.mcpUrl, ...fields }).toString();
  await step('token, JSON body', await post('/oauth/token', jsonHeaders, JSON.stringify({ grant_type: 'authorization_code', code })));
  await step('token, wrong verifier of another code', await post('/oauth/token', formHeaders, tokenForm({ grant_type: 'authorization_code', code: 'lfc_1_nothing', code_verifier: verifier })));
  const issued = JSON.parse(await step('token', await post('/oauth/token', formHeaders, tokenForm({ grant_type: 'authorization_code', code, code_verifier: verifier }))));
  const bearer = (token) => ({ authorization: `Bearer ${token}` });
  await rpc('tools/list after the code', 'tools/list', {}, { headers: bearer(issued.access_token) });
  const refreshed = JSON.parse(await step('refresh', await post('/oauth/token', formHeaders, tokenForm({ grant_type: 'refresh_token', refresh_token: issued.refresh_token }))));
  await rpc('tools/list after the refresh', 'tools/list', {}, { headers: bearer(refreshed.access_token) });
  await step('refresh, replayed', await post('/oauth/token', formHeaders, tokenForm({ grant_type: 'refresh_token', refresh_token: issued.refresh_token })));
  await rpc('tools/list after the replay', 'tools/list', {}, { headers: bearer(refreshed.access_token) });
  // A second use of the code ends its grant (OAuth 2.1 §4.1.2), the rotated tokens with it.
  await step('token, the code again', await post('/oauth/token', formHeaders, tokenForm({ grant_type: 'authorization_code', code, code_verifier: verifier })));
  await rpc('tools/list after the code again', 'tools/list', {}, { headers: bearer(refreshed.access_token) });
  // Consent remembered: a second sign-in of the same client goes straight back with a code.
  const again = await signIn(stack, authorizeUrl(stack, { clientId, redirectUri, challenge, state: 'cmp2' }), { login: 'octo' });
  await step('authorize again: remembered consent', again.response ?? new Response(again.consent?.html ?? '', { status: 599 }));
  const second = again.redirect?.searchParams.get('code');
  const secondTokens = JSON.parse(await step('token, the remembered consent', await post('/oauth/token', formHeaders, tokenForm({ grant_type: 'authorization_code', code: second ?? 'x', code_verifier: verifier }))));
  await step('revoke, no token', await post('/oauth/revoke', formHeaders, 'client_id=x'));
  await step('revoke, a made-up token', await post('/oauth/revoke', formHeaders, 'token=lfa_1001_madeup'));
  await step('revoke', await post('/oauth/revoke', formHeaders, new URLSearchParams({ token: secondTokens.refresh_token ?? 'x' }).toString()));
  await rpc('tools/list after the revocation', 'tools/list', {}, { headers: bearer(secondTokens.access_token ?? 'x') });
  // A client ID metadata document: served, moved, over the size limit, not naming itself.
  const docs = createServer((request, response) => {
    const url = `${docOrigin}${request.url}`;
    if (request.url === '/moved.json') { response.writeHead(302, { location: `${docOrigin}/client.json` }); return response.end(); }
    if (request.url === '/huge.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(`{"client_id":"${url}","client_name":"${'x'.repeat(6000)}"}`);
    }
    const named = request.url === '/client.json' ? url : `${url}x`;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ client_id: named, client_name: 'Document App', redirect_uris: [redirectUri] }));
  });
  await new Promise((done) => docs.listen(0, '127.0.0.1', done));
  docOrigin = `http://127.0.0.1:${docs.address().port}`;
  try {
    for (const name of ['client.json', 'moved.json', 'huge.json', 'other.json', 'client.json']) {
      await step(`authorize, metadata document ${name}`, await authorize({ clientId: `${docOrigin}/${name}` }));
    }
  } finally {
    docs.close();
  }
  // Settings' actions as a signed-in person: an API token made and revoked, an app
  // disconnected, then Delete my data; and sign-out.
  {
    const session = await webSignIn(stack, 'reader', '/settings', { write: true });
    const page = await web('reader settings', '/settings', { headers: { cookie: session } });
    const cookie = [session, cookieOf(page.reply)].filter(Boolean).join('; ');
    const csrf = csrfOf(page.text);
    const made = await web('reader create API token', '/settings/tokens', { method: 'POST', headers: postHeaders(cookie, 'text/html'), body: form({ csrf, name: 'compare', access: 'write' }) });
    snapshot('settings create API token');
    const shown = await web('reader settings with a token', '/settings', { headers: { cookie } });
    const tokenId = shown.text.match(/name="token" value="([^"]*)"/)?.[1] ?? made.text.match(/name="token" value="([^"]*)"/)?.[1] ?? 'x';
    await web('reader revoke API token', '/settings/tokens/revoke', { method: 'POST', headers: postHeaders(cookie, 'text/html'), body: form({ csrf, token: tokenId }) });
    snapshot('settings revoke API token');
    await web('reader revoke, bad csrf', '/settings/tokens/revoke', { method: 'POST', headers: postHeaders(cookie, 'text/html'), body: form({ csrf: 'x', token: tokenId }) });
    await web('reader delete, unconfirmed', '/settings/delete', { method: 'POST', headers: postHeaders(cookie, 'text/html'), body: form({ csrf }) });
    const other = await webSignIn(stack, 'reader', '/settings', { write: false });
    const otherPage = await web('reader second session settings', '/settings', { headers: { cookie: other } });
    const grants = [...otherPage.text.matchAll(/name="grant" value="([^"]*)"/g)].map((m) => m[1]);
    const otherCookie = [other, cookieOf(otherPage.reply)].filter(Boolean).join('; ');
    const otherCsrf = csrfOf(otherPage.text);
    await web('reader disconnect another app', '/settings/apps/disconnect', { method: 'POST', headers: postHeaders(otherCookie, 'text/html'), body: form({ csrf: otherCsrf, grant: grants.at(-1) ?? 'x' }) });
    snapshot('settings disconnect');
    await web('reader settings after the disconnect', '/settings', { headers: { cookie: otherCookie } });
    await web('reader delete my data', '/settings/delete', { method: 'POST', headers: postHeaders(otherCookie, 'text/html'), body: form({ csrf: otherCsrf, confirm: 'delete' }) });
    snapshot('settings delete my data');
    const last = await webSignIn(stack, 'reader', '/settings', { write: false });
    const signout = await web('reader signout page, again', '/signout', { headers: { cookie: last } });
    const outCookie = [last, cookieOf(signout.reply)].filter(Boolean).join('; ');
    await web('reader sign out', '/signout', { method: 'POST', headers: postHeaders(outCookie, 'text/html'), body: form({ csrf: csrfOf(signout.text) ?? '' }) });
    snapshot('web sign out');
    await web('reader settings after sign-out', '/settings', { headers: { cookie: last } });
  }
  await web('settings, signed out', '/settings');
  await web('review page, signed out', '/r/logikflow/demo/pull/3');
} catch (error) {
  console.error(stack.workerLog().slice(-3000));
  throw error;
} finally {
  await stack.stop();
}

dumpState(out);
rmSync(dir, { recursive: true, force: true });
console.log(`${n} answers and the stored state written to ${out}`);
