// Opening a 3,000-turn run chained by previous_response_id against a 52-turn stateless run
// (issue 24), without the rest of the stateless case: both recorded through the proxy against
// the simulator (the chained one with short tool outputs, so its skeleton is what a run of
// cut previews sends), then opened by open-bench.ts. With LOUPE_BENCH_RECORDING_CACHE the
// recordings are kept and reused, for iterating on the page. `--turns N` records N turns.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recordChainedRun } from './chained-recording.js';
import { spawnChild } from './child-handle.js';
import { openBench, printOpen } from './open-bench.js';
import { recordThroughLoupe } from './recorded-file.js';
import { statelessAgent } from './stateless-bench.js';

const args = process.argv.slice(2);
const turnsAt = args.indexOf('--turns');
const turns = turnsAt === -1 ? 3_000 : Number(args[turnsAt + 1]);
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-open-chained-'));
const sim = await spawnChild('sim', []);
try {
  const base = path.join(dir, 'stateless-52.loupe');
  await recordThroughLoupe(base, sim.url, 52, (baseUrl) => statelessAgent(baseUrl, 52));
  const chained = path.join(dir, `chained-small-${turns}.loupe`);
  const figures = await recordChainedRun(chained, sim.url, {
    turns,
    callsPerTurn: 3,
    outputChars: { min: 300, max: 900 },
  });
  log(
    `previous_response_id ${turns} turns: file ${figures.fileMb.toFixed(1)} MB, recorded in ${figures.recordSeconds.toFixed(0)} s`,
  );
  const report = await openBench(
    [
      { turns: 52, kind: 'stateless', file: base },
      { turns, kind: 'previous_response_id', file: chained },
    ],
    sim.url,
    log,
  );
  if (!printOpen(report)) process.exitCode = 1;
} finally {
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
