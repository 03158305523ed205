// measure.mjs — reads the hand-labelled pull requests under tests/data/hints/measure/ (issue #16)
// so the stand-in can serve them as `logikflow/fixtures`, one PR per case folder in name order,
// with each case's build files (`=== config <path>`) and `.gitattributes` at the PR's head.
// The same folders are read by src/review/hints/measure.rs; `truth.txt` is read by the
// end-to-end measurement (tests/e2e/hint-quality.test.mjs), never by the stand-in.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MEASURE_DIR = fileURLToPath(new URL('../data/hints/measure/', import.meta.url));

/** Parses one `pr.txt`: `{ configs: {path: text}, files: [{ filename, status, hunks }] }`. */
export function parseCase(text) {
  const configs = {};
  const files = [];
  let current = null;
  const flush = () => {
    if (!current) return;
    if (current.kind === 'config') configs[current.path] = current.body.join('\n');
    if (current.kind === 'gitattributes') configs['.gitattributes'] = current.body.join('\n');
    if (current.kind === 'file') {
      const hunks = [];
      for (const line of current.body) {
        // `@@ <old start> [section text]`: the text git writes after a hunk header (issue #32).
        const start = /^@@ (\d+)(?: (.*))?$/.exec(line);
        if (start) hunks.push({ oldStart: Number(start[1]), context: (start[2] ?? '').trim(), lines: [] });
        else if (hunks.length && line !== '') hunks[hunks.length - 1].lines.push(line);
      }
      files.push({ filename: current.path, status: current.status, hunks: hunks.length ? hunks : null });
    }
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('=== ')) {
      flush();
      const [kind, path, status] = line.slice(4).trim().split(/\s+/);
      current = { kind, path, status, body: [] };
    } else if (current) {
      current.body.push(line);
    }
  }
  flush();
  return { configs, files };
}

/** Every case: `[{ name, configs, files, truth }]`, in folder-name order. */
export function readCases(dir = MEASURE_DIR) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${dir}/${entry.name}/pr.txt`))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      ...parseCase(readFileSync(`${dir}/${name}/pr.txt`, 'utf8')),
      truth: existsSync(`${dir}/${name}/truth.txt`) ? readFileSync(`${dir}/${name}/truth.txt`, 'utf8') : '',
    }));
}
