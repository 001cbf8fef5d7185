// Programmatic tool calling: instead of five separate turns, the model writes one program
// that fetches latency stats for five services in parallel. The five function calls carry
// `caller: {type:'program', caller_id}`; once the client returns their outputs, the
// program finishes (`program_output`) and the model answers.
import { functionTool, type Scenario, type ScenarioTool } from './types.js';

export const PROGRAM_QUESTION = 'Which of our services regressed in p95 latency this week, and by how much?';

export const PROGRAM_SERVICES = ['checkout', 'search', 'auth', 'payments', 'inventory'] as const;

/** What get_latency_stats returns per service; the demo client plays it. */
export const LATENCY_STATS: Record<
  (typeof PROGRAM_SERVICES)[number],
  { p95_ms: number; prev_p95_ms: number; requests: number }
> = {
  checkout: { p95_ms: 412, prev_p95_ms: 298, requests: 1_840_221 },
  search: { p95_ms: 187, prev_p95_ms: 181, requests: 9_203_117 },
  auth: { p95_ms: 64, prev_p95_ms: 66, requests: 12_004_530 },
  payments: { p95_ms: 655, prev_p95_ms: 540, requests: 702_944 },
  inventory: { p95_ms: 121, prev_p95_ms: 119, requests: 3_310_078 },
};

const latencyTool = functionTool(
  'get_latency_stats',
  'p95 latency of a service over a time window, and over the window before it.',
  {
    service: { type: 'string', enum: [...PROGRAM_SERVICES] },
    window: { type: 'string', enum: ['24h', '7d', '30d'] },
  },
);

export const PROGRAM_TOOLS: Array<ScenarioTool | { type: 'programmatic_tool_calling' }> = [
  { ...latencyTool, allowed_callers: ['programmatic'] },
  { type: 'programmatic_tool_calling' },
];

const CODE = `const services = ${JSON.stringify(PROGRAM_SERVICES)};
const stats = await Promise.all(
  services.map((service) => tools.get_latency_stats({ service, window: "7d" })),
);
return stats
  .map((s, i) => ({ service: services[i], p95_ms: s.p95_ms, change_pct: Math.round((s.p95_ms / s.prev_p95_ms - 1) * 1000) / 10 }))
  .sort((a, b) => b.change_pct - a.change_pct);`;

function programResult(): string {
  const rows = PROGRAM_SERVICES.map((service) => {
    const s = LATENCY_STATS[service];
    return { service, p95_ms: s.p95_ms, change_pct: Math.round((s.p95_ms / s.prev_p95_ms - 1) * 1000) / 10 };
  });
  return JSON.stringify(rows.sort((a, b) => b.change_pct - a.change_pct));
}

export const PROGRAM_SCENARIO: Scenario = {
  name: 'program',
  title: 'Programmatic tool calling: one program, five tool calls',
  description:
    'The model writes a program that calls get_latency_stats for five services in parallel, then summarizes.',
  turns: [
    [
      { type: 'reasoning', summary: 'Five independent lookups: one program can fan them out and rank the result.' },
      {
        type: 'program',
        code: CODE,
        calls: PROGRAM_SERVICES.map((service) => ({ name: 'get_latency_stats', arguments: { service, window: '7d' } })),
      },
    ],
    [
      { type: 'program_output', result: programResult() },
      {
        type: 'message',
        text:
          'Two services regressed this week. checkout p95 rose 38.3% (298 -> 412 ms) and payments rose 21.3% ' +
          '(540 -> 655 ms); both sit on the card-authorization path, so that is where I would look first. search ' +
          '(+3.3%) and inventory (+1.7%) are within normal noise, and auth got slightly faster (-3.0%).',
      },
    ],
  ],
};
