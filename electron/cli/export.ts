// `loupe export FILE [--format json|jsonl|har|otlp]` on stdout. `json` is the document of
// DESIGN.md; `jsonl` one run per line in the same shape; `har` HAR 1.2 of every exchange;
// `otlp` OTLP/JSON traces, one per run.
import { openDb } from '../store/db.js';
import { EXPORT_FORMATS, exportRecording, isExportFormat } from '../store/export-recording.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';
import { ReaderGone, stdoutSink } from './stdout-sink.js';

export async function exportCommand(args: ParsedArgs): Promise<number> {
  const file = args.positionals[0];
  if (!file) throw new UsageError(`export needs a recording file: loupe export FILE [--format ${EXPORT_FORMATS.join('|')}]`);
  const format = stringFlag(args, 'format') ?? 'json';
  if (!isExportFormat(format)) throw new UsageError(`unknown --format "${format}"; use one of ${EXPORT_FORMATS.join(', ')}`);
  const db = openDb(file, { readonly: true });
  try {
    await exportRecording(db, format, stdoutSink(), { otlpContent: args.flags.has('otlp-content') });
  } catch (err) {
    // `| head` took what it wanted: a normal end for a producer, so exit 0 and say nothing.
    if (!(err instanceof ReaderGone)) throw err;
  } finally {
    db.close();
  }
  return 0;
}
