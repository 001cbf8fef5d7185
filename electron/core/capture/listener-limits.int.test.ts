// What the proxy's listener allows a client that never finishes its request head: a
// deadline for the head on the fast path and on Node's server, a cap on connections still
// waiting for their first head, and no forwarding of a full URL sent as the request target.
// Raw sockets against the real proxy, a real SQLite file, and an upstream that notes all it sees.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startHarness } from '../../../test/support/harness.js';
import type { CoreOptions } from '../core.js';

/** An upstream that notes every request and upgrade it sees, and answers requests 200 with a length. */
async function notingUpstream() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}'));
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket) => {
    seen.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(options: Partial<CoreOptions> = {}, basePath = '') {
  const up = await notingUpstream();
  cleanups.push(up.close);
  const h = await startHarness({ upstream: up.url + basePath, ...options });
  cleanups.push(() => h.close());
  return { h, up, port: h.core.proxy.port };
}

/** A raw client connection: what it received so far, and a promise of its close. */
async function open(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  cleanups.push(() => socket.destroy());
  let got = '';
  socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  await new Promise<void>((r, reject) => {
    socket.once('connect', () => r());
    socket.once('error', reject);
  });
  return {
    socket,
    closed,
    got: () => got,
    /** Sends `request` and resolves with the response once `got` holds its whole body (framed by content-length). */
    async exchange(request: string): Promise<string> {
      const from = got.length;
      socket.write(request);
      return eventually(() => {
        const wire = got.slice(from);
        const end = wire.indexOf('\r\n\r\n');
        if (end < 0) return undefined;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(wire.slice(0, end))?.[1] ?? 0);
        return wire.length >= end + 4 + length ? wire : undefined;
      });
    },
  };
}

/**
 * Writes `prefix` and then one byte of a header value every 50 ms, never ending the head,
 * until the proxy closes the connection. Resolves with what came back and how long after
 * the first byte the close came; rejects if it stays open `limitMs`.
 */
async function trickle(
  conn: Awaited<ReturnType<typeof open>>,
  prefix: string,
  limitMs: number,
): Promise<{ wire: string; afterMs: number }> {
  const from = conn.got().length;
  const started = performance.now();
  conn.socket.write(prefix);
  const drip = setInterval(() => conn.socket.write('a'), 50);
  try {
    const closedInTime = await Promise.race([
      conn.closed.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), limitMs)),
    ]);
    if (!closedInTime)
      throw new Error(`the connection was still open ${limitMs} ms after its head began, with a byte every 50 ms`);
    return { wire: conn.got().slice(from), afterMs: performance.now() - started };
  } finally {
    clearInterval(drip);
  }
}

const DEADLINE_MS = 1_000;
const GET = 'GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n';
const UNFINISHED_GET = 'GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Pad: ';

/**
 * Trickles a head that never ends and expects Node's 408 and the close, not much before the deadline (its clock may
 * start at the connect).
 */
async function expectCutAtDeadline(conn: Awaited<ReturnType<typeof open>>, prefix = UNFINISHED_GET): Promise<void> {
  const { wire, afterMs } = await trickle(conn, prefix, 10 * DEADLINE_MS);
  expect(wire).toMatch(/^HTTP\/1\.1 408 /);
  expect(afterMs).toBeGreaterThanOrEqual(0.75 * DEADLINE_MS);
}

describe('a request head that never completes', () => {
  it.each([
    ['one the fast path would read', UNFINISHED_GET],
    [
      'one the fast path would hand to Node (a chunked upload)',
      'POST /v1/files HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nX-Pad: ',
    ],
  ])('is answered 408 and closed at the deadline: %s', async (_what, prefix) => {
    const { port, up } = await setup({ headersTimeoutMs: DEADLINE_MS });
    const conn = await open(port);
    await expectCutAtDeadline(conn, prefix);
    expect(up.seen).toEqual([]);
  });

  it("is closed on a connection Node's server already reads, counted from that head's first byte", async () => {
    const { port, up } = await setup({ headersTimeoutMs: DEADLINE_MS });
    const conn = await open(port);
    // A chunked upload hands the connection to Node for good; it stays open after the answer.
    const first = await conn.exchange(
      'POST /v1/files HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n',
    );
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    await expectCutAtDeadline(conn);
    expect(up.seen).toEqual(['POST /v1/files']);
  });

  it('is timed from its own first byte on a fast-path keep-alive connection, not from the connection', async () => {
    const { port, up } = await setup({ headersTimeoutMs: DEADLINE_MS });
    const conn = await open(port);
    expect(await conn.exchange(GET)).toMatch(/^HTTP\/1\.1 200 /);
    // Idle past the deadline (under the 30 s keep-alive): waiting between requests is not a late head.
    await new Promise((r) => setTimeout(r, 1.5 * DEADLINE_MS));
    expect(conn.socket.destroyed).toBe(false);
    await expectCutAtDeadline(conn);
    expect(up.seen).toEqual(['GET /v1/models']);
  });

  it('never cuts a head that arrived in time, however slow its body is', async () => {
    const { port, up } = await setup({ headersTimeoutMs: DEADLINE_MS });
    const conn = await open(port);
    const body = 'x'.repeat(30);
    conn.socket.write(`POST /v1/files HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`);
    const from = conn.got().length;
    // The body takes 1.5 deadlines to arrive.
    for (const byte of body) {
      conn.socket.write(byte);
      await new Promise((r) => setTimeout(r, 50));
    }
    const wire = await eventually(() => (conn.got().length > from ? conn.got().slice(from) : undefined));
    expect(wire).toMatch(/^HTTP\/1\.1 200 /);
    expect(conn.socket.destroyed).toBe(false);
    expect(up.seen).toEqual(['POST /v1/files']);
  });
});

describe("Node's server, now that it tracks its connections", () => {
  it('closes an idle keep-alive connection at once on shutdown, not at the end of the grace period', async () => {
    const { h, port } = await setup();
    const conn = await open(port);
    expect(
      await conn.exchange(
        'POST /v1/files HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n',
      ),
    ).toMatch(/^HTTP\/1\.1 200 /);
    // The grace is longer than the test's timeout: only closing it as idle ends this in time.
    await h.core.proxy.close(60_000);
    await conn.closed;
  });
});

describe('connections still waiting for their first head', () => {
  it('past the cap, new ones get a 503 and are closed, a line is logged, and established ones carry on', async () => {
    const lines: string[] = [];
    const { port, up } = await setup({ maxHalfOpenConnections: 5, log: (line) => lines.push(line) });
    const established = await open(port);
    expect(await established.exchange(GET)).toMatch(/^HTTP\/1\.1 200 /);

    const waiting = [];
    for (let i = 0; i < 5; i++) {
      const conn = await open(port);
      conn.socket.write('GET /v1/models HTTP/1.1\r\nHost: x\r\n');
      waiting.push(conn);
    }
    const refused = await open(port);
    refused.socket.write(GET);
    await refused.closed;
    const wire = refused.got();
    expect(wire).toMatch(/^HTTP\/1\.1 503 /);
    expect(wire).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(wire.slice(wire.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
      type: 'proxy_error',
      code: 'too_many_connections',
    });
    expect(lines).toEqual([
      expect.stringMatching(/^loupe: refused 1 client connection\(s\): 5 are already waiting to send a request head/),
    ]);

    // An established connection's next request is not a new connection: it goes through.
    expect(await established.exchange(GET)).toMatch(/^HTTP\/1\.1 200 /);
    expect(up.seen).toEqual(['GET /v1/models', 'GET /v1/models']);
    expect(waiting.every((c) => !c.socket.destroyed)).toBe(true);

    // Once one of the waiting finishes its head, a new client is let in again.
    expect(await waiting[0]!.exchange('\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    const next = await open(port);
    expect(await next.exchange(GET)).toMatch(/^HTTP\/1\.1 200 /);
    expect(up.seen).toHaveLength(4);
  });
});

describe('a full URL as the request target (absolute-form, as sent to an HTTP proxy)', () => {
  it('is refused with a 400 proxy_error and recorded, and the upstream sees nothing', async () => {
    const { h, port, up } = await setup();
    const conn = await open(port);
    const wire = await conn.exchange('GET http://169.254.169.254/latest HTTP/1.1\r\nHost: 169.254.169.254\r\n\r\n');
    expect(wire).toMatch(/^HTTP\/1\.1 400 /);
    const error = JSON.parse(wire.slice(wire.indexOf('\r\n\r\n') + 4)).error;
    expect(error).toMatchObject({
      type: 'proxy_error',
      code: 'bad_request',
      message: expect.stringContaining('not an HTTP proxy'),
    });
    expect(up.seen).toEqual([]);
    await h.settle();
    const row = h.core.db
      .prepare(
        'SELECT h.status, x.state FROM exchanges e JOIN response_heads h ON h.exchange_id = e.id JOIN exchange_ends x ON x.exchange_id = e.id',
      )
      .get();
    expect(row).toEqual({ status: 400, state: 'proxy_error' });
  });

  it('is refused for a WebSocket upgrade too, before the upstream is dialled', async () => {
    // With a base path the URL would otherwise be glued onto it and dialled as a path.
    const { port, up } = await setup({}, '/openai');
    const conn = await open(port);
    conn.socket.write(
      'GET ws://169.254.169.254/v1/responses HTTP/1.1\r\nHost: 169.254.169.254\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await conn.closed;
    expect(conn.got()).toMatch(/^HTTP\/1\.1 400 /);
    const error = JSON.parse(conn.got().slice(conn.got().indexOf('\r\n\r\n') + 4)).error;
    expect(error).toMatchObject({
      type: 'proxy_error',
      code: 'bad_request',
      message: expect.stringContaining('not an HTTP proxy'),
    });
    expect(up.seen).toEqual([]);
  });
});
