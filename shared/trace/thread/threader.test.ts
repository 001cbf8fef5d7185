// A fork of a Threader must thread exactly as threadRuns does over the whole recording, at
// whatever response the settled part ends: the service's run index relies on it to thread
// only the responses still changing.
import { describe, expect, it } from 'vitest';
import { mixedRecording } from '../testing/mixed-recording.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { seededRandom } from '../testing/random-run.js';
import { recordStartUs } from '../record-time.js';
import { Threader, threadRuns } from './thread.js';
import type { ResponseRecord } from '../types.js';

function inTimeOrder(records: ResponseRecord[]): ResponseRecord[] {
  return records
    .map((r, i) => ({ r, i }))
    .sort((a, b) => recordStartUs(a.r) - recordStartUs(b.r) || a.i - b.i)
    .map(({ r }) => r);
}

describe.each([1, 2, 3, 4, 5, 6])('threading in parts, seed %i', (seed) => {
  const records = mixedRecording(seed).flatMap((e) => normalizeExchange(e).responses);
  const ordered = inTimeOrder(records);
  const whole = threadRuns(records);

  it('is a recording with several runs, labels and WebSocket lanes', () => {
    expect(whole.length).toBeGreaterThan(1);
    expect(ordered.some((r) => r.exchange.transport === 'websocket')).toBe(true);
  });

  it('gives the same runs from a fork at every point where the settled part could end', () => {
    for (let k = 0; k <= ordered.length; k++) {
      const base = new Threader();
      for (const r of ordered.slice(0, k)) base.add(r);
      const fork = base.fork();
      for (const r of ordered.slice(k)) fork.add(r);
      expect(fork.runs(), `settled part of ${k}`).toEqual(whole);
    }
  });

  it('leaves the parent and the runs it handed out as they were while forks come and go', () => {
    const base = new Threader();
    const rnd = seededRandom(seed);
    let settled = 0;
    while (settled < ordered.length) {
      const before = base.runs();
      const snapshot = before.map((run) => ({ id: run.id, responses: [...run.responses], links: [...run.links] }));
      const fork = base.fork();
      for (const r of ordered.slice(settled)) fork.add(r);
      expect(fork.runs()).toEqual(whole);
      expect(base.runs()).toEqual(before);
      // The settled part grows by a few responses, as exchanges end out of order.
      const next = Math.min(ordered.length, settled + 1 + Math.floor(rnd() * 4));
      for (const r of ordered.slice(settled, next)) base.add(r);
      settled = next;
      expect(before.map((run) => ({ id: run.id, responses: run.responses, links: run.links }))).toEqual(snapshot);
    }
    expect(base.runs()).toEqual(whole);
  });
});
