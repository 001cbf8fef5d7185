// The open-exchange list on its own: what drain() waits for, cuts and counts.
import { describe, expect, it } from 'vitest';
import { OpenExchanges, SHUTDOWN_ERROR } from './open-exchanges.js';

describe('OpenExchanges.drain', () => {
  it('waits for an exchange that ends within the grace period, and cuts nothing', async () => {
    const open = new OpenExchanges();
    const cut: string[] = [];
    const ended = open.add((reason) => cut.push(reason));
    setTimeout(ended, 20);
    expect(await open.drain(5_000)).toEqual({ cutShort: 0, stillOpen: 0 });
    expect(cut).toEqual([]);
  });

  it('cuts short what is open when the grace period runs out, and one begun after the cut too', async () => {
    const open = new OpenExchanges();
    const cut: string[] = [];
    const endOf = (name: string) => {
      const ended: () => void = open.add((reason) => {
        cut.push(`${name}: ${reason}`);
        ended();
        // A keep-alive connection's next request, read while the shutdown goes on.
        if (name === 'first') endOf('late');
      });
    };
    endOf('first');
    expect(await open.drain(10)).toEqual({ cutShort: 1, stillOpen: 0 });
    expect(cut).toEqual([`first: ${SHUTDOWN_ERROR}`, `late: ${SHUTDOWN_ERROR}`]);
  });

  it('counts an exchange whose forwarder failed to end it as still open', async () => {
    const open = new OpenExchanges();
    open.add(() => {
      throw new Error('a bug in a forwarder');
    });
    expect(await open.drain(10)).toEqual({ cutShort: 1, stillOpen: 1 });
  });
});
