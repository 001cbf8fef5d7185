// The relay's gateway to the recorder: begins deferred to the end of the turn, calls made
// before then replayed in order, and a failing sink kept away from the relay.
import { describe, expect, it } from 'vitest';
import type { CaptureSink, ExchangeStart, ExchangeTap } from '../../shared/capture/exchange.js';
import { guardTap } from './guard-tap.js';

type Seen = Array<[number, string, ...unknown[]]>;

function recordingSink(seen: Seen, failOn?: string): CaptureSink {
  let next = 1;
  return {
    begin(start: Omit<ExchangeStart, 'id'>): ExchangeTap {
      if (failOn === 'begin') throw new Error('disk full');
      const id = next++;
      seen.push([id, 'begin', start.path]);
      return {
        id,
        chunk: (stream, data) => {
          if (failOn === 'chunk') throw new Error('bad bytes');
          seen.push([id, 'chunk', stream, Buffer.from(data).toString()]);
        },
        responseHead: (head) => seen.push([id, 'head', head.status]),
        end: (end) => seen.push([id, 'end', end.state]),
      };
    },
  };
}

const start = (path: string) => () => ({
  startedAt: 0,
  transport: 'http' as const,
  method: 'POST',
  path,
  upstream: 'sim',
  label: null,
  agent: null,
  requestHeaders: [],
  connectionId: 'c1',
});
const turn = () => new Promise((r) => setImmediate(r));

describe('guardTap', () => {
  it('begins exchanges after the turn that read them, in arrival order, replaying earlier calls in order', async () => {
    const seen: Seen = [];
    const sink = recordingSink(seen);
    const errors: unknown[] = [];
    let built = 0;
    const a = guardTap(sink, () => (built++, start('/a')()), (e) => errors.push(e));
    const b = guardTap(sink, start('/b'), (e) => errors.push(e));
    a.chunk('request', Buffer.from('body-a'), 1);
    b.chunk('request', Buffer.from('body-b'), 2);
    a.responseHead({ status: 200, statusText: 'OK', headers: [], tUs: 3 });
    // Nothing reaches the sink, and no start record is even built, before the turn ends.
    expect(seen).toEqual([]);
    expect(built).toBe(0);
    expect(a.id).toBe(-1);
    await turn();
    expect(a.id).toBe(1);
    a.end({ state: 'complete', error: null, tUs: 4, requestBytes: 6, responseBytes: 0, truncated: false });
    expect(seen).toEqual([
      [1, 'begin', '/a'],
      [1, 'chunk', 'request', 'body-a'],
      [1, 'head', 200],
      [2, 'begin', '/b'],
      [2, 'chunk', 'request', 'body-b'],
      [1, 'end', 'complete'],
    ]);
    expect(errors).toEqual([]);
  });

  it('reports a sink that fails to begin once, and the exchange goes on unrecorded', async () => {
    const seen: Seen = [];
    const errors: unknown[] = [];
    const tap = guardTap(recordingSink(seen, 'begin'), start('/x'), (e) => errors.push(e));
    tap.chunk('request', Buffer.from('x'), 1);
    await turn();
    tap.chunk('response', Buffer.from('y'), 2);
    tap.end({ state: 'complete', error: null, tUs: 3, requestBytes: 1, responseBytes: 1, truncated: false });
    expect(errors.map((e) => (e as Error).message)).toEqual(['disk full']);
    expect(tap.id).toBe(-1);
    expect(seen).toEqual([]);
  });

  it('stops tapping after the first failed call, queued or live, and reports it once', async () => {
    const seen: Seen = [];
    const errors: unknown[] = [];
    const tap = guardTap(recordingSink(seen, 'chunk'), start('/y'), (e) => errors.push(e));
    tap.chunk('request', Buffer.from('a'), 1);
    tap.chunk('request', Buffer.from('b'), 2);
    await turn();
    tap.chunk('response', Buffer.from('c'), 3);
    tap.end({ state: 'complete', error: null, tUs: 4, requestBytes: 2, responseBytes: 1, truncated: false });
    expect(errors.map((e) => (e as Error).message)).toEqual(['bad bytes']);
    expect(seen).toEqual([[1, 'begin', '/y']]);
  });
});
