// The ceiling for the server benchmark: a JS Worker that answers a constant, run on the same
// local workerd as LogiKFlow so both figures come from one machine in one run.
// `/hop` first makes one Durable Object fetch, the least any Worker pays for a per-person hop:
// it shows how much of LogiKFlow's token path is the platform's hop and how much is ours.
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

export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === '/hop') {
      const stub = env.COUNTER.get(env.COUNTER.idFromName('person'));
      const reply = await stub.fetch('https://object/check', { method: 'POST', body: '{"token":"t"}' });
      await reply.text();
    }
    return new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } });
  },
};
