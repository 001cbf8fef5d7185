// Views the simulator cannot produce, from the trace model's scenario recordings served by
// the real `loupe serve`: multi-agent lanes with their names, a program containing the tool
// calls it made, and a shaded compaction window with its token savings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compaction, multiAgent, programmatic } from '../shared/trace/testing/scenarios.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { writeScenarios } from './support/recording.js';
import { assertBuilt, serve, type Served } from './support/serve.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('scenario views in Chromium', () => {
  let server: Served;
  let browser: Browser;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    assertBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-scenarios-'));
    const db = path.join(dir, 'scenarios.loupe');
    writeScenarios(db, [
      { label: 'multi-agent', exchanges: multiAgent() },
      { label: 'programmatic', exchanges: programmatic() },
      { label: 'compaction', exchanges: compaction() },
    ]);
    // No traffic in this suite: any unreachable upstream will do.
    server = await serve('http://127.0.0.1:9', ['--db', db]);
    browser = await launch({ width: 1600, height: 1000 });
    page = await browser.context.newPage();
    await page.goto(server.ui);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const open = async (label: string) => {
    await page.click(`[data-run-id="label:${label}"]`);
    await page.waitForSelector(`[data-testid="run-pane"][data-run="label:${label}"] [data-node-type]`);
    await page.waitForTimeout(300);
  };
  const types = () => page.$$eval('[data-node-type]', (els) => els.map((e) => e.getAttribute('data-node-type')!));

  it('draws agents as named lanes with spawn and message edges', async () => {
    await open('multi-agent');
    const lanes = await page.$$eval('[data-group-kind="agent"]', (els) => els.map((e) => e.textContent));
    expect(lanes).toEqual(expect.arrayContaining(['root', 'researcher', 'fact_checker']));
    expect(await types()).toEqual(
      expect.arrayContaining(['multi_agent_call', 'agent_message', 'web_search_call', 'multi_agent_call_output']),
    );
    expect(await page.$$('.loupe-edge-spawn')).not.toHaveLength(0);
    await page.screenshot({ path: artifact('11-multi-agent-lanes.png') });
  });

  it('hangs the tool calls a program made off the program', async () => {
    await open('programmatic');
    expect(await types()).toEqual(expect.arrayContaining(['program', 'function_call', 'program_output']));
    expect(await page.$$('.loupe-edge-program')).toHaveLength(2);
    await page.click('[data-node-type="program"]');
    expect(await page.textContent('[data-testid="node-inspector"]')).toContain('lookup("a")');
    await page.screenshot({ path: artifact('12-program.png') });
  });

  it('shades a compaction window and says how many tokens it saved', async () => {
    await open('compaction');
    const window = await page.waitForSelector('[data-group-kind="compaction"]');
    expect(await window.textContent()).toMatch(/38,102.*2,904/);
    await page.screenshot({ path: artifact('13-compaction.png') });
  });
});
