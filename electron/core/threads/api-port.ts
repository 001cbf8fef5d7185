// One way to use an API from another thread: `exposeApi(port, impl)` on the side that has
// it, `connectApi<Api>(port)` on the side that calls it, both typed by one interface. A call
// crosses as its method's name and arguments and is answered by number, with its value or
// its error as `{code, message}` (plus the error's name and own fields, so its class can be
// made again). `notifyApi` makes one-way calls, for events: nothing answers them. Messages on
// a port are handled in order, so an event posted before a call reaches the other side first.
//
// Arguments and answers are cloned; one marked with `transfer(value, buffers)` moves its buffers
// instead (Comlink's idea, without its proxies of functions). `close()`, where an API has
// one, is its last call: once it is answered the port closes, and the other side sees it.
import type { MessagePort, Transferable, Worker } from 'node:worker_threads';
import { ApiError, isErrorBody, toErrorBody, type ApiErrorBody } from '../../../shared/api/errors.js';
import { PendingCalls } from './pending-calls.js';

/** A worker, its parentPort, or one end of a MessageChannel. */
export type ApiPort = MessagePort | Worker;

/** An error as it crosses: the API's code and message, and what makes its class again. */
export interface WireError extends ApiErrorBody {
  name: string;
  fields: Record<string, unknown>;
}

/** The API as the calling thread sees it: every method answers later. */
export type Remote<Api> = {
  [K in keyof Api]: Api[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

type Call = { call: string; args: unknown[]; id?: number };
type Reply = { reply: number; value?: unknown; error?: WireError };

const transfers = new WeakMap<object, readonly Transferable[]>();
const links = new WeakMap<object, PendingCalls>();

/** Marks an argument or an answer whose buffers move to the other thread instead of being copied. */
export function transfer<T extends object>(value: T, buffers: readonly Transferable[]): T {
  transfers.set(value, buffers);
  return value;
}

/** Answers the calls that arrive on `port` with `impl`; calls made before it resolves wait for it. */
export function exposeApi<Api extends object>(port: ApiPort, impl: Api | Promise<Api>): void {
  let target: Api | null = impl instanceof Promise ? null : impl;
  const ready = Promise.resolve(impl).then((api) => (target = api));
  ready.catch(() => undefined); // each call waiting on it is answered with the error
  onMessage(port, (msg) => {
    if (!('call' in msg)) return;
    const run = (api: Api) => (api[msg.call as keyof Api] as (...args: unknown[]) => unknown)(...msg.args);
    if (msg.id === undefined) return void (target ? run(target) : ready.then(run));
    const { id, call } = msg;
    const answer = (reply: Omit<Reply, 'reply'>) => {
      port.postMessage({ reply: id, ...reply }, transfersOf(reply.value));
      if (call === 'close' && 'close' in port) port.close();
    };
    let result: unknown;
    try {
      result = target ? run(target) : ready.then(run);
    } catch (err) {
      return answer({ error: toWire(err) });
    }
    if (!(result instanceof Promise)) return answer({ value: result });
    result.then(
      (value: unknown) => answer({ value }),
      (err: unknown) => answer({ error: toWire(err) }),
    );
  });
}

/** The API exposed on the other side of `port`; `revive` makes a crossed error's own class again. */
export function connectApi<Api extends object>(
  port: ApiPort,
  revive?: (wire: WireError) => Error | undefined,
): Remote<Api> {
  const calls = new PendingCalls();
  onMessage(port, (msg) => {
    if ('reply' in msg)
      calls.settle(msg.reply, msg.error ? (revive?.(msg.error) ?? fromWire(msg.error)) : null, msg.value);
  });
  const remote = proxyOf((name, args) => calls.start((id) => post(port, { call: name, args, id })));
  links.set(remote, calls);
  return remote as Remote<Api>;
}

/** One-way calls to the API exposed on the other side of `port` (events); nothing answers them. */
export function notifyApi<Api extends object>(port: ApiPort): Api {
  return proxyOf((name, args) => post(port, { call: name, args })) as Api;
}

/** The other side is gone: every open call to `remote`, and every later one, fails with `reason`. */
export function disconnect(remote: object, reason: Error): void {
  links.get(remote)?.failAll(reason);
}

function proxyOf(send: (name: string, args: unknown[]) => unknown): object {
  const methods = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(
    {},
    {
      // Not `then`: a remote handed to `await` or returned from an async function is no promise.
      get: (_, name) => {
        if (typeof name !== 'string' || name === 'then') return undefined;
        let method = methods.get(name);
        if (!method) methods.set(name, (method = (...args: unknown[]) => send(name, args)));
        return method;
      },
    },
  );
}

function onMessage(port: ApiPort, listener: (msg: Call | Reply) => void): void {
  (port as MessagePort).on('message', listener);
}

function post(port: ApiPort, msg: Call): void {
  port.postMessage(msg, msg.args.flatMap(transfersOf));
}

function transfersOf(value: unknown): readonly Transferable[] {
  return typeof value === 'object' && value !== null ? (transfers.get(value) ?? []) : [];
}

function toWire(err: unknown): WireError {
  const fields: Record<string, unknown> = {};
  if (err instanceof Error)
    for (const [key, value] of Object.entries(err))
      if (typeof value !== 'object' && key !== 'code') fields[key] = value;
  const name = err instanceof Error ? err.name : isErrorBody(err) ? 'ApiError' : 'Error';
  return { ...toErrorBody(err), name, fields };
}

function fromWire(wire: WireError): Error {
  if (wire.name === 'ApiError') return new ApiError(wire.code, wire.message);
  const err = Object.assign(new Error(wire.message), wire.fields);
  err.name = wire.name;
  return err;
}
