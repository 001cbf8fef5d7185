import { describe, expect, it } from 'vitest';
import type { ReplayModel, ReplayStep } from '../model/replay-model.js';
import {
  followLive,
  initialReplay,
  MAX_GAP_US,
  modelChanged,
  seek,
  stepBack,
  stepForward,
  tick,
  togglePlay,
} from './replay-logic.js';

function model(kinds: Array<[ReplayStep['kind'], number]>): ReplayModel {
  return {
    steps: kinds.map(([kind, tUs], i) => ({ kind, tUs, response: 0, nodeId: `n${i}`, label: kind })),
    appearAt: {},
    doneAt: {},
    growth: {},
    streamed: {},
    responseStartAt: [0],
    responseDoneAt: [kinds.length - 1],
  };
}

const m = model([
  ['request', 0],
  ['item_added', 1000],
  ['delta', 2000],
  ['delta', 3000],
  ['item_done', 4000],
  ['item_added', 5000],
  ['response_done', 10_000_000],
]);

describe('replay transitions', () => {
  it('opens a run at its last step, following live', () => {
    const s = modelChanged(initialReplay, m, false);
    expect(s).toMatchObject({ step: 6, follow: true, playing: false });
  });

  it('steps by item, skipping deltas, and by event', () => {
    let s = seek(initialReplay, m, 1);
    s = stepForward(s, m);
    expect(s.step).toBe(4);
    expect(s.follow).toBe(false);
    s = stepBack(s, m);
    expect(s.step).toBe(1);
    s = stepForward({ ...s, mode: 'event' }, m);
    expect(s.step).toBe(2);
    s = stepBack(stepBack(stepBack(s, m), m), m);
    expect(s.step).toBe(0);
  });

  it('keeps the cursor when a live run grows, unless following', () => {
    const grown = model([
      ...m.steps.map((st) => [st.kind, st.tUs] as [ReplayStep['kind'], number]),
      ['item_added', 11_000_000],
    ]);
    expect(modelChanged(seek(initialReplay, m, 2), grown, true).step).toBe(2);
    expect(modelChanged(followLive(initialReplay, m), grown, true).step).toBe(7);
  });

  it('plays at speed, shortening long silences, and stops at the end', () => {
    let s = togglePlay(seek(initialReplay, m, 0), m);
    expect(s.playing).toBe(true);
    s = tick({ ...s, speed: 1 }, m, 1.5); // 1500 µs of recorded time
    expect(s.step).toBe(1);
    s = tick(s, m, 3);
    expect(s.step).toBe(4);
    s = tick(s, m, 1 + MAX_GAP_US / 1000);
    expect(s.step).toBe(6);
    expect(s.playing).toBe(false);
  });

  it('restarts from the beginning when played at the end; instant jumps to the end', () => {
    const atEnd = modelChanged(initialReplay, m, false);
    expect(togglePlay(atEnd, m)).toMatchObject({ step: 0, playing: true });
    expect(togglePlay({ ...seek(atEnd, m, 1), speed: 'instant' }, m)).toMatchObject({ step: 6, playing: false });
  });
});
