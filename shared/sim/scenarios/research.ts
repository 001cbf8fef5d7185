// Multi-agent research (beta): in one streamed response the root agent spawns three
// subagents, waits for them while they search and report back with agent messages, then
// synthesizes. Subagents work concurrently, so their items interleave in the stream.
// `teamTurn` builds the same shape for any team; the sim's default multi-agent reply
// (no scenario) uses it with generic content.
import type { ScriptItem, Scenario } from './types.js';

export const ROOT_AGENT = 'root';

export interface TeamMember {
  name: string;
  task: string;
  searches: string[];
  report: string;
}

export interface TeamSpec {
  plan: string;
  members: TeamMember[];
  synthesis: string;
}

/** Root plans, spawns every member, waits; members search and report; root synthesizes. */
export function teamTurn(spec: TeamSpec): ScriptItem[] {
  const root = ROOT_AGENT;
  const items: ScriptItem[] = [
    { type: 'reasoning', summary: spec.plan, agent: root },
    ...spec.members.map((m, i): ScriptItem => ({
      type: 'multi_agent_call',
      ref: `spawn${i}`,
      action: 'spawn_agent',
      arguments: { agent_name: m.name, task: m.task },
      agent: root,
    })),
    ...spec.members.map((m, i): ScriptItem => ({
      type: 'multi_agent_call_output',
      ref: `spawn${i}`,
      text: `Spawned ${m.name}.`,
      agent: root,
    })),
    {
      type: 'multi_agent_call',
      ref: 'wait',
      action: 'wait_agent',
      arguments: { agent_names: spec.members.map((m) => m.name), timeout_ms: 300_000 },
      agent: root,
    },
  ];
  // Round-robin over the members, one item each, as concurrent work would interleave.
  const work = spec.members.map((m): ScriptItem[] => [
    { type: 'reasoning', summary: `Plan for: ${m.task}`, agent: m.name, pauseMs: 300 },
    ...m.searches.map((query): ScriptItem => ({ type: 'web_search', query, agent: m.name, pauseMs: 600 })),
    { type: 'agent_message', author: m.name, recipient: root, text: m.report, pauseMs: 400 },
  ]);
  for (let step = 0; work.some((w) => step < w.length); step++) {
    for (const w of work) if (step < w.length) items.push(w[step]!);
  }
  items.push(
    { type: 'multi_agent_call_output', ref: 'wait', text: `${spec.members.length} agents finished.`, agent: root },
    { type: 'message', text: spec.synthesis, agent: root },
  );
  return items;
}

export const RESEARCH_QUESTION =
  'We need a vector database for about 50M embeddings (1536-d) with filtered search. Compare managed options on ' +
  'cost, p95 query latency and operational burden, and recommend one.';

export const RESEARCH_TEAM: TeamSpec = {
  plan: 'Three independent angles: cost, latency, operations. Give each to its own researcher and synthesize.',
  members: [
    {
      name: 'cost_researcher',
      task: 'Monthly cost for 50M 1536-d vectors, 20 QPS steady, on three managed vector databases.',
      searches: [
        'managed vector database pricing 50 million vectors',
        'pgvector on managed postgres storage cost 1536 dimensions',
      ],
      report:
        'Cost at 50M x 1536-d, 20 QPS: serverless option A about $1,150/month; dedicated cluster B about $1,900; ' +
        'pgvector on a managed Postgres (2 x r6g.2xlarge + storage) about $1,300. Storage dominates everywhere.',
    },
    {
      name: 'latency_researcher',
      task: 'Published p95 latency for filtered ANN queries at ~50M vectors.',
      searches: ['filtered ANN benchmark p95 latency 50M vectors', 'HNSW filtered search recall latency tradeoff'],
      report:
        'Filtered p95 at 50M: B about 35 ms, A about 60 ms (cold namespaces slower), pgvector HNSW about 90 ms ' +
        'with selective filters, worse when filters are broad. All reach recall 0.95+.',
    },
    {
      name: 'ops_researcher',
      task: 'Operational burden: backups, reindexing, scaling, multi-region.',
      searches: ['vector database reindex downtime managed service', 'pgvector HNSW index build time 50 million'],
      report:
        'A: no capacity planning, but limited control over reindexing. B: needs shard sizing, supports zero-downtime ' +
        'reindex. pgvector: familiar backups and PITR, but an HNSW build over 50M rows takes hours and needs tuning.',
    },
  ],
  synthesis:
    'Recommendation: dedicated cluster B. It is the only option that keeps filtered p95 under 50 ms at 50M vectors ' +
    '(about 35 ms) and reindexes without downtime; it costs about $750/month more than the serverless option A. ' +
    'If budget matters more than tail latency, A is the runner-up (about $1,150/month, ~60 ms p95). pgvector is ' +
    'cheapest to operate if you already run Postgres, but its ~90 ms filtered p95 and hours-long index builds ' +
    'make it a poor fit at this size.',
};

export const RESEARCH_SCENARIO: Scenario = {
  name: 'research',
  title: 'Multi-agent research: three subagents, then a synthesis',
  description: 'A root agent spawns three researchers (multi-agent beta), waits for their reports and recommends.',
  turns: [teamTurn(RESEARCH_TEAM)],
};
