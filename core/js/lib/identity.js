// Ed25519 identities: key pairs, import/export, challenge signatures (level 1),
// DID documents (level 3) and registry proofs.

import { core } from './runtime.js';
import { AgentnetError, callCore } from './errors.js';
import { stringArgs } from './args.js';

/**
 * An Ed25519 key pair. `publicKey` is what a network registers for your
 * `openagents:{name}` address; keep `secretKey` private.
 */
export class KeyPair {
  #secretKey;

  constructor(secretKey) {
    this.publicKey = callCore(() => core.publicKeyOf(String(secretKey)));
    this.#secretKey = String(secretKey).toLowerCase();
  }

  /** A new key pair from `crypto.getRandomValues`. */
  static generate() {
    const { secretKey } = JSON.parse(callCore(() => core.keyPairFromSeed(globalThis.crypto.getRandomValues(new Uint8Array(32)))));
    return new KeyPair(secretKey);
  }

  /** A key pair from its exported form (`{secretKey}` or the secret key's 64 hex characters). */
  static import(exported) {
    const secretKey = typeof exported === 'string' ? exported : exported?.secretKey;
    if (typeof secretKey !== 'string') throw new AgentnetError('invalid_key', 'expected {secretKey} or a hex secret key');
    const pair = new KeyPair(secretKey);
    if (typeof exported === 'object' && exported.publicKey && exported.publicKey.toLowerCase() !== pair.publicKey) {
      throw new AgentnetError('invalid_key', 'publicKey does not belong to secretKey');
    }
    return pair;
  }

  /** `{publicKey, secretKey}` in hex, for storing; treat it as a secret. */
  export() {
    return { publicKey: this.publicKey, secretKey: this.#secretKey };
  }

  /** The signature (hex) proving this key for `address` in `network` over the network's `nonce`. */
  signChallenge({ network, address, nonce }) {
    stringArgs({ network, address, nonce });
    return callCore(() => core.signChallenge(this.#secretKey, network, address, nonce));
  }

  /**
   * The DID document (`did:wba:…` or `did:openagents:…`) listing this key as
   * `key-1`: serve it at `didDocumentUrl(did)` and join `did-verify` networks
   * with `Agent.connect({key, did})`.
   */
  didDocument(did) {
    stringArgs({ did });
    return JSON.parse(callCore(() => core.didDocument(this.publicKey, did)));
  }

  /**
   * A fresh `Authorization: DIDWba …` header value for a request to `url`
   * (its host is the domain signed), proving this key as `method` of `did`
   * (its document must list this key there). Any endpoint of a network
   * (HTTP, WebSocket upgrade, MCP, A2A) takes it in place of a bearer token,
   * joins the DID at level 3 and answers with `Authorization: Bearer …` for
   * the requests that follow. Each header is single-use (its nonce).
   * `aud: true` signs the newer `v="1.1"` form.
   */
  didWbaHeader({ did, url, method = 'key-1', aud = false }) {
    stringArgs({ did, url, method });
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    const nonce = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
    const timestamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    return callCore(() => core.didWbaHeader(this.#secretKey, did, method, nonce, timestamp, host, Boolean(aud)));
  }

  /** The hex signature of a registry key proof (`register`, `rotate`, `revoke`, `token`). */
  signRegistryProof({ action, name, nonce, detail = '' }) {
    stringArgs({ action, name, nonce, detail });
    return callCore(() => core.signRegistryProof(this.#secretKey, action, name, nonce, detail));
  }

  /** The secret key, for the core's replica. */
  get secretKey() {
    return this.#secretKey;
  }

  toJSON() {
    return { publicKey: this.publicKey };
  }
}
