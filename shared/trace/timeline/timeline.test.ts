import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../graph/graph.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { chatToolLoop, parallelCalls } from '../testing/scenarios.js';
import { websocketLanes } from '../testing/scenarios-ws.js';
import { threadRuns } from '../thread/thread.js';
import { buildTimeline, type Timeline } from './timeline.js';
import type { RawExchange } from '../types.js';

function timelineOf(exchanges: RawExchange[]): Timeline {
  const [run] = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
  return buildTimeline(run!, buildRunGraph(run!));
}

/** Every node some step shows: what the replay's last step makes visible. */
function stepNodes(t: Timeline): Set<string> {
  return new Set(t.steps.flatMap((s) => ('nodes' in s ? s.nodes : 'node' in s ? [s.node] : [])));
}

const brief = (t: Timeline) =>
  t.steps.map((s) => {
    switch (s.kind) {
      case 'request':
        return `${s.tUs} request ${s.nodes.length}`;
      case 'delta':
        return `${s.tUs} delta ${s.node} x${s.events} ${s.chars}`;
      case 'item_added':
      case 'item_done':
        return `${s.tUs} ${s.kind} ${s.node}`;
      case 'client':
        return `${s.tUs} client ${s.durationUs}`;
      case 'response_done':
        return `${s.tUs} done ${s.status}`;
      case 'steer':
        return `${s.tUs} ${s.event}`;
    }
  });

describe('timeline', () => {
  it('orders request, items, coalesced deltas, done and client time', () => {
    const t = timelineOf(parallelCalls());
    expect(brief(t)).toEqual([
      '0 request 1',
      '4000 item_added rs_1',
      '5000 item_done rs_1',
      '6000 item_added fc_1',
      '7000 delta fc_1 x3 16',
      '11000 item_done fc_1',
      '12000 item_added fc_2',
      '13000 delta fc_2 x3 17',
      '17000 item_done fc_2',
      '18000 item_added fc_3',
      '19000 delta fc_3 x3 16',
      '23000 item_done fc_3',
      '24000 done completed',
      '24000 client 2976000',
      '3000000 request 3',
      '3004000 item_added msg_par',
      '3006000 delta msg_par x3 33',
      '3011000 item_done msg_par',
      '3012000 done completed',
    ]);
  });

  it('names every node of the graph in some step, and each streamed node last at its full length', () => {
    for (const exchanges of [parallelCalls(), chatToolLoop(), [websocketLanes()]]) {
      const t = timelineOf(exchanges);
      expect([...stepNodes(t)].sort()).toEqual([...t.nodes].sort());
      const lastChars = new Map<string, number>();
      for (const s of t.steps) if (s.kind === 'delta') lastChars.set(s.node, s.chars);
      for (const [node, chars] of lastChars) expect(chars, node).toBe(t.streamed[node]!.length);
    }
  });

  it('shows a JSON answer all at once, and keeps steering steps on a WebSocket', () => {
    const chat = timelineOf(chatToolLoop());
    expect(brief(chat).slice(0, 4)).toEqual([
      '0 request 2',
      '550 done completed',
      '550 client 1499450',
      '1500000 request 2',
    ]);
    const ws = timelineOf([websocketLanes()]);
    expect(brief(ws).filter((s) => s.includes('steer'))).toEqual([
      '3200 response.steer',
      '3300 response.steer.accepted',
    ]);
  });
});
