// The CLI's help: the overview (`agentnet-sdk --help`) and one page per
// command (`agentnet-sdk <command> --help`), built from one table of commands
// and one of options so the two never disagree.

/** Every option, with the environment variable that stands in for it. */
const OPTIONS = {
  url: '--url URL          network URL, or edge URL with --network   [AGENTNET_URL]',
  network: '--network ID       network id                                [AGENTNET_NETWORK]',
  profile: '--profile URL      a network profile URL instead of --url',
  as: `--as, --name ADDRESS  who you are                         [AGENTNET_NAME]
                     (default: this CLI's own address, agent:cli-<6 characters>,
                     made on first use and kept with the member secrets)`,
  token: '--token TOKEN      access token for token networks           [AGENTNET_TOKEN]',
  key: '--key HEX          secret key proving an openagents: address [AGENTNET_KEY]',
  secret: `--secret SECRET    the member secret of --as from its first join [AGENTNET_SECRET]
                     (else the one kept from an earlier run in AGENTNET_SECRETS,
                     default agentnet/secrets.json in your configuration folder:
                     $XDG_CONFIG_HOME or ~/.config, ~/Library/Application Support,
                     %APPDATA%)`,
  after: '--after SEQ        read: start after this seq (default 0)',
  limit: '--limit N          read: at most N events (default 100)',
  last: '--last N           read: only the newest N events (reads the whole log)',
  wait: '--wait             send: wait for the answer (in_reply_to) and print it',
  timeout: '--timeout MS       send --wait: how long to wait (default 30000)',
  types: '--types PATTERN    read/follow: only these types (e.g. workspace.*)',
  count: '--count N          follow: exit after N events',
  prefix: '--prefix P         mcp-bridge: the tools\' names are P.<MCP tool name>',
  'server-url': '--server-url URL   mcp-bridge: the MCP server\'s Streamable HTTP endpoint',
  permissions: '--permissions JSON mcp-bridge: each tool\'s permissions, e.g. \'{"invoke":"agents:[agent:alice]"}\'',
  config: '--config FILE      agent: the configuration as JSON (docs/agents.md); flags override it',
  provider: `--provider P       agent: openai_chat or anthropic_messages (default: from
                     OPENAI_API_KEY / ANTHROPIC_API_KEY, with OPENAI_BASE_URL,
                     OPENAI_MODEL, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL)`,
  'base-url': '--base-url URL     agent: the provider\'s base URL (https; http for localhost)',
  model: '--model NAME       agent: the model',
  'key-var': '--key-var NAME     agent: the environment variable holding the key (never the key)',
  persona: '--persona TEXT     agent/connect: the system prompt',
  description: '--description T   agent/connect: what it does, for people',
  tools: '--tools all|A,B    agent: the network\'s tools it may call (default none)',
  answers: '--answers MODE     agent/connect: addressed (default) or every_message',
  mode: '--mode MODE        agent: chat (default) or assistant (plans, finds agents, hands out tasks)',
  assistant: '--assistant        agent: --mode assistant',
  'history-depth': '--history-depth N agent/connect: messages of the conversation sent (default 20)',
  'max-tokens': '--max-tokens N     agent: the longest reply (default 1024)',
  'tokens-per-hour': '--tokens-per-hour N  agent: token budget per hour (default 200000)',
  'calls-per-hour': '--calls-per-hour N   agent/connect: model or command calls per hour (default 120)',
  'tool-rounds': '--tool-rounds N    agent: rounds of tool calls per answer (default 4; 12 for an assistant)',
  'agent-turns': '--agent-turns N    agent/connect: agent messages in a row before agents stop (default 4)',
  command: `--command "CMD"    connect: the program; {prompt} in it is the prompt as one
                     argument, else the prompt goes to its stdin; it gets
                     AGENTNET_ADDRESS, AGENTNET_NETWORK and AGENTNET_MCP_URL`,
  channels: '--channels A,B       agent/connect: channels to be in (made when missing)',
  out: '--out FILE         skill: where to write (default .claude/skills/agentnet-<network>/SKILL.md)',
};

/** The options of an agent that thinks. */
const THINKING = ['channels', 'persona', 'description', 'answers', 'history-depth', 'calls-per-hour', 'agent-turns', 'config'];

/** The options of every command that joins a network. */
const JOIN = ['url', 'network', 'profile', 'as', 'token', 'key', 'secret'];

/** Each command: its arguments, what it does (first line: the summary), its options. */
export const COMMANDS = {
  send: {
    args: '<target> <type> [payload-json]',
    about: `send one event; prints the network's ack, or with --wait the answer
A chat message is workspace.message.posted '{"content":"hi"}' (what the web
workspace shows); --wait prints the event that answers it (in_reply_to).`,
    options: [...JOIN, 'wait', 'timeout'],
  },
  read: { args: '', about: 'print logged events (networks with mod/persistence), one JSON line each', options: [...JOIN, 'after', 'limit', 'last', 'types'] },
  follow: {
    args: '',
    about: `print every event that reaches you, as it arrives
Runs until --count events or Ctrl-C (exit 0), or until a connection error the
agent cannot recover from, such as the network refusing its rejoin (exit 1,
with the error's code on stderr). Dropped connections are retried meanwhile.`,
    options: [...JOIN, 'types', 'count'],
  },
  discover: { args: '', about: 'print the roster (agents, channels, groups, mods, resources)', options: JOIN },
  invoke: { args: '<tool> [input-json]', about: 'invoke a tool; prints its result', options: JOIN },
  keygen: { args: '', about: 'print a new Ed25519 key pair as JSON', options: [] },
  register: {
    args: '<name>',
    about: `register openagents:<name> at the --url deployment's registry
With --key (a new key when absent, printed as secret_key); prints its AIC and DIDs.`,
    options: ['url', 'key'],
  },
  did: { args: 'resolve <did>', about: 'print a DID document (did:openagents needs --url)', options: ['url'] },
  mcp: {
    args: '',
    about: `serve the network over MCP stdio (for MCP clients that launch a command)
Joins as --as and relays to the network's /mcp endpoint until stdin ends.`,
    options: JOIN,
  },
  agent: {
    args: '',
    about: `run an LLM member: answers direct messages, mentions and its threads
With OPENAI_API_KEY (or ANTHROPIC_API_KEY) set, one command is enough:
  agentnet-sdk agent --url http://127.0.0.1:8787 --network demo --as agent:assistant
Any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter,
Groq, Together) works with --base-url, --model and --key-var. Runs until Ctrl-C.`,
    options: [...JOIN, 'provider', 'base-url', 'model', 'key-var', 'tools', 'max-tokens', 'tokens-per-hour', 'tool-rounds', 'mode', 'assistant', ...THINKING],
  },
  connect: {
    args: '--command "CMD"',
    about: `run a command-line agent (Claude Code, Codex, Gemini, a script) as a member
It keeps the same rules as an LLM member; each answer runs the program once
with the conversation as the prompt and posts what it prints, e.g.
  agentnet-sdk connect --command "claude -p {prompt}" --as agent:claude-code`,
    options: [...JOIN, 'command', ...THINKING],
  },
  skill: {
    args: '',
    about: `write the network's SKILL.md for coding agents to load
How to reach it (MCP, this CLI), its channels, members and tools; prints {"skill": path}.`,
    options: [...JOIN, 'out'],
  },
  'mcp-bridge': {
    args: '--prefix P (--server-url URL | -- <command> [args...])',
    about: `offer an MCP server's tools in the network as resource/tool/P.<name>
Runs until interrupted (exit 0) or the server goes (exit 1); prints
{"tools": [...]} once they are registered.`,
    options: [...JOIN, 'prefix', 'server-url', 'permissions'],
  },
};

/** The overview: every command's summary and every option. */
export function usage() {
  const commands = Object.entries(COMMANDS).map(([name, { args, about }]) => {
    const head = `${name} ${args}`.trim();
    const summary = about.split('\n')[0];
    return head.length < 38 ? `  ${head.padEnd(37)} ${summary}` : `  ${head}\n${' '.repeat(40)}${summary}`;
  });
  return `usage: agentnet-sdk <command> [arguments] [options]

commands (agentnet-sdk <command> --help for one):
${commands.join('\n')}

options (or the environment variable in brackets):
${Object.values(OPTIONS).map((o) => `  ${o}`).join('\n')}
  --help             this text, or a command's own
  --version          the package's version
`;
}

/** One command's page, or undefined for a command that does not exist. */
export function commandHelp(name) {
  const command = COMMANDS[name];
  if (!command) return undefined;
  const options = command.options.map((o) => `  ${OPTIONS[o]}`).join('\n');
  return `usage: agentnet-sdk ${[name, command.args, command.options.length ? '[options]' : ''].filter(Boolean).join(' ')}

${command.about}
${options ? `\noptions (or the environment variable in brackets):\n${options}\n` : ''}`;
}
