// Whatever an upstream sends, the proxy stays up. Seeded mutations of ordinary answers
// (cut short, bytes flipped to CR, LF, NUL or 0xFF, garbage inserted, a second answer
// appended), each sent in random pieces, go through the real proxy to raw-socket clients
// on both client paths (the fast path, and Node's server for HTTP/1.0). Each client must
// get an answer or a closed connection, every exchange must be recorded with an end, and
// the proxy must serve a clean request afterwards. A proxy crash (an exception thrown in a
// socket listener) fails the run as an unhandled error.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/seeded-random.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';

const SEED = 20261130;
const CASES = 160;

const SSE = 'data: {"type":"response.output_text.delta","delta":"hi"}\n\n';
const ANSWERS = [
  `HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n${SSE.length.toString(16)}\r\n${SSE}\r\n${SSE.length.toString(16)};x=1\r\n${SSE}\r\n0\r\n\r\n`,
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}',
  'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nuntil the close',
  'HTTP/1.1 204 No Content\r\n\r\n',
  'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok',
  'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 13\r\nset-cookie: a=1\r\n\r\n{"error":"x"}',
];
const NASTY = ['\r', '\n', '\0', '\xff', ':', ' ', ';', 'z', '\r\n\r\n'];

function mutate(rand: () => number, answer: string): string {
  let out = answer;
  const at = () => Math.floor(rand() * (out.length + 1));
  const steps = Math.floor(rand() * 3);
  for (let s = 0; s < steps; s++) {
    const kind = Math.floor(rand() * 5);
    const i = at();
    if (kind === 0)
      out = out.slice(0, i); // cut short
    else if (kind === 1)
      out = out.slice(0, i) + NASTY[Math.floor(rand() * NASTY.length)]! + out.slice(i + 1); // flip
    else if (kind === 2)
      out = out.slice(0, i) + 'garbage\r\n'.slice(0, 1 + Math.floor(rand() * 9)) + out.slice(i); // insert
    else if (kind === 3)
      out += ANSWERS[Math.floor(rand() * ANSWERS.length)]!; // a stray second answer
    else out = out.slice(0, i) + out.slice(i, i + 8) + out.slice(i); // a repeated run
  }
  return out;
}

/** Splits `wire` into 1–5 pieces at random points. */
function pieces(rand: () => number, wire: string): string[] {
  const cuts = Array.from({ length: Math.floor(rand() * 5) }, () => Math.floor(rand() * wire.length)).sort(
    (a, b) => a - b,
  );
  const out: string[] = [];
  let from = 0;
  for (const c of [...cuts, wire.length]) {
    out.push(wire.slice(from, c));
    from = c;
  }
  return out.filter((p) => p.length);
}

/**
 * Answers each request with the pieces scripted for its path, then closes. By path, not in
 * turn: a request may meet a pooled connection this server was closing, and never arrive.
 */
async function scriptedUpstream() {
  const answers = new Map<string, string[]>();
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', async (request: Buffer) => {
      const path = request.toString('latin1').split(' ')[1] ?? '';
      for (const p of answers.get(path) ?? []) {
        if (socket.destroyed) return;
        socket.write(Buffer.from(p, 'latin1'));
        await new Promise((r) => setTimeout(r, 1));
      }
      socket.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    answers,
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** One request on a raw connection; resolves with what came back once the proxy closed it. */
function ask(port: number, path: string, http10: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = `GET ${path} HTTP/1.${http10 ? 0 : 1}\r\nHost: x\r\n\r\n`;
    // HTTP/1.1 half-closes so the fast path closes after answering; Node's server would abort that.
    const socket = net.connect(port, '127.0.0.1', () => (http10 ? socket.write(request) : socket.end(request)));
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', () => {});
    socket.setTimeout(5_000, () =>
      reject(new Error(`the proxy neither answered nor closed within 5 s; got ${JSON.stringify(got.slice(0, 200))}`)),
    );
  });
}

let up: Awaited<ReturnType<typeof scriptedUpstream>>;
let h: Harness;
beforeAll(async () => {
  up = await scriptedUpstream();
  h = await startHarness({ upstream: up.url });
});
afterAll(async () => {
  await h.close();
  await up.close();
});

describe('an upstream sending anything', () => {
  it(`leaves the proxy up and every exchange recorded with an end (${CASES} seeded cases)`, async () => {
    const rand = seededRandom(SEED);
    for (let i = 0; i < CASES; i++) {
      const answer = mutate(rand, ANSWERS[Math.floor(rand() * ANSWERS.length)]!);
      up.answers.set(`/v1/case-${i}`, pieces(rand, answer));
      const got = await ask(h.core.proxy.port, `/v1/case-${i}`, i % 3 === 2);
      // Whatever came back starts as an HTTP answer or is nothing at all (a broken connection).
      if (got.length) expect(got.slice(0, 9), `case ${i}: ${JSON.stringify(answer)}`).toMatch(/^HTTP\/1\.[01] /);
    }
    await h.settle();
    const counts = h.core.db
      .prepare('SELECT (SELECT COUNT(*) FROM exchanges) AS started, (SELECT COUNT(*) FROM exchange_ends) AS ended')
      .get() as { started: number; ended: number };
    expect(counts).toEqual({ started: CASES, ended: CASES });

    // And a clean answer still goes through whole, once the last closes have been seen.
    await new Promise((r) => setTimeout(r, 100));
    up.answers.set('/v1/clean', [ANSWERS[0]!]);
    const clean = await ask(h.core.proxy.port, '/v1/clean', false);
    expect(clean).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const bodyOf = (wire: string) => wire.slice(wire.indexOf('\r\n\r\n') + 4);
    expect(bodyOf(clean)).toBe(bodyOf(ANSWERS[0]!));
  }, 60_000);
});
