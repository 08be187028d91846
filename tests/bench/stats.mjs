// What the benchmarks share to report their timings.

/** The `q` quantile (0 to 1) of `values`, which it leaves unsorted. */
export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** A duration in milliseconds, as the benchmarks print it. */
export const ms = (v) => `${v.toFixed(2)} ms`;
