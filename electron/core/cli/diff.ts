// `loupe diff FILE RUN_A RUN_B [--format text|json]`: two runs aligned step by step
// (shared/diff/run-comparison.ts), printed to stdout. RUN_B may be `OTHER_FILE:RUN`, so CI
// can hold a golden recording beside the one a test just made. The exit status is diff(1)'s:
// 0 the runs match, 1 they differ, 2 they could not be compared (a usage error, a missing
// file or run, or a run with responses the file could not read back), so 1 always means
// "differ" and never "broken". Files are opened read-only, as `loupe export` opens them.
import fs from 'node:fs';
import { comparisonJson } from '../../../shared/diff/comparison-json.js';
import { comparisonText } from '../../../shared/diff/comparison-text.js';
import { compareRuns } from '../../../shared/diff/run-comparison.js';
import type { Run } from '../../../shared/trace/thread/thread.js';
import { priceTable } from '../service/trace-adapter.js';
import { openDb, type Db } from '../store/db.js';
import { ReadDamage } from '../store/read-damage.js';
import { indexRecorded } from '../store/underived.js';
import type { RunIndex } from '../service/run-index.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import { ReaderGone, stdoutSink } from './stdout-sink.js';

export const DIFF_FORMATS = ['text', 'json'] as const;
const USAGE = 'loupe diff FILE RUN_A RUN_B [--format text|json] (RUN_B may be OTHER_FILE:RUN)';
/** Exit statuses. */
const MATCH = 0;
const DIFFER = 1;
const TROUBLE = 2;

export async function diffCommand(args: ParsedArgs): Promise<number> {
  const [file, runA, runB] = args.positionals;
  if (!file || !runA || !runB) throw new UsageError(`diff needs a recording and two runs: ${USAGE}`);
  const format = stringFlag(args, 'format') ?? 'text';
  if (!(DIFF_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`unknown --format "${format}"; use text or json`);
  const recordings = new Recordings();
  try {
    const a = await recordings.run(file, runA);
    const other = splitOtherFile(file, runB);
    const b = await recordings.run(other.file, other.run);
    const unreadable = [a, b].filter((r) => r.responses.some((x) => x.status === 'unreadable'));
    const comparison = compareRuns({ run: a }, { run: b }, priceTable());
    const write = stdoutSink();
    await write(format === 'json' ? `${JSON.stringify(comparisonJson(comparison))}\n` : comparisonText(comparison));
    if (unreadable.length) {
      process.stderr.write(
        `loupe: ${unreadable.map((r) => r.id).join(' and ')} hold responses the file could not read back (damaged), so whether the runs match cannot be said\n`,
      );
      return TROUBLE;
    }
    return comparison.match ? MATCH : DIFFER;
  } catch (err) {
    // `| head` took what it wanted: a normal end for a producer.
    if (err instanceof ReaderGone) return MATCH;
    process.stderr.write(`loupe: ${(err as Error).message}\n`);
    return TROUBLE;
  } finally {
    recordings.close();
  }
}

interface Opened {
  db: Db;
  index: RunIndex;
  damage: ReadDamage;
  /** Damaged rows already said on stderr. */
  reported: number;
}

/**
 * Every recording opened once, read-only, its runs indexed (derived or not yet: underived.ts
 * indexRecorded); only the two runs compared are read whole, so comparing two runs of a
 * large library holds those two, not the library.
 */
class Recordings {
  private readonly opened = new Map<string, Opened>();

  async run(file: string, id: string): Promise<Run> {
    const opened = await this.open(file);
    const { index, damage } = opened;
    const ids = index.ordered().map((r) => r.id);
    const labelOf = (runId: string) => index.run(runId)?.label ?? null;
    const found =
      ids.find((r) => r === id) ?? uniqueBy(ids, (r) => labelOf(r) === id || r === `label:${id}` || r === `run:${id}`);
    if (found) {
      const whole = index.wholeRun(found)!;
      // Said once per file, after the rows its runs' records were read from.
      const rows = [...damage.rows, ...index.damage.rows];
      if (rows.length > opened.reported)
        process.stderr.write(
          `loupe: ${file} is damaged: ${rows.length} row(s) could not be read (first: ${rows[0]})\n`,
        );
      opened.reported = rows.length;
      return whole;
    }
    const some = ids.slice(0, 8).join(', ');
    throw new UsageError(
      `no run "${id}" in ${file}${ids.length ? `; it holds ${ids.length} run(s): ${some}${ids.length > 8 ? ', …' : ''}` : ' (it holds no runs)'}`,
    );
  }

  close(): void {
    for (const { db } of this.opened.values()) db.close();
    this.opened.clear();
  }

  private async open(file: string): Promise<Opened> {
    const held = this.opened.get(file);
    if (held) return held;
    if (!isFile(file)) throw new UsageError(`no recording at ${file}`);
    const db = openDb(file, { readonly: true });
    try {
      const damage = new ReadDamage();
      const { index, inFlight } = await indexRecorded(db, damage);
      if (inFlight.length)
        process.stderr.write(
          `loupe: ${inFlight.length} exchange(s) of ${file} had not ended and are compared as they stood\n`,
        );
      const opened = { db, index, damage, reported: 0 };
      this.opened.set(file, opened);
      return opened;
    } catch (err) {
      db.close();
      throw err;
    }
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function uniqueBy<T>(list: readonly T[], pick: (x: T) => boolean): T | undefined {
  const hits = list.filter(pick);
  return hits.length === 1 ? hits[0] : undefined;
}

/**
 * RUN_B as `OTHER_FILE:RUN` or a run of FILE. Run ids hold colons themselves
 * (`label:nightly`), so RUN_B is a run of FILE unless it starts with an existing file's
 * path followed by a colon (the shortest such, so a Windows drive letter is no file).
 */
export function splitOtherFile(file: string, runB: string): { file: string; run: string } {
  for (let i = runB.indexOf(':'); i > 0; i = runB.indexOf(':', i + 1)) {
    const path = runB.slice(0, i);
    if (isFile(path) && i + 1 < runB.length) return { file: path, run: runB.slice(i + 1) };
  }
  return { file, run: runB };
}
