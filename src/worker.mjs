// The Worker's JavaScript entry: hands each request to the Rust code (the wasm-bindgen glue in
// build/.glue, made by tests/scripts/build.sh) and recovers from a crash of the wasm instance.
//
// Why our own entry, not worker-build's: worker-build wraps the entrypoint and every Durable
// Object in Proxies, and on every request creates a Proxy for the instance and another for
// each method it touches, with an extra promise per call. With a real token every /mcp request
// crosses that twice (the Worker, then the person's object). This file keeps the same recovery
// with plain classes.
//
// Recovery, in two layers. The bindings (wasm-bindgen's --experimental-reset-state-function and
// --force-enable-abort-handler) mark the instance terminated when any exception escapes the wasm
// code (a trap, a stack overflow, a panic's abort) and make a fresh instance at the next call.
// A Rust panic also sets `criticalError` (the `worker` crate's panic hook), and this file then
// resets the instance before the next request runs, as worker-build's entry did. Either way
// `instanceId` changes (the crate's start function counts instances), and each Durable Object
// then rebuilds its Rust half, whose memory went with the old instance. Without this, one panic
// would leave the isolate's Rust state unusable for every later request.
import { WorkerEntrypoint } from 'cloudflare:workers';
import * as glue from '../build/.glue/index.js';

// Deep Rust stacks need more than V8's default of 10 frames to be readable in the logs.
Error.stackTraceLimit = 100;

const state = glue.__worker_init_state();

function resetIfBroken() {
  if (state.criticalError) {
    console.warn('Reinitializing Wasm application after a crash');
    glue.__wbg_reset_state();
    state.criticalError = false;
    state.instanceId++;
  }
}

function noteCrash(error) {
  if (error instanceof WebAssembly.RuntimeError) {
    console.error('Critical', error);
    state.criticalError = true;
  }
}

addEventListener('error', (event) => noteCrash(event.error));

export default class LogiKFlow extends WorkerEntrypoint {
  async fetch(request) {
    resetIfBroken();
    try {
      return await glue.fetch(request, this.env, this.ctx);
    } catch (error) {
      noteCrash(error);
      throw error;
    }
  }
}

/** What the Durable Object wrappers below pass on: everything else a Rust class has is a bug. */
const FORWARDED = new Set(['constructor', 'fetch', 'free', '__destroy_into_raw']);

/** A Durable Object class served by the Rust class `Rust` (constructor(state, env), fetch). */
function durableObject(Rust) {
  // A method added on the Rust side (an alarm, a WebSocket handler) must be passed on here too:
  // fail at startup, where every test sees it, rather than leave it silently unreachable.
  const missing = Object.getOwnPropertyNames(Rust.prototype).filter((name) => !FORWARDED.has(name));
  if (missing.length > 0) {
    throw new Error(`src/worker.mjs does not pass on ${Rust.name}.${missing.join(', ')}`);
  }
  return class {
    constructor(ctx, env) {
      this.ctx = ctx;
      this.env = env;
      resetIfBroken();
      try {
        this.rust = new Rust(ctx, env);
      } catch (error) {
        // As worker-build's entry did: a failed construction leaves the instance suspect.
        state.criticalError = true;
        throw error;
      }
      this.instanceId = state.instanceId;
    }

    async fetch(request) {
      resetIfBroken();
      if (this.instanceId !== state.instanceId) {
        this.rust = new Rust(this.ctx, this.env);
        this.instanceId = state.instanceId;
      }
      try {
        return await this.rust.fetch(request);
      } catch (error) {
        noteCrash(error);
        throw error;
      }
    }
  };
}

// The same for the Worker's own handlers: only `fetch` is passed on.
for (const handler of ['scheduled', 'queue', 'email', 'tail', 'trace', 'test', 'alarm']) {
  if (handler in glue) throw new Error(`src/worker.mjs does not pass on the ${handler} handler`);
}

export const PersonStore = durableObject(glue.PersonStore);
export const PullRequestStore = durableObject(glue.PullRequestStore);
