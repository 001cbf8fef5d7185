// Whatever a client sends, the proxy stays up. Seeded mutations of the requests SDKs send
// (and of pipelined pairs and a WebSocket upgrade), cut, flipped, padded and sent in random
// pieces, by clients that then half-close, wait, or vanish. Every exchange the proxy began
// must be recorded with an end, and the proxy must serve a clean request afterwards. A
// crash fails the run as an unhandled error.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/seeded-random.js';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';

const SEED = 1130;
const CASES = 120;

const BODY = '{"model":"gpt-5","input":"hi","stream":true}';
const POST = `POST /v1/responses HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`;
const REQUESTS = [
  POST,
  'GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n',
  POST.replace('/v1/responses', '/s/run-a/v1/responses').replace('Host: x', 'Host: x\r\nx-loupe-agent: planner') +
    'GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n',
  POST.replace('HTTP/1.1', 'HTTP/1.0'),
  'GET /v1/responses HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n\x81\x85\x00\x00\x00\x00hello',
];
const NASTY = ['\r', '\n', '\0', '\xff', ':', ' ', '\t', '\x7f', '\r\n\r\n'];

function mutate(rand: () => number, request: string): string {
  let out = request;
  for (let s = Math.floor(rand() * 3); s > 0; s--) {
    const i = Math.floor(rand() * (out.length + 1));
    const kind = Math.floor(rand() * 4);
    if (kind === 0) out = out.slice(0, i);
    else if (kind === 1) out = out.slice(0, i) + NASTY[Math.floor(rand() * NASTY.length)]! + out.slice(i + 1);
    else if (kind === 2)
      out = out.slice(0, i) + 'Content-Length: 99999\r\n'.slice(0, 1 + Math.floor(rand() * 23)) + out.slice(i);
    else out = out.slice(0, i) + out.slice(i, i + 12) + out.slice(i);
  }
  return out;
}

/** Sends `wire` in 1–4 pieces, then half-closes, lingers or vanishes; never waits more than 150 ms for the proxy. */
function send(port: number, rand: () => number, wire: string): Promise<void> {
  const cuts = Array.from({ length: Math.floor(rand() * 4) }, () => Math.floor(rand() * wire.length)).sort(
    (a, b) => a - b,
  );
  const parts = [...cuts, wire.length].map((c, k, all) => wire.slice(k ? all[k - 1] : 0, c)).filter((p) => p.length);
  const ending = Math.floor(rand() * 3); // 0 half-close, 1 wait for the proxy, 2 vanish
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('close', () => resolve());
    socket.once('connect', async () => {
      for (const p of parts) {
        socket.write(Buffer.from(p, 'latin1'));
        await new Promise((r) => setTimeout(r, 1));
      }
      if (ending === 0) socket.end();
      if (ending === 2) socket.destroy();
      setTimeout(() => socket.destroy(), 150);
    });
  });
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('a client sending anything', () => {
  it(`leaves the proxy up and every exchange it began recorded with an end (${CASES} seeded cases)`, async () => {
    const rand = seededRandom(SEED);
    for (let i = 0; i < CASES; i++) {
      await send(h.core.proxy.port, rand, mutate(rand, REQUESTS[Math.floor(rand() * REQUESTS.length)]!));
    }
    // Exchanges cut off mid-stream end as client_aborted once the proxy sees the close.
    await new Promise((r) => setTimeout(r, 300));
    await h.settle();
    const counts = h.core.db
      .prepare('SELECT (SELECT COUNT(*) FROM exchanges) AS started, (SELECT COUNT(*) FROM exchange_ends) AS ended')
      .get() as { started: number; ended: number };
    expect(counts.started).toBeGreaterThan(CASES / 4);
    expect(counts.ended).toBe(counts.started);

    const clean = await h.client.responses.create({ model: 'gpt-5', input: 'still there?' });
    expect(clean.status).toBe('completed');
  }, 60_000);
});
