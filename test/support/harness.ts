// One Loupe under test: the simulator as upstream on port 0, the real proxy on port 0,
// a real SQLite file in a fresh temp folder, and the real openai SDK pointed at the proxy.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { startCore, type Core, type CoreOptions } from '../../electron/core/core.js';
import { startSimUpstream, type SimUpstream } from '../../electron/core/sim/index.js';

export const TEST_KEY = 'sk-proj-LOUPETESTKEY0123456789abcdefghijklmnopqrstuvwxyzSECRET';

export interface Harness {
  sim: SimUpstream;
  core: Core;
  client: OpenAI;
  dbPath: string;
  dir: string;
  /** Flushes and derives everything recorded so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(options: Partial<CoreOptions> & { upstream?: string } = {}): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-test-'));
  const dbPath = path.join(dir, 'test.loupe');
  const sim = await startSimUpstream();
  const core = await startCore({ dbPath, port: 0, upstream: sim.url, log: () => {}, ...options });
  const client = new OpenAI({ apiKey: TEST_KEY, baseURL: core.proxy.baseUrl, maxRetries: 0 });
  let closed = false;
  return {
    sim,
    core,
    client,
    dbPath,
    dir,
    settle: () => core.settled(),
    async close() {
      if (closed) return;
      closed = true;
      await core.close();
      await sim.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a value other than undefined, or fails after `ms`. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
