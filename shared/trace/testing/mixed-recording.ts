// A recording of several runs for threading's tests: seeded random runs and the fixed
// scenarios (parallel calls, subagents, a chat tool loop, WebSocket lanes, a polled
// background response, a Conversations session), shifted in time so they overlap, follow
// closely or stand apart, some of them labelled.
import { randomRun, seededRandom } from './random-run.js';
import { chatToolLoop, multiAgent, parallelCalls } from './scenarios.js';
import { backgroundPolls, conversationSession } from './scenarios-reads.js';
import { websocketLanes } from './scenarios-ws.js';
import type { RawExchange } from '../types.js';

/** Several runs' exchanges interleaved in time, some labelled, ids unique, in id order. */
export function mixedRecording(seed: number): RawExchange[] {
  const rnd = seededRandom(seed);
  const sources: RawExchange[][] = [
    randomRun(seed),
    randomRun(seed + 100),
    randomRun(seed + 200, { stateless: true }),
    parallelCalls(),
    multiAgent(),
    chatToolLoop(),
    [websocketLanes()],
    backgroundPolls(),
    conversationSession(),
  ];
  const exchanges: RawExchange[] = [];
  sources.forEach((list, s) => {
    // Shifted so runs overlap, follow closely, or stand apart.
    const shift = Math.floor(rnd() * 3) * 200_000 + Math.floor(rnd() * 5_000);
    const label = rnd() < 0.25 ? `job-${s % 2}` : null;
    for (const e of list) exchanges.push({ ...e, startedAt: e.startedAt + shift, label: label ?? e.label });
  });
  exchanges.sort((a, b) => a.startedAt - b.startedAt);
  return exchanges.map((e, i) => ({ ...e, id: i + 1 }));
}
