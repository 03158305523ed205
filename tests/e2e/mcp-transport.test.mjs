// The transport rules of DESIGN.md §4 and issue #2, checked against the real Worker on workerd.
// Each test would fail if its rule were dropped.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { modernRequest, postMcp, startStack } from './harness.mjs';
import { MODEL_TOOL_NAMES, TOOL_NAMES } from './schemas.mjs';

let stack;
before(async () => { stack = await startStack({ vars: { ALLOWED_ORIGINS: 'https://inspector.example' } }); });
after(async () => { await stack?.stop(); });

describe('HTTP rules', () => {
  test('GET and DELETE get 405 naming POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(stack.mcpUrl, { method });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST');
    }
  });

  test('a foreign Origin gets 403, our own is served', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const foreign = await postMcp(stack, ping, { origin: 'http://evil.example.com' });
    assert.equal(foreign.status, 403);
    const own = await postMcp(stack, ping, { origin: stack.baseUrl });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.result, {});
  });

  test('an allowed foreign origin gets CORS: a preflight, then the reply it may read', async () => {
    const preflight = await fetch(stack.mcpUrl, {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, mcp-protocol-version' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://inspector.example');
    assert.match(preflight.headers.get('access-control-allow-headers'), /authorization/);
    assert.match(preflight.headers.get('access-control-allow-headers'), /mcp-protocol-version/);
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const reply = await postMcp(stack, ping, { origin: 'https://inspector.example' });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('access-control-allow-origin'), 'https://inspector.example');
    assert.match(reply.headers.get('access-control-expose-headers'), /www-authenticate/);
    const hostile = await fetch(stack.mcpUrl, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    assert.equal(hostile.status, 403);
    assert.equal(hostile.headers.get('access-control-allow-origin'), null);
  });

  test('a body sent without a declared length is cut off at 1 MiB', async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    const body = new ReadableStream({
      pull(controller) {
        if (sent >= 17) return controller.close();
        sent += 1;
        controller.enqueue(sent === 1 ? new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"ping"}') : chunk);
      },
    });
    try {
      const response = await fetch(stack.mcpUrl, { method: 'POST', body, duplex: 'half', headers: { 'content-type': 'application/json' } });
      const text = await response.text();
      // Under `wrangler dev` the local proxy may report that the Worker hung up on the upload.
      if (!(response.status === 500 && /Network connection lost/.test(text))) {
        assert.equal(response.status, 413, text);
        assert.equal(JSON.parse(text).error.message, 'Request body too large: the limit is 1 MiB');
      }
    } catch (error) {
      // The Worker may close the connection before the client has finished sending.
      assert.match(String(error.cause?.code ?? error), /EPIPE|ECONNRESET|UND_ERR_SOCKET/);
    }
    const small = await postMcp(stack, { jsonrpc: '2.0', id: 2, method: 'ping' });
    assert.equal(small.status, 200);
    // A small body sent in chunks (no content-length) is read whole and answered.
    const parts = ['{"jsonrpc":"2.0",', '"id":3,', '"method":"ping"}'].map((p) => new TextEncoder().encode(p));
    const chunked = await fetch(stack.mcpUrl, {
      method: 'POST', duplex: 'half', headers: { 'content-type': 'application/json' },
      body: new ReadableStream({ pull(controller) { const next = parts.shift(); if (next) controller.enqueue(next); else controller.close(); } }),
    });
    assert.equal(chunked.status, 200);
    assert.deepEqual(await chunked.json(), { jsonrpc: '2.0', id: 3, result: {} });
  });

  test('a body over 1 MiB gets 413', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } });
    const response = await postMcp(stack, big);
    assert.equal(response.status, 413);
  });

  test('malformed JSON gets -32700', async () => {
    const response = await postMcp(stack, '{"jsonrpc":"2.0",');
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, -32700);
  });

  test('batches are rejected', async () => {
    const response = await postMcp(stack, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, -32600);
  });

  test('errors carry the request id', async () => {
    const response = await postMcp(stack, { jsonrpc: '2.0', id: 'abc', method: 'no/such/method' });
    assert.equal(response.body.id, 'abc');
    assert.equal(response.body.error.code, -32601);
  });

  test('no session id is ever issued', async () => {
    const response = await postMcp(stack, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    assert.equal(response.headers.get('mcp-session-id'), null);
  });

  test('a request from a non-loopback host without a token gets the OAuth challenge', async () => {
    // LOCAL_DEV trusts loopback only: the same request addressed to another host must authenticate.
    // fetch() drops a Host header, so this one request goes through node:http.
    const { status, headers } = await new Promise((resolve, reject) => {
      const url = new URL(stack.mcpUrl);
      const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST',
        headers: { host: 'logikflow.example', 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    });
    assert.equal(status, 401);
    assert.equal(headers['www-authenticate'],
      'Bearer resource_metadata="http://logikflow.example/.well-known/oauth-protected-resource/mcp", scope="reviews"');
  });

  test('an unknown bearer token gets invalid_token', async () => {
    const response = await postMcp(stack, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: 'Bearer nope' });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate'), /error="invalid_token"/);
  });
});

describe('2026-07-28', () => {
  test('server/discover', async () => {
    const { message, headers } = modernRequest(1, 'server/discover');
    const response = await postMcp(stack, message, headers);
    assert.equal(response.status, 200);
    const result = response.body.result;
    assert.equal(result.resultType, 'complete');
    assert.deepEqual(result.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18']);
    assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'logikflow');
    assert.equal(typeof result.ttlMs, 'number');
    assert.equal(result.cacheScope, 'public');
    assert.match(result.instructions, /untrusted/);
  });

  test('missing _meta is 400 -32602', async () => {
    const response = await postMcp(stack, { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, -32602);
    assert.equal(response.body.id, 7);
  });

  test('header disagreeing with the body is 400 -32020', async () => {
    const { message, headers } = modernRequest(2, 'tools/list');
    const wrongMethod = await postMcp(stack, message, { ...headers, 'mcp-method': 'prompts/list' });
    assert.equal(wrongMethod.status, 400);
    assert.equal(wrongMethod.body.error.code, -32020);
    const call = modernRequest(3, 'tools/call', { name: 'get_ordering_guide', arguments: {} }, 'save_diagram');
    const wrongName = await postMcp(stack, call.message, call.headers);
    assert.equal(wrongName.body.error.code, -32020);
  });

  test('unsupported version is 400 -32022 with the supported list', async () => {
    const { message, headers } = modernRequest(4, 'tools/list');
    message.params._meta['io.modelcontextprotocol/protocolVersion'] = '2099-01-01';
    const response = await postMcp(stack, message, { ...headers, 'mcp-protocol-version': '2099-01-01' });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, -32022);
    assert.ok(response.body.error.data.supported.includes('2026-07-28'));
    assert.equal(response.body.error.data.requested, '2099-01-01');
  });

  test('the crash-test path is an ordinary 404 unless CRASH_TEST is set', async () => {
    const response = await fetch(`${stack.baseUrl}/__crash`);
    assert.equal(response.status, 404);
    await response.text();
  });

  test('unknown method and initialize are 404 -32601', async () => {
    for (const method of ['initialize', 'no/such']) {
      const { message, headers } = modernRequest(5, method);
      const response = await postMcp(stack, message, headers);
      assert.equal(response.status, 404, method);
      assert.equal(response.body.error.code, -32601);
    }
  });

  test('tools/list carries cache hints, schemas and annotations', async () => {
    const { message, headers } = modernRequest(6, 'tools/list');
    const response = await postMcp(stack, message, headers);
    const { tools, ttlMs, cacheScope, resultType } = response.body.result;
    assert.equal(resultType, 'complete');
    assert.ok(ttlMs > 0);
    assert.equal(cacheScope, 'public');
    // No MCP Apps extension declared: the view's own tools are left out (issue #30).
    assert.deepEqual(tools.map((t) => t.name), MODEL_TOOL_NAMES);
    for (const tool of tools) {
      assert.ok(tool.title && tool.description && tool.inputSchema && tool.outputSchema, tool.name);
      assert.equal(tool.annotations.readOnlyHint, !tool.name.startsWith('save_'), tool.name);
      assert.equal(tool.annotations.destructiveHint, false);
    }
  });
});

describe('2025-11-25 and 2025-06-18', () => {
  for (const version of ['2025-11-25', '2025-06-18']) {
    test(`${version}: initialize negotiates, notifications get 202, requests stand alone`, async () => {
      const init = await postMcp(stack, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      assert.equal(init.body.result.protocolVersion, version);
      assert.equal(init.body.result.serverInfo.name, 'logikflow');
      const note = await postMcp(stack, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-protocol-version': version });
      assert.equal(note.status, 202);
      // A fresh request, as if to another instance that never saw the initialize.
      const list = await postMcp(stack, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': version });
      assert.equal(list.status, 200);
      assert.equal(list.body.result.tools.length, TOOL_NAMES.length);
    });
  }

  test('an unsupported protocol header is 400', async () => {
    const response = await postMcp(stack, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2024-11-05' });
    assert.equal(response.status, 400);
  });
});

describe('pages', () => {
  test('the ordering guide is served as HTML and Markdown', async () => {
    const html = await fetch(`${stack.baseUrl}/docs/ordering-guide`);
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type'), /text\/html/);
    // A static asset, rendered at build time, with the pages' security headers (_headers).
    assert.match(html.headers.get('content-security-policy') ?? '', /default-src 'none'.*frame-ancestors 'none'/);
    assert.equal(html.headers.get('x-frame-options'), 'DENY');
    const text = await html.text();
    assert.match(text, /id="suggestions"/);
    assert.match(text, /id="reading-hints"/);
    assert.match(text, /id="diagrams"/);
    const markdown = await fetch(`${stack.baseUrl}/docs/ordering-guide.md`);
    assert.match(await markdown.text(), /## Suggestions/);
  });

  test('protected resource metadata names /mcp', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${stack.baseUrl}${path}`);
      const metadata = await response.json();
      assert.equal(metadata.resource, `${stack.baseUrl}/mcp`);
      assert.deepEqual(metadata.scopes_supported, ['reviews']);
    }
  });
});
