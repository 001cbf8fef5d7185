// `npm run bench`: every benchmark, side by side with its baselines in one run, printed as
// ratios and written to bench/results/latest.json. `--quick` runs a smaller scale for a
// smoke check; the README's figures come from the full run.
import fs from 'node:fs';
import { captureBench } from './capture-bench.js';
import { printCapture } from './report.js';

const quick = process.argv.includes('--quick');
const scale = quick ? 0.2 : 1;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

const capture = await captureBench(scale, log);
const report = { date: new Date().toISOString(), scale, node: process.version, cpus: (await import('node:os')).cpus().length, capture };
printCapture(capture);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/latest.json', `${JSON.stringify(report, null, 2)}\n`);
