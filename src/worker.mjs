// The Worker's JavaScript entry: hands each request to the Rust code (the wasm-bindgen glue in
// build/.glue, made by tests/scripts/build.sh) and recovers from a crash of the wasm instance.
//
// Why our own entry, not worker-build's: worker-build wraps the entrypoint and every Durable
// Object in Proxies, and on every request creates a Proxy for the instance and another for
// each method it touches, with an extra promise per call. With a real token every /mcp request
// crosses that twice (the Worker, then the person's object). This file keeps the same recovery
// with plain classes.
//
// Recovery: a Rust panic marks the instance broken (the `worker` crate's panic hook sets
// `criticalError`), and so does a wasm trap (caught below, or as an uncaught error event). The
// next request resets the wasm instance first (`__wbg_reset_state`, from wasm-bindgen's
// --experimental-reset-state-function), and each Durable Object rebuilds its Rust half, whose
// memory went with the old instance. Without this, one panic would leave the isolate's Rust
// state unusable for every later request.
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

/** A Durable Object class served by the Rust class `Rust` (constructor(state, env), fetch). */
function durableObject(Rust) {
  return class {
    constructor(ctx, env) {
      this.ctx = ctx;
      this.env = env;
      resetIfBroken();
      this.rust = new Rust(ctx, env);
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

export const PersonStore = durableObject(glue.PersonStore);
export const PullRequestStore = durableObject(glue.PullRequestStore);
