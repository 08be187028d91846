// For the official MCP SDK clients in the tests: a `fetch` for their
// Streamable HTTP transport that tells when the client's GET stream (the one
// the server's notifications and requests arrive on) has been answered, so a
// test waits for that instead of for a while.

/**
 * `{fetch, streamOpen}`: `fetch` (over `base`) for a client transport's
 * `fetch` option; `streamOpen` resolves when a GET it sent is answered with
 * an event stream.
 */
export function watchingStream(base = fetch) {
  let opened;
  const streamOpen = new Promise((resolve) => { opened = resolve; });
  return {
    streamOpen,
    fetch: async (url, init = {}) => {
      const res = await base(url, init);
      if ((init.method ?? 'GET') === 'GET' && res.ok && res.headers.get('content-type')?.startsWith('text/event-stream')) opened();
      return res;
    },
  };
}
