// Scenario `support`, played with @openai/agents: a triage agent hands off to a billing
// specialist, which runs three function tools in parallel and answers. The Agents SDK's
// trace exporter is pointed at the proxy's /v1/traces/ingest under the same label, so the
// run's agent, handoff and function spans are recorded beside its responses.
import {
  Agent,
  BatchTraceProcessor,
  getGlobalTraceProvider,
  OpenAIProvider,
  OpenAITracingExporter,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  tool,
} from '@openai/agents';
import {
  SUPPORT_AGENTS,
  SUPPORT_CUSTOMER,
  SUPPORT_TOOL_RESULTS,
  SUPPORT_TOOLS,
} from '../../../../shared/sim/scenarios/support.js';
import { demoClient, labeledBaseURL, toolLatency, type DemoContext } from './client.js';
import type { DemoRun } from './types.js';

/** How long each billing backend takes to answer, at speed 1. */
const TOOL_MS: Record<string, number> = { lookup_customer: 420, list_recent_charges: 780, get_refund_policy: 260 };

export async function runSupport(ctx: DemoContext): Promise<DemoRun[]> {
  const label = `${ctx.label}-support`;
  const client = demoClient(ctx, 'support', label);
  // Importing @openai/agents installs an exporter to api.openai.com; replace it with one to Loupe.
  setTracingDisabled(false);
  const exporter = new OpenAITracingExporter({
    apiKey: ctx.apiKey,
    endpoint: `${labeledBaseURL(ctx.baseURL, label)}/traces/ingest`,
    maxRetries: 1,
  });
  setTraceProcessors([new BatchTraceProcessor(exporter, { scheduleDelay: 200 })]);

  const billing = new Agent({
    name: SUPPORT_AGENTS.billing,
    model: 'gpt-5-mini',
    instructions:
      'You resolve billing issues. Look up facts with your tools before answering; be concise and specific.',
    modelSettings: { parallelToolCalls: true },
    tools: SUPPORT_TOOLS.map((t) =>
      tool({
        name: t.name,
        description: t.description,
        parameters: t.parameters as never,
        strict: true,
        execute: async () => {
          await toolLatency(ctx, TOOL_MS[t.name] ?? 300);
          return JSON.stringify(SUPPORT_TOOL_RESULTS[t.name]);
        },
      }),
    ),
  });
  const triage = new Agent({
    name: SUPPORT_AGENTS.triage,
    model: 'gpt-5-mini',
    instructions: 'Route each customer to the right specialist. Billing questions go to the billing specialist.',
    handoffs: [billing],
  });
  const runner = new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: client as never, useResponses: true }),
    tracingDisabled: false,
    traceIncludeSensitiveData: true,
    workflowName: 'Support desk (Loupe demo)',
  });
  const result = await runner.run(triage, SUPPORT_CUSTOMER.question, { stream: true });
  for await (const _event of result) void _event;
  await result.completed;
  await getGlobalTraceProvider().forceFlush();
  return [
    {
      label,
      responseIds: result.rawResponses.map((r) => r.responseId ?? '').filter(Boolean),
      finalText: String(result.finalOutput ?? ''),
    },
  ];
}
