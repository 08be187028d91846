// A local stand-in for a browser's push service (RFC 8030) and the browser
// behind it, written independently of agentnet's code: an HTTP server on
// 127.0.0.1 that records each POST, plus subscriptions made with Node's
// crypto (a P-256 key pair and an auth secret, as PushManager makes them),
// the check of the VAPID header (RFC 8292) and the decryption of the body
// (RFC 8291, aes128gcm of RFC 8188).

import { createServer } from 'node:http';
import {
  createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify,
} from 'node:crypto';

/** Starts the receiver; `status(path)` picks each answer's status (201 by default). */
export async function startReceiver({ status = () => 201 } = {}) {
  const received = [];
  const waiting = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const push = { method: req.method, path: req.url, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(push);
      res.writeHead(status(req.url)).end();
      for (const w of waiting.splice(0)) w();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    received,
    /** Resolves with the first push to `path` after `from` pushes, waiting as long as it takes. */
    async next(path, from = 0) {
      for (;;) {
        const found = received.slice(from).find((p) => p.path === path);
        if (found) return found;
        await new Promise((r) => waiting.push(r));
      }
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

/** A subscription as a browser makes one: `{json, decrypt(body)}`. */
export function makeSubscription(endpoint) {
  const ecdh = createECDH('prime256v1');
  const publicKey = ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    json: { endpoint, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } },
    decrypt(body) {
      const salt = body.subarray(0, 16);
      const idlen = body[20];
      const senderKey = body.subarray(21, 21 + idlen);
      const sealed = body.subarray(21 + idlen);
      const shared = ecdh.computeSecret(senderKey);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), publicKey, senderKey]);
      const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const record = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
      let end = record.length;
      while (end > 0 && record[end - 1] === 0) end -= 1;
      if (record[end - 1] !== 2) throw new Error('not a last record');
      return JSON.parse(record.subarray(0, end - 1).toString('utf8'));
    },
  };
}

/** Checks a push's `Authorization: vapid t=…, k=…` against `publicKey`; answers the JWT's claims. */
export function vapidClaims(push, publicKey) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(push.headers.authorization ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${push.headers.authorization}`);
  const [, token, k] = match;
  if (k !== publicKey) throw new Error('k is not the application server key');
  const [header, claims, signature] = token.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('the VAPID token does not verify');
  const head = JSON.parse(Buffer.from(header, 'base64url'));
  if (head.alg !== 'ES256') throw new Error(`alg ${head.alg}`);
  return JSON.parse(Buffer.from(claims, 'base64url'));
}
