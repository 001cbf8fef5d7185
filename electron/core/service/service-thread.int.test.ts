// The API service in its own worker thread (service-thread.ts), through dist's compiled
// worker script, beside a real core: it sees what the core records (the core's events cross
// as messages, before any later call), answers the API with the same errors, sends events
// only once someone listens, asks the core's thread to start demos, and stops cleanly.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvents } from '../../../shared/api/contract.js';
import { ApiError } from '../../../shared/api/errors.js';
import { eventually, startHarness, type Harness } from '../../../test/support/harness.js';
import { startService, type ServiceHandle } from './service-thread.js';

const SCRIPT = fileURLToPath(new URL('../../../dist/electron/core/service/service-worker.js', import.meta.url));

describe('the API service in a worker thread', () => {
  let h: Harness;
  let service: ServiceHandle | null = null;
  const demos: Array<[string, number]> = [];
  const startDemo = async (scenario: string, speed: number) => {
    demos.push([scenario, speed]);
    if (scenario === 'nope') throw new ApiError('bad_request', 'unknown demo scenario "nope"');
    return { scenario, label: `demo-${scenario}` };
  };

  beforeAll(() => {
    if (!fs.existsSync(SCRIPT)) throw new Error('dist/ is missing: run `npm run build` first');
  });
  afterEach(async () => {
    await service?.close();
    service = null;
    await h.close();
  });

  it('shows what the core recorded, live and once derived, and pushes run updates to listeners', async () => {
    h = await startHarness();
    service = await startService(h.core, { script: SCRIPT, livePollMs: 20, startDemo });
    const updates: string[] = [];
    service.on('run.updated', ({ run }: ApiEvents['run.updated']) => updates.push(run.id));
    await h.client.responses.create({ model: 'gpt-5', input: 'first' });
    // Recorded, maybe not derived yet: the call after the core's events still sees it.
    await h.core.recorded();
    const live = await service.invoke('runs.list', {});
    expect(live.runs.reduce((n, r) => n + r.responses, 0)).toBe(1);
    await h.settle();
    const info = await service.invoke('app.info', {});
    expect(info.health.exchanges).toBe(1);
    expect(info.recording).toEqual({ path: h.dbPath, live: true });
    expect(info.proxyUrl).toBe(h.core.proxy.baseUrl);
    const run = await service.invoke('runs.get', { runId: live.runs[0]!.id });
    expect(run.responses).toHaveLength(1);
    expect(run.responses[0]!.status).toBe('completed');
    // The same answer as JSON made in the service's thread, its buffer moved here.
    const json = await service.invokeJson('runs.get', { runId: live.runs[0]!.id });
    expect(json).toBeInstanceOf(Uint8Array);
    expect(JSON.parse(new TextDecoder().decode(json))).toEqual(JSON.parse(JSON.stringify(run)));
    await expect(service.invokeJson('runs.get', { runId: 'no-such-run' })).rejects.toMatchObject({ code: 'not_found' });
    await eventually(() => (updates.length > 0 ? true : undefined));
  });

  it('answers with the same API errors, and starts demos on the core thread', async () => {
    h = await startHarness();
    service = await startService(h.core, { script: SCRIPT, startDemo });
    const missing = await service.invoke('runs.get', { runId: 'no-such-run' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).code).toBe('not_found');
    const bad = await service.invoke('runs.get', {} as never).catch((e: unknown) => e);
    expect((bad as ApiError).code).toBe('bad_request');
    expect(await service.invoke('demo.start', { scenario: 'support', speed: 5 })).toEqual({
      scenario: 'support',
      label: 'demo-support',
    });
    const refused = await service.invoke('demo.start', { scenario: 'nope' }).catch((e: unknown) => e);
    expect((refused as ApiError).code).toBe('bad_request');
    expect((refused as ApiError).message).toBe('unknown demo scenario "nope"');
    expect(demos).toContainEqual(['support', 5]);
  });

  it('stops cleanly: later calls fail at once, and the core records on', async () => {
    h = await startHarness();
    service = await startService(h.core, { script: SCRIPT });
    await service.close();
    await expect(service.invoke('app.info', {})).rejects.toThrow('Loupe is shutting down');
    await h.client.responses.create({ model: 'gpt-5', input: 'after the service' });
    await h.settle();
    expect(h.core.recorder.health.exchanges).toBe(1);
  });

  it('reports a recording it cannot open', async () => {
    h = await startHarness();
    const core = { ...h.core, dbPath: `${h.dbPath}.missing` };
    await expect(startService(core, { script: SCRIPT })).rejects.toThrow(
      /the API service could not start: no such recording/,
    );
  });
});
