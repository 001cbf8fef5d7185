// Every export format built whole, each document by its builder and stringified in one
// piece, as `loupe export` wrote them before it wrote in pieces: the reference the
// streamed exports must equal byte for byte. Fine for the small recordings of tests.
import pkg from '../../package.json' with { type: 'json' };
import { exportDocument, exportRun } from '../../shared/export/export-json.js';
import { harDocument, type HarInput, type HarUnreadable } from '../../shared/export/har.js';
import { otlpDocument } from '../../shared/export/otlp.js';
import { attachAgentSpans } from '../../shared/trace/thread/attach-agent-spans.js';
import { loadForkOrigins, originOfLabel } from '../../electron/core/fork/fork-store.js';
import type { Db } from '../../electron/core/store/db.js';
import { contextOptions, type ExportFormat } from '../../electron/core/store/export-recording.js';
import { exchangeIds, loadRawExchange } from '../../electron/core/store/raw-read.js';
import { ReadDamage } from '../../electron/core/store/read-damage.js';
import { readRecordingId } from '../../electron/core/store/recording-id.js';
import { loadRecorded } from '../../electron/core/store/underived.js';

/** Every format, and OTLP with its message content too. */
export const STREAMED_FORMATS: Array<[ExportFormat, { otlpContent?: boolean }]> = [
  ['json', {}],
  ['jsonl', {}],
  ['har', {}],
  ['otlp', {}],
  ['otlp', { otlpContent: true }],
];

export async function wholeExport(db: Db, format: ExportFormat, options: { otlpContent?: boolean } = {}) {
  const damage = new ReadDamage();
  if (format === 'har') {
    const inputs: HarInput[] = [];
    const unreadable: HarUnreadable[] = [];
    const upstreamOf = db.prepare('SELECT upstream FROM exchanges WHERE id = ?').pluck();
    for (const id of exchangeIds(db)) {
      try {
        const raw = await loadRawExchange(db, id, Infinity);
        if (raw) inputs.push({ raw, upstream: upstreamOf.get(id) as string });
      } catch (err) {
        unreadable.push({ id, error: damage.note(`exchange ${id}`, err) });
      }
    }
    return `${JSON.stringify(harDocument(inputs, pkg.version, unreadable))}\n`;
  }
  const { runs, spans } = await loadRecorded(db, damage);
  const spansByRun = attachAgentSpans(runs, spans).byRun;
  const origins = loadForkOrigins(db);
  const withOrigin = <T extends { label: string | null }>(out: T) => {
    const origin = originOfLabel(origins, out.label);
    return origin ? { ...out, forked_from: origin } : out;
  };
  switch (format) {
    case 'json': {
      const doc = exportDocument(runs, undefined, spansByRun, await contextOptions());
      return `${JSON.stringify({ runs: doc.runs.map(withOrigin) })}\n`;
    }
    case 'jsonl': {
      const context = await contextOptions();
      return runs
        .map((run) => `${JSON.stringify(withOrigin(exportRun(run, undefined, spansByRun.get(run.id), context)))}\n`)
        .join('');
    }
    case 'otlp': {
      const doc = otlpDocument(runs, {
        version: pkg.version,
        recordingId: readRecordingId(db),
        agentSpans: spansByRun,
        content: options.otlpContent,
      });
      return `${JSON.stringify(doc)}\n`;
    }
  }
}
