// The Worker's own CPU time per request, apart from its Durable Objects', for the CPU guard of
// the large-pull-request test (tests/e2e/large-pull-cpu.test.mjs) and the route bench
// (tests/bench/routes.mjs), issue #30.
//
// Why measured and not enforced: local workerd runs every Worker without a CPU limit. Its Worker
// config (workerd.capnp) has no limits field, so wrangler.toml's `[limits] cpu_ms` is read,
// checked and dropped:
// with `cpu_ms = 10` a 3,000-file review page's first view after a push took 61–161 ms of the
// isolate's CPU and was answered 200 (docs/capacity.md, "Worker CPU per route"). So the time is
// taken from a V8 CPU profile (tests/bench/cpu.mjs `isolateCpu`) of a build that keeps the wasm's
// function names: locally the objects run in the Worker's isolate, and the names tell their
// samples apart, which on Cloudflare are invocations of their own with their own limit.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isolateCpu } from '../bench/cpu.mjs';
import { root } from './harness.mjs';

/**
 * The build with function names: build/named/, made by every tests/scripts/build.sh from the same
 * cargo build as the shipped build/, whose wasm is this one's with the `name` section cut out
 * (tests/scripts/strip-names.mjs), so the guard profiles the code that ships. The names are in
 * Rust's v0 form (`.cargo/config.toml`) for the whole wasm build. Why v0: after an `await`, Rust
 * code resumes from the promise queue under the future `future_to_promise` polls, not under the
 * object's method; a v0 name carries that future's type, which names the object class
 * (`future_to_promise::<…PullRequestStore…fetch…>`), where a legacy one is `{{closure}}::h…` for
 * the Worker and the objects alike.
 */
export const namedBuild = join(root, 'build/named');

/**
 * Makes the build (or, with LOGIKFLOW_BUILD=skip, only checks that no source is newer than it)
 * and returns the named build's folder.
 */
export function buildNamed() {
  execFileSync('bash', [join(root, 'tests/scripts/build.sh')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(join(namedBuild, 'index_bg.wasm'))) throw new Error(`no build in ${namedBuild}`);
  return namedBuild;
}

/**
 * Milliseconds per request of the Worker alone and of the objects, `{ worker, objects }`, over
 * `count` requests sent one after another (`send(i)`), from the isolate's CPU profile. Throws
 * when the wasm has no function names: the Worker's share can't be known then.
 */
export async function workerCpu(stack, count, send) {
  const cpu = await isolateCpu(stack.inspectorPort, count, send);
  if (!cpu.named) throw new Error('the wasm has no function names: serve tests/e2e/cpu-guard.mjs `buildNamed()`');
  return { worker: cpu.ms - cpu.objectMs, objects: cpu.objectMs };
}

/** `&amp;`, `&quot;`, `&#39;`, `&lt;`, `&gt;` in an attribute value, as the pages escape them. */
export function unescapeAttribute(value) {
  return value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** A page's tick forms: `[{ item, done, scope }]`, `done` the form's next value ("0": it is done). */
export function tickForms(html) {
  const forms = [];
  for (const chunk of html.split('<form').slice(1)) {
    const form = chunk.slice(0, chunk.indexOf('</form>'));
    if (!/class="[^"]*\btick\b/.test(form.slice(0, form.indexOf('>')))) continue;
    const item = /name="item" value="([^"]*)"/.exec(form)?.[1];
    const done = /name="done" value="([^"]*)"/.exec(form)?.[1];
    const scope = /data-scope="([^"]*)"/.exec(form)?.[1];
    if (item !== undefined) forms.push({ item: unescapeAttribute(item), done, scope });
  }
  return forms;
}

/**
 * What a review page's script would use: its CSRF token, the `from` of every other window of
 * entries (`?from=N` links, sorted), its tick forms and the first "Load diff" link (a path, or
 * undefined).
 */
export function pageParts(html) {
  return {
    csrf: unescapeAttribute(/name="csrf" value="([^"]*)"/.exec(html)?.[1] ?? ''),
    windows: [...new Set([...html.matchAll(/href="\?from=(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b),
    forms: tickForms(html),
    lazyDiff: ((link) => link && unescapeAttribute(link))(/class="button load-diff" href="([^"]*)"/.exec(html)?.[1]),
  };
}
