// CPU time inside local workerd, for the benchmarks (issues #19, #20), and the inspector session
// that tests/bench/profile.mjs records CPU profiles through.
//
// `processCpu` reads the user+system CPU time of the workerd processes of one `wrangler dev`
// (from /proc/<pid>/stat) around N requests and divides by N. Everything workerd does counts:
// HTTP handling, wrangler's proxy Worker in front of ours, local KV and Durable Object storage,
// and the log line, which wrangler's inspector session carries out of the runtime. Other load on
// the machine does not count (only its cache and frequency effects do), which makes it steadier
// than requests/s on a shared machine. It is an upper bound of what the platform bills.
//
// `isolateCpu` measures what the platform bills instead: the Worker isolate's own time, from a V8
// CPU profile over the same requests. V8 records a sample only while the isolate holds its lock,
// so samples times the sampling interval is the time the isolate ran: our Rust and JavaScript,
// the runtime's work on our behalf (building a Response, starting a subrequest), but not local
// KV's SQLite, the HTTP client's I/O or wrangler's Workers in front. Two cautions: locally the
// Durable Objects run in the Worker's isolate, so a request's object work counts here too (on
// Cloudflare the object is its own invocation, with its own CPU limit); with function names in
// the wasm (tests/scripts/build.sh with LOGIKFLOW_NAMES=1) the samples taken inside an object's
// code are told apart, so the Worker's own share is known; and with the profiler on, every
// console.log is serialized for the inspector, so a small request's figure includes ~0.1 ms
// for its log line that the deployed Worker does not pay that way.
//
// How an object's code is told apart: a sample is the object's when a frame on its stack names an
// object class. After an `await`, Rust code resumes from the promise queue, under the future
// that `future_to_promise` polls, and not under the object's method; with v0 symbol names (the
// named build of tests/e2e/cpu-guard.mjs) that poll function's name carries the future's type,
// which names the class (`future_to_promise::<…PullRequestStore…fetch…>`). Legacy names
// (`{{closure}}::h…`) don't, and then only an object's first step before its first `await`
// counts: a 320-file first read showed 2 of 545 samples in objects. Samples in no code (V8's
// garbage collector, `(program)`) or only in the JavaScript glue go to the side of the sample
// before them (the one after, at the start of a busy stretch): the collector runs when the code
// running allocates. Checked against a session whose objects ran in a Worker of their own (same
// build, bound by `script_name`, whose isolate the inspector profiled): a 3,000-file first read's
// objects took 58–59 ms there and 62–63 ms by names here.
import { readFileSync, readdirSync } from 'node:fs';
import WebSocket from 'ws';

/** CPU seconds used so far by the workerd processes of a process group (from /proc). */
export function workerdCpu(group) {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat;
    try { stat = readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch { continue; }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state, ppid, pgrp, …, utime (11th), stime (12th).
    if (comm === 'workerd' && Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100; // USER_HZ is 100 on Linux
}

/** Milliseconds of workerd process CPU per request: `count` requests sent one after another. */
export async function processCpu(group, count, send) {
  const before = workerdCpu(group);
  for (let i = 0; i < count; i += 1) await send(i);
  return ((workerdCpu(group) - before) * 1000) / count;
}

/** A Durable Object's code, by the Rust names of its classes (present only in a named build). */
const OBJECT_CODE = /PullRequestStore|PersonStore/;

/**
 * Milliseconds of the isolate's own time per request (see above), `{ ms, objectMs, named }`: a
 * CPU profile is started, and only the samples taken while the `count` requests were sent are
 * counted, so the profiler's start-up work is left out. `objectMs` is the part spent in Durable
 * Objects' code (samples with an object's function on the stack), known only when the wasm has
 * its function names (`named`); `ms - objectMs` is then the Worker's own invocation.
 */
export async function isolateCpu(inspectorPort, count, send) {
  const session = await attach(inspectorPort);
  try {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 100 });
    await session.send('Profiler.start');
    await new Promise((r) => setTimeout(r, 300));
    // V8's profile timestamps and Node's hrtime both read the monotonic clock, in microseconds.
    const from = Number(process.hrtime.bigint() / 1000n);
    for (let i = 0; i < count; i += 1) await send(i);
    const to = Number(process.hrtime.bigint() / 1000n);
    const { result } = await session.send('Profiler.stop');
    await session.send('Profiler.disable');
    const { profile } = result;
    const idle = new Set(profile.nodes.filter((n) => ['(idle)', '(root)'].includes(n.callFrame.functionName)).map((n) => n.id));
    // Whether the wasm keeps its function names: a sampled Rust function is named `…logikflow…`,
    // and V8 calls a wasm function that has no name `$funcN` (or `wasm-function[N]`). A profile
    // that sampled no wasm at all (a request of a millisecond can fall between samples on a busy
    // machine) says nothing either way: it counts as named, and with no object's code found its
    // samples all go to the Worker, so the CPU guard can only over-count, never pass wrongly.
    const names = profile.nodes.map((n) => n.callFrame.functionName);
    const named =
      names.some((name) => name.includes('logikflow')) ||
      !names.some((name) => /^(\$?func\d+|wasm-function\[\d+\])$/.test(name));
    // Nodes under an object's code: a node is when it or an ancestor names an object class.
    const inObject = new Set();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const mark = (node, inside) => {
      const here = inside || OBJECT_CODE.test(node.callFrame.functionName);
      if (here) inObject.add(node.id);
      for (const child of node.children ?? []) mark(byId.get(child), here);
    };
    mark(profile.nodes[0], false);
    // Samples in no code of either side: the collector, `(program)`, or JavaScript glue alone.
    const unplaced = new Set();
    const placed = (node) => node.callFrame.functionName.includes('::') && !node.callFrame.functionName.startsWith('js-to-wasm');
    const markUnplaced = (node, codeAbove) => {
      const code = codeAbove || placed(node);
      if (!code && !idle.has(node.id)) unplaced.add(node.id);
      for (const child of node.children ?? []) markUnplaced(byId.get(child), code);
    };
    markUnplaced(profile.nodes[0], false);
    let at = profile.startTime;
    let busy = 0;
    let object = 0;
    const steps = [];
    const kept = [];
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i];
      at += delta;
      if (at < from || at > to) return;
      steps.push(delta);
      kept.push(id);
    });
    // Each sample's side: 'o' object, 'w' Worker, '-' idle, '?' unplaced until its neighbours say.
    const side = kept.map((id) => (idle.has(id) ? '-' : inObject.has(id) ? 'o' : unplaced.has(id) ? '?' : 'w'));
    for (let i = 0; i < side.length; i += 1) if (side[i] === '?' && i > 0 && side[i - 1] !== '-') side[i] = side[i - 1];
    for (let i = side.length - 1; i >= 0; i -= 1) if (side[i] === '?') side[i] = i + 1 < side.length && 'ow'.includes(side[i + 1]) ? side[i + 1] : 'w';
    for (const s of side) {
      if (s !== '-') busy += 1;
      if (s === 'o') object += 1;
    }
    // The interval actually kept between samples while the isolate ran (the shortest tenth of
    // the steps: a longer step spans time the isolate was not running).
    steps.sort((a, b) => a - b);
    const interval = steps[Math.floor(steps.length / 10)] ?? 0;
    const perRequest = (samples) => (samples * interval) / 1000 / count;
    return { ms: perRequest(busy), objectMs: perRequest(object), named };
  } finally {
    session.close();
  }
}

/** A minimal DevTools protocol session over the inspector's WebSocket. */
export async function attach(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl) ?? targets[0];
  // The `ws` package: the inspector proxy refuses Node's built-in WebSocket handshake.
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  let next = 1;
  const waiting = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (message.id && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
  });
  return {
    send(method, params = {}) {
      const id = next++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    close: () => socket.close(),
  };
}

/**
 * The benchmark's save: 50 sections over a pull request's paths, each with a note and three
 * checks, as an agent writes them (tests/bench/server.mjs and profile.mjs).
 */
export function fiftySections(paths) {
  return Array.from({ length: 50 }, (_, s) => ({
    title: `Part ${s + 1}`, layer: 'logic', note: `What part ${s + 1} changes and why it comes here. `.repeat(4),
    checks: ['The names say what they hold', 'Errors reach the caller', 'A test covers the new branch'],
    files: paths.filter((_, i) => i % 50 === s).map((path) => ({ path, note: 'Read the new branch first.' })),
  }));
}
