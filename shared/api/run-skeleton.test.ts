import { describe, expect, it } from 'vitest';
import { normalizeExchange } from '../trace/normalize/normalize.js';
import { statelessTurns } from '../trace/testing/scenarios-wide.js';
import { threadRuns } from '../trace/thread/thread.js';
import type { JsonObject, ResponseRecord, TraceItem } from '../trace/types.js';
import { DeltaMismatchError, expandRun } from './run-expand.js';
import {
  CUT_PREVIEW_CHARS,
  cutLongTexts,
  deltaStart,
  RunSkeletonBuilder,
  skeletonOf,
  TEXT_PREVIEW_CHARS,
} from './run-skeleton.js';
import type { RunRecords } from './types.js';

const run = threadRuns(statelessTurns(12).flatMap((raw) => normalizeExchange(raw).responses))[0]!;
const parts = {
  summary: { id: run.id, label: run.label } as RunRecords['summary'],
  links: run.links,
  notes: [],
  prices: { models: {} },
  agentSpans: [],
};

describe('run skeleton', () => {
  it('lists each resent item once and expands to the records, inputs sharing their items', () => {
    const skeleton = skeletonOf({ ...parts, responses: run.responses });
    const sent = run.responses.reduce((n, r) => n + r.request.input.length, 0);
    expect(skeleton.items.length).toBeLessThan(sent / 3);
    // Every turn after the first starts with the one before it.
    expect(skeleton.responses.slice(1).map((r) => r.request.input.parent)).toEqual(
      run.responses.slice(1).map((_, i) => i),
    );
    const expanded = expandRun(JSON.parse(JSON.stringify(skeleton)), null);
    expect(expanded.responses).toEqual(run.responses);
    // Stream events go as tuples, and come back with the fields they had, no more.
    const events = run.responses.flatMap((r) => r.events);
    expect(events.some((e) => e.chars !== undefined) && events.some((e) => e.outputIndex === undefined)).toBe(true);
    expect(skeleton.responses.flatMap((r) => r.events).every(Array.isArray)).toBe(true);
    const [a, b] = expanded.responses.slice(-2) as [ResponseRecord, ResponseRecord];
    expect(b.request.input[0]).toBe(a.request.input[0]);
  });

  it("sends a chain's params once, each turn's previous_response_id put back in its place", () => {
    const tools = [{ type: 'function', name: 'read_file', parameters: { type: 'object' } }];
    const chained = run.responses.map((r, i): ResponseRecord => {
      const previous = i === 0 ? null : run.responses[i - 1]!.responseId;
      const params: JsonObject =
        previous === null ? { model: 'gpt-5', tools } : { model: 'gpt-5', previous_response_id: previous, tools };
      return { ...r, request: { ...r.request, params, previousResponseId: previous } };
    });
    // One that names a response other than its own previous one keeps its params as they are.
    const odd = chained[3]!;
    chained[3] = {
      ...odd,
      request: { ...odd.request, params: { ...odd.request.params, previous_response_id: 'resp_other' } },
    };
    const skeleton = skeletonOf({ ...parts, responses: chained });
    expect(skeleton.params).toHaveLength(3);
    const expanded = expandRun(JSON.parse(JSON.stringify(skeleton)), null);
    expect(expanded.responses).toEqual(chained);
    expect(Object.keys(expanded.responses[5]!.request.params)).toEqual(['model', 'previous_response_id', 'tools']);
  });

  it('gives the same skeleton after a truncate and the same records added again, found by identity or content', () => {
    const builder = new RunSkeletonBuilder(JSON.stringify);
    run.responses.forEach((r, i) => builder.add(r, run.links[i]!.parent));
    const before = JSON.stringify({ r: builder.responses, i: builder.itemsFrom(0) });
    builder.truncate(5);
    // Copies this time: the identity entries of the dropped items must not name the new ones.
    run.responses.slice(5).forEach((r, k) => builder.add(structuredClone(r), run.links[5 + k]!.parent));
    expect(JSON.stringify({ r: builder.responses, i: builder.itemsFrom(0) })).toBe(before);
    expect(builder.offsets(5).items).toBeLessThan(builder.offsets(12).items);
  });

  it('applies a delta to the run held and refuses one that does not follow from it', () => {
    const whole = expandRun(skeletonOf({ ...parts, responses: run.responses }), null);
    const builder = new RunSkeletonBuilder(JSON.stringify);
    run.responses.forEach((r, i) => builder.add(r, run.links[i]!.parent));
    const at = builder.offsets(8);
    const delta = {
      ...skeletonOf({ ...parts, responses: run.responses }),
      from: 8,
      responses: builder.responses.slice(8),
      links: run.links.slice(8),
      items: builder.itemsFrom(at.items),
      itemsFrom: at.items,
      params: builder.paramsFrom(at.params),
      paramsFrom: at.params,
    };
    const held = expandRun(
      skeletonOf({ ...parts, responses: run.responses.slice(0, 8), links: run.links.slice(0, 8) }),
      null,
    );
    expect(expandRun(delta, held).responses).toEqual(whole.responses);
    expect(() => expandRun(delta, null)).toThrow(DeltaMismatchError);
  });

  it('cuts long strings, keeping what the trace model reads of the item whole', () => {
    const long = 'x'.repeat(TEXT_PREVIEW_CHARS * 3);
    const item: TraceItem = {
      id: null,
      type: 'function_call_output',
      callId: 'c1',
      agent: null,
      raw: { type: 'function_call_output', call_id: 'c1', output: long },
    };
    const cut = cutLongTexts(item);
    expect(cut.raw.output).toBe(long.slice(0, CUT_PREVIEW_CHARS));
    expect(cut.cut?.chars).toBe(long.length);
    expect(cut.cut?.tokens).toBeGreaterThan(long.length / 5);
    const short: TraceItem = { ...item, raw: { type: 'function_call_output', call_id: 'c1', output: 'ok' } };
    expect(cutLongTexts(short)).toBe(short);
    expect(item.raw.output).toBe(long);
  });

  it('keeps up to the threshold whole, and gives a cut item back as it is (a stored preview)', () => {
    const at = 'y'.repeat(TEXT_PREVIEW_CHARS);
    const item: TraceItem = {
      id: null,
      type: 'message',
      callId: null,
      agent: null,
      raw: {
        role: 'user',
        content: [
          { type: 'input_text', text: at },
          { type: 'input_text', text: `${at}!` },
        ],
      },
    };
    const cut = cutLongTexts(item);
    const parts = cut.raw.content as Array<{ text: string }>;
    expect(parts.map((p) => p.text.length)).toEqual([TEXT_PREVIEW_CHARS, CUT_PREVIEW_CHARS]);
    expect(cut.cut?.chars).toBe(TEXT_PREVIEW_CHARS + 1);
    const again = JSON.parse(JSON.stringify(cut)) as TraceItem;
    expect(cutLongTexts(again)).toBe(again);
  });
});

describe('deltaStart', () => {
  const key = (s: { id: string }) => s.id;
  const list = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
  it('starts after the held elements while the list still has the last of them there', () => {
    expect(deltaStart(list, 2, 'b', key)).toBe(2);
    expect(deltaStart(list, 3, 'c', key)).toBe(3);
  });
  it('starts over when one arrived before it, it is gone, or nothing is held', () => {
    expect(deltaStart([{ id: 'x' }, ...list], 2, 'b', key)).toBe(0);
    expect(deltaStart(list, 4, 'd', key)).toBe(0);
    expect(deltaStart(list, 0, undefined, key)).toBe(0);
    expect(deltaStart(list, 2, undefined, key)).toBe(0);
  });
});
