// Debian's Chromium driven by playwright-core (never a downloaded browser). The flags keep
// it off the network this machine does not have; each launch gets a fresh profile folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ROOT } from './serve.js';

export const CHROMIUM = process.env.LOUPE_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');

export function chromiumMissing(): string | null {
  return fs.existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install -y chromium; .ci/run does it)`;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launch(
  options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function artifact(name: string): string {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return path.join(ARTIFACTS, name);
}
