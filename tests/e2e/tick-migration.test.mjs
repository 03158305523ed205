// Path-keyed ticks from before content keys are migrated, against the real Worker and its real
// Durable Object storage: the object's SQLite file gets rows as the previous version wrote them
// (item `file:<path>`, no head) while the Worker is stopped; a push then changes one of the two
// files; after a restart the reviewer keeps the tick on the unchanged file and sees the changed
// one as "Changed since you reviewed", and the old rows are gone from storage.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { standinControl, startStack } from './harness.mjs';

const pr = { owner: 'logikflow', repo: 'demo', number: 3 };
const pagePath = '/r/logikflow/demo/pull/3';
let stack;

async function call(name, args) {
  const client = new Client({ name: 'migration-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
  try {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, false, result.content?.[0]?.text);
    return result.structuredContent;
  } finally {
    await client.close();
  }
}

/** The pull requests' object databases under the persisted state. */
function objectDatabases() {
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return /PullRequestStore/.test(path) && entry.name.endsWith('.sqlite') ? [path] : [];
  });
  return walk(stack.persistDir);
}

function stateOf(html, path) {
  const start = html.indexOf(`id="file-${path}" aria-labelledby`);
  assert.ok(start > 0, `no entry for ${path}`);
  return html.slice(start).match(/data-state="(\w+)"/)[1];
}

before(async () => { stack = await startStack(); });
after(async () => { await stack?.stop(); });

test('path-keyed ticks move to the content they covered, once', async () => {
  const { files, baseVersion } = await call('get_pull_request', pr);
  await call('save_reading_order', { ...pr, base_version: baseVersion, sections: [{ title: 'All', files: files.map((f) => ({ path: f.path })) }] });
  assert.equal((await fetch(`${stack.baseUrl}${pagePath}`)).status, 200, 'the page opens the object');

  await stack.kill();
  const databases = objectDatabases().map((path) => new DatabaseSync(path));
  const db = databases.find((d) => d.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'orders'").get().n === 1
    && d.prepare('SELECT count(*) AS n FROM orders').get().n > 0);
  assert.ok(db, 'found the pull request object holding the order');
  const insert = db.prepare('INSERT INTO ticks (person, item, done, updated_at, head_sha) VALUES (?, ?, 1, ?, NULL)');
  insert.run('octo', 'file:tools/hints.py', '2026-11-01T00:00:00Z');
  insert.run('octo', 'file:package-lock.json', '2026-11-01T00:00:00Z');
  for (const d of databases) d.close();

  await standinControl(stack, 'POST', 'push', { ...{ repo: 'logikflow/demo', number: 3 }, edits: [{ path: 'tools/hints.py', op: 'grow' }] });
  await stack.start();

  const html = await (await fetch(`${stack.baseUrl}${pagePath}`)).text();
  assert.equal(stateOf(html, 'package-lock.json'), 'reviewed', 'unchanged since the order: the tick stays');
  assert.equal(stateOf(html, 'tools/hints.py'), 'changed', 'changed since: said so, not kept');
  assert.equal(stateOf(html, 'src/review/order.ts'), 'todo', 'never ticked');

  // Migrated once: storage now holds content items, no path-keyed rows.
  await stack.kill();
  const after = objectDatabases().map((path) => new DatabaseSync(path));
  const rows = after.flatMap((d) => {
    const has = d.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'ticks'").get().n === 1;
    return has ? d.prepare('SELECT item, head_sha FROM ticks').all() : [];
  });
  for (const d of after) d.close();
  assert.ok(!rows.some((row) => row.item.startsWith('file:')), JSON.stringify(rows));
  assert.ok(rows.some((row) => row.item.startsWith('change:package-lock.json#') && row.head_sha), JSON.stringify(rows));
  await stack.start();
  const again = await (await fetch(`${stack.baseUrl}${pagePath}`)).text();
  assert.equal(stateOf(again, 'package-lock.json'), 'reviewed');
  assert.equal(stateOf(again, 'tools/hints.py'), 'changed');
});
