// The file that keeps member secrets in Node, Bun and Deno (see secrets.js):
// `AGENTNET_SECRETS` when set, else `agentnet/secrets.json` in the user's
// configuration folder — `$XDG_CONFIG_HOME` or `~/.config` on Linux and other
// Unixes, `~/Library/Application Support` on macOS, `%APPDATA%` on Windows —
// readable only by its owner (0600, in a 0700 folder).

import { jsonFileStore } from './secrets.js';

/** The secrets file's path for `platform`, `env` and `home`, joined with `sep`. */
export function secretsPath({ platform, env, home, sep = '/' }) {
  if (env.AGENTNET_SECRETS) return env.AGENTNET_SECRETS;
  const join = (...parts) => parts.join(sep);
  let config;
  if (platform === 'win32') config = env.APPDATA || join(home, 'AppData', 'Roaming');
  else if (platform === 'darwin') config = join(home, 'Library', 'Application Support');
  else config = env.XDG_CONFIG_HOME || join(home, '.config');
  return join(config, 'agentnet', 'secrets.json');
}

/** The store in Node and Bun, with `node:fs`. */
export async function nodeSecretStore() {
  const [{ mkdir, readFile, rename, writeFile }, { homedir }, { dirname, sep }] = await Promise.all([
    import('node:fs/promises'), import('node:os'), import('node:path'),
  ]);
  const file = secretsPath({ platform: process.platform, env: process.env, home: homedir(), sep });
  return jsonFileStore({
    describe: file,
    read: () => readFile(file, 'utf8').catch((err) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    }),
    async write(text) {
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, text, { mode: 0o600 });
      await rename(temporary, file);
    },
  });
}

/** The store in Deno (needs --allow-env, --allow-read and --allow-write for the file; without them nothing is kept). */
export function denoSecretStore() {
  const { Deno } = globalThis;
  // Asked, not requested: a program run without these permissions is not prompted for them.
  const granted = (name) => Deno.permissions.querySync?.({ name }).state === 'granted';
  if (!['env', 'read', 'write'].every(granted)) return null;
  const file = secretsPath({ platform: Deno.build.os === 'windows' ? 'win32' : Deno.build.os, env: Deno.env.toObject(), home: Deno.env.get('HOME') ?? Deno.env.get('USERPROFILE') ?? '.' });
  const folder = file.slice(0, Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')));
  return jsonFileStore({
    describe: file,
    read: () => Deno.readTextFile(file).catch((err) => {
      if (err instanceof Deno.errors.NotFound) return undefined;
      throw err;
    }),
    async write(text) {
      await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
      const temporary = `${file}.${Deno.pid}.tmp`;
      await Deno.writeTextFile(temporary, text, { mode: 0o600 });
      await Deno.rename(temporary, file);
    },
  });
}
