// The window's chrome around the canvas: panels, keys, dialogs, links, the replay-aware
// inspector, live status and failures, driven through the whole App with a fake client.
import { skeletonOf } from '../../shared/api/run-skeleton.js';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api/errors.js';
import type { AppInfo, RunRecords, RunSummary } from '../../shared/api/types.js';
import { streamed } from '../../shared/trace/testing/scenarios.js';
import { PANELS_KEY } from '../state/panels-logic.js';
import { reloadPanels } from '../state/panels-store.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
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

function setup(
  options: { runs?: RunSummary[]; detail?: RunRecords; extra?: ConstructorParameters<typeof FakeClient>[0] } = {},
) {
  const detail = options.detail ?? detailFrom();
  const runs = options.runs ?? [detail.summary];
  const api = new FakeClient({
    'app.info': () => INFO,
    'runs.list': () => ({ runs, total: runs.length, matched: runs.length, nextCursor: null, models: ['gpt-5'] }),
    'runs.get': () => skeletonOf(detail),
    ...options.extra,
  });
  const utils = render(<App api={api} />);
  return { api, detail, ...utils };
}

function find(container: HTMLElement, selector: string): Promise<HTMLElement> {
  return waitFor(() => {
    const el = container.querySelector(selector);
    if (!el) throw new Error(`${selector} not rendered yet`);
    return el as HTMLElement;
  });
}

async function openRun(container: HTMLElement, id: string) {
  fireEvent.click(await find(container, `[data-run-id="${id}"]`));
  await waitFor(() => expect(useRunStore.getState().view).not.toBeNull());
}

describe('window chrome', () => {
  beforeEach(() => {
    resetStores();
    localStorage.clear();
    reloadPanels();
    useUiStore.setState({ tab: 'graph', dialog: null });
  });

  it('shows no inspector until something is selected, and Esc closes it again', async () => {
    const { container, detail } = setup();
    await openRun(container, detail.summary.id);
    expect(container.querySelector('[data-panel="inspector"]')).toBeNull();
    act(() => useRunStore.getState().select({ kind: 'response', index: 0 }));
    expect(container.querySelector('[data-panel="inspector"]')).not.toBeNull();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(container.querySelector('[data-panel="inspector"]')).toBeNull();
  });

  it('collapses and resizes a side panel and remembers it across a reload', async () => {
    const { container, unmount } = setup();
    const toggle = await find(container, '[data-panel-toggle="runs"]');
    fireEvent.click(toggle);
    expect(container.querySelector('[data-panel="runs"]')?.getAttribute('data-collapsed')).toBe('true');
    fireEvent.click(container.querySelector('[data-panel-toggle="runs"]')!);
    const handle = container.querySelector('[data-panel-resize="runs"]') as HTMLElement;
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    fireEvent.click(container.querySelector('[data-panel-toggle="runs"]')!);
    expect(JSON.parse(localStorage.getItem(PANELS_KEY)!).runs).toEqual({ width: 348, collapsed: true });
    unmount();
    reloadPanels();
    const again = setup();
    await waitFor(() =>
      expect(again.container.querySelector('[data-panel="runs"]')?.getAttribute('data-collapsed')).toBe('true'),
    );
    fireEvent.click(again.container.querySelector('[data-panel-toggle="runs"]')!);
    expect((again.container.querySelector('[data-panel="runs"]') as HTMLElement).style.width).toBe('348px');
  });

  it('keeps shortcuts working after a click on the scrubber, a button or a select; not while typing', async () => {
    const { container, detail } = setup();
    await openRun(container, detail.summary.id);
    const scrubber = container.querySelector('[data-replay="scrubber"]') as HTMLInputElement;
    scrubber.focus();
    fireEvent.keyDown(scrubber, { key: 'w' });
    expect(useUiStore.getState().tab).toBe('waterfall');
    fireEvent.keyDown(scrubber, { key: ' ' });
    expect(useRunStore.getState().replay.playing).toBe(true);
    const speed = container.querySelector('[data-replay="speed"]') as HTMLSelectElement;
    fireEvent.keyDown(speed, { key: ' ' });
    expect(useRunStore.getState().replay.playing).toBe(false);
    act(() => useRunStore.getState().seek(useRunStore.getState().view!.replay.steps.length - 1));
    const before = useRunStore.getState().replay.step;
    fireEvent.keyDown(container.querySelector('[data-replay="play"]')!, { key: 'ArrowLeft' });
    expect(useRunStore.getState().replay.step).toBeLessThan(before);
    const search = container.querySelector('#run-search') as HTMLInputElement;
    fireEvent.keyDown(search, { key: 'g' });
    expect(useUiStore.getState().tab).toBe('waterfall');
  });

  it('opens the shortcut sheet with ? and closes it with Esc', async () => {
    setup();
    fireEvent.keyDown(window, { key: '?' });
    const sheet = await screen.findByTestId('shortcut-sheet');
    expect(sheet.textContent).toMatch(/Play \/ pause the replay/);
    fireEvent.keyDown(sheet, { key: 'Escape' });
    expect(screen.queryByTestId('shortcut-sheet')).toBeNull();
  });

  it('says an item has not happened yet at the replay step, rather than its final state', async () => {
    const { container, detail } = setup();
    await openRun(container, detail.summary.id);
    const view = useRunStore.getState().view!;
    const answer = view.graph.nodes.find((n) => n.type === 'message' && n.item.raw.role === 'assistant')!;
    act(() => {
      useRunStore.getState().select({ kind: 'node', id: answer.id });
      useRunStore.getState().seek(view.replay.appearAt[answer.id]! - 1);
    });
    expect(screen.getByTestId('not-yet').textContent).toMatch(/Not yet at this step/);
    expect(screen.getByTestId('node-inspector').textContent).not.toMatch(/streaming/);
    expect(screen.queryByTestId('message-text')).toBeNull();
    fireEvent.click(screen.getByTestId('not-yet-go'));
    expect(useRunStore.getState().replay.step).toBe(view.replay.appearAt[answer.id]);
    expect(screen.queryByTestId('not-yet')).toBeNull();
    expect(screen.getByTestId('message-text')).toBeTruthy();
  });

  it('shows a plain-text tool output as text, without a JSON warning', async () => {
    const call = {
      id: 'fc_1',
      type: 'function_call',
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      status: 'completed',
    };
    const detail = detailFrom([
      streamed(1, 0, { model: 'gpt-5', input: 'Weather?', stream: true }, 'resp_t1', [call]),
      streamed(
        2,
        1,
        {
          model: 'gpt-5',
          previous_response_id: 'resp_t1',
          stream: true,
          input: [{ type: 'function_call_output', call_id: 'call_1', output: 'Sunny, 20 degrees.' }],
        },
        'resp_t2',
        [
          {
            id: 'msg_1',
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', annotations: [], text: 'Sunny.' }],
          },
        ],
      ),
    ]);
    const { container } = setup({ detail });
    await openRun(container, detail.summary.id);
    const out = useRunStore.getState().view!.graph.nodes.find((n) => n.type === 'function_call_output')!;
    act(() => useRunStore.getState().select({ kind: 'node', id: out.id }));
    expect(screen.getByTestId('tool-output').textContent).toBe('Sunny, 20 degrees.');
    expect(screen.getByTestId('inspector').textContent).not.toMatch(/Not valid JSON/);
  });

  it('opens a recording by path, and says clearly why a bad path cannot be opened', async () => {
    const opened: string[] = [];
    const { api } = setup({
      extra: {
        'recordings.open': ({ path }) => {
          if (path !== '/data/other.loupe') throw new ApiError('bad_request', `no such recording: ${path}`);
          opened.push(path);
          return { path, live: false };
        },
      },
    });
    await screen.findByTestId('open-recording-button');
    fireEvent.keyDown(window, { key: 'o' });
    const input = (await screen.findByTestId('recording-path')) as HTMLInputElement;
    fireEvent.change(input, { target: { value: '/nope.loupe' } });
    fireEvent.click(screen.getByTestId('recording-open'));
    expect((await screen.findByTestId('recording-error')).textContent).toBe(
      'Could not open it: no such recording: /nope.loupe',
    );
    fireEvent.change(input, { target: { value: '/data/other.loupe' } });
    fireEvent.click(screen.getByTestId('recording-open'));
    await waitFor(() => expect(screen.queryByTestId('open-recording')).toBeNull());
    expect(opened).toEqual(['/data/other.loupe']);
    expect(api.calls.filter((c) => c.channel === 'app.info').length).toBeGreaterThan(1);
  });

  it('puts the run and the selected node in the URL, and a reload opens the same view', async () => {
    const first = setup();
    await openRun(first.container, first.detail.summary.id);
    const node = useRunStore.getState().view!.graph.nodes.find((n) => n.type === 'function_call')!;
    act(() => useRunStore.getState().select({ kind: 'node', id: node.id }));
    const hash = location.hash;
    expect(hash).toContain('node=');
    first.unmount();
    useRunStore.setState(useRunStore.getInitialState());
    setup();
    await waitFor(() => expect(useRunStore.getState().selection).toEqual({ kind: 'node', id: node.id }));
    expect(useRunStore.getState().runId).toBe(first.detail.summary.id);
    expect(location.hash).toBe(hash);
    expect(screen.getByTestId('node-inspector').getAttribute('data-inspected-id')).toBe(node.id);
  });

  it('Play demo opens the run it starts', async () => {
    const { api, container } = setup({
      runs: [],
      extra: { 'demo.start': () => ({ scenario: 'travel', label: 'demo-travel-101500' }) },
    });
    fireEvent.click(await screen.findByTestId('demo-start'));
    await waitFor(() => expect(api.calls.some((c) => c.channel === 'demo.start')).toBe(true));
    await act(async () => {});
    act(() => api.emit('run.updated', { run: summary('label:other', { label: 'other' }) }));
    expect(useRunStore.getState().runId).toBeNull();
    act(() =>
      api.emit('run.updated', {
        run: summary('label:demo-travel-101500-travel-chat', { label: 'demo-travel-101500-travel-chat', live: true }),
      }),
    );
    expect(useRunStore.getState().runId).toBe('label:demo-travel-101500-travel-chat');
    expect(container.querySelector('[data-testid="run-pane"]')).not.toBeNull();
  });

  it('keeps a live run running between requests, with its dot on', async () => {
    const endedAt = Date.now() - 1_000;
    const { container } = setup({
      runs: [summary('label:agent', { label: 'agent', status: 'completed', live: false, endedAt })],
    });
    const row = await find(container, '[data-run-id="label:agent"]');
    expect(row.getAttribute('data-status')).toBe('in_progress');
    expect(row.getAttribute('data-active')).toBe('true');
    expect(row.querySelector('[data-testid="live-dot"]')).not.toBeNull();
    expect(row.textContent).toContain('running');
  });

  it('shows why a response failed on its frame in the graph and in the top bar', async () => {
    const base = detailFrom();
    const failed = {
      ...base.responses[0]!,
      status: 'failed' as const,
      error: {
        code: 'upstream_unreachable',
        message: 'Loupe proxy: cannot reach the upstream http://127.0.0.1:9 (ECONNREFUSED)',
      },
      output: [],
    };
    const detail: RunRecords = {
      ...base,
      summary: { ...base.summary, status: 'failed' },
      responses: [failed],
      links: [base.links[0]!],
    };
    const { api, container } = setup({ detail });
    await openRun(container, detail.summary.id);
    await waitFor(() =>
      expect(screen.getByTestId('frame-failure').textContent).toContain(
        'failed: cannot reach the upstream http://127.0.0.1:9 (ECONNREFUSED)',
      ),
    );
    // On the frame, so not again above the canvas.
    expect(screen.queryByTestId('run-failures')).toBeNull();
    act(() => api.emit('run.updated', { run: { ...detail.summary, endedAt: Date.now(), revision: 9 } }));
    await waitFor(() => expect(screen.getByTestId('upstream-health').getAttribute('data-state')).toBe('failing'));
    expect(screen.getByTestId('upstream-health').textContent).toContain('ECONNREFUSED');
    expect(screen.getByTestId('connection').textContent).toBe('server connected');
  });
});
