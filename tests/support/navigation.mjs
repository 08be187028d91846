// What a browser test does when a page's navigation times out: it names the
// requests still unanswered, asks the server for each of them from Node, and
// says which side stalled. A navigation that timed out while the server
// answers every one of its requests at once is Chromium's stall, not the
// edge's (seen about once in two full runs on two loaded cores: the document
// came, its script never did); the navigation is then tried once more, as a
// person reloads, and the retry is logged. A server that does not answer
// fails the test with what it left waiting.

/** How long the probe of one unanswered request may take before it counts as unanswered (ms). */
const PROBE_MS = 5_000;

/** Asks for `url` from Node: `answered 200 in 12 ms`, or why it was not answered. */
async function probe(url) {
  const start = Date.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_MS) });
    await response.arrayBuffer();
    return { answered: true, said: `answered ${response.status} in ${Date.now() - start} ms` };
  } catch (err) {
    return { answered: false, said: `not answered (${err?.name ?? err}) after ${Date.now() - start} ms` };
  }
}

/** Adds `text` to the error's message and to its stack (node --test prints the stack, written with the first message). */
function append(err, text) {
  err.message += text;
  if (typeof err.stack === 'string') err.stack += text;
}

/**
 * Makes every navigation of `page` that times out say which of its requests were unanswered (the
 * URL, its kind, how long it had waited) and how the server answers each when Node asks; when the
 * server answers them all, the navigation is tried once more.
 */
export function watchNavigations(page) {
  const pending = new Map();
  page.on('request', (request) => pending.set(request, Date.now()));
  page.on('requestfinished', (request) => pending.delete(request));
  page.on('requestfailed', (request) => pending.delete(request));
  for (const method of ['goto', 'reload', 'goBack', 'goForward']) {
    const navigate = page[method].bind(page);
    page[method] = async (...args) => {
      try {
        return await navigate(...args);
      } catch (err) {
        if (err?.name !== 'TimeoutError') throw err;
        const now = Date.now();
        const waiting = await Promise.all([...pending].map(async ([request, since]) => {
          const via = request.serviceWorker() ? ' (from the service worker)' : '';
          const asked = request.method() === 'GET' ? await probe(request.url()) : { answered: false, said: 'not asked again' };
          const line = `${request.method()} ${request.url()} [${request.resourceType()}]${via}, ${now - since} ms; from Node: ${asked.said}`;
          return { line, answered: asked.answered };
        }));
        const named = `\n  requests still unanswered: ${waiting.length ? `\n    ${waiting.map((w) => w.line).join('\n    ')}` : 'none'}`;
        const serverAnswers = waiting.length > 0 && waiting.every((w) => w.answered);
        if (!serverAnswers || method === 'goBack' || method === 'goForward') {
          append(err, named);
          throw err;
        }
        process.stderr.write(`# ${method} of ${page.url()} timed out while the server answers what it waited for; tried again.${named}\n`);
        pending.clear();
        try {
          return await navigate(...args);
        } catch (again) {
          // The retry's own error says what the first attempt waited for, too.
          if (again?.name === 'TimeoutError') append(again, `\n  (tried again after:${named})`);
          throw again;
        }
      }
    };
  }
}
