// Child processes for tests: start a Node script, wait for a line, stop it.

import { spawn } from 'node:child_process';

/**
 * Runs `node args…` with `env` added; resolves once stdout has a line matching
 * `ready` (or at once without one). Returns `{child, output, stop}`.
 */
export async function startNode(args, { env = {}, cwd, ready, timeoutMs = 20_000 } = {}) {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => { output.stdout += d; });
  child.stderr.on('data', (d) => { output.stderr += d; });
  process.once('exit', () => child.kill('SIGKILL'));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };
  if (ready) {
    const deadline = Date.now() + timeoutMs;
    while (!ready.test(output.stdout)) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}: ${output.stderr}`);
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${args.join(' ')} never printed ${ready}: ${output.stdout} ${output.stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { child, output, stop };
}

/** Runs `node args…` to completion; resolves with `{code, stdout, stderr}`. */
export function runNode(args, options = {}) {
  return runCommand(process.execPath, args, options);
}

/** Runs `command args…` to completion (env added to this process's); resolves with `{code, stdout, stderr}`. */
export function runCommand(command, args, { env = {}, cwd, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${command} ${args.join(' ')} timed out: ${stdout} ${stderr}`)); }, timeoutMs);
    child.on('error', (err) => { clearTimeout(timer); reject(err); });
    child.on('exit', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** Polls `check` until it is truthy (tests/support/waits.mjs, re-exported here for the tests that import it from here). */
export { until } from './waits.mjs';


/** True once process `pid` no longer exists. */
export function processGone(pid) {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return err.code === 'ESRCH';
  }
}
