// A large, regular agent run as recorded exchanges, for the benchmark and the layout
// speed test: a chained tool loop where every response reasons (streamed summary) and
// fans out parallel calls whose outputs the next request returns. Sized by item count
// and stream event count.
import { rawExchange, sseChunks } from './raw-exchange-builder.js';
import { finalResponse, responseStream } from './stream-builder.js';
import type { JsonObject, RawExchange } from '../types.js';

export interface SyntheticRunOptions {
  /** Items (input + output) in the whole run, about. Default 5,000. */
  items?: number;
  /** Stream events in the whole run, about. Default 100,000. */
  events?: number;
  /** Parallel calls per response. Default 3. */
  fan?: number;
}

export function syntheticRun(options: SyntheticRunOptions = {}): RawExchange[] {
  const items = options.items ?? 5_000;
  const events = options.events ?? 100_000;
  const k = options.fan ?? 3;
  const perResponse = 1 + 2 * k; // reasoning + k calls out, k outputs back in
  const responses = Math.max(1, Math.round(items / perResponse));
  // Events of one response: created, in_progress, completed; reasoning: added, part added,
  // text done, part done, done; each call: added, arguments done, done; plus the deltas.
  const fixed = 8 + 3 * k;
  const deltas = Math.max(1, Math.round((events / responses - fixed) / (k + 1)));
  const exchanges: RawExchange[] = [];
  let input: JsonObject[] = [{ role: 'user', content: 'Refactor the repository.' }];
  for (let r = 0; r < responses; r++) {
    const calls = Array.from({ length: k }, (_, c) => ({
      id: `fc_${r}_${c}`,
      type: 'function_call',
      status: 'completed',
      call_id: `call_${r}_${c}`,
      name: c % 2 === 0 ? 'read_file' : 'grep',
      arguments: JSON.stringify({ path: `src/module-${r}/file-${c}.ts`, pattern: `symbol${r * k + c}` }),
    }));
    const output = [
      {
        id: `rs_${r}`,
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: `Step ${r}: read the next files and look for the symbols they use.` }],
      },
      ...calls,
    ];
    const previous = r === 0 ? null : `resp_${r - 1}`;
    const final = finalResponse(`resp_${r}`, output, { previous_response_id: previous });
    const request: JsonObject = {
      model: 'gpt-5',
      stream: true,
      input,
      ...(previous === null ? {} : { previous_response_id: previous }),
    };
    exchanges.push(
      rawExchange({
        id: r + 1,
        startedAt: 1_760_000_000_000 + r * 2_000,
        request,
        response: sseChunks(responseStream(final, { deltas }), 1_000, 200),
      }),
    );
    input = calls.map((c) => ({ type: 'function_call_output', call_id: c.call_id, output: `contents of ${c.id}` }));
  }
  return exchanges;
}
