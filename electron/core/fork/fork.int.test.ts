// Forking a recorded run through the real proxy with the real openai SDK: a three-step tool
// loop is recorded against the simulator, then re-run under a fork's base URL against a
// fresh simulator that counts what reaches it. Steps before the fork's step must never
// reach it; the step and everything after must, with the edit in place; and an edited
// model output must stream as deltas that add up to the edit.
import fs from 'node:fs';
import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../core.js';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import { openDb, type Db } from '../store/db.js';
import { exportRecording } from '../store/export-recording.js';
import { loadRawExchange } from '../store/raw-read.js';
import { createService } from '../service/service.js';
import { forkMaker } from './fork-maker.js';
import { forkBaseUrl } from './fork-registry.js';
import { ForkPlanError } from './prepare-fork.js';
import { parseSetArg } from '../../../shared/fork/fork-edits.js';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { bodyText } from '../../../shared/trace/decode/exchange-body.js';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';

const TOOLS: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    strict: false,
  },
];
const sim = (toolCalls: number) => ({ headers: { 'x-sim': JSON.stringify({ toolCalls }) } });

interface Loop {
  ids: string[];
  /** The text each streamed step's deltas add up to, and the final text. */
  deltaText: string[];
  finalText: string[];
  usage: Array<OpenAI.Responses.ResponseUsage | undefined>;
}

async function streamed(
  client: OpenAI,
  body: OpenAI.Responses.ResponseCreateParamsStreaming,
  toolCalls: number,
  loop: Loop,
): Promise<OpenAI.Responses.Response> {
  const stream = await client.responses.create(body, sim(toolCalls));
  let deltas = '';
  let final: OpenAI.Responses.Response | null = null;
  for await (const e of stream as AsyncIterable<ResponseStreamEvent>) {
    if (e.type === 'response.output_text.delta') deltas += e.delta;
    if (e.type === 'response.completed') final = e.response;
  }
  if (!final) throw new Error('the stream ended without response.completed');
  loop.ids.push(final.id);
  loop.deltaText.push(deltas);
  loop.finalText.push(
    final.output
      .flatMap((i) => (i.type === 'message' ? i.content.map((c) => (c.type === 'output_text' ? c.text : '')) : []))
      .join(''),
  );
  loop.usage.push(final.usage);
  return final;
}

/** The app: ask, run the tool the model calls, answer with its output, three steps. */
async function toolLoop(baseURL: string): Promise<Loop> {
  const client = new OpenAI({ apiKey: TEST_KEY, baseURL, maxRetries: 0 });
  const loop: Loop = { ids: [], deltaText: [], finalText: [], usage: [] };
  const base = { model: 'gpt-5', tools: TOOLS, stream: true as const };
  let r = await streamed(client, { ...base, input: 'Weather in Paris, then in Rome?' }, 1, loop);
  for (const [turn, reply] of [
    [1, 'sunny, 24C'],
    [0, 'rain, 12C'],
  ] as const) {
    const call = r.output.find((i) => i.type === 'function_call');
    if (!call || call.type !== 'function_call') throw new Error('expected a function call');
    r = await streamed(
      client,
      {
        ...base,
        previous_response_id: r.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: reply }],
      },
      turn,
      loop,
    );
  }
  return loop;
}

let h: Harness;
let original: Loop;
let runId: string;

async function exported(db: Db): Promise<ExportDocument> {
  let text = '';
  await exportRecording(db, 'json', (piece) => void (text += piece));
  return JSON.parse(text) as ExportDocument;
}

beforeAll(async () => {
  h = await startHarness();
  original = await toolLoop(h.core.proxy.baseUrl);
  await h.settle();
  const doc = await exported(h.core.db);
  runId = doc.runs.find((r) => r.responses[0]?.id === original.ids[0])!.id;
});
afterAll(() => h.close());

/** A fork of the recording, served by a core of its own into the same file, whose upstream is a fresh simulator. */
async function forked(
  sets: string[],
  step: number,
): Promise<{
  loop: Loop;
  live: SimUpstream;
  liveRequests: number;
  core: Core;
  forkId: string;
  close(): Promise<void>;
}> {
  await h.core.close();
  const live = await startSimUpstream();
  // A fresh simulator hands out the same ids as the one recorded against; used a little, it does not.
  const direct = new OpenAI({ apiKey: TEST_KEY, baseURL: `${live.url}/v1`, maxRetries: 0 });
  for (let i = 0; i < 3; i++) await direct.responses.create({ model: 'gpt-5', input: 'warm-up' });
  const core = await startCore({ dbPath: h.dbPath, port: 0, upstream: live.url, log: () => {} });
  const source = openDb(h.dbPath, { readonly: true });
  const fork = await core.forks.make(source, core.db, { run: runId, step, edits: sets.map(parseSetArg) });
  const loop = await toolLoop(forkBaseUrl(core.proxy.baseUrl, fork.id));
  await core.settled();
  h.core = core;
  return {
    loop,
    live,
    liveRequests: live.stats().requests - 3,
    core,
    forkId: fork.id,
    close: async () => (source.close(), await live.close()),
  };
}

describe('loupe fork', () => {
  it('at step 2 with an edited function output: step 1 comes from the recording, step 2 on goes live with the edit', async () => {
    const f = await forked(['/request/input/0/output="hail, -3C"'], 2);
    try {
      // Step 1 was answered from the recording: its id is the recorded one, and the live
      // upstream got exactly steps 2 and 3.
      expect(f.loop.ids[0]).toBe(original.ids[0]);
      expect(f.loop.ids.slice(1)).not.toContain(original.ids[1]);
      expect(f.liveRequests).toBe(2);

      const doc = await exported(f.core.db);
      const fork = doc.runs.find((r) => r.label === `fork-${f.forkId}`)!;
      expect(fork.forked_from).toEqual({ run: runId, step: 2 });
      expect(fork.responses.map((r) => r.id)).toEqual(f.loop.ids);
      // The original run is untouched.
      expect(doc.runs.find((r) => r.id === runId)!.responses.map((r) => r.id)).toEqual(original.ids);

      // What went live at step 2: the edited output, with step 1 (served from the
      // recording, so unknown upstream) written out in place of previous_response_id.
      const rows = f.core.db
        .prepare('SELECT id FROM exchanges WHERE label = ? ORDER BY id')
        .pluck()
        .all(`fork-${f.forkId}`) as number[];
      expect(rows).toHaveLength(3);
      const step2 = JSON.parse(bodyText((await loadRawExchange(f.core.db, rows[1]!))!.request)) as {
        previous_response_id?: string;
        input: Array<{ type?: string; output?: string; role?: string }>;
      };
      expect(step2.previous_response_id).toBeUndefined();
      expect(step2.input[0]).toMatchObject({ role: 'user', content: 'Weather in Paris, then in Rome?' });
      expect(step2.input.at(-1)).toMatchObject({ type: 'function_call_output', output: 'hail, -3C' });
      expect(step2.input.some((i) => i.type === 'function_call')).toBe(true);
      // Step 3 continues the live step 2 by id, as the app sent it.
      const step3 = JSON.parse(bodyText((await loadRawExchange(f.core.db, rows[2]!))!.request)) as {
        previous_response_id?: string;
      };
      expect(step3.previous_response_id).toBe(f.loop.ids[1]);
    } finally {
      await f.close();
    }
  });

  it('at step 3 with an edited message: served from the recording with deltas that add up to the edit, usage kept, nothing live', async () => {
    const f = await forked(['/response/output/0/content/0/text=The forecast was edited.'], 3);
    try {
      expect(f.liveRequests).toBe(0);
      expect(f.loop.ids).toEqual(original.ids);
      expect(f.loop.deltaText[2]).toBe('The forecast was edited.');
      expect(f.loop.finalText[2]).toBe('The forecast was edited.');
      expect(f.loop.usage[2]).toEqual(original.usage[2]);
      // Steps before are byte for byte the recorded ones.
      expect(f.loop.deltaText.slice(0, 2)).toEqual(original.deltaText.slice(0, 2));
      const doc = await exported(f.core.db);
      expect(doc.runs.find((r) => r.label === `fork-${f.forkId}`)?.forked_from).toEqual({ run: runId, step: 3 });
      let lines = '';
      await exportRecording(f.core.db, 'jsonl', (piece) => void (lines += piece));
      const rows = lines
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { label: string | null; forked_from?: unknown });
      expect(rows.find((r) => r.label === `fork-${f.forkId}`)?.forked_from).toEqual({ run: runId, step: 3 });
      expect(rows.find((r) => r.label === null)?.forked_from).toBeUndefined();
    } finally {
      await f.close();
    }
  });

  it('refuses a bad run, step or pointer before anything is served', async () => {
    const source = openDb(h.dbPath, { readonly: true });
    try {
      const make = (run: string, step: number, set: string) =>
        h.core.forks.make(source, h.core.db, { run, step, edits: [parseSetArg(set)] });
      await expect(make('run:nope', 1, '/request/instructions=x')).rejects.toThrow(/no run "run:nope"/);
      await expect(make(runId, 4, '/request/instructions=x')).rejects.toThrow(/has 3 steps; --at takes 1 to 3, got 4/);
      await expect(make(runId, 2, '/request/input/7/output=x')).rejects.toThrow(ForkPlanError);
      await expect(make(runId, 2, '/request/input/7/output=x')).rejects.toThrow(
        /\/request\/input\/7: the array at \/request\/input has 1 element/,
      );
      await expect(make(runId, 3, '/response/output/0/nothing/here=x')).rejects.toThrow(/no "nothing"/);
      expect(() => parseSetArg('/answer/x=1')).toThrow(/starts at \/response .* or \/request/);
      expect(() => parseSetArg('request/instructions=1')).toThrow(/needs a JSON pointer/);
    } finally {
      source.close();
    }
    expect(fs.existsSync(h.dbPath)).toBe(true);
  });

  it('is made through the API (forks.create) on the running proxy, and the runs list shows the fork with its origin', async () => {
    const service = createService({ core: h.core, makeFork: forkMaker(h.core, () => {}) });
    try {
      await expect(
        service.invoke('forks.create', { runId, step: 2, edits: [{ pointer: '/request/input/9/output', value: 'x' }] }),
      ).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/\/request\/input\/9/) });
      await expect(service.invoke('forks.create', { runId, step: 2, edits: [] })).rejects.toMatchObject({
        code: 'bad_request',
      });
      const info = await service.invoke('forks.create', {
        runId,
        step: 3,
        edits: [{ pointer: '/response/output/0/content/0/text', value: 'Made in the UI.' }],
      });
      expect(info.baseUrl).toBe(`${h.core.proxy.baseUrl.replace(/\/v1$/, '')}/fork/${info.id}/v1`);
      const loop = await toolLoop(info.baseUrl);
      expect(loop.finalText[2]).toBe('Made in the UI.');
      await h.core.settled();
      await service.sync();
      const { runs } = await service.invoke('runs.list', {});
      expect(runs.find((r) => r.id === info.runId)).toMatchObject({
        forkedFrom: { run: runId, step: 3 },
        responses: 3,
      });
      expect(runs.find((r) => r.id === runId)?.forkedFrom).toBeUndefined();
    } finally {
      await service.close();
    }
  });

  it('answers a base URL naming no plan with a clear 404', async () => {
    const client = new OpenAI({
      apiKey: TEST_KEY,
      baseURL: forkBaseUrl(h.core.proxy.baseUrl, 'zzzzzzzz'),
      maxRetries: 0,
    });
    await expect(client.responses.create({ model: 'gpt-5', input: 'hi' })).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/no fork plan "zzzzzzzz"/),
    });
  });
});
