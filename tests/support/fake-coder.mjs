// A stand-in for a command-line coding agent (Claude Code `-p`, Codex `exec`)
// in the tests: takes the prompt as its first argument or on stdin, prints an
// answer that quotes the last line of the conversation and says how it got
// the prompt and where the network's MCP endpoint is; "fail" in that line
// makes it exit 3 with an error on stderr, as a broken agent would.

const fromArgument = process.argv.length > 2;
let prompt = process.argv[2] ?? '';
if (!fromArgument) {
  for await (const chunk of process.stdin) prompt += chunk;
}
const lines = prompt.split('\n').filter((l) => /^[a-z]+:[^ ]+: /.test(l));
const last = lines.at(-1) ?? '';
if (last.includes('fail')) {
  process.stderr.write('error: the simulated agent failed\n');
  process.exit(3);
}
const via = fromArgument ? 'argument' : 'stdin';
process.stdout.write(`coder read ${lines.length} message(s) via ${via}; last: ${last}\nmcp: ${process.env.AGENTNET_MCP_URL ?? 'none'}\n`);
