// Real MCP clients against the real Worker: the official TypeScript SDK client, the Python `mcp`
// client (2026-07-28 discovery first), and the MCP Inspector CLI. Tool outputs are validated
// against the schemas in schema/, so schema and code cannot drift apart.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { root, startStack } from './harness.mjs';
import { MODEL_TOOL_NAMES, TOOL_NAMES, validateToolOutput } from './schemas.mjs';

const run = promisify(execFile);
let stack;
before(async () => { stack = await startStack(); });
after(async () => { await stack?.stop(); });

async function connectSdk() {
  const client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
  return client;
}

test('TypeScript SDK: initialize, list, call the guide, read the resource, get the prompt', async () => {
  const client = await connectSdk();
  try {
    assert.equal(client.getServerVersion().name, 'logikflow');
    assert.match(client.getInstructions(), /get_pull_request/);
    const { tools } = await client.listTools();
    assert.equal(tools.length, TOOL_NAMES.length);
    const guide = await client.callTool({ name: 'get_ordering_guide', arguments: {} });
    assert.equal(guide.isError, false);
    assert.match(guide.content[0].text, /## Reading hints/);
    validateToolOutput('get_ordering_guide', guide.structuredContent);
    const { resources } = await client.listResources();
    const resource = await client.readResource({ uri: resources[0].uri });
    assert.equal(resource.contents[0].mimeType, 'text/markdown');
    const prompt = await client.getPrompt({ name: 'arrange-pull-request', arguments: { pull_request: 'https://github.com/acme/app/pull/12' } });
    assert.match(prompt.messages[0].content.text, /acme\/app#12/);
  } finally {
    await client.close();
  }
});

test('TypeScript SDK: an unknown tool is a protocol error', async () => {
  const client = await connectSdk();
  try {
    await assert.rejects(client.callTool({ name: 'delete_everything', arguments: {} }), /Unknown tool/);
  } finally {
    await client.close();
  }
});

test('Python mcp client (2026-07-28 discovery, then tools)', async () => {
  const python = join(root, '.tools/venv/bin/python');
  assert.ok(existsSync(python), 'the test command installs the Python client into .tools/venv');
  const { stdout } = await run(python, [join(root, 'tests/e2e/python_client.py'), stack.mcpUrl], { timeout: 60_000 });
  const report = JSON.parse(stdout.trim().split('\n').pop());
  assert.equal(report.server, 'logikflow');
  // It speaks 2026-07-28 and declares no MCP Apps extension: no view-only tools (issue #30).
  assert.deepEqual(report.tools, MODEL_TOOL_NAMES);
  assert.equal(report.guideIsError, false);
  assert.ok(report.guideHasSuggestions);
  assert.equal(report.protocolVersion, '2026-07-28', 'the Python client speaks the stateless protocol with us');
});

test('MCP Inspector CLI lists the tools and calls one', async () => {
  const inspector = join(root, 'node_modules/.bin/mcp-inspector');
  const list = await run(process.execPath, [inspector, '--cli', stack.mcpUrl, '--transport', 'http', '--method', 'tools/list'], { timeout: 60_000 });
  const listed = JSON.parse(list.stdout);
  assert.deepEqual(listed.tools.map((t) => t.name), TOOL_NAMES);
  const call = await run(process.execPath, [inspector, '--cli', stack.mcpUrl, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'get_ordering_guide'], { timeout: 60_000 });
  const called = JSON.parse(call.stdout);
  assert.equal(called.isError, false);
  assert.match(called.content[0].text, /## Diagrams/);
});
