// Hint quality through the whole server (issue #16): every hand-labelled pull request of
// tests/data/hints/measure, served by the stand-in as logikflow/fixtures, is read with
// get_pull_request; the hints are compared with the case's truth.txt and precision and recall
// are printed per language and hint. The GitHub requests of a first and a repeat read are
// counted against the reference's budget (ceil(files/100) + 4, then 2), the build files being
// read in the one GraphQL request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { standinControl, startStack } from './harness.mjs';
import { readCases } from '../standin/measure.mjs';

let stack;
let client;
before(async () => {
  stack = await startStack();
  client = new Client({ name: 'hint-quality', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl)));
});
after(async () => {
  await client?.close();
  await stack?.stop();
});

/** `{ dependsOn: Set<'a -> b'>, testOf: Set<'a -> b'>, generated: Set<path> }` from truth.txt. */
function parseTruth(text) {
  const facts = { dependsOn: new Set(), testOf: new Set(), generated: new Set() };
  for (const raw of text.split('\n')) {
    const line = raw.split('#')[0].trim();
    if (line.includes(' -> ')) {
      const [from, to] = line.split(' -> ');
      for (const dep of to.split(',').map((d) => d.trim()).filter(Boolean)) facts.dependsOn.add(`${from.trim()} -> ${dep}`);
    } else if (line.includes(' testOf ')) {
      const [test, subject] = line.split(' testOf ');
      facts.testOf.add(`${test.trim()} -> ${subject.trim()}`);
    } else if (line.endsWith(' generated')) {
      facts.generated.add(line.slice(0, -' generated'.length).trim());
    }
  }
  return facts;
}

function predicted(files) {
  const facts = { dependsOn: new Set(), testOf: new Set(), generated: new Set() };
  for (const file of files) {
    for (const dep of file.dependsOn ?? []) facts.dependsOn.add(`${file.path} -> ${dep}`);
    if (file.testOf) facts.testOf.add(`${file.path} -> ${file.testOf}`);
    if (file.likelyGenerated) facts.generated.add(file.path);
  }
  return facts;
}

const tally = () => ({ hits: 0, predicted: 0, labelled: 0 });
const precision = (t) => (t.predicted ? t.hits / t.predicted : 1);
const recall = (t) => (t.labelled ? t.hits / t.labelled : 1);

async function restRequests() {
  const log = await standinControl(stack, 'GET', 'requests');
  return log.requests.filter((r) => r.kind === 'rest');
}

test('hint precision and recall on the labelled pull requests, within the request budget', async () => {
  const cases = readCases();
  assert.ok(cases.length >= 40, 'at least 40 labelled pull requests');
  const info = await standinControl(stack, 'GET', 'info');
  const pulls = info.repos.find((r) => r.full_name === 'logikflow/fixtures').pulls;
  const table = new Map();
  // dependsOn by size: issue #32's goals differ for ranges of 300+ files.
  const bySize = new Map();
  const misses = [];
  let worstFirst = 0;
  let worstRepeat = 0;
  for (const fixture of cases) {
    const pull = pulls.find((p) => p.title === fixture.name);
    await standinControl(stack, 'DELETE', 'requests');
    const result = await client.callTool({ name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'fixtures', number: pull.number } });
    assert.equal(result.isError, false, `${fixture.name}: ${JSON.stringify(result.content)}`);
    const first = await restRequests();
    const budget = Math.ceil(fixture.files.length / 100) + 4;
    assert.ok(first.length <= budget, `${fixture.name}: first read used ${first.length} requests: ${first.map((r) => r.path).join(', ')}`);
    assert.equal(first.filter((r) => r.path === '/graphql').length, 1, 'build files come in one GraphQL request');
    worstFirst = Math.max(worstFirst, first.length - Math.ceil(fixture.files.length / 100));
    await standinControl(stack, 'DELETE', 'requests');
    await client.callTool({ name: 'get_pull_request', arguments: { owner: 'logikflow', repo: 'fixtures', number: pull.number } });
    const repeat = await restRequests();
    assert.ok(repeat.length <= 2, `${fixture.name}: repeat read used ${repeat.length} requests`);
    worstRepeat = Math.max(worstRepeat, repeat.length);

    const got = predicted(result.structuredContent.files);
    const truth = parseTruth(fixture.truth);
    const language = fixture.name.split('-')[0];
    if (!table.has(language)) table.set(language, { cases: 0, dependsOn: tally(), testOf: tally(), generated: tally() });
    const row = table.get(language);
    row.cases++;
    const size = fixture.files.length >= 300 ? 'range of 300+ files' : 'ordinary';
    if (!bySize.has(size)) bySize.set(size, { cases: 0, ...tally() });
    const sized = bySize.get(size);
    sized.cases++;
    sized.predicted += got.dependsOn.size;
    sized.labelled += truth.dependsOn.size;
    for (const fact of got.dependsOn) if (truth.dependsOn.has(fact)) sized.hits++;
    for (const hint of ['dependsOn', 'testOf', 'generated']) {
      row[hint].predicted += got[hint].size;
      row[hint].labelled += truth[hint].size;
      for (const fact of got[hint]) {
        if (truth[hint].has(fact)) row[hint].hits++;
        else misses.push(`${fixture.name}: false ${hint} ${fact}`);
      }
      for (const fact of truth[hint]) if (!got[hint].has(fact)) misses.push(`${fixture.name}: missed ${hint} ${fact}`);
    }
  }
  const lines = ['| language | cases | dependsOn P | dependsOn R | testOf P | testOf R | likelyGenerated P | likelyGenerated R |', '|---|---|---|---|---|---|---|---|'];
  const total = { cases: 0, dependsOn: tally(), testOf: tally(), generated: tally() };
  for (const [language, row] of [...table].sort()) {
    lines.push(`| ${language} | ${row.cases} | ${['dependsOn', 'testOf', 'generated'].map((h) => `${precision(row[h]).toFixed(3)} | ${recall(row[h]).toFixed(3)}`).join(' | ')} |`);
    total.cases += row.cases;
    for (const hint of ['dependsOn', 'testOf', 'generated']) for (const k of ['hits', 'predicted', 'labelled']) total[hint][k] += row[hint][k];
  }
  lines.push(`| all | ${total.cases} | ${['dependsOn', 'testOf', 'generated'].map((h) => `${precision(total[h]).toFixed(3)} | ${recall(total[h]).toFixed(3)}`).join(' | ')} |`);
  lines.push('', '| pull requests | cases | dependsOn P | dependsOn R |', '|---|---|---|---|');
  for (const [size, sized] of [...bySize].sort()) lines.push(`| ${size} | ${sized.cases} | ${precision(sized).toFixed(3)} | ${recall(sized).toFixed(3)} |`);
  console.log(`\n${lines.join('\n')}\n\nGitHub requests: first read ≤ pages + ${worstFirst}, repeat read ≤ ${worstRepeat}\n${misses.join('\n')}`);
  for (const [language, row] of table) {
    assert.ok(precision(row.dependsOn) >= 0.98 && recall(row.dependsOn) >= 0.92, `${language}: dependsOn below the goal`);
  }
  for (const [size, sized] of bySize) {
    const goal = size === 'ordinary' ? 0.95 : 0.9;
    assert.ok(precision(sized) >= 0.99 && recall(sized) >= goal, `${size}: dependsOn below the goal`);
  }
  assert.ok(bySize.has('range of 300+ files'), 'a labelled range of 300+ files');
  assert.ok(precision(total.testOf) >= 0.98 && recall(total.testOf) >= 0.98, 'testOf below the goal');
  assert.ok(precision(total.generated) >= 0.99 && recall(total.generated) >= 0.98, 'likelyGenerated below the goal');
});
