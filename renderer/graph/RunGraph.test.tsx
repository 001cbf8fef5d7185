import { act, render } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildRunView } from '../model/run-view.js';
import { useRunStore } from '../state/run-store.js';
import { detailFrom } from '../test/run-fixture.js';
import { resetStores } from '../test/reset-stores.js';
import { RunGraph } from './RunGraph.js';

function load() {
  const detail = detailFrom();
  const store = useRunStore.getState();
  store.selectRun(detail.summary.id);
  const view = buildRunView(detail);
  store.loaded(detail, view);
  return view;
}

const types = (el: HTMLElement) => [...el.querySelectorAll('[data-node-type]')].map((n) => n.getAttribute('data-node-type')).sort();

describe('RunGraph', () => {
  beforeEach(resetStores);

  it('draws one node per item with the export ids, typed by item type, inside response frames', () => {
    const view = load();
    const { container } = render(<RunGraph />);
    expect(types(container)).toEqual([
      'function_call',
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
      'function_call_output',
      'message',
      'message',
      'reasoning',
    ]);
    const ids = [...container.querySelectorAll('[data-node-id]')].map((n) => n.getAttribute('data-node-id')).sort();
    expect(ids).toEqual(view.graph.nodes.map((n) => n.id).sort());
    expect(container.querySelectorAll('[data-group-kind="response"]')).toHaveLength(2);
    expect(container.querySelectorAll('.react-flow__edge').length).toBe(view.graph.edges.length);
  });

  it('shows the state at the replay step: later nodes hidden, streaming ones in progress', () => {
    const view = load();
    const { container } = render(<RunGraph />);
    const streamed = Object.keys(view.replay.growth)[0]!;
    act(() => useRunStore.getState().seek(view.replay.growth[streamed]!.steps[0]!));
    const node = [...container.querySelectorAll('[data-node-id]')].find((n) => n.getAttribute('data-node-id') === streamed);
    expect(node?.getAttribute('data-state')).toBe('in_progress');
    expect(types(container).length).toBeLessThan(view.graph.nodes.length);
    act(() => useRunStore.getState().seek(0));
    expect(types(container)).toEqual(['message']);
  });

  it('selects a node on click', () => {
    load();
    const { container } = render(<RunGraph />);
    const call = container.querySelector('[data-node-type="function_call"]')!;
    act(() => (call.closest('.react-flow__node') as HTMLElement).click());
    expect(useRunStore.getState().selection).toEqual({ kind: 'node', id: call.getAttribute('data-node-id') });
  });
});
