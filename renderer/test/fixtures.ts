// Small builders for renderer tests.
import type { RunSummary } from '../../shared/api/types.js';

export function summary(id: string, patch: Partial<RunSummary> = {}): RunSummary {
  return {
    id,
    label: null,
    models: ['gpt-5'],
    agents: [],
    status: 'completed',
    live: false,
    responses: 1,
    items: 1,
    toolCalls: 0,
    toolNames: [],
    itemTypes: ['message'],
    tokens: { input: 10, cached: 0, output: 5, reasoning: 0, total: 15 },
    cost: null,
    startedAt: 1000,
    endedAt: 2000,
    preview: 'hello',
    agentSpans: 0,
    revision: 1,
    ...patch,
  };
}

/** A recorded request as the exchange detail holds it: a redacted key hint, quotes and $ to escape. */
export const exchangeRequest = {
  method: 'POST',
  upstream: 'https://api.openai.com',
  path: '/v1/responses',
  requestHeaders: [
    ['Host', '127.0.0.1:7455'],
    ['Authorization', 'Bearer sk-…wxyz'],
    ['Content-Type', 'application/json'],
    ['Content-Length', '40'],
    ['x-loupe-session', 'weather'],
    ['X-Note', "it's $HOME `x`"],
  ] as Array<[string, string]>,
  request: { text: '{"model":"gpt-5","input":"it\'s $5"}' },
};
