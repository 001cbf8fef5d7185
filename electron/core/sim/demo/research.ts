// Scenario `research`: the multi-agent beta over streamed HTTP (`client.beta.responses`
// with `multi_agent: {enabled: true}` and `OpenAI-Beta: responses_multi_agent=v1`). One
// response carries the whole team: the root's spawn and wait calls, each subagent's
// searches and its agent_message back to the root, and the synthesis.
import { MULTI_AGENT_BETA } from '../../../../shared/sim/prepare.js';
import { RESEARCH_QUESTION } from '../../../../shared/sim/scenarios/research.js';
import { demoClient, type DemoContext } from './client.js';
import type { DemoRun } from './types.js';

export async function runResearch(ctx: DemoContext): Promise<DemoRun[]> {
  const label = `${ctx.label}-research`;
  const client = demoClient(ctx, 'research', label);
  const stream = await client.beta.responses.create({
    model: 'gpt-5',
    input: RESEARCH_QUESTION,
    tools: [{ type: 'web_search' }],
    multi_agent: { enabled: true, max_concurrent_subagents: 3 },
    stream: true,
    betas: [MULTI_AGENT_BETA],
  });
  let id = '';
  let finalText = '';
  for await (const event of stream) {
    if (event.type === 'response.completed') {
      id = event.response.id;
      const last = event.response.output.findLast((o) => o.type === 'message');
      if (last?.type === 'message') finalText = last.content.map((c) => ('text' in c ? c.text : '')).join('');
    }
  }
  if (id === '') throw new Error('the research response did not complete');
  return [{ label, responseIds: [id], finalText }];
}
