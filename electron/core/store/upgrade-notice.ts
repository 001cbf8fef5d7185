// What a user sees while an existing recording is upgraded to this build's schema: the
// upgrade can copy every recorded byte (v3, ~17 s per GB on the dev machine) and read every
// derived record to index it for search (v4) and to store its context once (v5) and to
// thread it into runs (v6), and a proxy that is silent for that long at start-up looks hung. Progress is a line a
// second at most, so a log stays readable.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { UpgradeProgress } from '../../../shared/api/types.js';
import type { UpgradeListener } from './migrations.js';

const PROGRESS_EVERY_MS = 1_000;

export function upgradeNotice(file: string, log: (line: string) => void): UpgradeListener {
  let startedAt = 0;
  let shownAt = 0;
  return (from, to, phase, done = 0, total = 0, task = 'upgrading') => {
    const now = performance.now();
    if (phase === 'start') {
      startedAt = shownAt = now;
      const mb = Math.round(fs.statSync(file).size / 1e6);
      log(`loupe: upgrading ${file} (${mb} MB) from schema v${from} to v${to}, once; a large recording takes a while…`);
    } else if (phase === 'progress') {
      if (now - shownAt < PROGRESS_EVERY_MS && done < total) return;
      shownAt = now;
      log(`loupe: ${task} in ${file}: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} responses`);
    } else {
      log(`loupe: upgraded ${file} in ${((now - startedAt) / 1000).toFixed(1)} s`);
    }
  };
}

/**
 * `notice` (the lines for a log), and `onProgress` told the same steps as UpgradeProgress
 * for a window to show; progress at most once a second, as the lines are.
 */
export function upgradeProgress(
  file: string,
  notice: UpgradeListener,
  onProgress?: (progress: UpgradeProgress) => void,
): UpgradeListener {
  if (!onProgress) return notice;
  let toldAt = 0;
  return (from, to, phase, done = 0, total = 0, task) => {
    notice(from, to, phase, done, total, task);
    const now = performance.now();
    if (phase === 'progress' && now - toldAt < PROGRESS_EVERY_MS && done < total) return;
    toldAt = now;
    onProgress({ path: file, fromVersion: from, toVersion: to, phase, task: task ?? null, done, total });
  };
}
