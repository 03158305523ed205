// The diagram's drawing code (src/static/diagram.js), the one copy the review page and the MCP
// Apps view share, in headless Chromium on a blank page: no Worker, just layouts in the shape
// review::layout writes and the SVG they become. The frame (title, description, arrowhead), a
// class and id per node and kind, group boxes, rounded bends, dashed edges, links only to
// fragments and only for nodes tied to a file, buttons for the view, hostile text as text, and
// odd input drawn without a NaN. The layout itself is tested in src/review/layout/tests.rs.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { launchChromium, root } from './harness.mjs';

let browser;
let page;

before(async () => {
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setContent('<!DOCTYPE html><html><body><main id="out"></main></body></html>');
  await page.addScriptTag({ path: join(root, 'src/static/diagram.js') });
});
after(async () => {
  await browser?.close();
});

/** Draws `layout` into the page and returns what a test reads of it. */
function draw(layout, options = {}) {
  return page.evaluate(({ layout, links, activate }) => {
    const out = document.getElementById('out');
    window.__activated = [];
    const svg = window.LogiKFlowDiagram.draw(layout, null, {
      href: links ? (node, index) => links[index] : undefined,
      activate: activate ? (node) => window.__activated.push(node.id) : undefined,
    });
    out.replaceChildren(svg);
    const attributes = [...svg.querySelectorAll('*')].flatMap((n) => [...n.attributes].map((a) => a.value));
    return {
      markup: out.innerHTML,
      attributes,
      elements: [...new Set([...svg.querySelectorAll('*')].map((n) => n.localName))].sort(),
    };
  }, { layout, links: options.links ?? null, activate: options.activate ?? false });
}

const node = (id, extra = {}) => ({ id, title: id, kind: 'logic', x: 10, y: 10, w: 120, h: 40, titleLines: [id], lines: [], ...extra });

// The sample of the removed Rust renderer's tests, laid out by hand.
const sample = {
  title: 'How an invite is accepted', width: 400.04, height: 300,
  groups: [{ id: 'server', title: 'Server', x: 150, y: 60, w: 200, h: 180 }, { id: 'tests', title: 'Coverage', x: 20, y: 200, w: 100, h: 80 }],
  nodes: [
    node('link', { title: 'Invite link opened', kind: 'trigger', titleLines: ['Invite link opened'], lines: [{ label: 'example', rows: ['/invite/abc123'] }] }),
    node('accept', { title: 'Accept invite', group: 'server', x: 160, y: 80, file: 'services/invite-service.ts', fileLabel: 'invite-service.ts', hunk: 'c1', lines: [{ label: 'change', rows: ['closes the invite', 'after joining'] }] }),
    node('expired', { title: 'Reject expired', kind: 'warning', group: 'server', x: 160, y: 160, file: 'services/invite-service.ts', fileLabel: 'invite-service.ts' }),
    node('spec', { title: 'Invite service spec', kind: 'test', group: 'tests', x: 30, y: 220, file: 'services/invite-service.test.ts', fileLabel: 'invite-service.test.ts' }),
    node('readme', { title: 'Docs', kind: 'external', x: 300, y: 250, file: 'README.md', fileLabel: 'README.md' }),
  ],
  edges: [
    { from: 'link', to: 'accept', points: [[70, 50], [70, 65], [220, 65], [220, 80]], label: 'token', labelAt: [145, 65], dashed: false },
    { from: 'accept', to: 'expired', points: [[220, 120], [220, 160]], label: 'if expired', labelAt: [220, 140], dashed: false },
    { from: 'accept', to: 'spec', points: [[200, 120], [90, 220]], label: 'covered by', labelAt: [145, 170], dashed: true },
    { from: 'spec', to: 'readme', points: [[130, 240], [300, 270]], labelAt: [0, 0], dashed: false },
  ],
};

test('the frame: an image with a title, a description and one arrowhead', async () => {
  const { markup } = await draw(sample);
  for (const fragment of [
    '<svg class="lkf-diagram" viewBox="0 0 400 300" width="400" height="300" role="img" aria-labelledby="lkf-diagram-title lkf-diagram-desc">',
    '<title id="lkf-diagram-title">How an invite is accepted</title>',
    '<desc id="lkf-diagram-desc">Flow diagram with 5 steps and 4 links in 2 groups</desc>',
    '<marker id="lkf-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path class="arrowhead" d="M0,1L10,5L0,9z"></path></marker>',
  ]) {
    assert.ok(markup.includes(fragment), `missing ${fragment} in ${markup}`);
  }
  assert.equal(markup.match(/marker-end="url\(#lkf-arrow\)"/g).length, 4);
  // With links or buttons inside, a group with the same name and description, not an image.
  for (const options of [{ links: sample.nodes.map((n) => `#file-${n.id}`) }, { activate: true }]) {
    const { markup } = await draw(sample, options);
    assert.ok(markup.startsWith('<svg class="lkf-diagram" viewBox="0 0 400 300" width="400" height="300" role="group" aria-labelledby="lkf-diagram-title" aria-describedby="lkf-diagram-desc">'), markup.slice(0, 300));
  }
  // Layers in drawing order: group boxes, edges, nodes, then labels above everything.
  const layers = await page.$$eval('#out svg > g', (all) => all.map((g) => g.getAttribute('class')));
  assert.deepEqual(layers, ['groups', 'edges', 'nodes', 'edge-labels']);
});

test('every node has an id, its kind class and its text; groups their title', async () => {
  const { markup } = await draw(sample);
  for (const fragment of [
    '<g class="node k-trigger" id="node-link" data-node="link"><title>Invite link opened</title>',
    '<g class="node k-logic" id="node-accept" data-node="accept"><title>Accept invite — services/invite-service.ts</title>',
    '<g class="node k-warning" id="node-expired" data-node="expired">',
    '<g class="node k-test" id="node-spec" data-node="spec">',
    '<g class="node k-external" id="node-readme" data-node="readme">',
    '<g class="group" data-group="server"><title>Server</title><rect x="150" y="60" width="200" height="180" rx="10"></rect><text class="group-title" x="160" y="78">Server</text></g>',
    '<text class="row" x="22" y="', '"><tspan class="row-label">example:</tspan> /invite/abc123</text>',
    '<text class="row" x="172" y="', '">after joining</text>',
    '<text class="file" x="220" y="', '" text-anchor="middle">invite-service.ts</text>',
    '<text class="title" x="70" y="', '" text-anchor="middle">Invite link opened</text>',
    '<g class="edge-label"><rect x="123.5" y="57" width="43" height="16" rx="4"></rect><text x="145" y="68.9" text-anchor="middle">token</text></g>',
  ]) {
    assert.ok(markup.includes(fragment), `missing ${fragment} in ${markup}`);
  }
  // A group title too long for its box is shortened.
  const narrow = await draw({ ...sample, groups: [{ id: 'g', title: 'A very long group title indeed', x: 0, y: 0, w: 80, h: 50 }] });
  assert.ok(narrow.markup.includes('<text class="group-title" x="10" y="18">A very l…</text>'), narrow.markup);
});

test('every kind has its shape', async () => {
  const kinds = ['trigger', 'logic', 'decision', 'data', 'ui', 'test', 'config', 'external', 'warning'];
  const { markup } = await draw({ width: 900, height: 100, nodes: kinds.map((kind, i) => node(kind, { kind, x: 10 + i * 100, w: 80, h: 60 })), edges: [], groups: [] });
  for (const kind of kinds) assert.ok(markup.includes(`class="node k-${kind}" id="node-${kind}"`), kind);
  assert.ok(markup.includes('<polygon class="shape" points="224,10 276,10 290,40 276,70 224,70 210,40">'), markup);
  assert.ok(markup.includes('<path class="shape" d="M310,17 A40,7 0 0 1 390,17 V63 A40,7 0 0 1 310,63 Z"></path><path class="cap" d="M310,17 A40,7 0 0 0 390,17"></path>'), markup);
  assert.ok(markup.includes('<rect class="shape" x="10" y="10" width="80" height="60" rx="22">'), 'a trigger is a pill');
  assert.ok(markup.includes('<rect class="shape" x="110" y="10" width="80" height="60" rx="8">'), 'the rest are rounded');
});

test('bends are rounded; dashed edges have a dash array', async () => {
  const cases = [
    [[], null],
    [[[1, 2]], 'M1,2'],
    [[[0, 0], [0, 50]], 'M0,0 L0,50'],
    [[[0, 0], [0, 50], [40, 50]], 'M0,0 L0,40 Q0,50 10,50 L40,50'],
    [[[0, 0], [0, 0], [0, 6]], 'M0,0 L0,0 Q0,0 0,0 L0,6'],
  ];
  for (const [points, expected] of cases) {
    const { markup } = await draw({ width: 100, height: 100, nodes: [], groups: [], edges: [{ from: 'a', to: 'b', points, labelAt: [0, 0], dashed: false }] });
    const d = /<path class="edge" [^>]* d="([^"]*)"/.exec(markup);
    assert.equal(d ? d[1] : null, expected, JSON.stringify(points));
  }
  await draw(sample);
  const edges = await page.$$eval('#out path.edge', (all) => all.map((p) => [p.getAttribute('class'), p.getAttribute('stroke-dasharray'), p.dataset.from, p.dataset.to]));
  assert.deepEqual(edges, [
    ['edge', null, 'link', 'accept'], ['edge', null, 'accept', 'expired'], ['edge dashed', '6 4', 'accept', 'spec'], ['edge', null, 'spec', 'readme'],
  ]);
});

test('links: only fragments, only for nodes tied to a file', async () => {
  const links = ['#file-x', '#file-services/invite-service.ts', 'javascript:alert(1)', '//evil.example/x', null];
  const { markup } = await draw(sample, { links });
  const linked = await page.$$eval('#out a.node-link', (all) => all.map((a) => [a.getAttribute('href'), a.firstElementChild.dataset.node]));
  // `link` has no file: never linked, whatever the page says.
  assert.deepEqual(linked, [['#file-services/invite-service.ts', 'accept']]);
  assert.ok(!markup.includes('javascript') && !markup.includes('evil'), markup);
  for (const href of [' #x', 'data:text/html,x', 'https://example.com/x', '/r/acme/app/pull/1#file-a', 7]) {
    await draw(sample, { links: sample.nodes.map(() => href) });
    assert.equal(await page.$$eval('#out a', (all) => all.length), 0, String(href));
  }
  await draw(sample, { links: sample.nodes.map((n) => `#file-${n.id}`) });
  assert.deepEqual(await page.$$eval('#out a.node-link', (all) => all.map((a) => a.getAttribute('href'))),
    ['#file-accept', '#file-expired', '#file-spec', '#file-readme']);
});

test('the view: nodes tied to a file are buttons, by click and by keyboard', async () => {
  await draw(sample, { activate: true });
  const buttons = await page.$$eval('#out [role="button"]', (all) => all.map((g) => [g.dataset.node, g.getAttribute('tabindex'), g.getAttribute('class')]));
  assert.deepEqual(buttons.map((b) => b[0]), ['accept', 'expired', 'spec', 'readme']);
  assert.ok(buttons.every((b) => b[1] === '0' && b[2].endsWith(' linked')));
  assert.equal(await page.$$eval('#out a', (all) => all.length), 0);
  await page.click('#out [data-node="spec"]');
  await page.focus('#out [data-node="readme"]');
  await page.keyboard.press('Enter');
  await page.keyboard.press(' ');
  await page.click('#out [data-node="link"]');
  assert.deepEqual(await page.evaluate(() => window.__activated), ['spec', 'readme', 'readme']);
});

test('agent text stays text', async () => {
  const hostile = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
  const layout = {
    title: hostile, width: 300, height: 200,
    groups: [{ id: 'g"x', title: '<b>group</b>', x: 0, y: 0, w: 300, h: 200 }],
    nodes: [node('a"><script>', { title: hostile, titleLines: [hostile], fileLabel: '<i>f</i>', file: 'x<y>.rs', lines: [{ label: '<i>', rows: ['a & b'] }] }), node('b')],
    edges: [{ from: 'a', to: 'b', points: [[0, 0], [10, 10]], label: '<img src=x>', labelAt: [5, 5], dashed: false }],
  };
  const { elements } = await draw(layout, { links: ['#file-<x>"', null] });
  assert.deepEqual(elements, ['a', 'defs', 'desc', 'g', 'marker', 'path', 'rect', 'text', 'title', 'tspan']);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.$eval('#lkf-diagram-title', (n) => n.textContent), hostile);
  assert.equal(await page.$eval('#out .node .title', (n) => n.textContent), hostile);
  assert.equal(await page.$eval('#out .row-label', (n) => n.textContent), '<i>:');
  assert.equal(await page.$eval('#out .edge-label text', (n) => n.textContent), '<img src=x>');
  assert.equal(await page.$eval('#out a', (n) => n.getAttribute('href')), '#file-<x>"');
});

test('odd and empty input still draws, with no NaN', async () => {
  for (const layout of [
    null, {}, [1, 2], { nodes: 'x', edges: 3, groups: {} },
    { width: 'wide', height: null, nodes: [null, 7, { id: 'n', x: 'a', y: null, w: NaN, h: Infinity, titleLines: 'x', lines: [null, { rows: 'y' }] }],
      edges: [{ points: [[1], 'x', [null, 2], [3, 4]] }, { points: null }], groups: [{ x: {}, w: [] }] },
  ]) {
    const { markup, attributes } = await draw(layout);
    assert.ok(markup.includes('<title id="lkf-diagram-title">Flow diagram</title>'), markup);
    assert.ok(!attributes.some((value) => /NaN|undefined|Infinity|null|object/.test(value)), JSON.stringify(attributes));
  }
});
