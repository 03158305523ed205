// Validates tool outputs seen on the wire against schema/*.output.json (JSON Schema 2020-12).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { root } from './harness.mjs';

/**
 * Every tool `tools/list` serves, in its order: the one list the end-to-end tests compare the
 * served tools with (a new tool is added here, beside its row in src/mcp/catalog.rs).
 */
export const TOOL_NAMES = ['get_ordering_guide', 'get_pull_request', 'save_reading_order', 'save_diagram', 'get_review_feedback', 'show_reading_order', 'view_reading_order', 'view_diagram', 'view_change'];
/** The MCP Apps view's own tools (`visibility: ["app"]`). */
export const APP_ONLY_TOOL_NAMES = ['view_reading_order', 'view_diagram', 'view_change'];
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
