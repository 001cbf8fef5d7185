// What makes a client's WebSocket upgrade request acceptable, checked before the upstream is
// dialled. These are the checks the `ws` server makes when it completes the handshake; a
// request failing one would be refused there only after the upstream had accepted, leaving
// an upstream connection open for nobody. Here it gets a clear 400 instead.

import { firstHeaderValue } from '../../../shared/capture/hop-headers.js';

const KEY = /^[+/0-9A-Za-z]{22}==$/;

/** Why this upgrade request cannot become a WebSocket, or null when it can. */
export function websocketHandshakeProblem(
  method: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): string | null {
  const one = (name: string) => firstHeaderValue(headers, name);
  if (method !== 'GET') return `a WebSocket handshake is a GET, not ${JSON.stringify(method ?? '')}`;
  if ((one('upgrade') ?? '').trim().toLowerCase() !== 'websocket')
    return `Upgrade must be "websocket", not ${JSON.stringify(one('upgrade') ?? '')}`;
  const key = (one('sec-websocket-key') ?? '').trim();
  if (!KEY.test(key)) return 'Sec-WebSocket-Key must be 16 bytes in base64';
  const version = (one('sec-websocket-version') ?? '').trim();
  if (version !== '13' && version !== '8')
    return `Sec-WebSocket-Version must be 13 (or 8), not ${JSON.stringify(version)}`;
  return null;
}
