// The bench's chained recording (chained-recording.ts), short: its agent loop through the
// real proxy with the openai SDK, then the recording read as the UI reads it (`runs.get`
// over the service). It must be one run, every response continuing the one before by
// previous_response_id, each input exactly the outputs sent for the calls before it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandRun } from '../shared/api/run-expand.js';
import { TEXT_PREVIEW_CHARS } from '../shared/api/run-skeleton.js';
import { createService, type LoupeService } from '../electron/core/service/service.js';
import { startHarness, type Harness } from '../test/support/harness.js';
import { chainedAgent, type ChainedAgentResult, type ChainedShape } from './chained-recording.js';

const SHAPE: ChainedShape = { turns: 30, callsPerTurn: 3, outputChars: { min: 2_000, max: 20_000 } };

let h: Harness;
let service: LoupeService;
let sent: ChainedAgentResult;
beforeAll(async () => {
  h = await startHarness();
  service = createService({ core: h.core });
  sent = await chainedAgent(h.core.proxy.baseUrl, SHAPE);
  await h.settle();
  await service.sync();
}, 120_000);
afterAll(async () => {
  await service?.close();
  await h?.close();
});

describe('the bench’s previous_response_id recording', () => {
  it('opens as one run, every response chained to the one before', async () => {
    const list = await service.invoke('runs.list', {});
    expect(list.runs).toHaveLength(1);
    const summary = list.runs[0]!;
    expect(summary.responses).toBe(SHAPE.turns);
    expect(summary.toolCalls).toBe(SHAPE.turns * SHAPE.callsPerTurn);

    const detail = await service.invoke('runs.get', { runId: summary.id });
    expect(detail.from).toBe(0);
    expect(detail.settled).toBe(SHAPE.turns);
    const run = expandRun(detail, null);
    expect(run.responses.map((r) => r.responseId)).toEqual(sent.responseIds);
    expect(run.responses.every((r) => r.status === 'completed')).toBe(true);
    run.responses.forEach((r, i) => {
      expect(r.request.previousResponseId).toBe(i === 0 ? null : sent.responseIds[i - 1]);
      expect(run.links[i]).toMatchObject(
        i === 0
          ? { parent: null }
          : { parent: i - 1, parentId: sent.responseIds[i - 1], signal: 'previous_response_id' },
      );
    });
  });

  it('holds each turn’s new outputs as its input, answering the calls before it, and nothing resent', async () => {
    const [summary] = (await service.invoke('runs.list', {})).runs;
    const detail = await service.invoke('runs.get', { runId: summary!.id });
    const run = expandRun(detail, null);
    // Every output sent, once: the skeleton's items are the task plus each output.
    expect(detail.items).toHaveLength(1 + sent.outputsSent);
    expect(sent.outputsSent).toBe((SHAPE.turns - 1) * SHAPE.callsPerTurn);
    run.responses.forEach((r, i) => {
      const calls = r.output.filter((o) => o.type === 'function_call');
      expect(calls).toHaveLength(SHAPE.callsPerTurn);
      if (i === 0) return;
      const before = run.responses[i - 1]!.output.filter((o) => o.type === 'function_call');
      expect(r.request.input.map((item) => item.type)).toEqual(before.map(() => 'function_call_output'));
      expect(r.request.input.map((item) => item.callId)).toEqual(before.map((c) => c.callId));
      expect(before.every((c) => c.callId)).toBe(true);
      for (const item of r.request.input) {
        // Long outputs come cut to the preview in the skeleton, carrying their whole length.
        const output = item.raw.output;
        if (typeof output !== 'string') throw new Error(`turn ${i}: an output that is not text`);
        if (output.length >= TEXT_PREVIEW_CHARS) expect(item.cut).toBeDefined();
      }
      expect(r.request.input.map((item) => item.cut?.chars ?? (item.raw.output as string).length)).toEqual(
        sent.outputChars[i],
      );
    });
    expect(sent.outputChars.flat().every((n) => n >= SHAPE.outputChars.min && n <= SHAPE.outputChars.max)).toBe(true);

    // The longest output, read whole as the inspector reads it, is as long as its cut says.
    const longest = run.responses
      .flatMap((r) => r.request.input.map((item, index) => ({ r, item, index })))
      .reduce((a, b) => ((b.item.cut?.chars ?? 0) > (a.item.cut?.chars ?? 0) ? b : a));
    expect(longest.item.cut).toBeDefined();
    const whole = await service.invoke('items.get', {
      runId: summary!.id,
      exchangeId: longest.r.exchangeId,
      responseId: longest.r.responseId,
      part: 'input',
      index: longest.index,
    });
    expect((whole.raw.output as string).length).toBe(longest.item.cut!.chars);
    expect((whole.raw.output as string).startsWith(longest.item.raw.output as string)).toBe(true);
  });
});
