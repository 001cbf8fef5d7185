// demo.start through the service: the scenario plays into the live recording and shows up
// as a labelled run; bad input and a missing hook are refused with clear codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type LoupeService } from '../../service/service.js';
import { eventually, startHarness, type Harness } from '../../../../test/support/harness.js';
import { demoStarter } from './demo-starter.js';

describe('demo.start', () => {
  let h: Harness;
  let service: LoupeService;
  beforeAll(async () => {
    h = await startHarness();
    service = createService({ core: h.core, startDemo: demoStarter(h.core, () => {}) });
  });
  afterAll(async () => {
    await service.close();
    await h.close();
  });

  it('plays a scenario into the live recording as its own run', async () => {
    const started = await service.invoke('demo.start', { scenario: 'program', speed: 1000 });
    expect(started.scenario).toBe('program');
    const run = await eventually(async () => {
      await service.sync();
      const { runs } = await service.invoke('runs.list', {});
      return runs.find((r) => (r.label ?? '').startsWith(started.label) && r.status === 'completed');
    }, 20_000);
    const detail = await service.invoke('runs.get', { runId: run.id });
    expect(detail.responses.flatMap((r) => r.output.map((i) => i.type))).toContain('program');
  });

  it('gives two demos played within one second labels of their own, so they stay two runs', async () => {
    const a = await service.invoke('demo.start', { scenario: 'program', speed: 1000 });
    const b = await service.invoke('demo.start', { scenario: 'program', speed: 1000 });
    expect(b.label).not.toBe(a.label);
    // Each demo's run is labelled after its demo (`<label>-<scenario>`): two runs, one each.
    const labels = await eventually(async () => {
      await service.sync();
      const { runs } = await service.invoke('runs.list', {});
      const mine = (r: { label: string | null }) => [a.label, b.label].some((l) => (r.label ?? '').startsWith(`${l}-`));
      const done = runs.filter((r) => r.status === 'completed' && mine(r));
      return done.length === 2 ? done.map((r) => r.label!) : undefined;
    }, 20_000);
    expect(labels.filter((l) => l.startsWith(`${b.label}-`))).toHaveLength(1);
  });

  it('refuses unknown scenarios and bad speeds', async () => {
    await expect(service.invoke('demo.start', { scenario: 'nope' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(service.invoke('demo.start', { speed: -1 })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('is unavailable where no demo can run', async () => {
    const plain = createService({ core: h.core });
    await expect(plain.invoke('demo.start', {})).rejects.toMatchObject({ code: 'unavailable' });
    await plain.close();
  });
});
