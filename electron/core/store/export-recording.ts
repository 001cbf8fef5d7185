// Every export format of a recording, in one place for the CLI and the desktop app's
// File > Export menu. Output is produced in pieces so a large recording streams out
// instead of being built as one string. A damaged recording exports what it holds: rows
// that cannot be read back are placeholders in the output and tallied in the ReadDamage
// returned (read-damage.ts). A recording being written exports all it holds: what
// derivation has not written yet is normalized from raw (underived.ts), and responses still
// in flight come out as they stand, `in_progress`, and are counted in the report.
import pkg from '../../../package.json' with { type: 'json' };
import {
  exportDocument,
  exportRun,
  type ExportOptions as JsonExportOptions,
  type ExportRun,
} from '../../../shared/export/export-json.js';
import { loadForkOrigins, originOfLabel } from '../fork/fork-store.js';
import { harDocument, type HarInput, type HarUnreadable } from '../../../shared/export/har.js';
import { otlpDocument } from '../../../shared/export/otlp.js';
import { loadPriceTable } from '../trace/price-table.js';
import { attachAgentSpans } from '../../../shared/trace/thread/attach-agent-spans.js';
import type { Db } from './db.js';
import { isCorruption } from './integrity-check.js';
import { exchangeIds, loadRawExchange } from './raw-read.js';
import { readRecordingId } from './recording-id.js';
import { ReadDamage } from './read-damage.js';
import { loadRecorded } from './underived.js';

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
 * the pieces piling up in memory.
 */
export async function exportRecording(
  db: Db,
  format: ExportFormat,
  write: (text: string) => void | Promise<void>,
  options: ExportOptions = {},
): Promise<ExportReport> {
  const damage = new ReadDamage();
  if (format === 'har') {
    const { inputs, unreadable } = await harInputs(db, damage);
    await write(`${JSON.stringify(harDocument(inputs, pkg.version, unreadable))}\n`);
    return { damage, inFlight: [] };
  }
  const { runs, spans, inFlight } = await loadRecorded(db, damage);
  const spansByRun = attachAgentSpans(runs, spans).byRun;
  const origins = loadForkOrigins(db);
  const withOrigin = (out: ExportRun, label: string | null): ExportRun => {
    const origin = originOfLabel(origins, label);
    return origin ? { ...out, forked_from: origin } : out;
  };
  switch (format) {
    case 'json': {
      const doc = exportDocument(runs, undefined, spansByRun, await contextOptions());
      doc.runs = doc.runs.map((out) => withOrigin(out, out.label));
      await write(`${JSON.stringify(doc)}\n`);
      break;
    }
    case 'jsonl': {
      const options = await contextOptions();
      for (const run of runs)
        await write(
          `${JSON.stringify(withOrigin(exportRun(run, undefined, spansByRun.get(run.id), options), run.label))}\n`,
        );
      break;
    }
    case 'otlp': {
      const doc = otlpDocument(runs, {
        version: pkg.version,
        recordingId: readRecordingId(db),
        agentSpans: spansByRun,
        content: options.otlpContent,
      });
      await write(`${JSON.stringify(doc)}\n`);
      break;
    }
  }
  return { damage, inFlight };
}

/** Prices and the tokenizer for the context fields: loaded here, so other commands start without them. */
export async function contextOptions(): Promise<JsonExportOptions> {
  const { o200kCounter } = await import('../../../shared/context/o200k.js');
  return { prices: loadPriceTable().table, count: o200kCounter() };
}

async function harInputs(db: Db, damage: ReadDamage): Promise<{ inputs: HarInput[]; unreadable: HarUnreadable[] }> {
  const upstreamOf = db.prepare('SELECT upstream FROM exchanges WHERE id = ?');
  const inputs: HarInput[] = [];
  const unreadable: HarUnreadable[] = [];
  for (const id of exchangeIds(db)) {
    try {
      // A HAR holds every body whole, so it reads them whole, however large.
      const raw = await loadRawExchange(db, id, Infinity);
      if (raw) inputs.push({ raw, upstream: (upstreamOf.get(id) as { upstream: string }).upstream });
    } catch (err) {
      // Headers stored as JSON that no longer parses, or a page SQLite cannot read.
      if (!(err instanceof SyntaxError) && !isCorruption(err)) throw err;
      unreadable.push({ id, error: damage.note(`exchange ${id}`, err) });
    }
  }
  return { inputs, unreadable };
}
