import { describe, expect, it } from 'vitest';
import type { LoupeApi } from '../../shared/api/contract.js';
import { ApiError } from '../../shared/api/errors.js';
import { bridgeClient } from './api-client.js';

describe('bridgeClient', () => {
  it('turns the preload’s plain {code, message} rejection into an ApiError with its message', async () => {
    const bridge: LoupeApi = {
      invoke: () => Promise.reject({ code: 'not_found', message: 'no run "r1"' }),
      on: () => () => {},
    };
    const err = await bridgeClient(bridge)
      .invoke('runs.get', { runId: 'r1' } as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'not_found', message: 'no run "r1"' });
  });

  it('reports an always-open connection and passes events through', () => {
    const seen: string[] = [];
    const client = bridgeClient({
      invoke: () => Promise.resolve(null as never),
      on: (_e, cb) => (cb({ exchangeId: 1 } as never), () => {}),
    });
    client.onConnection((s) => seen.push(s));
    client.on('exchange.recorded', (p) => seen.push(String(p.exchangeId)));
    expect(seen).toEqual(['open', '1']);
  });
});
