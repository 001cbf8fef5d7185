// The file-size goal: a stateless agent resends its whole history every turn,
// and its recording should cost about its traffic, not the square of its turns. Each run is
// a coding-agent-shaped loop through the real proxy (a Loupe child, as `loupe serve` runs it)
// with the openai SDK as the client: streamed turns that answer with a short message and a
// tool call, whose ~2.5 KB output goes back with the whole history. The 52-turn run is the
// baseline in the same run; the 600-turn run (about 590 MB of traffic) must give a file of
// at most 1.3x its traffic. The longest run is then exported in every format (export-rss.ts).
// A long run chained by previous_response_id with large tool outputs (chained-recording.ts)
// is recorded beside them, exported the same way and opened with them; a copy of it then
// takes one new exchange in `loupe serve` and is exported with its snapshot out of date
// (changed-file-bench.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { seededRandom } from '../shared/seeded-random.js';
import { recordChainedRun, type ChainedShape } from './chained-recording.js';
import { changedFileBench, type ChangedFileReport } from './changed-file-bench.js';
import { spawnChild } from './child-handle.js';
import { exportRss, type ExportRssReport } from './export-rss.js';
import { recordThroughLoupe, type RecordedFileFigures } from './recorded-file.js';

export const FILE_GOAL = 1.3;

export type StatelessRunFigures = RecordedFileFigures;

export interface StatelessBenchReport {
  runs: StatelessRunFigures[];
  goal: number;
  /** The longest run's ratio is within the goal. */
  met: boolean;
  /** `loupe export` of the longest run in every format. */
  longestExport: ExportRssReport;
  /** The run chained by previous_response_id, its export in every format, and a copy of it changed. */
  chained?: RecordedFileFigures & { export: ExportRssReport; changed: ChangedFileReport };
}

/** A recording the open case measures. */
export interface BenchRecording {
  turns: number;
  kind: 'stateless' | 'previous_response_id';
  file: string;
}

const TOOL_OUTPUT_CHARS = 2_550;
const INSTRUCTIONS =
  'You are a coding agent working in a repository. Read files, run commands and edit code until the task is done. '.repeat(
    12,
  );
const TOOLS: OpenAI.Responses.Tool[] = ['read_file', 'run_command', 'apply_patch'].map((name) => ({
  type: 'function',
  name,
  description: `${name.replace('_', ' ')} in the workspace`,
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' }, command: { type: 'string' }, patch: { type: 'string' } },
    additionalProperties: false,
  },
  strict: false,
}));
const SIM = JSON.stringify({ events: 6, chunkChars: 12, toolCalls: 1 });

/**
 * Records the runs and measures their files. `thenOpen`, given, is handed the recordings
 * (and the simulator as their upstream) before they are deleted: the open case measures
 * them in the UI.
 */
export async function statelessBench(
  turnCounts: number[],
  log: (line: string) => void,
  thenOpen?: (files: BenchRecording[], upstream: string) => Promise<void>,
  chainedShape?: ChainedShape,
): Promise<StatelessBenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-stateless-bench-'));
  const sim = await spawnChild('sim', []);
  try {
    const runs: StatelessRunFigures[] = [];
    const files: BenchRecording[] = [];
    for (const turns of turnCounts) {
      const figures = await recordRun(dir, sim.url, turns);
      files.push({ turns, kind: 'stateless', file: path.join(dir, `stateless-${turns}.loupe`) });
      log(
        `stateless ${turns} turns: ${figures.trafficMb.toFixed(1)} MB of traffic, file ${figures.fileMb.toFixed(1)} MB (${figures.ratio.toFixed(2)}x), recorded in ${figures.recordSeconds.toFixed(1)} s`,
      );
      runs.push(figures);
    }
    let chained: RecordedFileFigures | undefined;
    if (chainedShape) {
      const file = path.join(dir, `chained-${chainedShape.turns}.loupe`);
      chained = await recordChainedRun(file, sim.url, chainedShape);
      log(
        `previous_response_id ${chained.turns} turns: ${chained.trafficMb.toFixed(1)} MB of traffic, file ${chained.fileMb.toFixed(1)} MB (${chained.ratio.toFixed(2)}x), recorded in ${chained.recordSeconds.toFixed(1)} s`,
      );
      files.push({ turns: chained.turns, kind: 'previous_response_id', file });
    }
    // Opened before the exports: those of a large run can take minutes each.
    await thenOpen?.(files, sim.url);
    const longest = runs[runs.length - 1]!;
    const longestExport = await exportRss(
      `${longest.turns}-turn stateless run`,
      path.join(dir, `stateless-${longest.turns}.loupe`),
      log,
    );
    const chainedName = `${chained?.turns}-turn previous_response_id run`;
    const chainedExport = chained ? await exportRss(chainedName, files[files.length - 1]!.file, log) : undefined;
    const changed = chained ? await changedFileBench(chainedName, files[files.length - 1]!.file, dir, log) : undefined;
    return {
      runs,
      goal: FILE_GOAL,
      met: longest.ratio <= FILE_GOAL,
      longestExport,
      chained: chained && chainedExport && changed ? { ...chained, export: chainedExport, changed } : undefined,
    };
  } finally {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function recordRun(dir: string, simUrl: string, turns: number): Promise<StatelessRunFigures> {
  const file = path.join(dir, `stateless-${turns}.loupe`);
  return recordThroughLoupe(file, simUrl, turns, (baseUrl) => statelessAgent(baseUrl, turns));
}

/**
 * The coding-agent loop: streamed turns through `baseUrl` with the whole history resent,
 * each tool call answered with a ~2.5 KB output. `label` names the run (x-loupe-session).
 */
export async function statelessAgent(baseUrl: string, turns: number, label?: string): Promise<void> {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'sk-bench-stateless-0000000000000000', maxRetries: 0 });
  const rand = seededRandom(turns);
  const history: ResponseInputItem[] = [
    { role: 'user', content: 'Fix the failing test in src/parser.ts and make sure the suite passes.' },
  ];
  const headers = { 'x-sim': SIM, ...(label ? { 'x-loupe-session': label } : {}) };
  for (let turn = 0; turn < turns; turn++) {
    const stream = await client.responses.create(
      { model: 'gpt-5', instructions: INSTRUCTIONS, tools: TOOLS, input: history, stream: true, store: false },
      { headers },
    );
    let response: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') response = event.response;
    if (!response) throw new Error(`turn ${turn}: the stream ended without response.completed`);
    history.push(...(response.output as ResponseInputItem[]));
    for (const item of response.output) {
      if (item.type === 'function_call')
        history.push({ type: 'function_call_output', call_id: item.call_id, output: toolOutput(rand, turn) });
    }
  }
}

/** What a tool prints: lines of a test log and source, different every turn. */
function toolOutput(rand: () => number, turn: number): string {
  const lines: string[] = [];
  for (let n = 0; n < TOOL_OUTPUT_CHARS;) {
    const line = `src/parser.ts:${Math.floor(rand() * 900) + 1}  ${turn}  expected token ${Math.floor(rand() * 1e9).toString(36)} but found ${Math.floor(rand() * 1e9).toString(36)} near offset ${Math.floor(rand() * 1e6)}`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n');
}

export function printStateless(r: StatelessBenchReport): boolean {
  const out = [
    '',
    'Stateless runs: file size against traffic, recorded through the proxy with the openai SDK (context stored once, ADR 30)',
  ];
  for (const run of r.runs) {
    const tables = Object.entries(run.tablesMb)
      .slice(0, 5)
      .map(([name, mb]) => `${name} ${mb.toFixed(1)}`)
      .join(', ');
    out.push(
      `  ${run.turns} turns: traffic ${run.trafficMb.toFixed(1)} MB, file ${run.fileMb.toFixed(1)} MB, ${run.ratio.toFixed(2)}x  (largest, MB: ${tables})`,
    );
  }
  const longest = r.runs[r.runs.length - 1]!;
  out.push(
    `  ${longest.turns} turns: file/traffic ${longest.ratio.toFixed(2)}x  target <= ${r.goal}x: ${r.met ? 'meets target' : 'MISSES target'}`,
  );
  if (!r.met) out.push('  STATELESS FILE-SIZE TARGET MISSED: the bench fails');
  if (r.chained) {
    const c = r.chained;
    const tables = Object.entries(c.tablesMb)
      .slice(0, 5)
      .map(([name, mb]) => `${name} ${mb.toFixed(1)}`)
      .join(', ');
    out.push(
      `  ${c.turns} turns previous_response_id (no goal): traffic ${c.trafficMb.toFixed(1)} MB, file ${c.fileMb.toFixed(1)} MB, ${c.ratio.toFixed(2)}x, recorded in ${c.recordSeconds.toFixed(0)} s  (largest, MB: ${tables})`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return r.met;
}
