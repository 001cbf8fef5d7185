// One contract test suite for every adapter of shared/api: the service called directly,
// the headless HTTP/WebSocket server, and Electron IPC. Each adapter passes a
// `connect` that wraps a running service in its transport; the assertions never change.
// The service is started as `loupe serve` and the app start it, in its own thread's code
// behind the thread transport (service-thread.ts), so every payload crosses it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvents, EventName, LoupeApi } from '../../shared/api/contract.js';
import { ApiError } from '../../shared/api/errors.js';
import { expandRun } from '../../shared/api/run-expand.js';
import { startService, type ServiceHandle } from '../../electron/core/service/service-thread.js';
import { agentTrace, runWeatherAgent } from './agent-script.js';
import { copyAsSchemaV1 } from './schema-v1-copy.js';
import { eventually, startHarness, TEST_KEY, type Harness } from './harness.js';

export interface Connected {
  api: LoupeApi;
  close(): Promise<void>;
}

export type Connect = (service: ServiceHandle) => Promise<Connected>;

export function describeContract(adapter: string, connect: Connect): void {
  describe(`API contract over ${adapter}`, () => {
    let h: Harness;
    let service: ServiceHandle;
    let conn: Connected;
    let api: LoupeApi;
    const seen: Array<{ event: EventName; payload: unknown }> = [];
    const offs: Array<() => void> = [];

    beforeEach(async () => {
      h = await startHarness();
      service = await startService(h.core, { livePollMs: 20 });
      conn = await connect(service);
      api = conn.api;
      seen.length = 0;
      for (const event of [
        'exchange.recorded',
        'exchange.updated',
        'run.updated',
        'run.removed',
        'recording.failed',
        'recording.opened',
      ] as const) {
        offs.push(api.on(event, (payload) => seen.push({ event, payload })));
      }
    });

    afterEach(async () => {
      for (const off of offs.splice(0)) off();
      await conn.close();
      await service.close();
      await h.close();
    });

    const pushed = <E extends EventName>(event: E, match: (p: ApiEvents[E]) => boolean = () => true) =>
      eventually(
        () =>
          seen.find((s) => s.event === event && match(s.payload as ApiEvents[E]))?.payload as ApiEvents[E] | undefined,
        10_000,
      );

    it('app.info names the proxy and the live recording', async () => {
      const info = await api.invoke('app.info', {});
      expect(info.proxyUrl).toBe(h.core.proxy.baseUrl);
      expect(info.recording).toEqual({ path: path.resolve(h.dbPath), live: true });
      expect(info.health.failedWrites).toBe(0);
      expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('an empty recording lists no runs', async () => {
      expect(await api.invoke('runs.list', {})).toEqual({
        runs: [],
        total: 0,
        matched: 0,
        nextCursor: null,
        models: [],
      });
    });

    it('pushes a recorded agent run and serves its summary, records and raw exchanges', async () => {
      const { responseIds, callIds } = await runWeatherAgent(h.client, { label: 'weather' });
      const updated = await pushed(
        'run.updated',
        (p) => p.run.responses === 2 && !p.run.live && p.run.status === 'completed',
      );
      expect(updated.run).toMatchObject({
        id: 'label:weather',
        label: 'weather',
        models: ['gpt-5'],
        toolCalls: 2,
        toolNames: ['get_weather'],
      });
      await pushed('exchange.recorded');

      const list = await api.invoke('runs.list', {});
      expect(list.total).toBe(1);
      expect(list.models).toEqual(['gpt-5']);
      const run = list.runs[0]!;
      expect(run).toMatchObject({ id: 'label:weather', responses: 2, items: 4, status: 'completed', live: false });
      expect(run.tokens.total).toBeGreaterThan(0);
      expect(run.preview).toBe('What is the weather in Paris and in Tokyo?');
      expect(run.endedAt).toBeGreaterThanOrEqual(run.startedAt);

      const detail = await api.invoke('runs.get', { runId: run.id });
      expect(detail.from).toBe(0);
      expect(detail.responses.map((r) => r.responseId)).toEqual(responseIds);
      expect(detail.responses[0]!.events.length).toBeGreaterThan(0);
      expect(detail.responses[0]!.output.filter((i) => i.type === 'function_call').map((i) => i.callId)).toEqual(
        callIds,
      );

      const exchange = await api.invoke('exchanges.get', { exchangeId: detail.responses[0]!.exchangeId });
      expect(exchange).toMatchObject({
        method: 'POST',
        path: '/v1/responses',
        status: 200,
        state: 'complete',
        transport: 'http',
      });
      expect(exchange.request.text).toContain('get_weather');
      expect(exchange.response.text).toContain('response.completed');
      expect(exchange.response.chunkCount).toBeGreaterThan(0);
      const auth = exchange.requestHeaders.find(([name]) => name.toLowerCase() === 'authorization');
      expect(auth?.[1]).not.toContain(TEST_KEY.slice(12, 40));
      expect(JSON.stringify(exchange)).not.toContain(TEST_KEY);
    });

    it('compares two runs step by step: the same program matches, another prompt diverges at step 1', async () => {
      const ask = (label: string, input: string) =>
        h.client.responses.create(
          { model: 'gpt-5', input },
          { headers: { 'x-loupe-session': label, 'x-sim': JSON.stringify({ events: 3 }) } },
        );
      await ask('first', 'Weather in Paris?');
      await ask('second', 'Weather in Paris?');
      await ask('third', 'Weather in Oslo?');
      await h.settle();
      await eventually(async () => ((await api.invoke('runs.list', {})).total === 3 ? true : undefined), 10_000);
      const same = await api.invoke('runs.compare', { runA: 'label:first', runB: 'label:second' });
      expect(same.comparison.match).toBe(true);
      expect(same.summaries.a.label).toBe('first');
      const other = await api.invoke('runs.compare', { runA: 'label:first', runB: 'label:third' });
      expect(other.comparison.match).toBe(false);
      expect(other.comparison.firstDivergence).toMatchObject({
        step: 1,
        path: 'input[0]',
        a: 'Weather in Paris?',
        b: 'Weather in Oslo?',
      });
      const fail = (p: Promise<unknown>) =>
        p.then(
          () => null,
          (e: unknown) => e,
        );
      expect(await fail(api.invoke('runs.compare', { runA: 'label:first', runB: 'label:nope' }))).toMatchObject({
        code: 'not_found',
      });
    });

    it('shows an in-flight stream as live before it ends', async () => {
      const stream = h.client.responses.create(
        { model: 'gpt-5', input: 'slow one', stream: true },
        { headers: { 'x-sim': JSON.stringify({ events: 40, gapMs: 25 }), 'x-loupe-session': 'slow' } },
      );
      const done = (async () => {
        for await (const _ of await stream);
      })();
      const live = await pushed('run.updated', (p) => p.run.live);
      expect(live.run.status).toBe('in_progress');
      const inflight = await api.invoke('runs.get', { runId: live.run.id });
      expect(inflight.responses[0]!.status).toBe('in_progress');
      await done;
      await pushed('run.updated', (p) => p.run.id === live.run.id && !p.run.live && p.run.status === 'completed');
    });

    it('filters by text, status and model', async () => {
      await runWeatherAgent(h.client, { label: 'weather' });
      await h.client.responses.create(
        { model: 'gpt-5-mini', input: 'tell me a joke about ducks' },
        { headers: { 'x-loupe-session': 'joke' } },
      );
      await h.settle();
      await eventually(async () => ((await api.invoke('runs.list', {})).total === 2 ? true : undefined));
      const ids = async (req: object) => (await api.invoke('runs.list', req)).runs.map((r) => r.id);
      expect(await ids({ query: 'get_weather' })).toEqual(['label:weather']);
      expect(await ids({ query: 'DUCKS' })).toEqual(['label:joke']);
      expect(await ids({ query: 'function_call_output' })).toEqual(['label:weather']);
      expect(await ids({ query: 'nothing matches this' })).toEqual([]);
      expect(await ids({ models: ['gpt-5-mini'] })).toEqual(['label:joke']);
      expect(await ids({ status: ['failed'] })).toEqual([]);
      expect((await ids({})).sort()).toEqual(['label:joke', 'label:weather']);
    });

    it('answers bad requests with {code, message}', async () => {
      const fail = async (p: Promise<unknown>) => {
        try {
          await p;
        } catch (err) {
          return { code: (err as ApiError).code, message: (err as ApiError).message };
        }
        throw new Error('expected a failure');
      };
      expect(await fail(api.invoke('runs.get', { runId: 'run:nope' }))).toMatchObject({ code: 'not_found' });
      expect(await fail(api.invoke('runs.get', {} as never))).toMatchObject({
        code: 'bad_request',
        message: '"runId" is required',
      });
      expect(await fail(api.invoke('exchanges.get', { exchangeId: 'x' } as never))).toMatchObject({
        code: 'bad_request',
      });
      expect(await fail(api.invoke('exchanges.get', { exchangeId: 999 }))).toMatchObject({ code: 'not_found' });
      expect(await fail(api.invoke('nope.nope' as never, {} as never))).toMatchObject({ code: 'unknown_channel' });
      expect(await fail(api.invoke('recordings.open', { path: path.join(h.dir, 'missing.loupe') }))).toMatchObject({
        code: 'bad_request',
      });
    });

    it('opens another recording read-only and comes back to the live one', async () => {
      await runWeatherAgent(h.client, { label: 'first' });
      await h.settle();
      const copy = path.join(h.dir, 'copy.loupe');
      h.core.db.pragma('wal_checkpoint(FULL)');
      await h.core.db.backup(copy);
      await h.client.responses.create(
        { model: 'gpt-5', input: 'after the copy' },
        { headers: { 'x-loupe-session': 'second' } },
      );
      await h.settle();
      expect(fs.existsSync(copy)).toBe(true);

      const opened = await api.invoke('recordings.open', { path: copy });
      expect(opened).toEqual({ path: copy, live: false });
      await pushed('recording.opened');
      expect((await api.invoke('runs.list', {})).runs.map((r) => r.id)).toEqual(['label:first']);
      expect((await api.invoke('app.info', {})).recording.live).toBe(false);

      expect(await api.invoke('recordings.open', { path: h.dbPath })).toEqual({
        path: path.resolve(h.dbPath),
        live: true,
      });
      expect((await api.invoke('runs.list', {})).runs.map((r) => r.id).sort()).toEqual(['label:first', 'label:second']);
    });

    it('attaches an Agents SDK trace exported after the run, and still opens a recording from before traces', async () => {
      const { responseIds } = await runWeatherAgent(h.client, { label: 'traced' });
      await pushed('run.updated', (p) => p.run.id === 'label:traced' && p.run.responses === 2 && !p.run.live);
      // The exporter posts without a label: the response spans alone say which run it is.
      const res = await fetch(`${h.core.proxy.baseUrl}/traces/ingest`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${TEST_KEY}`,
          'openai-beta': 'traces=v1',
        },
        body: JSON.stringify({ data: agentTrace('trace_weather', responseIds) }),
      });
      expect(res.status).toBe(204);
      const updated = await pushed('run.updated', (p) => p.run.id === 'label:traced' && p.run.agentSpans === 4);
      expect(updated.run.responses).toBe(2);
      const detail = await api.invoke('runs.get', { runId: 'label:traced' });
      expect(detail.agentSpans.map((sp) => [sp.type, sp.name, sp.responseId])).toEqual([
        ['trace', 'Weather desk', null],
        ['agent', 'Forecaster', null],
        ['response', responseIds[0], responseIds[0]],
        ['function', 'get_weather', null],
        ['response', responseIds[1], responseIds[1]],
      ]);

      // A copy made as schema v1 (no agent_spans table) opens read-only, without spans.
      await h.settle();
      const old = path.join(h.dir, 'before-traces.loupe');
      await copyAsSchemaV1(h.core.db, old);
      await api.invoke('recordings.open', { path: old });
      expect((await api.invoke('runs.list', {})).runs.map((r) => [r.id, r.agentSpans])).toEqual([['label:traced', 0]]);
      expect((await api.invoke('runs.get', { runId: 'label:traced' })).agentSpans).toEqual([]);
    });

    it('sends a delta from the responses held, and an item whole that the skeleton cut', async () => {
      const long = 'forecast line '.repeat(1_500);
      await runWeatherAgent(h.client, { label: 'big' });
      const stream = await h.client.responses.create(
        { model: 'gpt-5', input: [{ role: 'user', content: long }], stream: true },
        { headers: { 'x-loupe-session': 'big', 'x-sim': JSON.stringify({ events: 3 }) } },
      );
      for await (const event of stream) void event;
      await h.settle();
      const whole = await eventually(async () => {
        const d = await api.invoke('runs.get', { runId: 'label:big' }).catch(() => undefined);
        return d && d.responses.length === 3 && d.settled === 3 ? d : undefined;
      });
      const full = expandRun(whole, null);
      const delta = await api.invoke('runs.get', { runId: 'label:big', from: 2, after: full.responses[1]!.responseId });
      expect([delta.from, delta.responses.length, delta.links.length]).toEqual([2, 1, 1]);
      expect(delta.itemsFrom).toBeGreaterThan(0);
      expect(expandRun(delta, full)).toEqual(full);
      // A delta after a response the run does not have there is the whole run.
      expect((await api.invoke('runs.get', { runId: 'label:big', from: 2, after: 'resp_gone' })).from).toBe(0);

      const last = full.responses[2]!;
      const cut = last.request.input.findIndex((i) => i.cut);
      expect(cut).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(last.request.input[cut]!.raw).length).toBeLessThan(long.length);
      const item = await api.invoke('items.get', {
        runId: 'label:big',
        exchangeId: last.exchangeId,
        responseId: last.responseId,
        part: 'input',
        index: cut,
      });
      expect(JSON.stringify(item.raw)).toContain(long);
      await expect(
        api.invoke('items.get', {
          runId: 'label:big',
          exchangeId: last.exchangeId,
          responseId: 'x',
          part: 'input',
          index: 0,
        }),
      ).rejects.toMatchObject({ code: 'not_found' });
    });
  });
}
