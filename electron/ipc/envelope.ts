// How a contract call rides on Electron IPC. The main process never lets a handler throw:
// Electron serialises a thrown Error as a bare message (the `code` is lost), so every
// answer is an envelope and the preload turns `ok: false` back into a `{code, message}`
// rejection. Channel and event names on the wire are the contract's own (`runs.list`,
// `run.updated`): there is no second list of names to keep in step.
import type { ApiErrorBody } from '../../shared/api/errors.js';

export type IpcResult<T = unknown> = { ok: true; value: T } | { ok: false; error: ApiErrorBody };

/** A request larger than this is refused before it reaches the service (same cap as headless). */
export const MAX_REQUEST_BYTES = 1 << 20;
