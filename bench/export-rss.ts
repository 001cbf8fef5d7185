// Peak RSS of `loupe export` in every format, against the long-runs goal: at most 400 MB
// whatever the file's size. Each export runs as a user runs it: bin/loupe.js executed, so
// its first line execs node with Loupe's V8 flags (ADR 36; the export's heap pacer needs
// `--expose-gc` from there), its output to /dev/null. It reports its own peak (getrusage's
// maxRSS, read as it exits, through a module NODE_OPTIONS loads with --import) so no
// sampling can miss the top. An export that fails (runs out of heap, say) or runs past
// EXPORT_TIMEOUT_MS misses the target with its error and the kernel's high-water mark of
// its RSS when it ended (VmHWM), and the next format still runs.
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

/** Past this an export is stopped and counted as failed: the bench has to end in minutes. */
export const EXPORT_TIMEOUT_MS = 10 * 60_000;

export interface ExportFigures {
  format: string;
  peakRssMb: number;
  outputMb: number;
  seconds: number;
  /** Why it did not finish; absent when it did. */
  error?: string;
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

/** `cases`: the formats to export, every one unless given. */
export async function exportRss(
  recording: string,
  file: string,
  log: (line: string) => void,
  cases: ReadonlyArray<(typeof EXPORT_CASES)[number]> = EXPORT_CASES,
): Promise<ExportRssReport> {
  const exports: ExportFigures[] = [];
  for (const c of cases) {
    const figures = await exportOnce(file, c.name, [...c.args]);
    log(
      `export ${recording} ${c.name}: peak RSS ${figures.peakRssMb.toFixed(0)} MB, ${figures.outputMb.toFixed(0)} MB out in ${figures.seconds.toFixed(1)} s${figures.error ? `, FAILED: ${figures.error}` : ''}`,
    );
    exports.push(figures);
  }
  const fileMb = fs.statSync(file).size / 1e6;
  return {
    recording,
    fileMb,
    exports,
    goalMb: EXPORT_RSS_GOAL_MB,
    met: exports.every((e) => !e.error && e.peakRssMb <= EXPORT_RSS_GOAL_MB),
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
  child.stderr.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-4_000)));
  let highWaterKb = 0;
  const watch = setInterval(() => (highWaterKb = Math.max(highWaterKb, vmHwmKb(child.pid!))), 250);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, EXPORT_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(watch);
  clearTimeout(timer);
  const seconds = (performance.now() - started) / 1000;
  const reported = fs.existsSync(report) ? Number(fs.readFileSync(report, 'utf8')) : 0;
  fs.rmSync(path.dirname(report), { recursive: true, force: true });
  const figures = { format, peakRssMb: Math.max(reported, highWaterKb) / 1024, outputMb: out / 1e6, seconds };
  if (code === 0 && !timedOut) return figures;
  const why = timedOut
    ? `stopped after ${EXPORT_TIMEOUT_MS / 60_000} min`
    : `exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`;
  return { ...figures, error: why };
}

/** The kernel's high-water mark of a process's RSS, kB; 0 once it is gone. */
function vmHwmKb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export function printExportRss(reports: ExportRssReport[]): boolean {
  const out = ['', `Export: peak RSS of \`loupe export\` in every format, target <= ${EXPORT_RSS_GOAL_MB} MB`];
  for (const r of reports) {
    out.push(`  ${r.recording} (file ${r.fileMb.toFixed(0)} MB):`);
    for (const e of r.exports)
      out.push(
        `    ${e.format.padEnd(20)} peak RSS ${e.peakRssMb.toFixed(0).padStart(4)} MB  (${e.outputMb.toFixed(0)} MB out, ${e.seconds.toFixed(1)} s)  ${e.error ? `FAILED (${e.error}): MISSES target` : e.peakRssMb <= r.goalMb ? 'meets target' : 'MISSES target'}`,
      );
  }
  const met = reports.every((r) => r.met);
  if (!met) out.push('  EXPORT RSS TARGET MISSED: the bench fails');
  process.stdout.write(`${out.join('\n')}\n`);
  return met;
}
