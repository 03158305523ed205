// The transport rules of DESIGN.md §4 and issue #2 where they need the real Worker on workerd: the
// origin check as served, CORS as a browser reads it, a body with no declared length, the request
// URL workerd builds from `Host`, the crash path in the entry, the guide as a static asset, and
// /settings in local development (moved here from settings.test.mjs to save a Worker start).
// Each test would fail if its rule were dropped. The protocol's rules (methods, versions, errors
// and their ids, sizes, the tool list) are tested in-process: `mcp::dispatch::tests`,
// `mcp::transport::tests`, `service::tests` (issue #37 moved them there).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { postMcp, startStack } from './harness.mjs';

let stack;
before(async () => { stack = await startStack({ vars: { ALLOWED_ORIGINS: 'https://inspector.example' } }); });
after(async () => { await stack?.stop(); });

describe('HTTP rules', () => {
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

});

describe('routes', () => {
  test('the crash-test path is an ordinary 404 unless CRASH_TEST is set', async () => {
    const response = await fetch(`${stack.baseUrl}/__crash`);
    assert.equal(response.status, 404);
    await response.text();
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

  test('in local development /settings says a GitHub sign-in is needed', async () => {
    const response = await fetch(`${stack.baseUrl}/settings`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /need a GitHub sign-in/);
    assert.match(response.headers.get('content-security-policy'), /default-src 'none'/);
  });
});
