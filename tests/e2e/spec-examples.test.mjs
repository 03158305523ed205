// The MCP reference's own examples, saved through the real Worker: the example order gives exactly
// the example result, and the example diagram gives the example counts. The stand-in serves the
// examples' files as logikflow/invites#123 (the order's four files) and #124 (the five files of
// the get_pull_request example, which the diagram points at).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack } from './harness.mjs';

let stack;
let client;
before(async () => {
  stack = await startStack();
  client = new Client({ name: 'spec-examples', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
});
after(async () => {
  await client?.close();
  await stack?.stop();
});

test('the example order saves with the example result', async () => {
  const args = {
    owner: 'logikflow', repo: 'invites', number: 123, base_version: 0,
    overview: 'Adds team invites behind the `invitesEnabled` flag. Start with the flag and migration, then the model and service, then the dialog that calls it. The replace-on-reinvite rule in `InviteService` is the part to read slowly.',
    sections: [
      {
        title: 'Flag and schema',
        layer: 'contracts',
        note: 'Everything new is behind `invitesEnabled`, off by default.',
        checks: ['With the flag off, the members page is unchanged'],
        files: [{ path: 'lib/flags.ts' }, { path: 'db/migrations/0003_invites.sql' }],
      },
      {
        title: 'Invite model and service',
        layer: 'logic',
        note: 'Builds on the schema above. `InviteService` owns the lifecycle; the model is a plain record.',
        files: [
          { path: 'models/invite.ts' },
          { path: 'services/invite-service.ts', note: 'Re-inviting the same email replaces the open invite.', focus: 'key' },
        ],
      },
    ],
  };
  const result = await client.callTool({ name: 'save_reading_order', arguments: args });
  assert.equal(result.isError, false, result.content[0].text);
  assert.deepEqual(result.structuredContent, {
    saved: true, version: 1, reviewUrl: `${stack.baseUrl}/r/logikflow/invites/pull/123`,
    overview: true, sections: 2, files: 4, checklistItems: 1, suggestions: [],
    nextStep: 'Done. Share the review link with the user. The pull request is small, so skip the diagram unless the user asks for one.',
    // Issue #47: the save sets the LogiKFlow commit status on the head (the reference's example
    // predates it).
    commitStatus: { set: true },
  });
});

test('the example diagram saves with the example counts', async () => {
  const args = {
    owner: 'logikflow', repo: 'invites', number: 124, base_version: 0,
    diagram: {
      title: 'How an invite is accepted',
      groups: [{ id: 'server', title: 'Server' }, { id: 'tests', title: 'Coverage' }],
      nodes: [
        { id: 'link', title: 'Invite link opened', kind: 'trigger', lines: [{ label: 'example', text: '/invite/abc123' }] },
        { id: 'accept', title: 'Accept invite', kind: 'logic', group: 'server', file: 'services/invite-service.ts', lines: [{ label: 'change', text: 'closes the invite after joining' }] },
        { id: 'expired', title: 'Reject expired', kind: 'warning', group: 'server', file: 'services/invite-service.ts' },
        { id: 'spec', title: 'Invite service spec', kind: 'test', group: 'tests', file: 'services/invite-service.test.ts' },
      ],
      edges: [
        { from: 'link', to: 'accept', label: 'token' },
        { from: 'accept', to: 'expired', label: 'if expired' },
        { from: 'accept', to: 'spec', label: 'covered by', dashed: true },
      ],
    },
  };
  const result = await client.callTool({ name: 'save_diagram', arguments: args });
  assert.equal(result.isError, false, result.content[0].text);
  assert.deepEqual(result.structuredContent, {
    saved: true, version: 1, diagramUrl: `${stack.baseUrl}/r/logikflow/invites/pull/124#diagram`,
    nodes: 4, edges: 3, groups: 2, linkedFiles: 2,
  });
});

test('the example files read back with the example hints', async () => {
  const result = await client.callTool({ name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'invites', number: 124 } });
  const files = Object.fromEntries(result.structuredContent.files.map((f) => [f.path, f]));
  assert.deepEqual(files['services/invite-service.ts'].dependsOn, ['models/invite.ts']);
  assert.equal(files['services/invite-service.test.ts'].testOf, 'services/invite-service.ts');
  assert.deepEqual(files['services/invite-service.test.ts'].dependsOn, ['services/invite-service.ts']);
  assert.equal(files['package-lock.json'].likelyGenerated, true);
  assert.equal(files['app/router.ts'].changes.length, 2);
  assert.equal(result.structuredContent.diagramPreference, 'ask');
});
