// The client-facing fast path (ADR 9) over raw sockets: pipelining, heads that trickle in,
// half-closed clients, aborted uploads, and every kind of request it hands to Node's
// http.Server, through the real proxy with a real SQLite file.
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startHarness, type Harness } from '../../../test/support/harness.js';

/** An upstream that answers every request with what it saw, as JSON with a length. */
async function echoUpstream() {
  const seen: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(parts).toString('latin1'),
      };
      seen.push(entry);
      const body = JSON.stringify({ method: entry.method, url: entry.url, body: entry.body });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
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

/**
 * Opens a raw connection to the proxy, sends `parts` (a pause between them), and returns every byte it got until it
 * closed.
 */
function converse(
  port: number,
  parts: string[],
  options: { halfClose?: boolean; pauseMs?: number } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    socket.setTimeout(5_000, () => reject(new Error(`no close within 5 s; got ${JSON.stringify(got)}`)));
    const send = async () => {
      for (const p of parts) {
        socket.write(Buffer.from(p, 'latin1'));
        if (options.pauseMs !== undefined) await new Promise((r) => setTimeout(r, options.pauseMs));
      }
      if (options.halfClose) socket.end();
    };
    socket.once('connect', () => void send());
  });
}

/** Splits what a keep-alive connection received into responses (all framed by content-length here). */
function responses(wire: string): Array<{ status: number; head: string; body: string }> {
  const out: Array<{ status: number; head: string; body: string }> = [];
  let rest = wire;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error(`a partial head: ${JSON.stringify(rest)}`);
    const head = rest.slice(0, end);
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    out.push({ status: Number(head.split(' ')[1]), head, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(): Promise<{ h: Harness; up: Awaited<ReturnType<typeof echoUpstream>>; port: number }> {
  const up = await echoUpstream();
  cleanups.push(up.close);
  const h = await startHarness({ upstream: up.url });
  cleanups.push(() => h.close());
  return { h, up, port: h.core.proxy.port };
}

function ends(h: Harness) {
  return h.core.db
    .prepare(
      `SELECT e.method, e.path, x.state FROM exchanges e JOIN exchange_ends x ON x.exchange_id = e.id ORDER BY e.id`,
    )
    .all() as Array<{ method: string; path: string; state: string }>;
}

describe('the fast path', () => {
  it('answers pipelined requests in order, then hands the connection to Node for one that asks to close', async () => {
    const { h, port } = await setup();
    const wire = await converse(port, [
      'POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nfirst' +
        'GET /s/run-a/v1/models HTTP/1.1\r\nHost: x\r\n\r\n' +
        'POST /v1/files HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nConnection: close\r\n\r\nlast',
    ]);
    const got = responses(wire);
    expect(got.map((r) => [r.status, JSON.parse(r.body)])).toEqual([
      [200, { method: 'POST', url: '/v1/responses', body: 'first' }],
      [200, { method: 'GET', url: '/v1/models', body: '' }],
      [200, { method: 'POST', url: '/v1/files', body: 'last' }],
    ]);
    // The first two answered by the fast path, which says how long it keeps the connection.
    expect(got[0]!.head).toMatch(/\r\nKeep-Alive: timeout=30\b/);
    expect(got[2]!.head).toMatch(/\r\nConnection: close\b/i);
    await h.settle();
    expect(ends(h)).toEqual([
      { method: 'POST', path: '/v1/responses', state: 'complete' },
      { method: 'GET', path: '/v1/models', state: 'complete' },
      { method: 'POST', path: '/v1/files', state: 'complete' },
    ]);
  });

  it('sends no body after HEAD, 204 and 304, and re-frames a body that ends with the upstream connection', async () => {
    const up = http.createServer((req, res) => {
      if (req.url === '/v1/nothing') res.writeHead(204).end();
      else if (req.url === '/v1/cached') res.writeHead(304, { etag: '"a"' }).end();
      else if (req.url === '/v1/until-close') {
        // No length and no chunking: the body ends when the upstream hangs up.
        res.socket!.end(
          'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nuntil the upstream hangs up',
        );
      } else
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-length': '5' })
          .end(req.method === 'HEAD' ? undefined : 'hello');
    });
    await new Promise<void>((r) => up.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          up.close(() => r());
          up.closeAllConnections();
        }),
    );
    const h = await startHarness({ upstream: `http://127.0.0.1:${(up.address() as net.AddressInfo).port}` });
    cleanups.push(() => h.close());
    const get = (path: string, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
    const wire = await converse(
      h.core.proxy.port,
      [get('/v1/models', 'HEAD') + get('/v1/nothing') + get('/v1/cached') + get('/v1/until-close') + get('/v1/models')],
      { halfClose: true },
    );
    const statuses = [...wire.matchAll(/^HTTP\/1\.1 (\d+)/gm)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 204, 304, 200, 200]);
    // HEAD keeps the length it announces but sends nothing; the close-delimited body goes chunked.
    const [head, , , untilClose, last] = wire.split(/(?=^HTTP\/1\.1 )/m);
    expect(head).toMatch(/content-length: 5\r\n[\s\S]*\r\n\r\n$/);
    expect(untilClose).toMatch(/Transfer-Encoding: chunked\r\n\r\n1b\r\nuntil the upstream hangs up\r\n0\r\n\r\n$/);
    expect(last).toMatch(/\r\n\r\nhello$/);
  });

  it('assembles a head and body that arrive a few bytes at a time', async () => {
    const { port, up } = await setup();
    const request =
      'POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"input":"x"}';
    const parts = request.match(/[\s\S]{1,3}/g)!;
    parts[parts.length - 1] += 'GET /v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    const got = responses(await converse(port, parts, { pauseMs: 1 }));
    expect(got.map((r) => r.status)).toEqual([200, 200]);
    expect(up.seen[0]).toMatchObject({ method: 'POST', body: '{"input":"x"}' });
    expect(up.seen[0]!.headers['content-type']).toBe('application/json');
  });

  it('answers a client that shut its sending side after the request, then closes', async () => {
    const { port } = await setup();
    const got = responses(await converse(port, ['GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n'], { halfClose: true }));
    expect(got.map((r) => r.status)).toEqual([200]);
  });

  it('records an upload the client abandons as client_aborted', async () => {
    const { h, port } = await setup();
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /v1/files HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nonly some of it');
    await eventually(() => (h.core.recorder.health.exchanges === 1 ? true : undefined));
    socket.destroy();
    await eventually(async () => {
      await h.settle();
      return ends(h).length ? true : undefined;
    });
    expect(ends(h)).toEqual([{ method: 'POST', path: '/v1/files', state: 'client_aborted' }]);
  });

  it('sends a Date when the upstream gave none, as Node would', async () => {
    const raw = net.createServer((s) =>
      s.once('data', () => s.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}')),
    );
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => raw.close(() => r())));
    const h = await startHarness({ upstream: `http://127.0.0.1:${(raw.address() as net.AddressInfo).port}` });
    cleanups.push(() => h.close());
    const got = responses(
      await converse(h.core.proxy.port, ['GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n'], { halfClose: true }),
    );
    expect(got[0]!.head).toMatch(/\r\nDate: \w{3}, \d\d \w{3} \d{4} [\d:]{8} GMT\r\n/);
    expect(got[0]!.body).toBe('{}');
  });

  it.each([
    ['the fast path', 'GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n', true],
    ["Node's server (HTTP/1.0)", 'GET /v1/models HTTP/1.0\r\nHost: x\r\n\r\n', false],
  ])(
    "answers a 502 with its own reason phrase when the upstream's has a control byte, on %s",
    async (_path, request, halfClose) => {
      const raw = net.createServer((s) =>
        s.once('data', () => s.end('HTTP/1.1 200 O\x01K\r\ncontent-length: 2\r\n\r\n{}')),
      );
      await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
      cleanups.push(() => new Promise<void>((r) => raw.close(() => r())));
      const h = await startHarness({ upstream: `http://127.0.0.1:${(raw.address() as net.AddressInfo).port}` });
      cleanups.push(() => h.close());
      // Node's ServerResponse kept the rejected reason and threw on it again while answering
      // the 502, and the client got nothing at all.
      const wire = await converse(h.core.proxy.port, [request], { halfClose });
      expect(wire).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n/);
      await h.settle();
      expect(ends(h)).toEqual([{ method: 'GET', path: '/v1/models', state: 'proxy_error' }]);
    },
  );

  it('closes at once when a pipelined request can no longer be completed: its client stopped sending mid-body', async () => {
    const { h, port, up } = await setup();
    const wire = await converse(
      port,
      [
        'GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\nPOST /v1/files HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n01234',
      ],
      { halfClose: true },
    );
    expect(responses(wire).map((r) => r.status)).toEqual([200]);
    // The truncated upload never went upstream, where it would have waited for the rest.
    expect(up.seen.map((r) => r.url)).toEqual(['/v1/models']);
    await h.settle();
    expect(ends(h)).toEqual([{ method: 'GET', path: '/v1/models', state: 'complete' }]);
  });

  it('on shutdown closes an idle connection at once and a busy one as soon as its answer is out', async () => {
    const slow = net.createServer((s) =>
      s.once('data', () => setTimeout(() => s.write('HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nslow'), 300)),
    );
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => slow.close(() => r())));
    const h = await startHarness({ upstream: `http://127.0.0.1:${(slow.address() as net.AddressInfo).port}` });
    cleanups.push(() => h.close());
    const idle = net.connect(h.core.proxy.port, '127.0.0.1');
    const idleClosed = new Promise((r) => idle.once('close', r));
    await new Promise((r) => idle.once('connect', r));
    const busy = converse(h.core.proxy.port, ['GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n']);
    await eventually(() => (h.core.recorder.health.exchanges === 1 ? true : undefined));
    const started = Date.now();
    await h.core.proxy.close(10_000);
    // Well inside the 10 s grace: nothing waited for it.
    expect(Date.now() - started).toBeLessThan(2_000);
    await idleClosed;
    expect(responses(await busy).map((r) => [r.status, r.body])).toEqual([[200, 'slow']]);
  });

  describe('hands to Node, which answers as it always did', () => {
    it.each([
      ['HTTP/1.0', 'GET /v1/models HTTP/1.0\r\nHost: x\r\n\r\n', 200],
      [
        'Expect: 100-continue',
        'POST /v1/files HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab',
        200,
      ],
      [
        'a chunked upload',
        'POST /v1/files HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\nab\r\n0\r\n\r\n',
        200,
      ],
      [
        'a Latin-1 header value',
        'GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Name: caf\u00e9\r\nConnection: close\r\n\r\n',
        200,
      ],
      ['a malformed request line', 'GARBAGE\r\n\r\n', 400],
      ['a missing Host', 'GET /v1/models HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
      ['two lengths', 'POST /v1/files HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nab', 400],
    ])('%s', async (_what, request, status) => {
      const { port, up } = await setup();
      // Each asks Node to close after answering (HTTP/1.0, Connection: close, or an error).
      // No half-close here: Node's server aborts a request whose client shut its sending side.
      const wire = await converse(port, [request]);
      // A 100 Continue may come first; the final answer is what counts.
      const final = wire.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      expect(Number(final.split(' ')[1])).toBe(status);
      if (status === 200) expect(up.seen).toHaveLength(1);
      else expect(up.seen).toHaveLength(0);
    });
  });
});
