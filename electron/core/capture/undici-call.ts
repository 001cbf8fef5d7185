// One forwarded request through undici's dispatcher (a keep-alive Pool to a direct upstream,
// or a ProxyAgent's tunnel), behind the UpstreamCall contract. undici's low-level handler
// is used, not its `request()`: it hands over the head's raw headers in wire order, every
// body piece as it is read, and a resume callback for backpressure, with no stream object
// per response.
import { PassThrough } from 'node:stream';
import type { Dispatcher } from 'undici';
import { flattenHeaders } from '../../../shared/capture/hop-headers.js';
import { silenceTimeout, type StartUpstreamCall, type UpstreamCall } from './upstream-call.js';

/** undici's failures, as Node's client reports them, so the error mapping (proxy-error.ts) stays one. */
function asNodeError(err: Error & { code?: string }): { error: NodeJS.ErrnoException; timedOut: boolean } {
  switch (err.code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { error: err, timedOut: true };
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return { error: Object.assign(new Error(err.message), { code: 'ECONNRESET' }), timedOut: false };
    case 'UND_ERR_DESTROYED':
      return {
        error: Object.assign(new Error('the proxy is shutting down'), { code: 'ECONNABORTED' }),
        timedOut: false,
      };
    default: {
      // A connect failure carries the socket's own code (ECONNREFUSED, ENOTFOUND) on its cause.
      const cause = (err as { cause?: NodeJS.ErrnoException }).cause;
      if (err.code === undefined && cause?.code) return { error: cause, timedOut: false };
      return { error: err, timedOut: false };
    }
  }
}

function gone(): NodeJS.ErrnoException {
  return Object.assign(new Error('the client went away'), { code: 'ECONNABORTED' });
}

export function undiciCaller(dispatcher: Dispatcher, origin: string, timeoutMs: number): StartUpstreamCall {
  return (request, events) => {
    let over = false;
    let abort: ((err: Error) => void) | null = null;
    let paused = false;
    let resumeRead: (() => void) | null = null;
    const body = request.body === 'none' ? null : new PassThrough();
    const fail = (err: Error & { code?: string }) => {
      if (over) return;
      over = true;
      const { error, timedOut } = asNodeError(err);
      events.onError(timedOut ? silenceTimeout(timeoutMs) : error, timedOut);
    };
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortRequest) {
        abort = abortRequest;
        // Abandoned while it waited for a connection: it never goes out.
        if (over) abortRequest(gone());
      },
      onHeaders(status, rawHeaders, resume, statusText) {
        // Interim answers (100 Continue) are not relayed: the client's own server answers those.
        if (status < 200) return true;
        resumeRead = resume;
        const raw = new Array<string>(rawHeaders.length);
        for (let i = 0; i < rawHeaders.length; i++) raw[i] = (rawHeaders[i] as Buffer).toString('latin1');
        if (!over) events.onResponse({ status, statusText, rawHeaders: raw });
        return !paused && !over;
      },
      onData(chunk) {
        if (over) return false;
        events.onData(chunk);
        return !paused;
      },
      onComplete() {
        if (over) return;
        over = true;
        events.onEnd();
      },
      onError: fail,
    };
    dispatcher.dispatch(
      {
        origin,
        method: request.method,
        path: request.path,
        headers: flattenHeaders(request.headers),
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      },
      handler,
    );
    const call: UpstreamCall = {
      write: (chunk) => (over || !body ? true : body.write(chunk)),
      end: () => {
        if (!over) body?.end();
      },
      onDrain: (listener) => body?.on('drain', listener),
      pause: () => {
        paused = true;
      },
      resume: () => {
        if (!paused) return;
        paused = false;
        if (!over) resumeRead?.();
      },
      destroy: () => {
        if (over) return;
        over = true;
        abort?.(gone());
        body?.destroy();
      },
    };
    return call;
  };
}
