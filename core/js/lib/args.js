// Argument checks at the package's edge. The core reads strings, and
// wasm-bindgen's glue copies whatever it is given into wasm memory as one: a
// number or an object there would reach the core's allocator as a broken
// string (a trap, or a corrupted heap that fails some later call). So every
// string a caller hands the package is checked here, with an error that says
// which argument was wrong.

import { AgentnetError } from './errors.js';

/** `value` if it is a string; otherwise throws `AgentnetError` (`invalid_argument`) naming `what`. */
export function stringArg(value, what) {
  if (typeof value === 'string') return value;
  throw new AgentnetError('invalid_argument', `${what} must be a string, not ${describe(value)}`);
}

/** `value` if it is a plain object (not null or an array); otherwise throws like `stringArg`. */
export function objectArg(value, what) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  throw new AgentnetError('invalid_argument', `${what} must be an object, not ${describe(value)}`);
}

function describe(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
