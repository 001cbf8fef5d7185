// Peak RSS of `loupe export` in every format, against the long-runs goal: at most 400 MB
// whatever the file's size. Each export runs as a user runs it: bin/loupe.js executed, so
// its first line execs node with Loupe's V8 flags (ADR 36; the export's heap pacer needs
// `--expose-gc` from there), its output to /dev/null. It reports its own peak (getrusage's
// maxRSS, read as it exits, through a module NODE_OPTIONS loads with --import) so no
// sampling can miss the top.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const EXPORT_RSS_GOAL_MB = 400;

export const EXPORT_CASES = [
  { name: 'json', args: ['--format', 'json'] },
  { name: 'jsonl', args: ['--format', 'jsonl'] },
  { name: 'har', args: ['--format', 'har'] },
  { name: 'otlp', args: ['--format', 'otlp'] },
  { name: 'otlp --otlp-content', args: ['--format', 'otlp', '--otlp-content'] },
] as const;

export interface ExportFigures {
  format: string;
  peakRssMb: number;
  outputMb: number;
  seconds: number;
}

export interface ExportRssReport {
  /** What was exported, e.g. "600-turn stateless run". */
  recording: string;
  fileMb: number;
  exports: ExportFigures[];
  goalMb: number;
  met: boolean;
}

const loupeBin = fileURLToPath(new URL('../../bin/loupe.js', import.meta.url));
const reporter = pathToFileURL(fileURLToPath(new URL('./peak-rss-reporter.js', import.meta.url))).href;

export async function exportRss(
  recording: string,
  file: string,
  log: (line: string) => void,
): Promise<ExportRssReport> {
  const exports: ExportFigures[] = [];
  for (const c of EXPORT_CASES) {
    const figures = await exportOnce(file, c.name, [...c.args]);
    log(
      `export ${recording} ${c.name}: peak RSS ${figures.peakRssMb.toFixed(0)} MB, ${figures.outputMb.toFixed(0)} MB out in ${figures.seconds.toFixed(1)} s`,
    );
    exports.push(figures);
  }
  const fileMb = fs.statSync(file).size / 1e6;
  return {
    recording,
    fileMb,
    exports,
    goalMb: EXPORT_RSS_GOAL_MB,
    met: exports.every((e) => e.peakRssMb <= EXPORT_RSS_GOAL_MB),
  };
}

async function exportOnce(file: string, format: string, args: string[]): Promise<ExportFigures> {
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-export-rss-')), 'peak');
  const started = performance.now();
  const nodeOptions = [process.env.NODE_OPTIONS, `--import ${reporter}`].filter(Boolean).join(' ');
  const child = spawn(loupeBin, ['export', file, ...args], {
    env: { ...process.env, NODE_OPTIONS: nodeOptions, LOUPE_PEAK_RSS_FILE: report },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = 0;
  let err = '';
  child.stdout.on('data', (b: Buffer) => (out += b.length));
  child.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`loupe export ${format} of ${file} exited with ${code}: ${err.trim()}`);
  const peakKb = Number(fs.readFileSync(report, 'utf8'));
  fs.rmSync(path.dirname(report), { recursive: true, force: true });
  return { format, peakRssMb: peakKb / 1024, outputMb: out / 1e6, seconds };
}

export function printExportRss(reports: ExportRssReport[]): boolean {
  const out = ['', `Export: peak RSS of \`loupe export\` in every format, target <= ${EXPORT_RSS_GOAL_MB} MB`];
  for (const r of reports) {
    out.push(`  ${r.recording} (file ${r.fileMb.toFixed(0)} MB):`);
    for (const e of r.exports)
      out.push(
        `    ${e.format.padEnd(20)} peak RSS ${e.peakRssMb.toFixed(0).padStart(4)} MB  (${e.outputMb.toFixed(0)} MB out, ${e.seconds.toFixed(1)} s)  ${e.peakRssMb <= r.goalMb ? 'meets target' : 'MISSES target'}`,
      );
  }
  const met = reports.every((r) => r.met);
  if (!met) out.push('  EXPORT RSS TARGET MISSED: the bench fails');
  process.stdout.write(`${out.join('\n')}\n`);
  return met;
}
