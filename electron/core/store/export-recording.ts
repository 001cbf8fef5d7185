// Every export format of a recording, in one place for the CLI and the desktop app's
// File > Export menu. Output is produced in pieces so a large recording streams out
// instead of being built as one string: its memory does not grow with the document. A
// damaged recording exports what it holds: rows that cannot be read back are placeholders
// in the output and tallied in the ReadDamage returned (read-damage.ts). A recording being
// written exports all it holds: what derivation has not written yet is normalized from raw
// (underived.ts), and responses still in flight come out as they stand, `in_progress`, and
// are counted in the report.
import pkg from '../../../package.json' with { type: 'json' };
import {
  exportRunParts,
  type ExportDocument,
  type ExportOptions as JsonExportOptions,
  type ExportRun,
} from '../../../shared/export/export-json.js';
import { CutRecords } from '../../../shared/export/cut-records.js';
import { batchedWriter, frameAround, writeElements, type JsonFrame } from '../../../shared/export/json-frame.js';
import { loadForkOrigins, originOfLabel } from '../fork/fork-store.js';
import { harEntry, harLog, type HarUnreadable } from '../../../shared/export/har.js';
import { otlpFrame, otlpRunSpans } from '../../../shared/export/otlp.js';
import { loadPriceTable } from '../trace/price-table.js';
import type { Db } from './db.js';
import { heapPacer } from './heap-pacer.js';
import { isCorruption } from './integrity-check.js';
import { exchangeIds, loadRawExchange } from './raw-read.js';
import { readRecordingId } from './recording-id.js';
import { ReadDamage } from './read-damage.js';
import { exportRuns, type ExportedRun } from './export-runs.js';

export const EXPORT_FORMATS = ['json', 'jsonl', 'har', 'otlp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

export interface ExportOptions {
  /** OTLP only: message content in the GenAI message attributes (off by default: it can be private). */
  otlpContent?: boolean;
}

export interface ExportReport {
  /** What could not be read (nothing, for a healthy file). */
  damage: ReadDamage;
  /** Exchanges not ended when read (still in flight, or cut off by a crash): exported as they stood. */
  inFlight: number[];
}

/**
 * Writes the recording in `format` through `write`, piece by piece, waiting for each
 * piece's promise (if it returns one) so a slow reader holds the export back instead of
 * the pieces piling up in memory. Each document is its builder's frame (json-frame.ts)
 * around its longest list, written an element at a time: an exchange of HAR, a response of
 * JSON and JSONL, a span of OTLP. What is held at once is the threaded runs and one element.
 */
export async function exportRecording(
  db: Db,
  format: ExportFormat,
  write: (text: string) => void | Promise<void>,
  options: ExportOptions = {},
): Promise<ExportReport> {
  const damage = new ReadDamage();
  const pace = heapPacer();
  const out = batchedWriter(async (text) => {
    pace();
    await write(text);
  });
  if (format === 'har') {
    await writeHar(db, damage, out.write);
    await out.flush();
    return { damage, inFlight: [] };
  }
  const context = format === 'otlp' ? null : await contextOptions();
  const cut = new CutRecords(context?.count ? await wholeTextCounter() : null);
  const { runs, spansByRun, inFlight } = await exportRuns(db, damage, cut, pace);
  const origins = loadForkOrigins(db);
  const withOrigin = (out: ExportRun, label: string | null): ExportRun => {
    const origin = originOfLabel(origins, label);
    return origin ? { ...out, forked_from: origin } : out;
  };
  const writeRun = async ({ run }: ExportedRun, context: JsonExportOptions) => {
    const parts = exportRunParts(run, undefined, spansByRun.get(run.id), {
      ...context,
      cutTokens: cut.cutTokens,
      between: pace,
    });
    const frame = frameAround(withOrigin(parts.run, run.label), parts.run.responses);
    await out.write(frame.head);
    let first = true;
    for (const { response, context: texts } of parts.streamed()) {
      const around = frameAround(response, response.context);
      await out.write(first ? around.head : `,${around.head}`);
      first = false;
      await writeJoined(texts, around, out.write);
    }
    await out.write(frame.tail);
  };
  switch (format) {
    case 'json': {
      const list: never[] = [];
      const frame = frameAround({ runs: list } satisfies ExportDocument, list);
      await out.write(frame.head);
      let first = true;
      for (const run of runs) {
        if (!first) await out.write(',');
        first = false;
        await writeRun(run, context!);
      }
      await out.write(`${frame.tail}\n`);
      break;
    }
    case 'jsonl': {
      for (const run of runs) {
        await writeRun(run, context!);
        await out.write('\n');
      }
      break;
    }
    case 'otlp': {
      const otlp = {
        version: pkg.version,
        recordingId: readRecordingId(db),
        agentSpans: spansByRun,
        content: options.otlpContent,
      };
      const list: never[] = [];
      const frame = frameAround(otlpFrame(list, pkg.version), list);
      await out.write(frame.head);
      await writeElements(
        (function* () {
          for (const { run, whole } of runs) yield* otlpRunSpans(run, otlp, (_r, i) => whole(i));
        })(),
        out.write,
      );
      await out.write(`${frame.tail}\n`);
      break;
    }
  }
  await out.flush();
  return { damage, inFlight };
}

/**
 * A context's parts between its frame's head and tail, commas between, joined into pieces of
 * about 64 K characters: a long chain's contexts are millions of parts of 150 characters, too
 * many to await one at a time.
 */
async function writeJoined(texts: Iterable<string>, frame: JsonFrame, write: (text: string) => Promise<void>) {
  let held: string[] = [];
  let length = 0;
  let first = true;
  for (const text of texts) {
    held.push(first ? text : `,${text}`);
    first = false;
    length += text.length + 1;
    if (length < 1 << 16) continue;
    await write(held.join(''));
    held = [];
    length = 0;
  }
  await write(held.join('') + frame.tail);
}

/** The tokenizer for whole texts of cut items: counted once each, so not remembered by text (cut-records.ts). */
async function wholeTextCounter() {
  const { countO200k } = await import('../../../shared/context/o200k.js');
  return countO200k;
}

/** Prices and the tokenizer for the context fields: loaded here, so other commands start without them. */
export async function contextOptions(): Promise<JsonExportOptions> {
  const { o200kCounter } = await import('../../../shared/context/o200k.js');
  return { prices: loadPriceTable().table, count: o200kCounter() };
}

/**
 * A HAR holds every body whole, so each exchange is read whole, however large, one at a
 * time. Unreadable exchanges are listed after the entries (harLog), so the frame's tail is
 * made once they are known.
 */
async function writeHar(db: Db, damage: ReadDamage, write: (text: string) => Promise<void>): Promise<void> {
  const upstreamOf = db.prepare('SELECT upstream FROM exchanges WHERE id = ?').pluck();
  const unreadable: HarUnreadable[] = [];
  async function* entries() {
    for (const id of exchangeIds(db)) {
      let raw;
      try {
        raw = await loadRawExchange(db, id, Infinity);
      } catch (err) {
        // Headers stored as JSON that no longer parses, or a page SQLite cannot read.
        if (!(err instanceof SyntaxError) && !isCorruption(err)) throw err;
        unreadable.push({ id, error: damage.note(`exchange ${id}`, err) });
        continue;
      }
      if (raw) yield harEntry({ raw, upstream: upstreamOf.get(id) as string });
    }
  }
  const list: never[] = [];
  await write(frameAround(harLog(list, pkg.version), list).head);
  await writeElements(entries(), write);
  await write(`${frameAround(harLog(list, pkg.version, unreadable), list).tail}\n`);
}
