// Tool input checked against the tool's JSON Schema before its handler runs,
// with Ajv (the JavaScript ecosystem's standard validator), loaded the first
// time a tool with a schema is registered. A call whose input does not fit is
// answered `invalid_arguments` with Ajv's message; the handler never sees it.

import { AgentnetError } from './errors.js';

let ajv;

/** The shared Ajv instance: every error reported, unknown keywords allowed (tools' schemas carry annotations). */
async function validator() {
  if (!ajv) {
    const loaded = await import('ajv');
    const Ajv = loaded.default?.default ?? loaded.default ?? loaded;
    ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  }
  return ajv;
}

/**
 * A check of inputs against `schema`: `check(input)` returns undefined when
 * the input fits, else Ajv's message. No schema (or `{}`/`true`) checks
 * nothing. A schema Ajv cannot read fails with `invalid_argument`. Where code
 * cannot be generated at run time (Cloudflare Workers forbid it), nothing is
 * checked: the handler sees every input, as it would without a schema.
 */
export async function inputCheck(schema, tool) {
  if (schema === undefined || schema === null || schema === true) return () => undefined;
  if (typeof schema !== 'object' || Array.isArray(schema)) {
    throw new AgentnetError('invalid_argument', `the schema of ${tool} must be a JSON Schema object`);
  }
  if (Object.keys(schema).length === 0) return () => undefined;
  const { $schema, $id, ...body } = schema;
  let validate;
  try {
    validate = (await validator()).compile(body);
  } catch (err) {
    if (err instanceof EvalError || /code generation|eval/i.test(String(err?.message))) return () => undefined;
    throw new AgentnetError('invalid_argument', `the schema of ${tool} is not a JSON Schema Ajv reads: ${err.message}`, { cause: err });
  }
  return (input) => (validate(input) ? undefined : ajv.errorsText(validate.errors, { dataVar: 'input' }));
}
