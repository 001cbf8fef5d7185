// The desktop window opens while Loupe upgrades an old library (electron/core/host/starting-api.ts):
// calls wait, and the pushed progress is all there is to show, so it must be shown.
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UpgradeProgress } from '../../shared/api/types.js';
import { FakeClient } from '../test/fake-client.js';
import { resetStores } from '../test/reset-stores.js';
import { App } from './App.js';

const never = () => new Promise<never>(() => {});
const step = (phase: UpgradeProgress['phase'], done = 0, total = 0, task: string | null = null): UpgradeProgress => ({
  path: '/home/me/.config/Loupe/library.loupe',
  fromVersion: 4,
  toVersion: 6,
  phase,
  task,
  done,
  total,
});

describe('the upgrade banner', () => {
  beforeEach(resetStores);

  it('says which file is upgraded and how far, while every call waits, and goes when it is done', async () => {
    const api = new FakeClient({ 'app.info': never, 'runs.list': never });
    render(<App api={api} />);
    expect(screen.queryByTestId('recording-upgrading')).toBeNull();

    act(() => api.emit('recording.upgrading', step('start')));
    const banner = await screen.findByTestId('recording-upgrading');
    expect(banner.textContent).toContain('Upgrading library.loupe for this version of Loupe');
    expect(banner.textContent).toContain('format v4 to v6, once');
    expect(banner.textContent).toContain('Starting…');
    expect(screen.queryByRole('progressbar')).toBeNull();

    act(() => api.emit('recording.upgrading', step('progress', 2_500, 10_000, 'storing context once')));
    expect(banner.textContent).toContain('Storing context once: 2,500 of 10,000 responses.');
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25');

    act(() => api.emit('recording.upgrading', step('done')));
    expect(screen.queryByTestId('recording-upgrading')).toBeNull();
  });
});
