// Argument checks at the package's edge, so a caller's mistake is an
// `AgentnetError` with code `invalid_argument` naming the argument. Strings
// matter most: wasm-bindgen's glue copies whatever it is given into wasm
// memory as a string, and a number or an object there would reach the core's
// allocator broken (a trap, or a corrupted heap that fails some later call).
// Payloads must have a JSON form, URLs must parse, timestamps be numbers.

import { AgentnetError } from './errors.js';

/** `value` if it is a string; otherwise throws `AgentnetError` (`invalid_argument`) naming `what`. */
export function stringArg(value, what) {
  if (typeof value === 'string') return value;
  throw new AgentnetError('invalid_argument', `${what} must be a string, not ${describe(value)}`);
}

/** Checks every value of `named` (`{argumentName: value}`) with `stringArg`. */
export function stringArgs(named) {
  for (const [what, value] of Object.entries(named)) stringArg(value, what);
}

/** `value` if it is a finite number; otherwise throws like `stringArg`. */
export function numberArg(value, what) {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new AgentnetError('invalid_argument', `${what} must be a finite number, not ${describe(value)}`);
}

/** `value` if it is a function; otherwise throws like `stringArg`. */
export function functionArg(value, what) {
  if (typeof value === 'function') return value;
  throw new AgentnetError('invalid_argument', `${what} must be a function, not ${describe(value)}`);
}

/** `value` if it is a plain object (not null or an array); otherwise throws like `stringArg`. */
export function objectArg(value, what) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  throw new AgentnetError('invalid_argument', `${what} must be an object, not ${describe(value)}`);
}

/** `value` as JSON text; throws like `stringArg` when it has no JSON form (a function, a BigInt, a cycle). */
export function jsonArg(value, what) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new AgentnetError('invalid_argument', `${what} must be JSON: ${err.message}`, { cause: err });
  }
  if (typeof text !== 'string') throw new AgentnetError('invalid_argument', `${what} must be JSON, not ${describe(value)}`);
  return text;
}

/** `value` parsed as a URL; throws like `stringArg` when it is not one. */
export function urlArg(value, what) {
  try {
    return new URL(value);
  } catch (err) {
    throw new AgentnetError('invalid_argument', `${what} must be a URL, not ${typeof value === 'string' ? JSON.stringify(value) : describe(value)}`, { cause: err });
  }
}

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
