// A local server of DID documents for did:wba tests: documents are set by
// path, and `localDid` makes a did:wba on it (host `localhost` with the
// server's port, as ANP's `did:wba:host%3Aport:path` spells it) for a key.

import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
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
    /**
     * A did:wba served here holding a secp256k1 key (JWK), as ANP clients use them, and a signer
     * of fresh DIDWba headers for `service` with it.
     */
    secp256k1Did(name) {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
      const did = `did:wba:localhost%3A${port}:agents:${name}`;
      const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
      documents.set(`/agents/${name}/did.json`, {
        '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/secp256k1-2019/v1'],
        id: did,
        verificationMethod: [{ id: `${did}#key-1`, type: 'EcdsaSecp256k1VerificationKey2019', controller: did, publicKeyJwk: { kty, crv, x, y } }],
        authentication: [`${did}#key-1`],
      });
      const header = (service) => {
        const nonce = randomBytes(16).toString('hex');
        const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
        // JCS of string-valued fields: the keys in code-point order.
        const canonical = JSON.stringify({ did, nonce, service, timestamp });
        const digest = createHash('sha256').update(canonical).digest();
        const signature = sign('sha256', digest, { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
        return `DIDWba did="${did}", nonce="${nonce}", timestamp="${timestamp}", verification_method="key-1", signature="${signature}"`;
      };
      return { did, header };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
