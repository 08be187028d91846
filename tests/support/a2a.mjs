// The official A2A JS SDK (@a2a-js/sdk) as the A2A tests drive it: a client
// factory that sends a bearer and speaks A2A 1.0 or, through the SDK's compat
// layer, 0.3; and the SDK's text parts.

import {
  ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';

/** A `fetch` that sends `Authorization: Bearer {bearer}` (none without one). */
export const withToken = (bearer) => (url, init = {}) => {
  const headers = new Headers(init.headers);
  if (bearer) headers.set('Authorization', `Bearer ${bearer}`);
  return fetch(url, { ...init, headers });
};

/** The SDK's client factory (JSON-RPC, 0.3 compat on) fetching with `fetchImpl` (by default with `bearer`). */
export function clientFactory(bearer, fetchImpl = withToken(bearer)) {
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat: { enabled: true } }),
  }));
}

/** A text part, as the SDK's 1.0 types write it. */
export const textPart = (value) => ({ content: { $case: 'text', value } });

/** The text of a part, or undefined when it is not text. */
export const partText = (part) => (part?.content?.$case === 'text' ? part.content.value : undefined);
