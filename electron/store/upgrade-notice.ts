// What a user sees while an existing recording is upgraded to this build's schema: the
// upgrade can copy every recorded byte (v3, ~17 s per GB on the dev machine), and a proxy
// that is silent for that long at start-up looks hung.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { UpgradeListener } from './migrations.js';

export function upgradeNotice(file: string, log: (line: string) => void): UpgradeListener {
  let startedAt = 0;
  return (from, to, phase) => {
    if (phase === 'start') {
      startedAt = performance.now();
      const mb = Math.round(fs.statSync(file).size / 1e6);
      log(`loupe: upgrading ${file} (${mb} MB) from schema v${from} to v${to}, once; a large recording takes a while…`);
    } else {
      log(`loupe: upgraded ${file} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
    }
  };
}
