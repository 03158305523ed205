// The ceiling for the server benchmark: a JS Worker that answers a constant, run on the same
// local workerd as LogiKFlow so both figures come from one machine in one run.
export default {
  async fetch() {
    return new Response('{"jsonrpc":"2.0","id":1,"result":{}}', { headers: { 'content-type': 'application/json' } });
  },
};
