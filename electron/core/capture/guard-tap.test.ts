// The relay's gateway to the recorder: a sink that throws is reported once and the
// exchange goes on unrecorded; the start record is left for the sink to build.
import { describe, expect, it } from 'vitest';
import type { CaptureSink, ExchangeStartFields, ExchangeTap } from '../../../shared/capture/exchange.js';
import { guardTap } from './guard-tap.js';

type Seen = Array<[number, string, ...unknown[]]>;

/** A sink that notes every call; `failOn` makes one kind of call throw. */
function notingSink(seen: Seen, failOn?: 'begin' | 'chunk'): CaptureSink {
  let next = 1;
  return {
    begin(start: () => ExchangeStartFields): ExchangeTap {
      if (failOn === 'begin') throw new Error('disk full');
      const id = next++;
      seen.push([id, 'begin']);
      return {
        id,
        chunk: (stream, data) => {
          if (failOn === 'chunk') throw new Error('bad bytes');
          seen.push([id, 'chunk', stream, Buffer.from(data).toString(), start().path]);
        },
        responseHead: (head) => seen.push([id, 'head', head.status]),
        end: (end) => seen.push([id, 'end', end.state]),
      };
    },
  };
}

const complete = {
  state: 'complete' as const,
  error: null,
  tUs: 4,
  requestBytes: 1,
  responseBytes: 1,
  truncated: false,
};

describe('guardTap', () => {
  it('passes every call through in order, leaving the start record to the sink', () => {
    const seen: Seen = [];
    let built = 0;
    const start = () => {
      built++;
      return {
        startedAt: 0,
        transport: 'http' as const,
        method: 'POST',
        path: '/v1/responses',
        upstream: 'sim',
        label: null,
        agent: null,
        requestHeaders: [],
        connectionId: 'c1',
      };
    };
    const tap = guardTap(notingSink(seen), start, () => {});
    expect(built).toBe(0);
    tap.chunk('request', Buffer.from('body'), 1);
    tap.responseHead({ status: 200, statusText: 'OK', headers: [], tUs: 2 });
    tap.end(complete);
    expect(tap.id).toBe(1);
    expect(seen).toEqual([
      [1, 'begin'],
      [1, 'chunk', 'request', 'body', '/v1/responses'],
      [1, 'head', 200],
      [1, 'end', 'complete'],
    ]);
  });

  it('reports a sink that fails, once, and the exchange goes on unrecorded', () => {
    for (const failOn of ['begin', 'chunk'] as const) {
      const seen: Seen = [];
      const errors: string[] = [];
      const tap = guardTap(
        notingSink(seen, failOn),
        () => {
          throw new Error('not built by the guard');
        },
        (e) => errors.push((e as Error).message),
      );
      tap.chunk('request', Buffer.from('a'), 1);
      tap.chunk('response', Buffer.from('b'), 2);
      tap.end(complete);
      expect(errors).toEqual([failOn === 'begin' ? 'disk full' : 'bad bytes']);
      expect(seen).toEqual(failOn === 'begin' ? [] : [[1, 'begin']]);
    }
  });
});
