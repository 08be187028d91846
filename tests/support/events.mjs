// Waiting on what an agent receives, for tests and benches: the next event of
// a type that a predicate accepts (with a time limit, so a missing event fails
// with its name instead of hanging), and every event of a type from now on.

/** Resolves with the first event of `type` that `match` accepts; rejects after `timeoutMs`. */
export function nextEvent(agent, type, match = () => true, { timeoutMs = 30000 } = {}) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      agent.off(type, handler);
      reject(new Error(`no ${type} in time`));
    }, timeoutMs);
    const handler = (event) => {
      if (!match(event)) return;
      clearTimeout(timer);
      agent.off(type, handler);
      resolve(event);
    };
    agent.on(type, handler);
  });
}

/** Every event of `type` the agent receives from now on, in a list that grows. */
export function collectEvents(agent, type) {
  const seen = [];
  agent.on(type, (event) => seen.push(event));
  return seen;
}
