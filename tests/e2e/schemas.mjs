// Validates tool outputs seen on the wire against schema/*.output.json (JSON Schema 2020-12), and
// names the tools the server should serve, read from its catalog: adding a tool touches neither
// this file nor the tests that compare `tools/list` with these lists.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { root } from './harness.mjs';

/**
 * The catalog's tools, `[{ name, appOnly }]` in its rows' order: one `tool! { "name", … }` row a
 * tool in src/mcp/catalog.rs, `appOnly` when the row's `ui` is `Visibility::App`. Checked against
 * schema/: every row has its two schema files and every schema file belongs to a row. Throws,
 * saying what it found, when the catalog's shape no longer matches what this reads.
 */
export function catalogTools(source = readFileSync(join(root, 'src/mcp/catalog.rs'), 'utf8'), schemaFiles = readdirSync(join(root, 'schema'))) {
  const rows = source.split(/\btool!\s*\{/).slice(1);
  const tools = rows.map((row) => {
    const name = /^\s*"([a-z0-9_]+)"/.exec(row)?.[1];
    if (!name) throw new Error(`src/mcp/catalog.rs: a tool! row that doesn't start with its name: ${row.slice(0, 80)}`);
    const ui = /\bui:\s*([^\n]*?),?\s*$/m.exec(row)?.[1];
    if (ui === undefined) throw new Error(`src/mcp/catalog.rs: the ${name} row has no \`ui:\` field`);
    return { name, appOnly: /Visibility::App\b/.test(ui) };
  });
  if (tools.length === 0) throw new Error('src/mcp/catalog.rs: no `tool! { "name", … }` rows found; tests/e2e/schemas.mjs reads the tools from them');
  const names = tools.map((tool) => tool.name);
  const schemaTools = [...new Set(schemaFiles.map((file) => /^(.+)\.(?:input|output)\.json$/.exec(file)?.[1]).filter(Boolean))];
  for (const name of names) {
    for (const kind of ['input', 'output']) {
      if (!schemaFiles.includes(`${name}.${kind}.json`)) throw new Error(`the catalog's ${name} has no schema/${name}.${kind}.json`);
    }
  }
  const stray = schemaTools.filter((name) => !names.includes(name));
  if (stray.length) throw new Error(`schema/ has files for ${stray.join(', ')}, which src/mcp/catalog.rs has no row for`);
  return tools;
}

const catalog = catalogTools();

/** Every tool `tools/list` serves, in its order: the catalog's rows. */
export const TOOL_NAMES = catalog.map((tool) => tool.name);
/** The MCP Apps view's own tools (`visibility: ["app"]`). */
export const APP_ONLY_TOOL_NAMES = catalog.filter((tool) => tool.appOnly).map((tool) => tool.name);
/**
 * What `tools/list` offers a 2026-07-28 client that doesn't declare the MCP Apps extension:
 * every tool but the view's own (issue #30; 2025-era clients always get `TOOL_NAMES`).
 */
export const MODEL_TOOL_NAMES = TOOL_NAMES.filter((name) => !APP_ONLY_TOOL_NAMES.includes(name));

const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new Map();

function validator(tool, kind) {
  const key = `${tool}.${kind}`;
  if (!validators.has(key)) {
    const schema = JSON.parse(readFileSync(join(root, 'schema', `${key}.json`), 'utf8'));
    validators.set(key, ajv.compile(schema));
  }
  return validators.get(key);
}

/** Throws with every schema violation when `value` does not match the tool's output schema. */
export function validateToolOutput(tool, value) {
  const validate = validator(tool, 'output');
  if (!validate(value)) {
    throw new Error(`${tool} output does not match schema/${tool}.output.json: ${ajv.errorsText(validate.errors)}`);
  }
}

/** Throws when `value` does not match the tool's input schema. */
export function validateToolInput(tool, value) {
  const validate = validator(tool, 'input');
  if (!validate(value)) {
    throw new Error(`${tool} input does not match schema/${tool}.input.json: ${ajv.errorsText(validate.errors)}`);
  }
}
