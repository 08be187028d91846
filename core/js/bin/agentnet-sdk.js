#!/usr/bin/env node
// agentnet-sdk CLI: send, read and follow a network from a shell; serve it over
// MCP stdio, or bring an MCP server's tools into it.

import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { Agent, AgentnetError, KeyPair, register, resolveDid } from '../index.js';
import { keepSecret, keptSecret, secretKey } from '../lib/secrets.js';
import { commandHelp, usage } from './help.js';
import { agentConfig, runAgent, writeSkill } from './agents.js';
import { checkedNetwork, cliError, identity, store } from './identity.js';

function fail(message, code = 2) {
  process.stderr.write(`agentnet-sdk: ${message}\n`);
  process.exit(code);
}

function json(text, what) {
  try {
    return JSON.parse(text);
  } catch {
    return fail(`${what} is not JSON: ${text}`);
  }
}

/** `--name`'s value as a whole number (0 or more), or `fallback` when it is not given. */
function whole(text, name, fallback) {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < 0) return fail(`--${name} takes a whole number, not ${text}`);
  return n;
}

function print(value) {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Resolves on SIGINT or SIGTERM. */
function interrupted() {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

/** `McpBridge.connect` options from mcp-bridge's flags and the command after `--`; checked before joining. */
function bridgeOptions(opts, [command, ...args]) {
  if (!opts.prefix) return fail('mcp-bridge needs --prefix');
  if (Boolean(opts['server-url']) === Boolean(command)) return fail('mcp-bridge needs --server-url URL or -- <command> [args...], not both');
  const server = command ? { command, args } : { url: opts['server-url'] };
  const permissions = opts.permissions === undefined ? undefined : json(opts.permissions, '--permissions');
  return { ...server, prefix: opts.prefix, permissions };
}

/** mcp: relays MCP stdio to the network's /mcp endpoint until stdin ends. Stdout carries JSON-RPC only. */
async function serveMcp(where, credentials, keep) {
  if (!where.url) return fail('mcp needs --url (an edge with --network, or a network URL)');
  const { serveNetworkOverStdio } = await import('../mcp.js');
  const served = await serveNetworkOverStdio({ ...where, ...credentials });
  await keep(served.memberSecret);
  process.stderr.write(`agentnet-sdk: serving ${where.network ?? where.url} over MCP stdio as ${served.address}\n`);
  await Promise.race([served.closed, interrupted()]);
  await served.stop();
}

/** `register <name>`: the record's AIC, address and DIDs, and the secret key when made here. */
async function registerAgent(name, opts) {
  const url = opts.url ?? process.env.AGENTNET_URL;
  if (!name || !url) return fail('usage: agentnet-sdk register <name> --url URL [--key HEX]');
  const given = opts.key ?? process.env.AGENTNET_KEY;
  const key = given ? KeyPair.import(given) : KeyPair.generate();
  const record = await register({ url, name, key });
  print({
    name: record.name,
    address: record.address,
    aic: record.aic,
    did: record.did,
    did_wba: record.did_wba,
    public_key: key.publicKey,
    ...(given ? {} : { secret_key: key.export().secretKey }),
  });
}

/** `<command> --help`: the command's page, or the overview and exit 2 for a command that does not exist. */
function showHelp(command) {
  const page = commandHelp(command);
  if (!page) return fail(`unknown command ${command}\n${usage()}`);
  process.stdout.write(page);
}

/** The options that take a value. */
const VALUED = [
  'url', 'network', 'profile', 'as', 'name', 'token', 'key', 'secret', 'after', 'limit', 'types',
  'count', 'last', 'timeout', 'prefix', 'server-url', 'permissions', 'config', 'provider',
  'base-url', 'model', 'key-var', 'persona', 'description', 'tools', 'answers', 'mode',
  'history-depth', 'max-tokens', 'tokens-per-hour', 'calls-per-hour', 'tool-rounds', 'agent-turns',
  'command', 'out', 'channels',
];

/** The options that are switches. */
const SWITCHES = ['wait', 'assistant', 'help', 'version'];

/** Every option as `parseArgs` reads it. */
const OPTIONS = Object.fromEntries([
  ...VALUED.map((name) => [name, { type: 'string' }]),
  ...SWITCHES.map((name) => [name, { type: 'boolean' }]),
]);

async function main() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: OPTIONS,
    });
  } catch (err) {
    return fail(`${err.message}\n${usage()}`);
  }
  const { values: opts, positionals } = parsed;
  const [command, ...args] = positionals;
  if (opts.version) {
    process.stdout.write(`${JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
    return;
  }
  if (command === 'help' && args.length) return showHelp(args[0]);
  if (opts.help && command) return showHelp(command);
  if (opts.help || !command || command === 'help') {
    process.stdout.write(usage());
    return;
  }
  if (command === 'keygen') {
    print(KeyPair.generate().export());
    return;
  }
  if (command === 'register') return registerAgent(args[0], opts);
  if (command === 'did') {
    if (args[0] !== 'resolve' || !args[1]) return fail(`usage: agentnet-sdk did resolve <did> [--url URL]`);
    print(await resolveDid({ did: args[1], url: opts.url ?? process.env.AGENTNET_URL }));
    return;
  }
  if (!['send', 'read', 'follow', 'discover', 'invoke', 'mcp', 'mcp-bridge', 'agent', 'connect', 'skill'].includes(command)) return fail(`unknown command ${command}\n${usage()}`);
  if (command === 'connect' && !opts.command) return fail('connect needs --command "<program> [args]" ({prompt} in it is replaced by the prompt, else the prompt goes to stdin)');
  // Checked before joining: a config that cannot run fails at once.
  const thinking = command === 'agent' || command === 'connect' ? await agentConfig(opts, process.env, fail) : null;

  // Checked before connecting: a bad number fails at once, not after a join.
  const after = whole(opts.after, 'after', 0);
  const limit = whole(opts.limit, 'limit', 100);
  const count = whole(opts.count, 'count', Infinity);
  const last = whole(opts.last, 'last', undefined);
  const timeoutMs = whole(opts.timeout, 'timeout', 30000);
  const env = process.env;
  const where = {
    url: opts.url ?? env.AGENTNET_URL,
    network: opts.network ?? env.AGENTNET_NETWORK,
    profile: opts.profile,
    name: await identity(opts.as ?? opts.name ?? env.AGENTNET_NAME ?? thinking?.address ?? { agent: 'agent:assistant', connect: 'agent:coder' }[command]),
  };
  if (!where.url && !where.profile) return fail(`${command} needs --url (an edge with --network, or a network URL) or --profile`);
  // Asked before joining: a network that does not exist is `unknown_network`, not a refused socket.
  const checked = await checkedNetwork(where);
  const token = opts.token ?? env.AGENTNET_TOKEN;
  const secret = opts.secret ?? env.AGENTNET_SECRET;
  if (command === 'mcp') {
    // An address belongs to its first holder: its member secret is kept for the next run, as the SDK keeps it.
    const slot = secretKey(checked.socketUrl, where.name);
    const kept = secret ?? await keptSecret(store, slot);
    return serveMcp(where, { token, memberSecret: kept }, (made) => keepSecret(store, slot, made, kept));
  }
  if (thinking) {
    const say = (line) => process.stderr.write(`agentnet-sdk: ${line}\n`);
    const credentials = { token, key: opts.key ?? env.AGENTNET_KEY, memberSecret: secret, secretStore: store };
    await runAgent({ ...where, channels: opts.channels }, credentials, thinking, { interrupted, say }).catch((err) => {
      throw err?.code === 'invalid_request' ? err : cliError(err, { name: where.name, network: checked.network });
    });
    return;
  }
  const bridging = command === 'mcp-bridge' ? bridgeOptions(opts, args) : null;
  const agent = await Agent.connect({
    ...where,
    token,
    key: opts.key ?? env.AGENTNET_KEY,
    memberSecret: secret,
    secretStore: store,
    reconnect: command === 'follow' || command === 'mcp-bridge',
  }).catch((err) => {
    throw cliError(err, { name: where.name, network: checked.network });
  });
  try {
    switch (command) {
      case 'send': {
        const [target, type, payload = '{}'] = args;
        if (!target || !type) return fail('send needs <target> <type> [payload-json]');
        // --wait: a request, whose answer (the event with in_reply_to its id) is printed.
        if (opts.wait) print(await agent.request(target, type, json(payload, 'payload'), { timeoutMs }));
        else print(await agent.send(target, type, json(payload, 'payload')));
        break;
      }
      case 'read': {
        // --last N: the whole log is read (from --after) and only its newest N are printed.
        let from = after;
        let remaining = last === undefined ? limit : Infinity;
        const newest = [];
        while (remaining > 0) {
          const page = await agent.history({ after: from, limit: Math.min(remaining, 100), types: opts.types });
          for (const row of page.events) {
            if (last === undefined) print(row);
            else newest.push(row) > last && newest.shift();
          }
          remaining -= page.events.length;
          if (!page.has_more) break;
          from = page.next_after;
        }
        newest.forEach(print);
        break;
      }
      case 'discover':
        print(await agent.discover());
        break;
      case 'skill':
        print({ skill: await writeSkill(agent, { url: where.url, out: opts.out }) });
        break;
      case 'invoke': {
        const [tool, input = '{}'] = args;
        if (!tool) return fail('invoke needs <tool> [input-json]');
        print(await agent.invoke(tool, json(input, 'input')));
        break;
      }
      case 'mcp-bridge': {
        const { McpBridge } = await import('../mcp.js');
        const bridge = await McpBridge.connect(agent, bridging);
        print({ tools: bridge.tools });
        process.stderr.write(`agentnet-sdk: bridging MCP server ${bridge.server?.name ?? ''} into ${agent.network} as ${agent.address}\n`);
        const ended = await Promise.race([bridge.closed.then(() => 'server'), interrupted()]);
        await bridge.close();
        if (ended === 'server') throw new AgentnetError('closed', 'the MCP server closed the connection');
        break;
      }
      case 'follow': {
        let seen = 0;
        // A connection error the agent does not retry (the network refused its rejoin) ends the run with exit 1.
        const fatal = await new Promise((resolve) => {
          agent.on(opts.types ?? '*', (event) => {
            print(event);
            seen += 1;
            if (seen >= count) resolve(null);
          });
          agent.onConnectionChange(({ online, error }) => {
            process.stderr.write(`agentnet-sdk: ${online ? 'online' : 'offline'}${error ? ` (${error.code})` : ''}\n`);
            if (error) resolve(error);
          });
          process.once('SIGINT', () => resolve(null));
          process.once('SIGTERM', () => resolve(null));
          process.stderr.write(`agentnet-sdk: following ${agent.network} as ${agent.address}\n`);
        });
        if (fatal) throw fatal;
        break;
      }
    }
  } finally {
    agent.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => fail(err instanceof AgentnetError ? `${err.code}: ${err.message}` : String(err?.stack ?? err), 1),
);
