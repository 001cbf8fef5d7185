// Seeded random agent runs, as recorded exchanges, for property tests: chained or
// stateless Responses loops with reasoning, parallel calls, hosted tools, programs,
// subagents, compaction, unknown item types, branches, and streamed or JSON answers.
// The same seed always yields the same recording.
import { rawExchange, sseChunks } from './raw-exchange-builder.js';
import { finalResponse, responseStream } from './stream-builder.js';
import type { Json, JsonObject, RawExchange } from '../types.js';
import { seededRandom } from '../../seeded-random.js';

export { seededRandom };

export interface RandomRunOptions {
  turns?: number;
  /** Stateless clients resend the whole history; chained ones use previous_response_id. */
  stateless?: boolean;
}

export function randomRun(seed: number, options: RandomRunOptions = {}): RawExchange[] {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const stateless = options.stateless ?? rnd() < 0.4;
  const turns = options.turns ?? int(2, 8);
  const exchanges: RawExchange[] = [];
  const history: Json[] = [];
  const responseIds: string[] = [];
  let pending: JsonObject[] = [{ role: 'user', content: `task ${seed}` }];
  let n = 0;
  const id = (prefix: string) => `${prefix}_${seed}_${n}_${Math.floor(rnd() * 1e9).toString(36)}`;

  for (let turn = 0; turn < turns; turn++) {
    n++;
    const respId = id('resp');
    const output: JsonObject[] = [];
    if (rnd() < 0.5)
      output.push({
        id: id('rs'),
        type: 'reasoning',
        summary: rnd() < 0.5 ? [] : [{ type: 'summary_text', text: `think ${turn}` }],
      });
    const shape = pick(['calls', 'calls', 'hosted', 'program', 'agents', 'answer', 'unknown', 'compaction'] as const);
    if (shape === 'calls') {
      for (let k = int(1, 6); k > 0; k--)
        output.push({
          id: id('fc'),
          type: 'function_call',
          call_id: id('call'),
          name: pick(['read', 'grep', 'fetch']),
          arguments: JSON.stringify({ q: id('q') }),
          status: 'completed',
        });
    } else if (shape === 'hosted') {
      output.push({
        id: id('ws'),
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: id('query') },
      });
    } else if (shape === 'program') {
      const callId = id('pc');
      output.push({
        id: id('prog'),
        type: 'program',
        call_id: callId,
        code: 'await a();\nawait b();',
        fingerprint: 'f',
      });
      for (let k = int(1, 3); k > 0; k--)
        output.push({
          id: id('fc'),
          type: 'function_call',
          call_id: id('call'),
          name: 'lookup',
          arguments: '{}',
          caller: { type: 'program', caller_id: callId },
        });
    } else if (shape === 'agents') {
      const child = `agent_${int(1, 3)}`;
      const callId = id('mac');
      output.push({
        id: id('mac'),
        type: 'multi_agent_call',
        action: 'spawn_agent',
        call_id: callId,
        arguments: JSON.stringify({ agent_name: child }),
        agent: { agent_name: 'root' },
      });
      output.push({
        id: id('ws'),
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: 'sub' },
        agent: { agent_name: child },
      });
      output.push({
        id: id('am'),
        type: 'agent_message',
        author: child,
        recipient: 'root',
        content: [{ type: 'input_text', text: 'done' }],
        agent: { agent_name: child },
      });
      output.push({
        id: id('mco'),
        type: 'multi_agent_call_output',
        action: 'spawn_agent',
        call_id: callId,
        output: [{ type: 'output_text', text: 'ok' }],
        agent: { agent_name: 'root' },
      });
    } else if (shape === 'unknown') {
      output.push({ id: id('hx'), type: 'hologram_call', status: 'completed', payload: { x: turn } });
    } else if (shape === 'compaction') {
      output.push({ id: id('cmp'), type: 'compaction', encrypted_content: 'gAAA' });
    }
    if (shape !== 'calls' && shape !== 'program')
      output.push({
        id: id('msg'),
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', annotations: [], text: `answer ${turn}` }],
      });

    // A branch: sometimes a request continues an older response instead of the latest.
    const branchFrom =
      !stateless && responseIds.length > 1 && rnd() < 0.15
        ? pick(responseIds.slice(0, -1))
        : responseIds[responseIds.length - 1];
    const request: JsonObject = { model: 'gpt-5', stream: rnd() < 0.7 };
    if (stateless) request.input = [...history, ...pending];
    else {
      request.input = pending;
      if (branchFrom !== undefined) request.previous_response_id = branchFrom;
    }
    const final = finalResponse(respId, output, { previous_response_id: request.previous_response_id ?? null });
    const startedAt = 1_760_000_000_000 + turn * 5_000;
    exchanges.push(
      request.stream === true
        ? rawExchange({
            id: turn + 1,
            startedAt,
            request,
            response: sseChunks(responseStream(final, { deltas: int(1, 5) }), 1_000, 700),
          })
        : rawExchange({ id: turn + 1, startedAt, request, response: final }),
    );
    responseIds.push(respId);
    history.push(...pending, ...output);
    pending = output
      .filter((o) => o.type === 'function_call')
      .map((o) => ({
        type: 'function_call_output',
        call_id: o.call_id ?? null,
        output: `result ${String(o.call_id)}`,
      }));
    if (pending.length === 0) pending = [{ role: 'user', content: `follow-up ${turn}` }];
  }
  return exchanges;
}
