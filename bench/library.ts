// A library of many runs written with the store's own derived-row writer, for the search
// and start-up benchmark (library-bench.ts) and the search tests. Each run is a chain by
// previous_response_id: every turn answers with a message and a tool call, and the next
// request returns that call's output. Text is words drawn from a seeded vocabulary, so
// every run holds different text; `text` can put chosen words into chosen turns.
//
// Only derived rows are written (no raw bytes): start-up and search read nothing else, and
// a test's library is written in a second this way. The benchmark records its libraries
// through the proxy instead (library-recording.ts).
import { seededRandom } from '../shared/seeded-random.js';
import { normalizeExchange } from '../shared/trace/normalize/normalize.js';
import { rawExchange } from '../shared/trace/testing/raw-exchange-builder.js';
import { finalResponse } from '../shared/trace/testing/stream-builder.js';
import type { JsonObject, RawExchange } from '../shared/trace/types.js';
import type { Db } from '../electron/core/store/db.js';
import { derivedRows, derivedWriter } from '../electron/core/store/derive.js';
import { buildRunSnapshot } from '../electron/core/store/run-snapshot-keeper.js';
import { mergeSearchStep } from '../electron/core/store/search-index.js';

export interface LibraryOptions {
  runs: number;
  turns: number;
  /** Characters of each tool output, about. Default 600. */
  outputChars?: number;
  /** Extra text for a turn's tool output (run and turn count from 0). */
  extra?: (run: number, turn: number) => string;
  seed?: number;
}

const WRITE_BATCH = 200;

/**
 * Words drawn from the vocabulary `seed` makes, about `chars` characters of them a call; by
 * the same generator, or by one of their own seeded with `pickSeed` (one per run, so runs
 * recorded side by side draw the same words whatever their order).
 */
export function libraryWords(seed: number, pickSeed?: number): (chars: number) => string {
  const made = seededRandom(seed);
  const vocabulary = Array.from(
    { length: 4_000 },
    (_, i) => `${SYLLABLES[i % SYLLABLES.length]}${Math.floor(made() * 1e6).toString(36)}`,
  );
  const rand = pickSeed === undefined ? made : seededRandom(pickSeed);
  return (chars) => {
    const out: string[] = [];
    for (let n = 0; n < chars;) {
      const w = vocabulary[Math.floor(rand() * vocabulary.length)]!;
      out.push(w);
      n += w.length + 1;
    }
    return out.join(' ');
  };
}

export function libraryExchanges(options: LibraryOptions): RawExchange[] {
  const words = libraryWords(options.seed ?? 7);
  const outputChars = options.outputChars ?? 600;
  const exchanges: RawExchange[] = [];
  for (let run = 0; run < options.runs; run++) {
    let input: JsonObject[] = [{ role: 'user', content: `Task ${run}: ${words(120)}` }];
    for (let turn = 0; turn < options.turns; turn++) {
      const id = exchanges.length + 1;
      const callId = `call_${run}_${turn}`;
      const output: JsonObject[] = [
        {
          id: `msg_${run}_${turn}`,
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: words(160), annotations: [] }],
        },
        {
          id: `fc_${run}_${turn}`,
          type: 'function_call',
          status: 'completed',
          call_id: callId,
          name: turn % 2 ? 'read_file' : 'grep',
          arguments: JSON.stringify({ path: `src/${run}/${turn}.ts` }),
        },
      ];
      const previous = turn === 0 ? null : `resp_${run}_${turn - 1}`;
      const request: JsonObject = {
        model: 'gpt-5',
        input,
        ...(previous === null ? {} : { previous_response_id: previous }),
      };
      const response = finalResponse(`resp_${run}_${turn}`, output, { previous_response_id: previous });
      exchanges.push(
        rawExchange({ id, startedAt: 1_760_000_000_000 + run * 1_000_000 + turn * 2_000, request, response }),
      );
      input = [
        {
          type: 'function_call_output',
          call_id: callId,
          output: `${words(outputChars)} ${options.extra?.(run, turn) ?? ''}`,
        },
      ];
    }
  }
  return exchanges;
}

/**
 * Normalizes and writes the exchanges' derived rows (search index included), a batch per
 * transaction, then the run snapshot and the search index's merge into one segment, as
 * the store writer does at its next quiet moments (derive-queue.ts).
 */
export function writeLibrary(db: Db, exchanges: RawExchange[]): void {
  const write = derivedWriter(db);
  for (let i = 0; i < exchanges.length; i += WRITE_BATCH) {
    write(exchanges.slice(i, i + WRITE_BATCH).map((raw) => derivedRows(raw.id, normalizeExchange(raw))));
  }
  buildRunSnapshot(db);
  while (mergeSearchStep(db, 'all'));
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'vo', 'ze', 'pu', 'da', 'fe'];
