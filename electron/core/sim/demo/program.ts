// Scenario `program`: programmatic tool calling over streamed HTTP. The first response
// carries a `program` item and the five `get_latency_stats` calls it made (each with
// `caller: {type:'program', caller_id}`); the client runs them in parallel and continues
// with previous_response_id; the second response closes the program (`program_output`)
// and answers.
import type OpenAI from 'openai';
import { LATENCY_STATS, PROGRAM_QUESTION, PROGRAM_TOOLS } from '../../../../shared/sim/scenarios/program.js';
import { demoClient, toolLatency, type DemoContext } from './client.js';
import type { DemoRun } from './types.js';

export async function runProgram(ctx: DemoContext): Promise<DemoRun[]> {
  const label = `${ctx.label}-program`;
  const client = demoClient(ctx, 'program', label);
  const tools = PROGRAM_TOOLS as OpenAI.Responses.Tool[];
  const first = await client.responses.stream({ model: 'gpt-5', input: PROGRAM_QUESTION, tools }).finalResponse();
  const calls = first.output.flatMap((o) => (o.type === 'function_call' ? [o] : []));
  const outputs = await Promise.all(
    calls.map(async (call, i) => {
      // Backends answer at different speeds, so the fan-in is visible on the timeline.
      await toolLatency(ctx, 250 + 170 * i);
      const { service } = JSON.parse(call.arguments) as { service: keyof typeof LATENCY_STATS };
      return {
        type: 'function_call_output' as const,
        call_id: call.call_id,
        output: JSON.stringify({ service, window: '7d', ...LATENCY_STATS[service] }),
        ...(call.caller ? { caller: call.caller } : {}),
      };
    }),
  );
  const second = await client.responses
    .stream({ model: 'gpt-5', previous_response_id: first.id, input: outputs, tools })
    .finalResponse();
  return [{ label, responseIds: [first.id, second.id], finalText: second.output_text }];
}
