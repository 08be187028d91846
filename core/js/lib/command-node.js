// Runs a `command` agent's program (Node and Bun; ./load-node.js hands it
// to the runtime, so bundles for browsers and Workers never see
// `node:child_process`): the prompt as one argument where the command says
// `{prompt}` (no shell), else on stdin; its output becomes the model's answer.

import { spawn } from 'node:child_process';
import { commandWords } from './model-calls.js';

/** The most bytes of a command's output kept. */
const MAX_OUTPUT = 1024 * 1024;

/**
 * Runs a `command` agent's program for one `call_model` effect: `{prompt}` in
 * the command becomes the prompt as one argument (no shell), else the prompt
 * goes to stdin. Exit 0 → its stdout with status 200; else its stderr (or
 * stdout) with status 500; not started or timed out → `failed`.
 */
export async function runCommand(command, effect, { env, signal, report }) {
  const prompt = JSON.parse(effect.body).prompt ?? '';
  const words = commandWords(command);
  const asArgument = words.some((w) => w.includes('{prompt}'));
  const argv = words.map((w) => w.replaceAll('{prompt}', prompt));
  await new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let done = false;
    const finish = (response) => {
      if (done) return;
      done = true;
      if (!signal?.aborted || signal.reason?.name === 'TimeoutError') report(response);
      resolve();
    };
    const child = spawn(argv[0], argv.slice(1), { env, stdio: ['pipe', 'pipe', 'pipe'], signal });
    child.stdout.setEncoding('utf8').on('data', (d) => { if (stdout.length < MAX_OUTPUT) stdout += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { if (stderr.length < MAX_OUTPUT) stderr += d; });
    child.on('error', (err) => {
      const why = signal?.reason?.name === 'TimeoutError' ? 'the command gave no answer in time' : `${argv[0]} could not be run: ${err.message}`;
      finish({ status: 0, body: { kind: 'failed', text: why } });
    });
    child.on('close', (code) => {
      if (code === 0) finish({ status: 200, body: { kind: 'whole', text: stdout } });
      else finish({ status: 500, body: { kind: 'whole', text: stderr.trim() || stdout.trim() || `exit code ${code}` } });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(asArgument ? '' : prompt);
  });
}
