// Conversations in Chromium, through `loupe serve` against a scripted upstream: an
// @openai/agents OpenAIConversationsSession's writes and reads sit on the waterfall between
// the responses (never as responses), an item says when it was written to its conversation
// and read back, and the Context tab of a `conversation` request lists what the
// conversation held for it. Screenshots at 1600x1000 and 1280x800.
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSessionTurns } from '../test/support/agents-session.js';
import { startReadsUpstream, type ReadsUpstream } from '../test/support/reads-upstream.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { assertBuilt, serve, type Served } from './support/serve.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('conversation items in Chromium', () => {
  let upstream: ReadsUpstream;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let session: string[];
  let chained: { first: string; second: string; conversation: string };

  beforeAll(async () => {
    assertBuilt();
    upstream = await startReadsUpstream();
    server = await serve(upstream.url);
    const client = new OpenAI({ apiKey: 'sk-test-e2e', baseURL: server.proxy, maxRetries: 0 });
    session = await runSessionTurns(client);
    // The openai SDK on its own: an item written to a conversation, two responses that continue it, a listing.
    const conversation = await client.conversations.create();
    await client.conversations.items.create(conversation.id, {
      items: [{ type: 'message', role: 'user', content: 'My order number is 42.' }],
    });
    const first = await client.responses.create({ model: 'gpt-5', conversation: conversation.id, input: 'where?' });
    const call = first.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await client.responses.create({
      model: 'gpt-5',
      conversation: conversation.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'shipped' }],
    });
    await client.conversations.items.list(conversation.id);
    chained = { first: first.id, second: second.id, conversation: conversation.id };
    browser = await launch({ width: 1600, height: 1000 });
    page = await browser.context.newPage();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    await upstream?.close();
  });

  async function openRun(responseId: string): Promise<void> {
    await page.goto(`${server.ui}#run=${encodeURIComponent(`run:${responseId}`)}`);
    await page.reload();
    await page.waitForSelector(`[data-testid="run-pane"][data-run="run:${responseId}"] [data-node-type]`, {
      timeout: 30_000,
    });
  }

  it("puts the session's writes and reads on the waterfall, and an item says when it was written and read back", async () => {
    await openRun(session[0]!);
    // Three responses, however many conversation calls.
    expect(await page.textContent(`[data-run-id="run:${session[0]}"]`)).toMatch(/3\s*resp/);
    await page.click('button[data-tab="waterfall"]');
    await page.waitForSelector('[data-conversation-row]');
    expect(await page.$$eval('[data-waterfall-row]', (els) => els.length)).toBe(3);
    const kinds = await page.$$eval('[data-conversation-row]', (els) =>
      els.map((e) => e.getAttribute('data-conversation-row')),
    );
    expect(kinds).toContain('write');
    expect(kinds).toContain('read');
    // In time order: a write after the first response, the second turn's read before its response.
    const order = await page.$$eval('[data-waterfall-row], [data-conversation-row]', (els) =>
      els.map((e) => (e.hasAttribute('data-waterfall-row') ? 'response' : e.getAttribute('data-conversation-row'))),
    );
    expect(order.indexOf('write')).toBeGreaterThan(order.indexOf('response'));
    expect(order.lastIndexOf('read')).toBeLessThan(order.lastIndexOf('response'));
    await page.screenshot({ path: artifact('conversations-waterfall-1600x1000.png') });

    // The function call was written to the conversation after the first turn and read back before the second.
    const write = page.locator('[data-conversation-row="write"]').first();
    await write.click();
    await page.waitForSelector('[data-testid="conversation-marks"]');
    const marks = await page.$$eval('[data-testid="conversation-marks"] [data-mark]', (els) =>
      els.map((e) => e.textContent ?? ''),
    );
    expect(marks[0]).toMatch(/^written to conv_\S+ at \+/);
    expect(marks.some((m) => /^read back from conv_\S+ at \+/.test(m))).toBe(true);
    await page.screenshot({ path: artifact('conversations-marks-1600x1000.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: artifact('conversations-marks-1280x800.png') });
    await page.setViewportSize({ width: 1600, height: 1000 });
  }, 60_000);

  it('lists what the conversation held in the Context tab of a request that continues it', async () => {
    await openRun(chained.first);
    await page.goto(`${server.ui}#run=${encodeURIComponent(`run:${chained.first}`)}&response=2`);
    await page.reload();
    await page.click('[data-testid="inspector-tab-context"]');
    await page.waitForSelector('[data-testid="context-tab"][data-state="ready"]', { timeout: 30_000 });
    const rows = await page.$$eval('[data-testid="context-parts"] button[data-part="input"]', (els) =>
      els.map((e) => ({ source: e.getAttribute('data-source'), text: e.textContent ?? '' })),
    );
    expect(rows.map((r) => r.source)).toEqual(['conversation', 'conversation', 'conversation', 'request']);
    expect(rows[0]!.text).toContain(`from conversation ${chained.conversation}`);
    await page.screenshot({ path: artifact('conversations-context-1600x1000.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: artifact('conversations-context-1280x800.png') });
    await page.setViewportSize({ width: 1600, height: 1000 });
  }, 60_000);
});
