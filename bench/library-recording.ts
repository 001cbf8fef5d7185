// A library recorded as a user's is: through the real proxy (a Loupe child, as `loupe serve`
// runs it) against the simulator, with the openai SDK as the client. Each run is a chain by
// previous_response_id: every turn answers with a message and a tool call, and the next
// request returns that call's output, words from library.ts's seeded vocabulary, so every
// run holds different text. Runs go `concurrency` at a time, turns within a run one by one.
import OpenAI from 'openai';
import Database from 'better-sqlite3';
import { mergeSearchStep } from '../electron/core/store/search-index.js';
import { spawnChild } from './child-handle.js';
import { libraryWords } from './library.js';

export interface RecordedLibraryOptions {
  runs: number;
  turns: number;
  /** Characters of each tool output, about. */
  outputChars: number;
  /** Extra text for a turn's tool output (run and turn count from 0). */
  extra?: (run: number, turn: number) => string;
  concurrency: number;
}

const SIM = JSON.stringify({ events: 4, chunkChars: 40, toolCalls: 1 });

export async function recordLibrary(file: string, simUrl: string, options: RecordedLibraryOptions): Promise<void> {
  const loupe = await spawnChild('loupe', [simUrl, file]);
  try {
    const client = new OpenAI({
      baseURL: `${loupe.url}/v1`,
      apiKey: 'sk-bench-library-00000000000000000',
      maxRetries: 0,
    });
    let next = 0;
    const worker = async () => {
      for (let run = next++; run < options.runs; run = next++) await recordRun(client, run, options);
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    await loupe.settled();
  } finally {
    await loupe.close();
  }
  // What the writer does after a session's last 5 s of quiet: the search index merged into one segment.
  const db = new Database(file);
  try {
    while (mergeSearchStep(db, 'all'));
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

async function recordRun(client: OpenAI, run: number, options: RecordedLibraryOptions): Promise<void> {
  const words = libraryWords(7, run + 1);
  let input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: `Task ${run}: ${words(120)}` }];
  let previous: string | undefined;
  for (let turn = 0; turn < options.turns; turn++) {
    const response = await client.responses.create(
      { model: 'gpt-5', input, previous_response_id: previous },
      { headers: { 'x-sim': SIM } },
    );
    const call = response.output.find((o) => o.type === 'function_call');
    if (!call) throw new Error(`library run ${run} turn ${turn}: no function call to answer`);
    previous = response.id;
    input = [
      {
        type: 'function_call_output',
        call_id: call.call_id,
        output: `${words(options.outputChars)} ${options.extra?.(run, turn) ?? ''}`,
      },
    ];
  }
}
