import { describe, expect, it } from 'vitest';
import { summary } from '../test/fixtures.js';
import { formatLink, parseLink } from './deep-link.js';
import { clampWidth, initialPanels, parsePanels, PANEL_LIMITS } from './panels-logic.js';
import { RUN_IDLE_MS } from '../../shared/trace/thread/run-idle.js';
import { runActivity } from './run-activity.js';

describe('side panels', () => {
  it('keeps saved widths within limits and falls back on anything malformed', () => {
    expect(parsePanels(null)).toEqual(initialPanels);
    expect(parsePanels('{nope')).toEqual(initialPanels);
    const p = parsePanels(JSON.stringify({ runs: { width: 10_000, collapsed: true }, inspector: { width: 'wide' } }));
    expect(p.runs).toEqual({ width: PANEL_LIMITS.runs.max, collapsed: true });
    expect(p.inspector).toEqual(initialPanels.inspector);
    expect(clampWidth('inspector', 1)).toBe(PANEL_LIMITS.inspector.min);
  });
});

describe('run activity', () => {
  const now = 1_000_000;
  it('reads running between requests, while the client runs its tools, until the idle window passes', () => {
    const between = summary('r', { status: 'completed', live: false, endedAt: now - 2_000 });
    expect(runActivity(between, now, true)).toEqual({
      status: 'in_progress',
      active: true,
      until: between.endedAt + RUN_IDLE_MS,
    });
    expect(runActivity(between, between.endedAt + RUN_IDLE_MS, true)).toMatchObject({
      status: 'completed',
      active: false,
    });
  });

  it('is running whenever an exchange is in flight, and a failure is never hidden', () => {
    expect(runActivity(summary('r', { status: 'completed', live: true, endedAt: 0 }), now, true)).toMatchObject({
      status: 'in_progress',
      active: true,
    });
    expect(runActivity(summary('r', { status: 'failed', live: false, endedAt: now - 1 }), now, true)).toMatchObject({
      status: 'failed',
      active: true,
    });
  });

  it('a file opened to look at has no idle window: nothing in it is still going', () => {
    expect(runActivity(summary('r', { status: 'completed', live: false, endedAt: now - 1 }), now, false)).toMatchObject(
      { status: 'completed', active: false },
    );
  });
});

describe('deep links', () => {
  it('round-trips a run with a node or a response, ids with any characters included', () => {
    for (const link of [
      { runId: 'label:demo support/1 &x', selection: { kind: 'node' as const, id: 'resp_1#out:0' } },
      { runId: 'run:resp_1', selection: { kind: 'response' as const, index: 2 } },
      { runId: 'run:resp_1', selection: null },
    ]) {
      expect(parseLink(formatLink(link))).toEqual(link);
    }
    expect(formatLink({ runId: 'run:a', selection: { kind: 'response', index: 0 } })).toBe('#run=run%3Aa&response=1');
  });

  it('ignores what it does not understand', () => {
    expect(parseLink('')).toEqual({ runId: null, selection: null });
    expect(parseLink('#node=x')).toEqual({ runId: null, selection: null });
    expect(parseLink('#run=a&response=0')).toEqual({ runId: 'a', selection: null });
    expect(parseLink('#run=a&response=1.5')).toEqual({ runId: 'a', selection: null });
  });
});
