// A chunked upstream body going to a chunked client keeps the upstream's own framing (ADR 10):
// forwarded a read at a time, as it came, while the recorder still gets it de-chunked. Over
// raw sockets on both sides, so the framing itself can be checked byte for byte.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { storedChunks } from '../store/raw-read.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';

const HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n';
// Sizes as no re-framing would write them (leading zeros, upper case, an extension), and a trailer.
const FRAMED =
  '0007;source=up\r\ndata: 1\r\n' + '00A\r\n\ndata: 22\n\r\n' + '3\r\n\n\n\n\r\n' + '0\r\nX-Checksum: abc\r\n\r\n';

/** An upstream on a raw socket that sends each answer in the given writes, a pause between them. */
async function rawUpstream(writes: string[], options: { thenClose?: boolean; pauseMs?: number } = {}) {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.on('data', async () => {
      for (const w of writes) {
        socket.write(w);
        await new Promise((r) => setTimeout(r, options.pauseMs ?? 5));
      }
      if (options.thenClose) socket.destroy();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Sends `request` on a raw connection and returns every byte received until the proxy closed
 * it. By default the client then shuts its sending side, so the fast path answers and closes
 * (Node's server would abort instead: an HTTP/1.0 request closes on its own).
 */
function converse(port: number, request: string, halfClose = true): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => (halfClose ? socket.end(request) : socket.write(request)));
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', () => resolve(got));
    socket.setTimeout(5_000, () => reject(new Error(`no close within 5 s; got ${JSON.stringify(got)}`)));
  });
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function proxyTo(writes: string[], options: { thenClose?: boolean; pauseMs?: number } = {}): Promise<Harness> {
  const up = await rawUpstream(writes, options);
  cleanups.push(up.close);
  const h = await startHarness({ upstream: up.url });
  cleanups.push(() => h.close());
  return h;
}

function recorded(h: Harness) {
  const row = h.core.db
    .prepare('SELECT e.id, x.state FROM exchanges e JOIN exchange_ends x ON x.exchange_id = e.id ORDER BY e.id')
    .all() as Array<{ id: number; state: string }>;
  return row.map((r) => ({
    state: r.state,
    pieces: storedChunks(h.core.db, r.id, 'response').map((c) => Buffer.from(c.data).toString('latin1')),
  }));
}

const bodyOf = (response: string) => response.slice(response.indexOf('\r\n\r\n') + 4);

describe('a chunked body to a chunked client', () => {
  it("keeps the upstream's framing byte for byte, trailers too, however the reads fall, and records it de-chunked", async () => {
    // All in one read, then split inside sizes, data and the trailer.
    for (const writes of [
      [HEAD + FRAMED],
      [HEAD + FRAMED.slice(0, 3), FRAMED.slice(3, 20), FRAMED.slice(20, 50), FRAMED.slice(50)],
    ]) {
      const h = await proxyTo(writes);
      const get = 'GET /v1/responses/r1 HTTP/1.1\r\nHost: x\r\n\r\n';
      // Two on one connection: the second head must follow the first body's own last chunk exactly.
      const wire = await converse(h.core.proxy.port, get + get);
      const [first, second] = wire.split(/(?=^HTTP\/1\.1 )/m);
      expect(first).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*Transfer-Encoding: chunked\r\n/);
      expect(bodyOf(first!)).toBe(FRAMED);
      expect(bodyOf(second!)).toBe(FRAMED);
      await h.settle();
      const pieces = ['data: 1', '\ndata: 22\n', '\n\n\n'];
      const joined = (r: { pieces: string[] }) => r.pieces.join('');
      expect(recorded(h).map((r) => [r.state, joined(r)])).toEqual([
        ['complete', pieces.join('')],
        ['complete', pieces.join('')],
      ]);
      // In one read, each upstream chunk is its own recorded piece, as it was before.
      if (writes.length === 1) expect(recorded(h)[0]!.pieces).toEqual(pieces);
      await cleanups
        .splice(0)
        .reverse()
        .reduce((p, c) => p.then(c), Promise.resolve());
    }
  });

  it('goes chunked, without the Content-Length, when the upstream framed it both ways', async () => {
    const h = await proxyTo([HEAD.replace('\r\n\r\n', '\r\ncontent-length: 3\r\n\r\n') + FRAMED]);
    const wire = await converse(h.core.proxy.port, 'GET /v1/responses/r1 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(wire).not.toMatch(/content-length/i);
    expect(bodyOf(wire)).toBe(FRAMED);
  });

  it('is re-framed for a client Node answers (HTTP/1.0): the body de-chunked, ended by the close', async () => {
    const h = await proxyTo([HEAD + FRAMED]);
    const wire = await converse(h.core.proxy.port, 'GET /v1/responses/r1 HTTP/1.0\r\nHost: x\r\n\r\n', false);
    expect(wire).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(wire).not.toMatch(/transfer-encoding/i);
    expect(bodyOf(wire)).toBe('data: 1\ndata: 22\n\n\n\n');
  });

  it('survives bad framing in the same read as the head: the client sees a broken connection, and the proxy goes on', async () => {
    const h = await proxyTo([`${HEAD}zz\r\n`], { thenClose: true });
    // The head was taken but not yet sent. It is never followed by a second one (that threw,
    // uncaught, and took the proxy down): the exchange fails as a broken stream.
    for (let i = 0; i < 2; i++) {
      expect(await converse(h.core.proxy.port, 'GET /v1/responses/r1 HTTP/1.1\r\nHost: x\r\n\r\n')).toBe('');
    }
    await h.settle();
    expect(recorded(h)).toEqual([
      { state: 'upstream_reset', pieces: [] },
      { state: 'upstream_reset', pieces: [] },
    ]);
  });

  it('sends the head at once to a client Node answers, even when the first read brings only a chunk size', async () => {
    const h = await proxyTo([`${HEAD}7\r\n`, 'data: 1\r\n0\r\n\r\n'], { pauseMs: 1_000 });
    const started = Date.now();
    const headAt = await new Promise<number>((resolve, reject) => {
      // HTTP/1.0: handed to Node's server, whose writeHead only stores the head.
      const socket = net.connect(h.core.proxy.port, '127.0.0.1', () =>
        socket.write('GET /v1/responses/r1 HTTP/1.0\r\nHost: x\r\n\r\n'),
      );
      socket.once('data', () => resolve(Date.now() - started));
      socket.on('error', reject);
    });
    // The data follows a second later; a head held back for it would come after.
    expect(headAt).toBeLessThan(500);
  });

  it('passes on what was framed well before bad framing, then breaks the stream, and records the same', async () => {
    const h = await proxyTo([`${HEAD}7\r\ndata: 1\r\nzz\r\nnot a chunk`], { thenClose: true });
    const wire = await converse(h.core.proxy.port, 'GET /v1/responses/r1 HTTP/1.1\r\nHost: x\r\n\r\n');
    // No last chunk: the client sees a broken stream, not a clean short one.
    expect(bodyOf(wire)).toBe('7\r\ndata: 1\r\n');
    await h.settle();
    expect(recorded(h)).toEqual([{ state: 'upstream_reset', pieces: ['data: 1'] }]);
  });
});
