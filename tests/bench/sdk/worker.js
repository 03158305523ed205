// The official TypeScript SDK as a Worker, for the server benchmark (issue #19): a stateless
// Streamable HTTP server with JSON responses, serving LogiKFlow's own tool list, run under the
// same local workerd as LogiKFlow so both are measured on one machine in one run.
//
// Written against the SDK's public API only, in the shape its documentation gives for a stateless
// server: a new `Server` and `WebStandardStreamableHTTPServerTransport` for every request (the
// transport refuses to be reused when it keeps no sessions). `tools.json` is LogiKFlow's
// `tools/list` result, written by tests/bench/server.mjs before this Worker starts, so both
// servers send the same bytes of tool definitions.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import list from './tools.json';

/** A line shaped like LogiKFlow's request log line (src/log.rs), written when `LOG_LINE` is set. */
const LINE = JSON.stringify({ event: 'request', route: 'mcp', mcp_method: 'tools/list', status: 200, ms: 1, github_requests: 0, objects: 0 });

export default {
  async fetch(request, env) {
    if (env.LOG_LINE) console.log(LINE);
    const server = new Server({ name: 'sdk-bench', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: list.tools }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    return transport.handleRequest(request);
  },
};
