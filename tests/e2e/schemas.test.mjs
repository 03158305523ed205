// The tool lists the end-to-end tests compare `tools/list` with (tests/e2e/schemas.mjs) come from
// the catalog's rows and its schema files, and a catalog they can't read stops the run with a
// message saying why rather than comparing against an empty list. No Worker: it reads files.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { APP_ONLY_TOOL_NAMES, catalogTools, MODEL_TOOL_NAMES, TOOL_NAMES } from './schemas.mjs';

const row = (name, ui) => `ToolName::X => tool! {\n    "${name}",\n    title: "t",\n    ui: ${ui},\n},\n`;
const files = (...names) => names.flatMap((name) => [`${name}.input.json`, `${name}.output.json`]);

test('the lists are the catalog rows, in order, the app-only ones apart', () => {
  const tools = catalogTools(row('b_tool', 'None') + row('a_view', 'Some(Visibility::App)') + row('c_show', 'Some(Visibility::Both)'),
    files('a_view', 'b_tool', 'c_show'));
  assert.deepEqual(tools, [{ name: 'b_tool', appOnly: false }, { name: 'a_view', appOnly: true }, { name: 'c_show', appOnly: false }]);
});

test('the real catalog: every tool once, the model list without the view\'s own', () => {
  assert.ok(TOOL_NAMES.includes('get_pull_request') && APP_ONLY_TOOL_NAMES.includes('view_change'));
  assert.equal(new Set(TOOL_NAMES).size, TOOL_NAMES.length);
  assert.deepEqual(MODEL_TOOL_NAMES, TOOL_NAMES.filter((name) => !APP_ONLY_TOOL_NAMES.includes(name)));
});

test('a row without its schema files, a schema without a row, or no rows at all is an error', () => {
  assert.throws(() => catalogTools(row('a_tool', 'None'), ['a_tool.input.json']), /no schema\/a_tool\.output\.json/);
  assert.throws(() => catalogTools(row('a_tool', 'None'), files('a_tool', 'b_tool')), /files for b_tool/);
  assert.throws(() => catalogTools('pub enum ToolName {}', []), /no `tool! \{ "name", … \}` rows/);
  assert.throws(() => catalogTools('tool! { title: "x" }', []), /doesn't start with its name/);
});
