// The messages between the desktop's main thread (remote-core-host.ts) and the worker that
// runs its capture core (core-host-worker.ts). Errors cross as plain data and are made
// into the same classes again, so callers can tell a taken port or an API error apart.
import type { ChannelName, EventName } from '../../../shared/api/contract.js';
import { ApiError, type ApiErrorCode } from '../../../shared/api/errors.js';
import { PortInUseError } from './port-check.js';
import type { ProxySettings } from './settings.js';

/** What the main thread reads synchronously; every reply carries it, fresh. */
export interface HostState {
  proxyUrl: string;
  settings: ProxySettings;
}

export interface WireError {
  name: string;
  message: string;
  code?: ApiErrorCode;
  port?: number;
}

export type HostRequest =
  | { id: number; op: 'invoke'; channel: ChannelName; request: unknown }
  | { id: number; op: 'settled' }
  | { id: number; op: 'apply'; settings: ProxySettings }
  | { id: number; op: 'close' };

export type HostMessage =
  | { type: 'started'; state: HostState; notice: string | null }
  | { type: 'start-failed'; error: WireError }
  | { type: 'reply'; id: number; state: HostState; value?: unknown; error?: WireError }
  | { type: 'event'; event: EventName; payload: unknown };

export function toWireError(err: unknown): WireError {
  if (err instanceof PortInUseError) return { name: err.name, message: err.message, port: err.port };
  if (err instanceof ApiError) return { name: err.name, message: err.message, code: err.code };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

export function fromWireError(wire: WireError): Error {
  if (wire.name === 'PortInUseError' && wire.port !== undefined) return new PortInUseError(wire.port);
  if (wire.name === 'ApiError' && wire.code) return new ApiError(wire.code, wire.message);
  const err = new Error(wire.message);
  err.name = wire.name;
  return err;
}
