import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { statelessTurns } from '../../shared/trace/testing/scenarios-wide.js';
import { buildRunView } from '../model/run-view.js';
import { detailFrom } from '../test/run-fixture.js';
import { PaidFor } from './PaidFor.js';

describe('What this run paid for', () => {
  it("tables a stateless loop's tokens by source, tool and agent, and names the biggest resends", async () => {
    const detail = detailFrom(statelessTurns(8));
    render(<PaidFor view={buildRunView(detail)} prices={detail.prices} />);
    await waitFor(() => expect(screen.getByTestId('paid-for').dataset.state).toBe('ready'), { timeout: 15_000 });
    const tool = screen.getByTestId('paid-by-tool').querySelector('[data-paid-row="run_tests"]')!;
    // Turns 0, 2, 4, 6 call run_tests; each answer is first sent by the next request and
    // resent by every one after it, to turn 7: 6 + 4 + 2 + 0 resends.
    expect(tool.textContent).toMatch(/×12/);
    expect(screen.getByTestId('paid-by-source').querySelector('[data-paid-row="overhead"]')).toBeTruthy();
    expect(screen.getByTestId('paid-by-agent').querySelectorAll('[data-paid-row]')).toHaveLength(1);
    expect(screen.getByTestId('paid-levers').textContent).toMatch(/were resent \d+ times: \d+ tokens, (\$|<\$)/);
  });
});
