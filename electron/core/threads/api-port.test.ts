// The thread transport over a real MessageChannel: typed calls and their answers, errors as
// `{code, message}` made into their classes again, events that arrive before a later
// answer, buffers moved rather than copied, and a closed or vanished side that fails calls.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api/errors.js';
import { connectApi, disconnect, exposeApi, notifyApi, transfer } from './api-port.js';

interface Counter {
  add(n: number): number;
  slowly(n: number): Promise<number>;
  fail(kind: 'api' | 'plain' | 'custom'): void;
  sum(data: { bytes: Uint8Array }): number;
  close(): Promise<void>;
}
interface Told {
  added(total: number): void;
}

class TakenError extends Error {
  override readonly name = 'TakenError';
  constructor(readonly port: number) {
    super(`port ${port} is taken`);
  }
}

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

function pair(): [MessagePort, MessagePort] {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  return [port1, port2];
}

function serveCounter(port: MessagePort): void {
  const tell = notifyApi<Told>(port);
  let total = 0;
  exposeApi<Counter>(port, {
    add(n) {
      total += n;
      tell.added(total);
      return total;
    },
    slowly: (n) => new Promise((resolve) => setTimeout(() => resolve(n * 2), 5)),
    fail(kind) {
      if (kind === 'api') throw new ApiError('not_found', 'no such thing');
      if (kind === 'custom') throw new TakenError(7455);
      throw new Error('it broke');
    },
    sum: ({ bytes }) => bytes.reduce((n, b) => n + b, 0),
    close: async () => {},
  });
}

describe('exposeApi / connectApi', () => {
  it('answers typed calls in order, sync and async, and tells events before the answer they precede', async () => {
    const [near, far] = pair();
    serveCounter(far);
    const heard: string[] = [];
    exposeApi<Told>(near, { added: (total) => void heard.push(`added ${total}`) });
    const counter = connectApi<Counter>(near);
    const answers = await Promise.all([
      counter.add(2).then((v) => (heard.push(`answer ${v}`), v)),
      counter.slowly(21),
      counter.add(3).then((v) => (heard.push(`answer ${v}`), v)),
    ]);
    expect(answers).toEqual([2, 42, 5]);
    expect(heard).toEqual(['added 2', 'answer 2', 'added 5', 'answer 5']);
  });

  it('sends errors as code and message, and makes ApiError or the caller’s own class again', async () => {
    const [near, far] = pair();
    serveCounter(far);
    const counter = connectApi<Counter>(near, (wire) =>
      wire.name === 'TakenError' ? new TakenError(wire.fields.port as number) : undefined,
    );
    const api = await counter.fail('api').catch((e: unknown) => e);
    expect(api).toBeInstanceOf(ApiError);
    expect(api).toMatchObject({ code: 'not_found', message: 'no such thing' });
    const plain = await counter.fail('plain').catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(Error);
    expect(plain).not.toBeInstanceOf(ApiError);
    expect((plain as Error).message).toBe('it broke');
    const custom = await counter.fail('custom').catch((e: unknown) => e);
    expect(custom).toBeInstanceOf(TakenError);
    expect((custom as TakenError).port).toBe(7455);
  });

  it('moves a marked argument’s buffers instead of copying them', async () => {
    const [near, far] = pair();
    serveCounter(far);
    const counter = connectApi<Counter>(near);
    const bytes = Uint8Array.from([1, 2, 3, 4]);
    const copied = Uint8Array.from([5, 6]);
    expect(await counter.sum({ bytes: copied })).toBe(11);
    expect(copied.byteLength).toBe(2);
    expect(await counter.sum(transfer({ bytes }, [bytes.buffer]))).toBe(10);
    expect(bytes.byteLength).toBe(0); // detached: it moved
  });

  it('closes the port once close() is answered, and fails open and later calls of a side that is gone', async () => {
    const [near, far] = pair();
    serveCounter(far);
    const counter = connectApi<Counter>(near);
    const closed = new Promise((resolve) => near.once('close', resolve));
    await counter.close();
    await closed;
    const waiting = connectApi<Counter>(pair()[0]);
    const open = waiting.add(1);
    disconnect(waiting, new ApiError('unavailable', 'it stopped'));
    await expect(open).rejects.toThrow('it stopped');
    await expect(waiting.add(1)).rejects.toThrow('it stopped');
  });

  it('holds calls made before an implementation that is still starting, and answers them with why it failed', async () => {
    const [near, far] = pair();
    let start!: (api: Pick<Counter, 'add'>) => void;
    exposeApi(far, new Promise<Pick<Counter, 'add'>>((resolve) => (start = resolve)));
    const counter = connectApi<Counter>(near);
    const early = counter.add(1);
    start({ add: (n) => n + 100 });
    expect(await early).toBe(101);
    const [near2, far2] = pair();
    exposeApi(far2, Promise.reject(new Error('could not open the file')));
    await expect(connectApi<Counter>(near2).add(1)).rejects.toThrow('could not open the file');
  });

  it('is no thenable, so a remote can be returned from an async function', async () => {
    const [near, far] = pair();
    serveCounter(far);
    const counter = await (async () => connectApi<Counter>(near))();
    expect(await counter.add(1)).toBe(1);
  });
});
