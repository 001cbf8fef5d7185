import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { compaction } from '../../shared/trace/testing/scenarios.js';
import { Controller } from '../app/controller.js';
import { ControllerContext } from '../app/controller-context.js';
import { buildRunView } from '../model/run-view.js';
import { FakeClient } from '../test/fake-client.js';
import { useRunStore } from '../state/run-store.js';
import { detailFrom } from '../test/run-fixture.js';
import { resetStores } from '../test/reset-stores.js';
import { Inspector } from './Inspector.js';

function show(detail = detailFrom()) {
  const view = buildRunView(detail);
  useRunStore.getState().selectRun(detail.summary.id);
  useRunStore.getState().loaded(detail, view);
  render(
    <ControllerContext.Provider value={new Controller(new FakeClient({}))}>
      <Inspector />
    </ControllerContext.Provider>,
  );
  return view;
}

describe('Context tab', () => {
  beforeEach(resetStores);

  it("lists the response's context with sources and tokens, and a click selects the part's node", async () => {
    const view = show();
    act(() => useRunStore.getState().select({ kind: 'response', index: 1 }));
    fireEvent.click(screen.getByTestId('inspector-tab-context'));
    await waitFor(() => expect(screen.getByTestId('context-tab').dataset.state).toBe('ready'), { timeout: 15_000 });
    const rows = [...screen.getByTestId('context-parts').querySelectorAll('button[data-part]')] as HTMLElement[];
    // The second request continues the first: its input and three calls come by previous_response_id.
    const record = view.run.responses[1]!;
    expect(rows.filter((r) => r.dataset.source === 'request')).toHaveLength(record.request.input.length);
    expect(rows.some((r) => r.dataset.source === 'previous_response')).toBe(record.request.previousResponseId !== null);
    expect(screen.getByTestId('context-overhead').textContent).toMatch(/tokens/);
    const target = rows.find((r) => r.dataset.node)!;
    fireEvent.click(target);
    expect(useRunStore.getState().selection).toEqual({ kind: 'node', id: target.dataset.node });
  });

  it('on a compaction item, says what it replaced', async () => {
    const view = show(detailFrom(compaction()));
    const node = view.graph.nodes.find((n) => n.type === 'compaction')!;
    act(() => useRunStore.getState().select({ kind: 'node', id: node.id }));
    // The /compact request's window: four items; the next request holds the compaction, billed.
    await waitFor(
      () => expect(screen.getByTestId('compaction-context').textContent).toMatch(/4 items, [1-9]\d* tokens.*as billed/),
      { timeout: 15_000 },
    );
    expect(screen.getByTestId('compaction-context').textContent).toContain('response #4');
  });
});
