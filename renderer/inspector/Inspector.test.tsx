import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Controller } from '../app/controller.js';
import { ControllerContext } from '../app/controller-context.js';
import { buildRunView } from '../model/run-view.js';
import { useRunStore } from '../state/run-store.js';
import { FakeClient } from '../test/fake-client.js';
import { detailFrom } from '../test/run-fixture.js';
import { resetStores } from '../test/reset-stores.js';
import { Inspector } from './Inspector.js';
import { Markdown } from './Markdown.js';

function renderInspector() {
  const detail = detailFrom();
  const view = buildRunView(detail);
  useRunStore.getState().selectRun(detail.summary.id);
  useRunStore.getState().loaded(detail, view);
  const client = new FakeClient({});
  render(
    <ControllerContext.Provider value={new Controller(client)}>
      <Inspector />
    </ControllerContext.Provider>,
  );
  return view;
}

describe('Inspector', () => {
  beforeEach(resetStores);

  it("shows a function call's arguments as formatted JSON and the output that answered it", () => {
    const view = renderInspector();
    const call = view.graph.nodes.find((n) => n.type === 'function_call')!;
    act(() => useRunStore.getState().select({ kind: 'node', id: call.id }));
    expect(JSON.parse(screen.getByTestId('tool-arguments').textContent!)).toEqual({ city: 'Paris' });
    expect(screen.getByTestId('tool-arguments').textContent).toContain('\n  "city"');
    expect(screen.getByTestId('tool-output').textContent).toContain('"temp": 20');
  });

  it('says when reasoning is encrypted instead of showing nothing', () => {
    const view = renderInspector();
    const reasoning = view.graph.nodes.find((n) => n.type === 'reasoning')!;
    act(() => useRunStore.getState().select({ kind: 'node', id: reasoning.id }));
    expect(screen.getByTestId('reasoning-hidden').textContent).toMatch(/Encrypted reasoning/);
  });

  it('shows a response with its request parameters and usage', () => {
    renderInspector();
    act(() => useRunStore.getState().select({ kind: 'response', index: 0 }));
    expect(screen.getByTestId('request-params').textContent).toContain('"model": "gpt-5"');
    expect(screen.getByTestId('load-exchange')).toBeTruthy();
  });

  it("shows a response's changes against the request it continues, and says the first has none", () => {
    renderInspector();
    act(() => useRunStore.getState().select({ kind: 'response', index: 1 }));
    act(() => screen.getByRole('tab', { name: 'Changes' }).click());
    expect(screen.getByTestId('request-changes').dataset.previous).toBe('0');
    // parallelCalls(): the second request continues the first, which asked and called three times.
    expect(screen.getByTestId('changes-counts').textContent).toBe(
      "1 kept · 7 added (4 from #1's output) · 0 removed · 0 edited",
    );
    expect(screen.getByTestId('prefix-kept')).toBeTruthy();
    // The tab stays chosen while the selection moves to another response.
    act(() => useRunStore.getState().select({ kind: 'response', index: 0 }));
    expect(screen.getByTestId('changes-empty').textContent).toContain('first request of the run');
  });

  it('streams message text with the replay cursor', () => {
    const view = renderInspector();
    const message = view.graph.nodes.find((n) => n.type === 'message' && n.item.raw.role === 'assistant')!;
    const g = view.replay.growth[message.id]!;
    act(() => {
      useRunStore.getState().select({ kind: 'node', id: message.id });
      useRunStore.getState().seek(g.steps[0]!);
    });
    const partial = screen.getByTestId('markdown').textContent!;
    const full = view.replay.streamed[message.id]!;
    expect(partial.replace('▍', '')).toBe(full.slice(0, g.chars[0]));
    expect(partial.length).toBeLessThan(full.length + 1);
  });
});

describe('Markdown', () => {
  it('renders Markdown and never executes or inserts raw HTML', () => {
    const { container } = render(
      <Markdown
        text={'**bold** <img src=x onerror="alert(1)"> <script>alert(2)</script> [link](javascript:alert(3))'}
      />,
    );
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    const link = container.querySelector('a');
    expect(link?.getAttribute('href') ?? '').not.toContain('javascript:');
  });
});
