// Every export format of a recording, in one place for the CLI and the desktop app's
// File > Export menu. Output is produced in pieces so a large recording streams out
// instead of being built as one string.
import pkg from '../../package.json' with { type: 'json' };
import { exportDocument, exportRun } from '../../shared/export/export-json.js';
import { harDocument } from '../../shared/export/har.js';
import { otlpDocument } from '../../shared/export/otlp.js';
import { attachAgentSpans } from '../../shared/trace/attach-agent-spans.js';
import type { Run } from '../../shared/trace/thread.js';
import type { AgentSpan } from '../../shared/trace/types.js';
import type { Db } from './db.js';
import { exchangeIds, loadRawExchange } from './raw-read.js';
import { loadAgentSpans, loadRuns } from './runs-read.js';

function spansByRun(db: Db, runs: Run[]): Map<string, AgentSpan[]> {
  return attachAgentSpans(runs, loadAgentSpans(db)).byRun;
}

export const EXPORT_FORMATS = ['json', 'jsonl', 'har', 'otlp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: string): value is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(value);
}

/**
 * Writes the recording in `format` through `write`, piece by piece, waiting for each
 * piece's promise (if it returns one) so a slow reader holds the export back instead of
 * the pieces piling up in memory.
 */
export async function exportRecording(db: Db, format: ExportFormat, write: (text: string) => void | Promise<void>): Promise<void> {
  switch (format) {
    case 'json': {
      const runs = loadRuns(db);
      await write(`${JSON.stringify(exportDocument(runs, undefined, spansByRun(db, runs)))}\n`);
      return;
    }
    case 'jsonl': {
      const runs = loadRuns(db);
      const spans = spansByRun(db, runs);
      for (const run of runs) await write(`${JSON.stringify(exportRun(run, undefined, spans.get(run.id)))}\n`);
      return;
    }
    case 'otlp':
      await write(`${JSON.stringify(otlpDocument(loadRuns(db), pkg.version))}\n`);
      return;
    case 'har': {
      const upstreamOf = db.prepare('SELECT upstream FROM exchanges WHERE id = ?');
      const inputs = [];
      for (const id of exchangeIds(db)) {
        // A HAR holds every body whole, so it reads them whole, however large.
        const raw = await loadRawExchange(db, id, Infinity);
        if (raw) inputs.push({ raw, upstream: (upstreamOf.get(id) as { upstream: string }).upstream });
      }
      await write(`${JSON.stringify(harDocument(inputs, pkg.version))}\n`);
      return;
    }
  }
}
