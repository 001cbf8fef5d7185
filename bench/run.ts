// `npm run bench`: every benchmark, side by side with its baselines in one run, printed as
// ratios and written to bench/results/latest.json. `--quick` runs a smaller scale for a
// smoke check; the README's figures come from the full run. `--only capture|trace` runs
// one case; `--only library` is start-up and first search on a 20,000-request library
// recorded through the proxy, and its export's peak RSS; `--only stateless` is the file
// size of 52-, 300- and 600-turn stateless runs, the 600-turn run's export's peak RSS,
// a 3,000-turn run chained by previous_response_id with 10-200 KB tool outputs (about 1 GB
// of traffic, chained-recording.ts) and its export's peak RSS, a copy of it changed by one
// exchange in serve and exported with its snapshot out of date (changed-file-bench.ts),
// opening the 52- and 600-turn and the chained runs in the UI (open-bench.ts), and
// following a live 300-turn run in the UI (live-bench.ts).
import fs from 'node:fs';
import os from 'node:os';
import { LONG_CHAINED } from './chained-recording.js';
import { captureBench, type CaptureBenchReport } from './capture-bench.js';
import { printChangedFile } from './changed-file-bench.js';
import { printExportRss } from './export-rss.js';
import { libraryBench, type LibraryBenchReport } from './library-bench.js';
import { liveBench, printLive, type LiveBenchReport } from './live-bench.js';
import { openBench, printOpen, type OpenBenchReport } from './open-bench.js';
import { printCapture, printLibrary, printTrace } from './report.js';
import { printStateless, statelessBench, type StatelessBenchReport } from './stateless-bench.js';
import { traceBench, type TraceBenchReport } from './trace-bench.js';

const CASES = ['capture', 'trace', 'library', 'stateless'] as const;
type Case = (typeof CASES)[number];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const scale = quick ? 0.2 : 1;
const onlyAt = args.indexOf('--only');
const only = onlyAt === -1 ? null : args[onlyAt + 1];
if (only !== null && !(CASES as readonly (string | undefined)[]).includes(only)) {
  process.stderr.write(`bench: --only takes one of ${CASES.join(', ')}\n`);
  process.exit(2);
}
const runs = (c: Case) => only === null || only === c;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

const report: {
  date: string;
  scale: number;
  node: string;
  cpus: number;
  capture?: CaptureBenchReport;
  trace?: TraceBenchReport;
  library?: LibraryBenchReport;
  stateless?: StatelessBenchReport;
  open?: OpenBenchReport;
  live?: LiveBenchReport;
} = {
  date: new Date().toISOString(),
  scale,
  node: process.version,
  cpus: os.cpus().length,
};
if (runs('capture')) {
  // `--compare defaultHeap`: variants of Loupe measured beside it (capture-bench.ts).
  const compareAt = args.indexOf('--compare');
  report.capture = await captureBench(scale, log, compareAt === -1 ? [] : (args[compareAt + 1] ?? '').split(','));
  printCapture(report.capture);
}
if (runs('trace')) {
  // The trace case keeps its full size under --quick: its targets are stated for 5,000 items.
  report.trace = await traceBench(log, quick ? 3 : 7);
  printTrace(report.trace);
}
if (runs('library')) {
  // Full size under --quick too: the goal is stated for 20,000 requests.
  // Rounds are cheap once the libraries are written, and its figures are fractions of a
  // millisecond: many rounds, so a stall of the machine's other work does not decide the median.
  report.library = await libraryBench(log, quick ? 15 : 41);
  // A missed ratio fails the run, after the report is written.
  if (!printLibrary(report.library)) process.exitCode = 1;
  if (!printExportRss([report.library.largeExport])) process.exitCode = 1;
}
if (runs('stateless')) {
  // The goal is stated for 600 turns; --quick stops at 120 (the 52-turn baseline runs in both).
  // The chained run's goal is stated for 3,000 turns; --quick records 300.
  // The same recordings are then opened in the UI: the 52-turn run against the longest
  // stateless one and the chained one.
  report.stateless = await statelessBench(
    quick ? [52, 120] : [52, 300, 600],
    log,
    async (files, upstream) => {
      const stateless = files.filter((f) => f.kind === 'stateless');
      const opened = [stateless[0]!, stateless[stateless.length - 1]!, ...files.filter((f) => f.kind !== 'stateless')];
      report.open = await openBench(opened, upstream, log);
      report.live = await liveBench(quick ? 60 : 300, upstream, log);
    },
    quick ? { ...LONG_CHAINED, turns: 300 } : LONG_CHAINED,
  );
  if (!printStateless(report.stateless)) process.exitCode = 1;
  if (report.open && !printOpen(report.open)) process.exitCode = 1;
  if (report.live && !printLive(report.live)) process.exitCode = 1;
  const chained = report.stateless.chained;
  if (chained && !printChangedFile(chained.changed)) process.exitCode = 1;
  const exported = [report.stateless.longestExport, ...(chained ? [chained.export, chained.changed.staleExport] : [])];
  if (!printExportRss(exported)) process.exitCode = 1;
}
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/latest.json', `${JSON.stringify(report, null, 2)}\n`);
