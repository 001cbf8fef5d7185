// Screenshots of a recording's first run as the page opens it, for a person to look at:
// `loupe serve` on it, Chromium at 1600×1000 and 1280×800, the run clicked, and once its
// whole view and metrics are built, the canvas as opened, then after a search for the run's
// last response has moved it there. Usage: node dist/bench/open-screenshots.js FILE OUT_DIR QUERY
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, startServe } from './open-bench.js';

const [file, out, query] = process.argv.slice(2) as [string, string, string];
fs.mkdirSync(out, { recursive: true });
const serve = await startServe(file, 'http://127.0.0.1:9');
try {
  for (const viewport of [
    { width: 1600, height: 1000 },
    { width: 1280, height: 800 },
  ]) {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-open-shots-'));
    const context = await launchChromium(profile, viewport);
    try {
      const page = await context.newPage();
      await page.goto(serve.ui);
      await page.click('[data-run-id]');
      await page.waitForFunction(() => performance.getEntriesByName('loupe:metrics-built').length > 0, undefined, {
        timeout: 300_000,
      });
      await page.waitForTimeout(500);
      const size = `${viewport.width}x${viewport.height}`;
      await page.screenshot({ path: path.join(out, `open-${size}.png`) });
      await page.fill('[data-testid="graph-search"]', query);
      await page.press('[data-testid="graph-search"]', 'Enter');
      await page.waitForTimeout(1_000);
      const drawn = await page.$$eval('[data-node-type]', (els) => els.length);
      const edges = await page.$$eval('.react-flow__edge', (els) => els.length);
      process.stdout.write(
        `${size}: ${await page.textContent('[data-testid="graph-search-count"]')} matches, ${drawn} nodes and ${edges} edges drawn after the search\n`,
      );
      await page.screenshot({ path: path.join(out, `searched-${size}.png`) });
      // Scrolled up a little: the window moves with the viewport, the edges with it.
      await page.mouse.move(viewport.width / 2, viewport.height / 2);
      await page.mouse.wheel(0, -300);
      await page.waitForTimeout(1_000);
      const after = await page.$$eval('.react-flow__edge', (els) => els.length);
      process.stdout.write(`${size}: ${after} edges drawn after scrolling up\n`);
      await page.screenshot({ path: path.join(out, `scrolled-${size}.png`) });
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }
} finally {
  await serve.stop();
}
