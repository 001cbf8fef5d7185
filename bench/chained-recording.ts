// A long run chained by previous_response_id, as a coding agent with large tool outputs makes
// one (issue 24: 3,000 turns of 10-200 KB outputs, about 1 GB of traffic). Recorded through
// the real proxy (a Loupe child, as `loupe serve` runs it) against the simulator, with the
// openai SDK as the client: each streamed turn answers with a short message and parallel
// function calls, and the next request sends only those calls' outputs with the previous
// response's id. The outputs are seeded pseudo-random log lines, so the same run is recorded
// every time and its text does not compress to nothing.
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { seededRandom } from '../shared/seeded-random.js';
import { recordThroughLoupe, type RecordedFileFigures } from './recorded-file.js';

export interface ChainedShape {
  turns: number;
  /** Parallel function calls per turn, each answered by one output the next turn. */
  callsPerTurn: number;
  /** Characters of each tool output, drawn evenly from this range. */
  outputChars: { min: number; max: number };
}

/** The shape: 3,000 turns, three 10-200 KB outputs a turn, about 1 GB of traffic. */
export const LONG_CHAINED: ChainedShape = {
  turns: 3_000,
  callsPerTurn: 3,
  outputChars: { min: 10_000, max: 200_000 },
};

export interface ChainedAgentResult {
  /** Every response's id, in turn order. */
  responseIds: string[];
  /** function_call_output items sent (the first turn sends the task instead). */
  outputsSent: number;
  /** Characters of each tool output sent, per turn (the first turn sends the task: none). */
  outputChars: number[][];
}

const INSTRUCTIONS =
  'You are a coding agent working in a large repository. Read files, run commands and edit code until the task is done. '.repeat(
    8,
  );
const TOOLS: OpenAI.Responses.Tool[] = ['read_file', 'run_command', 'grep'].map((name) => ({
  type: 'function',
  name,
  description: `${name.replace('_', ' ')} in the workspace`,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' }, command: { type: 'string' }, pattern: { type: 'string' } },
    additionalProperties: false,
  },
  strict: false,
}));

/** Records `shape` into `file` through a Loupe child in front of `simUrl`, and measures the file. */
export function recordChainedRun(file: string, simUrl: string, shape: ChainedShape): Promise<RecordedFileFigures> {
  return recordThroughLoupe(file, simUrl, shape.turns, (baseUrl) => chainedAgent(baseUrl, shape));
}

/**
 * The agent loop through `baseUrl` (ending in /v1): streamed turns, each continuing the last
 * response by previous_response_id and sending only the outputs of its function calls.
 * Instructions and tools go with every request, as they must (they are not carried over).
 */
export async function chainedAgent(
  baseUrl: string,
  shape: ChainedShape,
  headers: Record<string, string> = {},
): Promise<ChainedAgentResult> {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'sk-bench-chained-00000000000000000000', maxRetries: 0 });
  const sim = JSON.stringify({ events: 4, chunkChars: 24, toolCalls: shape.callsPerTurn });
  const rand = seededRandom(shape.turns * 31 + shape.callsPerTurn);
  const result: ChainedAgentResult = { responseIds: [], outputsSent: 0, outputChars: [[]] };
  let input: ResponseInputItem[] = [
    {
      role: 'user',
      content: 'The integration suite fails on the parser since the last merge: find out why and fix it.',
    },
  ];
  let previous: string | undefined;
  for (let turn = 0; turn < shape.turns; turn++) {
    const stream = await client.responses.create(
      {
        model: 'gpt-5',
        instructions: INSTRUCTIONS,
        tools: TOOLS,
        input,
        previous_response_id: previous,
        stream: true,
      },
      { headers: { 'x-sim': sim, ...headers } },
    );
    let response: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') response = event.response;
    if (!response) throw new Error(`chained turn ${turn}: the stream ended without response.completed`);
    result.responseIds.push(response.id);
    previous = response.id;
    if (turn + 1 === shape.turns) break;
    input = [];
    const lengths: number[] = [];
    for (const item of response.output) {
      if (item.type !== 'function_call') continue;
      const chars = shape.outputChars.min + Math.floor(rand() * (shape.outputChars.max - shape.outputChars.min + 1));
      input.push({ type: 'function_call_output', call_id: item.call_id, output: toolLog(rand, turn, chars) });
      lengths.push(chars);
    }
    if (input.length === 0) throw new Error(`chained turn ${turn}: no function call to answer`);
    result.outputsSent += input.length;
    result.outputChars.push(lengths);
  }
  return result;
}

const FILES = ['src/parser.ts', 'src/lexer.ts', 'src/ast/nodes.ts', 'test/parser.test.ts', 'src/emit/printer.ts'];
const WORDS = ['expected', 'token', 'found', 'near', 'offset', 'while', 'parsing', 'at', 'column', 'rule', 'in'];

/** `chars` characters of what a tool prints: numbered log lines, different every call. */
export function toolLog(rand: () => number, turn: number, chars: number): string {
  const lines: string[] = [];
  // The length of the lines joined, each but the first after a newline.
  let n = -1;
  while (n < chars) {
    const r = rand();
    const line = `${FILES[Math.floor(r * FILES.length)]}:${Math.floor(rand() * 4_000) + 1}:${Math.floor(r * 97)} [${turn}] ${WORDS[Math.floor(rand() * WORDS.length)]} ${Math.floor(rand() * 2 ** 32).toString(36)} ${WORDS[Math.floor(rand() * WORDS.length)]} ${Math.floor(rand() * 2 ** 32).toString(36)}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}
