// The one gate every IPC call passes before the service sees it: the sender must be a
// frame showing the app's own page (not a page it navigated to, not a subframe from
// elsewhere, not a destroyed frame), and the request must be a plain JSON object of
// bounded size. The service then checks the fields each channel needs.
import { ApiError } from '../../shared/api/errors.js';
import { MAX_REQUEST_BYTES } from './envelope.js';

/** What the guard reads of `event.senderFrame` (Electron's WebFrameMain). */
export interface SenderFrame {
  readonly url: string;
}

export function checkSender(frame: SenderFrame | null | undefined, isAppUrl: (url: string) => boolean): void {
  let url: string | undefined;
  try {
    url = frame?.url;
  } catch {
    url = undefined; // a frame that navigated away or was destroyed throws on access
  }
  if (!url) throw new ApiError('forbidden', 'the sender frame is gone');
  if (!isAppUrl(url)) throw new ApiError('forbidden', `a page at ${safeOrigin(url)} may not use Loupe's API`);
}

export function checkRequest(request: unknown): Record<string, unknown> {
  if (request === undefined || request === null) return {};
  if (typeof request !== 'object' || Array.isArray(request))
    throw new ApiError('bad_request', 'the request must be an object');
  const proto = Object.getPrototypeOf(request) as unknown;
  if (proto !== Object.prototype && proto !== null)
    throw new ApiError('bad_request', 'the request must be a plain object');
  let size: number;
  try {
    size = JSON.stringify(request).length;
  } catch {
    throw new ApiError('bad_request', 'the request must be JSON data');
  }
  if (size > MAX_REQUEST_BYTES) throw new ApiError('too_large', 'request over 1 MiB');
  return request as Record<string, unknown>;
}

function safeOrigin(url: string): string {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? `${u.protocol}//${u.host}` : u.origin;
  } catch {
    return 'an unknown address';
  }
}
