// The pure reply builder: exact frame counts (what a benchmark relies on), id shapes,
// and body-size fitting, without any server.
import { describe, expect, it } from 'vitest';
import { SimIds, simId } from './ids.js';
import { resolveSimOptions, parseSimHeader, SimOptionsError, type SimOptions } from './options.js';
import { simReply, type SimReply } from './reply.js';

const body = JSON.stringify({ model: 'gpt-4.1', input: 'hi', stream: true });

function frames(path: string, opts: Partial<SimOptions>, reqBody = body): string[] {
  const reply: SimReply = simReply({
    method: 'POST',
    path,
    body: reqBody,
    opts: resolveSimOptions({}, opts),
    ids: new SimIds(),
    nowSeconds: 1_700_000_000,
  });
  if (reply.kind !== 'sse') throw new Error(`expected SSE, got ${reply.status}: ${reply.body}`);
  return [...reply.frames].map((f) => (typeof f === 'string' ? f : f.text));
}

describe('simReply', () => {
  it('sends a predictable number of Responses events', () => {
    // created + in_progress, message (added, part.added, deltas, text.done, part.done, done), completed
    expect(frames('/v1/responses', { events: 7 })).toHaveLength(2 + 7 + 5 + 1);
    // plus reasoning (added, done) and per call (added, deltas, args.done, done)
    const withCalls = frames('/v1/responses', { events: 3, reasoning: true, toolCalls: 2, chunkChars: 1000 });
    expect(withCalls).toHaveLength(2 + 2 + 3 + 5 + 2 * 4 + 1);
    expect(withCalls.at(-1)).toMatch(/^event: response\.completed\ndata: \{.*\}\n\n$/s);
    expect(frames('/v1/responses', { events: 3, terminal: 'error' }).at(-1)).toMatch(/^event: error\n/);
  });

  it('ends a chat stream with [DONE] after the optional usage chunk', () => {
    const chat = JSON.stringify({ model: 'm', messages: [], stream: true, stream_options: { include_usage: true } });
    const sent = frames('/v1/chat/completions', { events: 4 }, chat);
    // role, 4 content deltas, finish, usage, [DONE]
    expect(sent).toHaveLength(1 + 4 + 1 + 1 + 1);
    expect(sent.at(-1)).toBe('data: [DONE]\n\n');
  });

  it('pads bodies to about bodyBytes', () => {
    const size = frames('/v1/responses', { bodyBytes: 200_000 }).join('').length;
    expect(Math.abs(size - 200_000)).toBeLessThan(2_000);
  });
});

describe('ids and options', () => {
  it('makes ids deterministic, unique and shaped like the real ones', () => {
    const ids = new SimIds();
    expect(ids.next('resp')).toBe(simId('resp', 1));
    expect(simId('resp', 2)).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(simId('call', 3)).toMatch(/^call_[A-Za-z0-9]{24}$/);
    const many = new Set(Array.from({ length: 5000 }, (_, i) => simId('fc', i + 1)));
    expect(many.size).toBe(5000);
  });

  it('rejects unknown options and bad values', () => {
    expect(parseSimHeader('{"events":3}')).toEqual({ events: 3 });
    expect(() => parseSimHeader('{"event":3}')).toThrow(SimOptionsError);
    expect(() => parseSimHeader('{"encoding":"zstd"}')).toThrow(SimOptionsError);
    expect(() => parseSimHeader('nope')).toThrow(SimOptionsError);
  });
});
