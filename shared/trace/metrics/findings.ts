// Findings: what the numbers mean for the person debugging the agent, as plain advice
// the UI can show as is. Each names the responses or nodes it is about, so the view can
// highlight them. Thresholds keep noise out: a finding should be worth acting on.
import { fmt } from '../graph/labels.js';
import type { Finding, RunMetrics } from './types.js';
import type { Run } from '../thread/thread.js';

/** What to change for each `cache_miss` reason the API reports. */
const CACHE_ADVICE: Readonly<Record<string, string>> = {
  model_changed: 'the model changed between requests',
  prompt_cache_key_changed: 'prompt_cache_key changed; keep it stable for one conversation',
  tools_changed: 'the tools list changed; keep tool definitions identical and in the same order',
  text_format_changed: 'the response format changed; keep text.format stable',
  reasoning_effort_changed: 'reasoning effort changed; keep it stable within a run',
  verbosity_changed: 'verbosity changed; keep it stable within a run',
  context_compacted: 'the context was compacted, which starts a new cache prefix',
  input_changed: 'the earlier input changed; only append to the history, never edit it',
  service_tier_changed: 'the service tier changed between requests',
};

const s = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function findings(run: Run, m: RunMetrics): Finding[] {
  const out: Finding[] = [];
  const r = m.resent;
  // Only what the prompt cache did not serve costs anything: the API bills the whole
  // context as input whether it is resent or chained, so no advice when the cache had it.
  if (r.uncachedTokens >= 1_000) {
    const advice = r.apis.every((api) => api === 'responses')
      ? `Chaining with previous_response_id (or WebSocket mode) sends only the new items (~${fmt(r.minimalTokens)} tokens) and keeps the prefix identical for the cache`
      : `Resend the history byte for byte so the cache can serve it, or move to the Responses API and chain with previous_response_id, which sends only the new items (~${fmt(r.minimalTokens)} tokens)`;
    out.push({
      kind: 'resent_input',
      severity: r.uncachedTokens > r.minimalTokens ? 'warning' : 'info',
      message:
        `${s(r.requests, 'request')} resent ${s(r.resentItems, 'input item')} the API had already seen (~${fmt(r.resentTokens)} tokens, estimated at 4 characters a token). ` +
        `Their measured usage: ${fmt(r.billed.input)} input tokens, ${fmt(r.billed.cached)} of them from the prompt cache, so ~${fmt(r.uncachedTokens)} resent tokens were billed at the full input price. ` +
        `${advice}; the whole context is still billed as input.`,
      responses: [],
      nodes: [],
    });
  }
  for (const resp of m.responses) {
    if (resp.cache.verdict !== 'miss') continue;
    const why =
      resp.cache.reason === null
        ? 'for a reason the API did not give'
        : (CACHE_ADVICE[resp.cache.reason] ?? resp.cache.reason);
    const missed =
      resp.cache.missedTokens === null
        ? ''
        : ` (~${fmt(resp.cache.missedTokens)} tokens billed at the full input price)`;
    out.push({
      kind: 'cache_miss',
      severity: 'warning',
      message: `${resp.responseId} missed the prompt cache${missed}: ${why}.`,
      responses: [resp.response],
      nodes: [],
    });
  }
  const t = m.totals.tokens;
  if (
    m.responses.length > 2 &&
    t.input >= 10_000 &&
    t.cached / t.input < 0.25 &&
    !out.some((f) => f.kind === 'cache_miss')
  ) {
    out.push({
      kind: 'low_cache_use',
      severity: 'info',
      message: `Only ${Math.round((100 * t.cached) / t.input)}% of ${fmt(t.input)} input tokens came from the prompt cache. Keep the start of every request identical (instructions, tools, earlier turns) and add new content at the end.`,
      responses: [],
      nodes: [],
    });
  }
  for (const p of m.parallelism) {
    const names = [...new Set(p.names)].join(', ');
    const how = p.parallelDisabled
      ? 'set parallel_tool_calls to true (it was false) so the model can request them together'
      : 'prompt or allow the model to request them in one turn (parallel tool calls)';
    out.push({
      kind: 'missed_parallelism',
      severity: p.savedMs >= 1_000 ? 'warning' : 'info',
      message:
        `${s(p.calls.length, 'tool call')} (${names}) ran one per turn, though none of their arguments quotes an earlier one's output (no 8-character run in common), so they look independent; ` +
        `${how} to save about ${sec(p.savedMs)} (the later turns' model time and all but the slowest tool wait, as recorded).`,
      responses: p.responses,
      nodes: p.calls,
    });
  }
  const time = m.time;
  const worst = m.clientGaps[0];
  if (time.wallMs > 0 && time.clientMs / time.wallMs >= 0.4 && worst !== undefined) {
    out.push({
      kind: 'client_time',
      severity: 'info',
      message: `Client and tool time is ${Math.round((100 * time.clientMs) / time.wallMs)}% of the run (${sec(time.clientMs)} of ${sec(time.wallMs)}); the longest wait was ${sec(worst.ms)} before ${run.responses[worst.to]?.responseId ?? 'a request'}. Speed up or parallelize the tools the client runs.`,
      responses: [worst.from, worst.to],
      nodes: [],
    });
  }
  // A response cut short by steering (WebSocket `response.steer`) ended as the client asked.
  const steered = (i: number) => run.responses[i]?.error?.code === 'steered';
  const failed = m.responses.filter(
    (x) => ['failed', 'error', 'aborted', 'incomplete'].includes(x.status) && !steered(x.response),
  );
  if (failed.length > 0) {
    out.push({
      kind: 'failed_responses',
      severity: 'warning',
      message: `${s(failed.length, 'response')} did not complete (${[...new Set(failed.map((x) => x.status))].join(', ')}); their time and tokens bought no usable answer.`,
      responses: failed.map((x) => x.response),
      nodes: [],
    });
  }
  return out;
}
