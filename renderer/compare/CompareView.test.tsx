import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { compareRuns } from '../../shared/diff/run-comparison.js';
import { normalizeExchange } from '../../shared/trace/normalize/normalize.js';
import { fanOut } from '../../shared/trace/testing/scenarios-wide.js';
import { threadRuns } from '../../shared/trace/thread/thread.js';
import type { RawExchange } from '../../shared/trace/types.js';
import { Controller } from '../app/controller.js';
import { ControllerContext } from '../app/controller-context.js';
import { FakeClient } from '../test/fake-client.js';
import { summary } from '../test/fixtures.js';
import { resetStores } from '../test/reset-stores.js';
import { useCompareStore } from './compare-store.js';
import { CompareView } from './CompareView.js';

const runOf = (raws: RawExchange[]) => threadRuns(raws.flatMap((raw) => normalizeExchange(raw).responses))[0]!;

function renderCompare(b: RawExchange[]) {
  const client = new FakeClient({
    'runs.compare': ({ runA, runB }) => ({
      comparison: compareRuns({ run: runOf(fanOut(5)) }, { run: runOf(b) }, { models: {} }),
      summaries: { a: summary(runA, { label: 'before' }), b: summary(runB, { label: 'after' }) },
    }),
  });
  render(
    <ControllerContext.Provider value={new Controller(client)}>
      <CompareView />
    </ControllerContext.Provider>,
  );
  return client;
}

describe('CompareView', () => {
  beforeEach(resetStores);

  it('says how to pick two runs when fewer are picked', () => {
    act(() => useCompareStore.getState().openCompare(null));
    renderCompare(fanOut(5));
    expect(screen.getByTestId('compare-empty').textContent).toContain('Pick two runs');
  });

  it('asks the service for the picked pair and shows the verdict, the first divergence and each step', async () => {
    act(() => {
      useCompareStore.getState().togglePick('label:before');
      useCompareStore.getState().togglePick('label:after');
      useCompareStore.getState().openCompare(null);
    });
    const client = renderCompare(fanOut(4));
    await waitFor(() => expect(screen.getByTestId('compare-verdict').dataset.match).toBe('false'));
    expect(client.calls.find((c) => c.channel === 'runs.compare')?.request).toEqual({
      runA: 'label:before',
      runB: 'label:after',
    });
    expect(screen.getByTestId('first-divergence').dataset.step).toBe('1');
    expect(
      screen
        .getAllByRole('row')
        .filter((r) => r.dataset.step)
        .map((r) => r.dataset.match),
    ).toEqual(['false', 'false']);
    expect(screen.getByTestId('compare-a').textContent).toContain('before');
    expect(screen.getByTestId('compare-steps').textContent).toContain('function_call lookup_row ×5');
  });
});
