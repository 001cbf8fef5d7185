// `loupe export FILE [--format json|jsonl|har|otlp]` on stdout. `json` is the document of
// DESIGN.md; `jsonl` one run per line in the same shape; `har` HAR 1.2 of every exchange;
// `otlp` OTLP/JSON traces, one per run. A damaged recording exports what it holds, says on
// stderr how many rows it could not read, and exits with PARTIAL_EXPORT. A recording being
// written exports everything it holds so far; responses still in flight come out as they
// stand (`in_progress`) and stderr says how many.
import { openDb } from '../store/db.js';
import { EXPORT_FORMATS, exportRecording, isExportFormat } from '../store/export-recording.js';
import { stringFlag, switchFlag, UsageError, type ParsedArgs } from './args.js';
import { ReaderGone, stdoutSink } from './stdout-sink.js';

/** The exit status of an export that left out rows it could not read (1 is failure, 2 a usage error). */
export const PARTIAL_EXPORT = 3;

export async function exportCommand(args: ParsedArgs): Promise<number> {
  const file = args.positionals[0];
  if (!file)
    throw new UsageError(`export needs a recording file: loupe export FILE [--format ${EXPORT_FORMATS.join('|')}]`);
  const format = stringFlag(args, 'format') ?? 'json';
  if (!isExportFormat(format))
    throw new UsageError(`unknown --format "${format}"; use one of ${EXPORT_FORMATS.join(', ')}`);
  const db = openDb(file, { readonly: true });
  try {
    const { damage, inFlight } = await exportRecording(db, format, stdoutSink(), {
      otlpContent: switchFlag(args, 'otlp-content'),
    });
    if (inFlight.length) {
      process.stderr.write(
        `loupe: ${inFlight.length} exchange(s) of ${file} had not ended (still in flight, or cut off when its recorder stopped) and are exported as they stood, with status in_progress\n`,
      );
    }
    if (damage.rows.length === 0) return 0;
    process.stderr.write(
      `loupe: ${file} is damaged: ${damage.rows.length} row(s) could not be read and are marked unreadable in the export, the rest was exported (first: ${damage.rows[0]})\n`,
    );
    return PARTIAL_EXPORT;
  } catch (err) {
    // `| head` took what it wanted: a normal end for a producer, so exit 0 and say nothing.
    if (!(err instanceof ReaderGone)) throw err;
    return 0;
  } finally {
    db.close();
  }
}
