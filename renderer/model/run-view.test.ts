import { describe, expect, it } from 'vitest';
import { detailFrom } from '../test/run-fixture.js';
import { isInProgress, isVisible, nextItemStep, partialChars } from './replay-model.js';
import { buildRunView } from './run-view.js';
import type { AgentSpan } from '../../shared/trace/types.js';

describe('run view from the trace model', () => {
  const view = buildRunView(detailFrom());
  const { replay, graph } = view;
  const last = replay.steps.length - 1;

  it('lays out every node without overlaps, frames under their titles', () => {
    const boxes = graph.nodes.map((n) => view.layout.nodes[n.id]!);
    expect(boxes.every(Boolean)).toBe(true);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
        expect(overlap).toBe(false);
      }
    const frames = graph.groups.filter((g) => g.kind === 'response').map((g) => view.layout.groups[g.id]!);
    expect(frames).toHaveLength(2);
    expect(frames[0]!.y + frames[0]!.height).toBeLessThanOrEqual(frames[1]!.y);
  });

  it('shows everything, finished, at the last step', () => {
    for (const n of graph.nodes) {
      expect(isVisible(replay, n.id, last)).toBe(true);
      expect(isInProgress(replay, n.id, last)).toBe(false);
      expect(partialChars(replay, n.id, last)).toBeNull();
    }
  });

  it('reveals nodes in causal order and streams text in', () => {
    const firstSeen = graph.nodes.map((n) => replay.appearAt[n.id]!);
    expect([...firstSeen].sort((a, b) => a - b)).toEqual(firstSeen);
    expect(isVisible(replay, graph.nodes[graph.nodes.length - 1]!.id, 0)).toBe(false);
    const streamed = Object.keys(replay.growth);
    expect(streamed.length).toBeGreaterThan(0);
    for (const id of streamed) {
      const g = replay.growth[id]!;
      expect([...g.chars].sort((a, b) => a - b)).toEqual(g.chars);
      const mid = g.steps[0]!;
      expect(isInProgress(replay, id, mid)).toBe(true);
      expect(partialChars(replay, id, mid)).toBe(g.chars[0]);
    }
  });

  it('steps by item skip text deltas', () => {
    for (let s = 0; s < last; s = nextItemStep(replay, s))
      expect(replay.steps[nextItemStep(replay, s)]!.kind === 'delta').toBe(false);
  });

  it('has metrics per response', () => {
    expect(view.metrics.responses).toHaveLength(2);
    expect(view.metrics.totals.costUsd).toBeGreaterThan(0);
  });
});

describe('run view of an Agents SDK run', () => {
  it('puts the nodes in the lane of the agent the run’s spans name', () => {
    const detail = detailFrom();
    const span = (
      id: string,
      parentId: string | null,
      type: string,
      name: string,
      responseId: string | null,
    ): AgentSpan => ({
      object: 'trace.span',
      traceId: 'trace_1',
      id,
      parentId,
      type,
      name,
      startedAt: null,
      endedAt: null,
      responseId,
      error: null,
      raw: {},
    });
    const agentSpans = [
      span('sp_agent', null, 'agent', 'Forecaster', null),
      ...detail.responses.map((r, i) => span(`sp_r${i}`, 'sp_agent', 'response', r.responseId, r.responseId)),
    ];
    const { graph } = buildRunView({ ...detail, agentSpans });
    expect(graph.lanes).toEqual(['Forecaster']);
    expect(graph.nodes.every((n) => n.agent === 'Forecaster')).toBe(true);
    expect(buildRunView(detail).graph.lanes).toEqual(['main']);
  });
});
