// save_diagram through the real Worker: versions, conflicts, references to the pull request's
// files and changes, validation messages, and that the reading order is left alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { standinControl, startStack } from './harness.mjs';
import { validateToolInput, validateToolOutput } from './schemas.mjs';

let stack;
let client;
const pr = { owner: 'logikflow', repo: 'demo', number: 3 };

before(async () => {
  stack = await startStack();
  client = new Client({ name: 'diagram-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
});
after(async () => {
  await client?.close();
  await stack?.stop();
});

async function read() {
  const result = await client.callTool({ name: 'get_pull_request', arguments: pr });
  validateToolOutput('get_pull_request', result.structuredContent);
  return result.structuredContent;
}

function diagramFor(files) {
  const split = files.find((f) => f.changes);
  const plain = files.find((f) => !f.changes && !f.likelyGenerated);
  return {
    title: 'How an order is saved',
    groups: [{ id: 'server', title: 'Server' }],
    nodes: [
      { id: 'agent', title: 'Agent calls save', kind: 'trigger', lines: [{ label: 'example', text: 'save_reading_order' }] },
      { id: 'check', title: 'Validate <order>', kind: 'decision', group: 'server', file: split.path, hunk: split.changes[0].id },
      { id: 'store', title: 'Store version', kind: 'data', group: 'server', file: plain.path },
    ],
    edges: [
      { from: 'agent', to: 'check', label: 'order' },
      { from: 'check', to: 'store', label: 'if valid', dashed: true },
    ],
  };
}

async function save(args) {
  validateToolInput('save_diagram', args);
  const result = await client.callTool({ name: 'save_diagram', arguments: args });
  if (!result.isError) validateToolOutput('save_diagram', result.structuredContent);
  return result;
}

test('save a diagram, read it back, conflict on a stale base', async () => {
  const current = await read();
  assert.equal(current.diagramBaseVersion, 0);
  assert.equal(current.currentDiagram, null);
  const first = await save({ ...pr, base_version: 0, diagram: diagramFor(current.files) });
  assert.equal(first.isError, false, first.content[0].text);
  assert.deepEqual(first.structuredContent, {
    saved: true, version: 1, diagramUrl: `${stack.baseUrl}/r/logikflow/demo/pull/3#diagram`,
    nodes: 3, edges: 2, groups: 1, linkedFiles: 2,
  });
  const after = await read();
  assert.equal(after.diagramBaseVersion, 1);
  assert.equal(after.currentDiagram.version, 1);
  assert.equal(after.currentDiagram.updatedBy.person, 'octo');
  assert.equal(after.currentDiagram.diagram.nodes[1].title, 'Validate <order>');
  assert.equal(after.baseVersion, current.baseVersion, 'the reading order is untouched');

  const stale = await client.callTool({ name: 'save_diagram', arguments: { ...pr, base_version: 0, diagram: diagramFor(current.files) } });
  assert.equal(stale.isError, true);
  assert.match(stale.content[0].text, /^Conflict: octo saved diagram version 1/);
  assert.equal((await read()).diagramBaseVersion, 1);
});

const refusals = [
  ['an edge to an unknown node', (d) => { d.edges.push({ from: 'agent', to: 'ghost' }); }, /^The diagram is invalid: .*ghost/],
  ['one node only', (d) => { d.nodes = d.nodes.slice(0, 1); d.edges = []; }, /^The diagram is invalid: /],
  ['a duplicate id across groups and nodes', (d) => { d.nodes[0].id = 'server'; d.edges[0].from = 'server'; }, /^The diagram is invalid: /],
  ['a bad kind', (d) => { d.nodes[0].kind = 'rocket'; }, /^The diagram is invalid: .*kind/],
  ['a long edge label', (d) => { d.edges[0].label = 'x'.repeat(41); }, /^The diagram is invalid: .*label/],
  ['a file not in the pull request', (d) => { d.nodes[2].file = 'src/not-changed.rs'; }, /^The diagram points at files or changes that aren't in the pull request/],
  ['a change of another file', (d) => { d.nodes[2].hunk = 'hzzzzzz'; }, /^The diagram points at files or changes that aren't in the pull request/],
];
for (const [name, mutate, message] of refusals) {
  test(`refused: ${name}, nothing saved`, async () => {
    const current = await read();
    const diagram = diagramFor(current.files);
    mutate(diagram);
    const result = await client.callTool({ name: 'save_diagram', arguments: { ...pr, base_version: current.diagramBaseVersion, diagram } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, message);
    assert.equal((await read()).diagramBaseVersion, current.diagramBaseVersion);
  });
}

test('target, unknown-key and shape problems come in one reply, before any GitHub request', async () => {
  const current = await read();
  const diagram = diagramFor(current.files);
  diagram.nodes[0].kind = 'rocket';
  await standinControl(stack, 'DELETE', 'requests');
  const result = await client.callTool({ name: 'save_diagram', arguments: { owner: pr.owner, repo: pr.repo, number: pr.number, base_version: -1, colour: 'red', diagram } });
  assert.equal(result.isError, true);
  const text = result.content[0].text;
  assert.match(text, /^The diagram is invalid: base_version must be/);
  assert.match(text, /colour/);
  assert.match(text, /kind/);
  const log = await standinControl(stack, 'GET', 'requests');
  assert.equal(log.requests.filter((r) => r.kind === 'rest').length, 0, JSON.stringify(log.requests));
  assert.equal((await read()).diagramBaseVersion, current.diagramBaseVersion);
});

test("an order's next step knows whether a diagram is saved (the object answers it with the save)", async () => {
  const other = { owner: 'logikflow', repo: 'demo', number: 1 };
  const orderArgs = (current) => ({
    ...other, base_version: current.baseVersion,
    sections: [{ title: 'All', layer: 'logic', files: current.files.map((f) => ({ path: f.path })) }],
  });
  const readOther = async () => (await client.callTool({ name: 'get_pull_request', arguments: other })).structuredContent;
  const before = await readOther();
  assert.equal(before.currentDiagram, null);
  const first = await client.callTool({ name: 'save_reading_order', arguments: orderArgs(before) });
  assert.equal(first.isError, false, first.content[0].text);
  assert.doesNotMatch(first.structuredContent.nextStep, /has a diagram|this one has one/);
  const diagram = {
    title: 'The flow',
    nodes: [{ id: 'a', title: 'Start', kind: 'trigger', file: before.files[0].path }, { id: 'b', title: 'End', kind: 'data' }],
    edges: [{ from: 'a', to: 'b' }],
  };
  const drawn = await save({ ...other, base_version: 0, diagram });
  assert.equal(drawn.isError, false, drawn.content[0].text);
  const second = await client.callTool({ name: 'save_reading_order', arguments: orderArgs(await readOther()) });
  assert.equal(second.isError, false, second.content[0].text);
  assert.match(second.structuredContent.nextStep, /has a diagram|this one has one/);
});
