// Background jobs and item streams, pure: the timeline a poll folds, resume and cancel,
// and the event shapes of scripted items (summaries, searches, agents, compaction).
import { describe, expect, it } from 'vitest';
import { BackgroundJob } from './background.js';
import type { PlannedItem } from './items.js';
import type { ResponsePlan } from './response-plan.js';
import { buildResponseEvents } from './stream.js';

const plan = (items: PlannedItem[], over: Partial<ResponsePlan> = {}): ResponsePlan => ({
  id: 'resp_1',
  model: 'gpt-5',
  createdAt: 1_700_000_000,
  terminal: 'completed',
  items,
  inputTokens: 100,
  cachedTokens: 0,
  multiAgent: false,
  pace: null,
  generate: true,
  ...over,
});

const message: PlannedItem = { type: 'message', id: 'msg_1', agent: null, chunks: ['Hel', 'lo'] };

describe('BackgroundJob', () => {
  const events = buildResponseEvents(plan([message]), { model: 'gpt-5', background: true }, 1_700_000_000, {
    background: true,
  });
  // created, queued at 0; in_progress at 100; items every 10 ms after.
  const delays = events.map((_, i) => (i < 2 ? 0 : i === 2 ? 100 : 10));

  it('folds the events due by a poll: queued, in_progress with the items done so far, completed', () => {
    const job = new BackgroundJob(events, delays, 1_000);
    expect(job.snapshot(1_050).status).toBe('queued');
    expect(job.snapshot(1_101)).toMatchObject({ status: 'in_progress', output: [] });
    expect(job.snapshot(1_000 + job.endMs)).toMatchObject({
      status: 'completed',
      output: [{ id: 'msg_1', status: 'completed' }],
    });
    expect(job.finished(1_000 + job.endMs)).toBe(true);
  });

  it('replays after a sequence number and cuts the timeline on cancel', () => {
    const job = new BackgroundJob(events, delays, 0);
    expect(job.after(2).map((e) => e.event.sequence_number)[0]).toBe(3);
    expect(job.cancel(105)).toBe(true);
    expect(job.snapshot(10_000)).toMatchObject({ status: 'cancelled', completed_at: null });
    expect(job.after(-1).filter((e) => job.delivers(e)).length).toBeLessThan(events.length);
    expect(new BackgroundJob(events, delays, 0).cancel(10_000)).toBe(false);
  });
});

describe('item streams', () => {
  it('streams summaries, searches and agent-owned items with the typings event shapes', () => {
    const items: PlannedItem[] = [
      { type: 'compaction', id: 'cmp_1', agent: null, encryptedContent: 'gAAAAAB' },
      { type: 'reasoning', id: 'rs_1', agent: 'root', summary: ['Split the work.'], encrypted: false },
      { type: 'web_search_call', id: 'ws_1', agent: 'scout', query: 'q' },
      { type: 'agent_message', id: 'am_1', agent: 'scout', author: 'scout', recipient: 'root', text: 'found it' },
    ];
    const events = buildResponseEvents(plan(items, { multiAgent: true }), { model: 'gpt-5' }, 1);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    const agentOf = (e: (typeof events)[number]) => ('agent' in e ? e.agent?.agent_name : undefined);
    expect(events.filter((e) => e.type === 'response.web_search_call.searching').map(agentOf)).toEqual(['scout']);
    expect(agentOf(events[2]!)).toBeUndefined(); // compaction belongs to no agent
    const last = events.at(-1)!;
    if (last.type !== 'response.completed') throw new Error('completed last');
    expect(last.response.output[3]).toMatchObject({
      type: 'agent_message',
      author: 'scout',
      recipient: 'root',
      content: [{ type: 'input_text', text: 'found it' }],
    });
  });
});
