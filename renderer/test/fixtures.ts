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

