// `node --import ./node-hooks.mjs`: gives the MCP conformance CLI the `fs.globSync`
// Node 20 lacks (see fs-shim.mjs). A no-op on Node 22 and later.
import { register } from 'node:module';

const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  register('data:text/javascript,' + encodeURIComponent(`
    const shim = ${JSON.stringify(new URL('./fs-shim.mjs', import.meta.url).href)};
    export async function resolve(specifier, context, next) {
      if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
        return { url: shim, shortCircuit: true };
      }
      return next(specifier, context);
    }
  `));
}
