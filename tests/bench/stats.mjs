// What the benchmarks share to time their calls and report the timings.

/** The `q` quantile (0 to 1) of `values`, which it leaves unsorted. */
export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** A duration in milliseconds, as the benchmarks print it. */
export const ms = (v) => `${v.toFixed(2)} ms`;

/**
 * The milliseconds each of `runs` calls took, made one after another after `warmup` calls that
 * are not timed: `call(n)`, `n` counting from 0 through the warmup and the timed runs.
 */
export async function timeEach(call, { runs, warmup }) {
  const times = [];
  for (let n = 0; n < warmup + runs; n += 1) {
    const started = performance.now();
    await call(n);
    if (n >= warmup) times.push(performance.now() - started);
  }
  return times;
}

/**
 * Calls per second of `callers` (each a `call(n)`) calling side by side, `each` times apiece,
 * after one call each that is not timed (`n` = -1).
 */
export async function callRate(callers, each) {
  await Promise.all(callers.map((call) => call(-1)));
  const started = performance.now();
  await Promise.all(callers.map(async (call) => {
    for (let n = 0; n < each; n += 1) await call(n);
  }));
  return (callers.length * each) / ((performance.now() - started) / 1000);
}

/**
 * One kind of call under `load` (`{ runs, warmup, concurrent, each }`): the round trips of one
 * caller calling one after another (`timeEach`), then the rate of `concurrent` callers calling
 * side by side (`callRate`). `make(name)` makes a caller `{ call(n), close() }` (`close` only
 * when it holds something open), `name` being `latency` or a concurrent caller's number.
 */
export async function roundTripsAndRate(make, load) {
  const one = await make('latency');
  const times = await timeEach(one.call, load);
  await one.close?.();
  const many = await Promise.all(Array.from({ length: load.concurrent }, (_, i) => make(String(i))));
  const perSecond = await callRate(many.map((caller) => caller.call), load.each);
  await Promise.all(many.map((caller) => caller.close?.()));
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), perSecond };
}
