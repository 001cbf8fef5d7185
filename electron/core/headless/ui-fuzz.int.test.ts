// Whatever a local client sends to the UI port, `loupe serve` stays up and keeps relaying.
// Seeded mutations of what the page sends (its load, API calls, the events WebSocket, with
// the real token and with wrong ones), with broken request targets spliced in, cut,
// flipped, padded and sent in random pieces by clients that half-close, linger, vanish or
// reset.
// A client that half-closed must get well-formed HTTP answers, none of them a 5xx, or a
// close. Through the built bin (run `npm run build` before running this file alone).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import WebSocket from 'ws';
import { seededRandom } from '../../../shared/seeded-random.js';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import {
  assertBuilt,
  closedCleanly,
  exchangeRaw,
  parseResponses,
  startServe,
} from '../../../test/support/serve-process.js';

const SEED = 2121;
const CASES = 200;

const UPGRADE =
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
/** A masked text frame, then a masked close frame, as a browser sends them. */
const FRAMES = '\x81\x85\x00\x00\x00\x00hello\x88\x80\x00\x00\x00\x00';

function corpus(port: number, token: string): string[] {
  const host = `Host: 127.0.0.1:${port}\r\n`;
  const api = (channel: string, body: string, extra = '') =>
    `POST /api/${channel} HTTP/1.1\r\n${host}x-loupe-token: ${token}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`;
  return [
    `GET /?token=${token} HTTP/1.1\r\n${host}Accept: text/html\r\n\r\n`,
    `GET /assets/index.js HTTP/1.1\r\n${host}Cookie: loupe_token_${port}=${token}\r\n\r\n`,
    api('runs.list', '{}'),
    api('runs.get', '{"runId":"r-1"}', 'Expect: 100-continue\r\n'),
    api('app.info', '{}', `Origin: http://127.0.0.1:${port}\r\n`) + `GET /?token=${token} HTTP/1.1\r\n${host}\r\n`,
    `GET http://127.0.0.1:${port}/?token=${token} HTTP/1.1\r\n${host}\r\n`,
    `GET /api/events?token=${token} HTTP/1.1\r\n${host}${UPGRADE}\r\n${FRAMES}`,
    `GET /api/events?token=wrong HTTP/1.1\r\n${host}${UPGRADE}\r\n`,
    `GET /api/nope?token=${token} HTTP/1.1\r\n${host}${UPGRADE}\r\n`,
    `GET /api/events HTTP/1.1\r\n${host}Origin: http://evil.example\r\nCookie: loupe_token_${port}=${token}\r\n${UPGRADE}\r\n`,
  ];
}

const NASTY = ['\r', '\n', '\0', '\xff', ':', ' ', '\t', '\x7f', '\r\n\r\n'];
/** What a request target can hold that no URL or percent-decoding should choke on. */
const TARGET_NASTY = [
  '%',
  '%E0%A4%A',
  '%ff',
  '%00',
  '%2F..%2F',
  '[',
  'http://[',
  '//',
  '/../..',
  '\xff',
  '?',
  '#',
  '@',
  '\\',
  ':99999',
];

function mutate(rand: () => number, request: string): string {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  let out = request;
  for (let s = Math.floor(rand() * 3); s > 0; s--) {
    const kind = Math.floor(rand() * 6);
    if (kind >= 4) {
      // Into the first request line's target, where the server's URL parsing sees it.
      const from = out.indexOf(' ') + 1;
      const to = Math.max(from, out.indexOf(' ', from));
      const i = from + Math.floor(rand() * (to - from + 1));
      out =
        kind === 4
          ? out.slice(0, i) + pick(TARGET_NASTY) + out.slice(i)
          : out.slice(0, from) + pick(TARGET_NASTY) + out.slice(i);
      continue;
    }
    const i = Math.floor(rand() * (out.length + 1));
    if (kind === 0) out = out.slice(0, i);
    else if (kind === 1) out = out.slice(0, i) + pick(NASTY) + out.slice(i + 1);
    else if (kind === 2)
      out = out.slice(0, i) + 'Content-Length: 99999\r\n'.slice(0, 1 + Math.floor(rand() * 23)) + out.slice(i);
    else out = out.slice(0, i) + out.slice(i, i + 12) + out.slice(i);
  }
  return out;
}

function pieces(rand: () => number, wire: string): string[] {
  const cuts = Array.from({ length: Math.floor(rand() * 4) }, () => Math.floor(rand() * wire.length)).sort(
    (a, b) => a - b,
  );
  return [...cuts, wire.length].map((c, k, all) => wire.slice(k ? all[k - 1] : 0, c)).filter((p) => p.length);
}

/** The events socket opens with the token and says it is connected. */
function eventsSocketWorks(port: number, token: string): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events?token=${token}`);
    ws.on('message', (data) => {
      ws.close();
      resolve(JSON.parse(String(data)).event === 'connected');
    });
    ws.on('error', () => resolve(false));
  });
}

describe('the UI port of loupe serve, sent anything', () => {
  let sim: SimUpstream;
  let dir: string;
  beforeAll(async () => {
    assertBuilt();
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ui-fuzz-'));
  });
  afterAll(async () => {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`stays up, answers well-formed HTTP without a 5xx or closes, and the proxy keeps relaying (${CASES} seeded cases)`, async () => {
    const serve = await startServe(path.join(dir, 'fuzz.loupe'), sim.url);
    onTestFinished(() => void serve.child.kill('SIGKILL'));
    const rand = seededRandom(SEED);
    const requests = corpus(serve.uiPort, serve.token);
    const statuses = new Map<number, number>();
    for (let i = 0; i < CASES; i++) {
      const wire = mutate(rand, requests[Math.floor(rand() * requests.length)]!);
      const parts = pieces(rand, wire);
      // Half-close and judge the answer, or linger, vanish or reset.
      const ending = rand() < 0.6 ? 'judge' : (['wait', 'vanish', 'reset'] as const)[Math.floor(rand() * 3)]!;
      const what = `case ${i}: ${JSON.stringify(wire)}`;
      if (ending === 'judge') {
        const answer = await exchangeRaw(serve.uiPort, parts, 'half-close');
        expect(answer, `the server neither answered nor closed; ${what}`).not.toBeNull();
        let responses: ReturnType<typeof parseResponses> = [];
        expect(() => (responses = parseResponses(answer!)), what).not.toThrow();
        for (const r of responses) {
          expect(r.status, `${what}; ${r.body}`).toBeLessThan(500);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
      } else {
        await exchangeRaw(serve.uiPort, parts, ending, 100);
      }
      expect(serve.running(), `${what}; stderr: ${serve.stderr()}`).toBe(true);
    }
    // The corpus reaches the guarded paths: refusals, answers and malformed targets alike.
    expect([...statuses.keys()]).toEqual(expect.arrayContaining([200, 400, 401, 403, 404]));

    const client = new OpenAI({ apiKey: 'sk-ui-fuzz-test-0000000000000000000', baseURL: serve.proxy, maxRetries: 0 });
    expect((await client.responses.create({ model: 'gpt-5', input: 'still relaying?' })).status).toBe('completed');
    expect(await eventsSocketWorks(serve.uiPort, serve.token)).toBe(true);
    expect(serve.stderr()).not.toMatch(/failed|Error|\n\s+at /);
    expect(await serve.stop()).toBe(0);
    expect(fs.existsSync(`${serve.db}.lock`)).toBe(false);
    expect(closedCleanly(serve.db)).toBe(true);
  }, 120_000);
});
