// A local server of DID documents for did:wba tests: documents are set by
// path, and `localDid` makes a did:wba on it (host `localhost` with the
// server's port, as ANP's `did:wba:host%3Aport:path` spells it) for a key.

import { createServer } from 'node:http';
import { KeyPair } from '../../core/js/index.js';

/** Starts a document server on 127.0.0.1; `documents` maps a path to its JSON. */
export async function startDidServer() {
  const documents = new Map();
  const server = createServer((req, res) => {
    const doc = documents.get(req.url);
    res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(doc ?? { error: 'no such document' }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  return {
    documents,
    port,
    /** A did:wba served here under `/agents/{name}/did.json`, with its key. */
    localDid(name, key = KeyPair.generate()) {
      const did = `did:wba:localhost%3A${port}:agents:${name}`;
      documents.set(`/agents/${name}/did.json`, key.didDocument(did));
      return { did, key };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
