// `loupe reindex FILE`: throws away the derived tables and rebuilds them from the raw
// exchanges, e.g. after an upgrade taught the normalizer something new.
import { openLocked } from '../store/recording-lock.js';
import { reindex } from '../store/derive.js';
import { buildRunSnapshot } from '../store/run-snapshot-keeper.js';
import { upgradeNotice } from '../store/upgrade-notice.js';
import { UsageError, type ParsedArgs } from './args.js';
import fs from 'node:fs';

export async function reindexCommand(args: ParsedArgs): Promise<number> {
  const file = args.positionals[0];
  if (!file) throw new UsageError('reindex needs a recording file: loupe reindex FILE');
  if (!fs.existsSync(file)) throw new Error(`no such recording: ${file}`);
  // It rewrites the derived tables: not while a proxy records into the file.
  const { db, lock } = openLocked(file, {
    onUpgrade: upgradeNotice(file, (line) => process.stderr.write(`${line}\n`)),
  });
  try {
    const showProgress = process.stderr.isTTY;
    const count = await reindex(db, (done, total) => {
      if (showProgress && (done % 100 === 0 || done === total))
        process.stderr.write(`\rloupe: reindexed ${done}/${total}`);
    });
    if (showProgress) process.stderr.write('\n');
    // The run snapshot is derived from what was just rebuilt: written now, so the next open reads it.
    buildRunSnapshot(db);
    const responses = (db.prepare('SELECT COUNT(*) AS n FROM responses').get() as { n: number }).n;
    process.stderr.write(`loupe: rebuilt ${responses} responses from ${count} exchanges in ${file}\n`);
  } finally {
    lock.release();
    db.close();
  }
  return 0;
}
