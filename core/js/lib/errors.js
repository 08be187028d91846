// Errors: every failure the package reports is an AgentnetError with a stable `code`.

/** An error from the agentnet core or network, with a stable `code` (`invalid_address`, `forbidden`, …). */
export class AgentnetError extends Error {
  constructor(code, message, { cause } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = 'AgentnetError';
    this.code = code;
  }
}

/** Runs a call into the core, turning its coded JS errors into `AgentnetError`s. */
export function callCore(fn) {
  try {
    return fn();
  } catch (err) {
    if (err && typeof err.code === 'string') throw new AgentnetError(err.code, err.message);
    throw new AgentnetError('internal', String(err?.message ?? err), { cause: err });
  }
}
