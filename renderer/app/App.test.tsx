import { skeletonOf } from '../../shared/api/run-skeleton.js';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo, RunSummary } from '../../shared/api/types.js';
import { useRunStore } from '../state/run-store.js';
import { FakeClient } from '../test/fake-client.js';
import { summary } from '../test/fixtures.js';
import { detailFrom } from '../test/run-fixture.js';
import { resetStores } from '../test/reset-stores.js';
import { App } from './App.js';

const INFO: AppInfo = {
  version: '0.1.0',
  proxyUrl: 'http://127.0.0.1:7455/v1',
  recording: { path: '/tmp/library.loupe', live: true },
  health: {
    exchanges: 0,
    failedWrites: 0,
    lostExchanges: 0,
    lastError: null,
    firstLossAt: null,
    lastLossAt: null,
    resumed: false,
  },
};

function client(runs: RunSummary[] = []) {
  const detail = detailFrom();
  return new FakeClient({
    'app.info': () => INFO,
    'runs.list': () => ({ runs, total: runs.length, matched: runs.length, nextCursor: null, models: ['gpt-5'] }),
    'runs.get': () => skeletonOf(detail),
  });
}

describe('App', () => {
  beforeEach(resetStores);

  it('shows the proxy URL and snippets when nothing is recorded yet', async () => {
    render(<App api={client()} />);
    expect((await screen.findByTestId('proxy-url')).textContent).toBe(INFO.proxyUrl);
    expect(screen.getByTestId('snippet').textContent).toBe(`export OPENAI_BASE_URL=${INFO.proxyUrl}`);
    fireEvent.click(screen.getByText('Python'));
    expect(screen.getByTestId('snippet').textContent).toContain(`base_url="${INFO.proxyUrl}"`);
    fireEvent.click(screen.getByText('curl'));
    expect(screen.getByTestId('snippet').textContent).toContain(`curl ${INFO.proxyUrl}/responses`);
  });

  it('lists runs live from pushes and opens one on click', async () => {
    const api = client();
    const { container } = render(<App api={api} />);
    await screen.findByTestId('empty-state');
    act(() =>
      api.emit('run.updated', { run: summary('run:resp_par1', { live: true, label: 'weather', revision: 3 }) }),
    );
    const row = container.querySelector('[data-run-id="run:resp_par1"]') as HTMLElement;
    expect(row.getAttribute('data-live')).toBe('true');
    // A run without Agents SDK spans has no trace marker; one with them gets it.
    expect(row.querySelector('[data-testid="run-has-trace"]')).toBeNull();
    act(() =>
      api.emit('run.updated', {
        run: summary('run:resp_par1', { live: true, label: 'weather', revision: 4, agentSpans: 6 }),
      }),
    );
    expect(row.querySelector('[data-testid="run-has-trace"]')?.getAttribute('title')).toBe(
      '6 Agents SDK spans (press t on the run)',
    );
    fireEvent.click(row);
    await waitFor(() => expect(container.querySelectorAll('[data-node-type]').length).toBe(9));
    expect(useRunStore.getState().runId).toBe('run:resp_par1');
    expect(api.calls.some((c) => c.channel === 'runs.get')).toBe(true);
  });

  it('virtualises the runs list: 10,000 runs render a screenful of rows', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => summary(`run:${i}`, { startedAt: 10_000 - i }));
    const { container } = render(<App api={client(many)} />);
    await waitFor(() => expect(screen.getByTestId('runs-count').textContent).toBe('10000 runs'));
    const rows = container.querySelectorAll('[data-run-id]').length;
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(100);
  });

  it('keeps recording failures and a lost connection on screen', async () => {
    const api = client();
    render(<App api={api} />);
    await screen.findByTestId('empty-state');
    const from = new Date(2026, 0, 2, 14, 3, 27).getTime();
    const failed = {
      exchanges: 5,
      failedWrites: 3,
      lostExchanges: 2,
      lastError: 'database or disk is full',
      firstLossAt: from,
      lastLossAt: from + 65_000,
      resumed: false,
    };
    act(() => api.emit('recording.failed', failed));
    expect(screen.getByTestId('recording-failed').textContent).toBe(
      'Recording failed. Traffic still flows to the API, but 2 exchanges were not saved between 14:03:27 and 14:04:32 (3 failed writes): database or disk is full. Recording resumes by itself once the file can be written.',
    );
    // Writes succeed again: the banner says so and keeps what was lost, when and why.
    act(() => api.emit('recording.resumed', { ...failed, exchanges: 7, resumed: true }));
    expect(screen.getByTestId('recording-failed').textContent).toBe(
      'Recording resumed. 2 exchanges were not saved between 14:03:27 and 14:04:32 (3 failed writes): database or disk is full. New traffic is recorded again.',
    );
    act(() => api.setStatus('lost'));
    expect(screen.getByTestId('connection-lost').textContent).toMatch(/Lost the connection/);
    act(() => api.setStatus('open'));
    expect(screen.queryByTestId('connection-lost')).toBeNull();
    expect(screen.getByTestId('recording-failed')).toBeTruthy();
  });

  it('steps with the arrow keys, focuses search with /', async () => {
    const api = client([summary('run:resp_par1')]);
    const { container } = render(<App api={api} />);
    const row = await waitFor(() => {
      const el = container.querySelector('[data-run-id="run:resp_par1"]');
      if (!el) throw new Error('row not rendered yet');
      return el as HTMLElement;
    });
    fireEvent.click(row);
    await waitFor(() => expect(container.querySelectorAll('[data-node-type]').length).toBe(9));
    const last = useRunStore.getState().replay.step;
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    expect(useRunStore.getState().replay.step).toBeLessThan(last);
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    expect(useRunStore.getState().replay.step).toBe(last);
    fireEvent.keyDown(window, { key: '/' });
    expect(document.activeElement?.id).toBe('run-search');
  });
});
