// A `node --test` reporter that writes one line per test file, the slowest first: how long the
// file took from its start to its end, stack start and stop included. `npm test`
// (tests/scripts/test.sh) prints it after the end-to-end tests, to see which files hold the run
// up; it passes or fails nothing (the spec reporter beside it reports the tests).
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./tests/scripts/file-times.mjs --test-reporter-destination=times.txt FILES
export default async function* fileTimes(source) {
  const files = [];
  for await (const event of source) {
    // A file's own event, not one of its tests': named by its path, at the top level.
    const data = event.data;
    if (event.type === 'test:complete' && data.nesting === 0 && data.file && data.file.endsWith(data.name)) {
      files.push({ name: data.name, ms: data.details?.duration_ms ?? 0, passed: data.details?.passed !== false });
    }
  }
  files.sort((a, b) => b.ms - a.ms);
  yield 'end-to-end files, slowest first (s):\n';
  for (const file of files) yield `${(file.ms / 1000).toFixed(1).padStart(7)}  ${file.name}${file.passed ? '' : '  (failed)'}\n`;
}
