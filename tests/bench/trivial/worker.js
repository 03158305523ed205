// The ceiling for the server benchmark: a JS Worker that answers a constant, run on the same
// local workerd as LogiKFlow so both figures come from one machine in one run.
// `/hop` first makes one Durable Object fetch, the least any Worker pays for a per-person hop:
// it shows how much of LogiKFlow's token path is the platform's hop and how much is ours.
// `/log` writes one console.log line like LogiKFlow's per-request log line (src/log.rs): under
// `wrangler dev` its inspector session carries every line out of the runtime, a local cost that
// the deployed Worker does not pay the same way (issue #19). `/hop/log` does both.
export class Counter {
  constructor() {
    this.count = 0;
  }

  async fetch(request) {
    await request.text();
    this.count += 1;
    return new Response('{"allowed":true}', { headers: { 'content-type': 'application/json' } });
  }
}

/** A line shaped like LogiKFlow's request log line for a tools/list with a token. */
const LINE = JSON.stringify({ event: 'request', route: 'mcp', mcp_method: 'tools/list', status: 200, ms: 1,
  github_requests: 0, objects: 1, rate_limit: 'allowed' });

export default {
  async fetch(request, env) {
    const path = new URL(request.url).pathname;
    if (path === '/log' || path === '/hop/log') console.log(LINE);
    if (path.startsWith('/hop')) {
      const stub = env.COUNTER.get(env.COUNTER.idFromName('person'));
      const reply = await stub.fetch('https://object/check', { method: 'POST', body: '{"token":"t"}' });
      await reply.text();
    }
    return new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } });
  },
};
