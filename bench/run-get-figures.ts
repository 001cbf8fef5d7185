// What opening a recording's longest run costs the service in-process, without the UI:
// `runs.get` of it the first time (time, bytes of the JSON it answers, heap after a forced
// collection with the answer still held, peak RSS of the process). Opened for writing first,
// as `loupe serve` opens it, so a file from an older schema is upgraded (timed on its own)
// before it is read. For a figure from the file as it is, point it at a copy:
//   node --expose-gc dist/bench/run-get-figures.js COPY.loupe
import { performance } from 'node:perf_hooks';
import { createService } from '../electron/core/service/service.js';
import { openDb } from '../electron/core/store/db.js';
import { upgradeNotice } from '../electron/core/store/upgrade-notice.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node --expose-gc dist/bench/run-get-figures.js FILE.loupe\n');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc: the heap figure is taken after a forced collection');
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

let startedAt = performance.now();
const notice = upgradeNotice(file, (line) => process.stderr.write(`${line}\n`));
// The upgrade alone: opening for writing also checks the whole file first (integrity-check.ts).
let upgradeSeconds = 0;
let upgradeFrom = 0;
const db = openDb(file, {
  onUpgrade: (from, to, phase, ...rest) => {
    if (phase === 'start') upgradeFrom = performance.now();
    if (phase === 'done') upgradeSeconds = (performance.now() - upgradeFrom) / 1000;
    notice(from, to, phase, ...rest);
  },
});
db.close();
const openForWritingSeconds = (performance.now() - startedAt) / 1000;

const service = createService({ dbPath: file });
try {
  const { runs } = await service.invoke('runs.list', {});
  const longest = runs.reduce((a, b) => (b.responses > a.responses ? b : a));
  gc();
  const before = process.memoryUsage();
  startedAt = performance.now();
  const detail = await service.invoke('runs.get', { runId: longest.id });
  const getMs = performance.now() - startedAt;
  const json = JSON.stringify(detail);
  gc();
  const after = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({
      file,
      responses: detail.responses.length,
      items: detail.items.length,
      openForWritingSeconds: Math.round(openForWritingSeconds * 10) / 10,
      upgradeSeconds: Math.round(upgradeSeconds * 10) / 10,
      runsGetMs: Math.round(getMs),
      jsonMb: mb(Buffer.byteLength(json)),
      heapBeforeMb: mb(before.heapUsed),
      heapAfterGcMb: mb(after.heapUsed),
      rssAfterMb: mb(after.rss),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    })}\n`,
  );
} finally {
  await service.close();
}
