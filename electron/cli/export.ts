// `loupe export FILE --format json|jsonl`: the document of DESIGN.md on stdout. `jsonl`
// writes one run per line, same shape as an element of `runs`, for streaming consumers.
import { exportDocument, exportRun } from '../../shared/export/export-json.js';
import { openDb } from '../store/db.js';
import { loadRuns } from '../store/runs-read.js';
import { stringFlag, UsageError, type ParsedArgs } from './args.js';

const FORMATS = ['json', 'jsonl', 'har', 'otlp'] as const;

export async function exportCommand(args: ParsedArgs): Promise<number> {
  const file = args.positionals[0];
  if (!file) throw new UsageError('export needs a recording file: loupe export FILE [--format json|jsonl]');
  const format = stringFlag(args, 'format') ?? 'json';
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`unknown --format "${format}"; use one of ${FORMATS.join(', ')}`);
  }
  if (format === 'har' || format === 'otlp') {
    throw new UsageError(`--format ${format} is not available in this build yet; use json or jsonl`);
  }
  const db = openDb(file, { readonly: true });
  try {
    const runs = loadRuns(db);
    if (format === 'json') {
      process.stdout.write(`${JSON.stringify(exportDocument(runs))}\n`);
    } else {
      for (const run of runs) process.stdout.write(`${JSON.stringify(exportRun(run))}\n`);
    }
  } finally {
    db.close();
  }
  return 0;
}
