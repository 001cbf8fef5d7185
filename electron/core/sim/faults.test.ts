// Faults and transport behaviour: error statuses, compression, resets, big bodies,
// timeouts, abandoned streams and backpressure. The SDK is the client wherever it can
// be; raw node:http is used where the test must see bytes the SDK hides.
import { createHash, randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simText } from '../../../shared/sim/content.js';
import { startSimUpstream, type SimOptions, type SimUpstream } from './index.js';

let sim: SimUpstream;
let client: OpenAI;
const x = (opts: Partial<SimOptions>) => ({ headers: { 'x-sim': JSON.stringify(opts) } });
const input = { model: 'gpt-4.1-mini', input: 'hello' };

beforeAll(async () => {
  sim = await startSimUpstream();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: sim.url + '/v1', maxRetries: 0 });
});
afterAll(() => sim.close());

/** POSTs with node:http and returns the response head plus its raw (undecoded) body. */
function rawPost(
  path: string,
  body: unknown,
  opts: Partial<SimOptions>,
): Promise<{ res: IncomingMessage; raw: Buffer }> {
  const headers = { 'x-sim': JSON.stringify(opts) };
  return new Promise((resolve, reject) => {
    const req = request(`${sim.url}${path}`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ res, raw: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('faults', () => {
  it('returns an HTTP status with an OpenAI-shaped error the SDK turns into APIError', async () => {
    const err = await client.responses.create(input, x({ status: 429 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(err).toMatchObject({ status: 429, code: 'rate_limit_exceeded', type: 'tokens' });
    const chat = client.chat.completions.create({ model: 'm', messages: [] }, x({ status: 503 }));
    await expect(chat).rejects.toBeInstanceOf(OpenAI.InternalServerError);
  });

  const decoders = { gzip: gunzipSync, br: brotliDecompressSync, deflate: inflateSync };

  it.each(['gzip', 'br', 'deflate'] as const)(
    'compresses with %s, streamed and not, and the SDK decodes it',
    async (encoding) => {
      const json = await client.responses.create(input, x({ encoding }));
      expect(json.output_text).toBe(simText(40));
      const final = await client.responses.stream(input, x({ encoding, toolCalls: 1 })).finalResponse();
      expect(final.output.map((i) => i.type)).toEqual(['message', 'function_call']);

      const { res, raw } = await rawPost('/v1/responses', { ...input, stream: true }, { encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      const text = decoders[encoding](raw).toString();
      expect(text.startsWith('event: response.created\ndata: {')).toBe(true);
      expect(text.endsWith('\n\n')).toBe(true);
    },
  );

  it('flushes each compressed event so a stream is still incremental', async () => {
    // Without a flush per event gzip would hold every frame until the end: the first event
    // would come a minute later, after the gap, instead of now.
    const stream = await client.responses.create({ ...input, stream: true }, x({ encoding: 'gzip', gapMs: 60_000 }));
    const first = (async () => {
      for await (const event of stream) return event.type;
    })();
    const heldBack = new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the first event was held back with the rest')), 15_000).unref(),
    );
    expect(await Promise.race([first, heldBack])).toBe('response.created');
    stream.controller.abort();
  });

  it('delays the first event by ttftMs while the headers go out at once', async () => {
    const started = Date.now();
    const stream = await client.responses.create({ ...input, stream: true }, x({ ttftMs: 1_500 }));
    const headersMs = Date.now() - started;
    for await (const _ of stream) break;
    const firstEventMs = Date.now() - started;
    expect(firstEventMs).toBeGreaterThanOrEqual(1_495);
    // The headers did not wait for the first event (generous: a loaded machine is slow, not that slow).
    expect(headersMs).toBeLessThan(firstEventMs - 750);
  });

  it.each([null, 'gzip'] as const)(
    'resets the socket after N events (encoding %s); the SDK stream throws',
    async (encoding) => {
      const before = sim.stats();
      const stream = await client.responses.create({ ...input, stream: true }, x({ resetAfterEvents: 4, encoding }));
      const seen: string[] = [];
      await expect(async () => {
        for await (const event of stream) seen.push(event.type);
      }).rejects.toThrow();
      expect(seen).toHaveLength(4);
      // A reset on purpose is not counted as the client going away.
      expect(sim.stats()).toMatchObject({ resets: before.resets + 1, clientAborts: before.clientAborts });
    },
  );

  it('hashes a 5 MB request body as it streams in', async () => {
    const body = randomBytes(5 * 1024 * 1024);
    const res = await fetch(`${sim.url}/v1/responses`, {
      method: 'POST',
      body,
      headers: { 'x-sim': JSON.stringify({ echoBody: true }) },
    });
    expect(await res.json()).toEqual({ bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') });
    expect(sim.stats().lastRequest?.body.length).toBe(64 * 1024);
  });

  it('sends malformed JSON that the SDK fails to parse', async () => {
    const { res, raw } = await rawPost('/v1/responses', input, { malformed: true });
    expect(res.headers['content-type']).toBe('application/json');
    expect(() => JSON.parse(raw.toString())).toThrow();
    await expect(client.responses.create(input, x({ malformed: true }))).rejects.toThrow();
    // Even when the request body is not a JSON object, malformed wins over the 400.
    const odd = await rawPost('/v1/responses', 'not an object', { malformed: true });
    expect(odd.res.statusCode).toBe(200);
    expect(odd.raw.toString()).toMatch(/^\{"id":"resp_/);
  });

  it('hangs before headers so client timeouts fire', async () => {
    const err = await client.responses.create(input, { ...x({ hangMs: 2000 }), timeout: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it('rejects a bad x-sim header with a 400 naming the problem', async () => {
    const err = await client.responses.create(input, x({ evnts: 3 } as Partial<SimOptions>)).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, message: expect.stringContaining('unknown option "evnts"') });
  });
});
