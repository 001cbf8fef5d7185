// Sends a recorded HTTP answer: the recorded status and end-to-end headers, then the body
// pieces one write each, so an SSE stream keeps its recorded chunk boundaries. With
// recorded timing each piece leaves at its recorded offset from the request's end (the
// clock is the start, not the previous write, so lateness does not add up along a
// stream); fast timing writes them back to back. A slow client is waited for (drain),
// never buffered without bound. A fork's proxy serves the same way and records what it
// sent: `tap` hears the head and each piece after it was written.
import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http';
import type { HeaderList } from '../../../shared/capture/exchange.js';
import { clientResponseHeaders, flattenHeaders, headerValue } from '../../../shared/capture/hop-headers.js';
import type { ProxyResponse } from '../capture/client-exchange.js';
import type { RecordedHttpAnswer } from './recorded-answer.js';

/** Node's ServerResponse, or the capture proxy's own. */
export type AnswerResponse = ProxyResponse & { off(event: 'drain' | 'close', listener: () => void): unknown };

export interface AnswerTap {
  head(status: number, statusText: string, headers: HeaderList): void;
  piece(data: Buffer): void;
}

export type Timing = 'recorded' | 'fast';

/** Waits until `atUs` after `startMs` (performance.now() time); at once with fast timing. */
export function pacer(timing: Timing, startMs: number): (atUs: number) => Promise<void> {
  if (timing === 'fast') return () => Promise.resolve();
  return (atUs) => {
    const wait = startMs + atUs / 1000 - performance.now();
    return wait > 0.5 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
  };
}

/**
 * The recorded headers a client may get again: end-to-end only, and none Node refuses to
 * send (a real upstream could not have sent those either). Content-Length stays only when
 * it still describes the stored body (a body past the store's size cap is cut short).
 */
export function replayHeaders(recorded: HeaderList, bodyLength: number): HeaderList {
  const kept = clientResponseHeaders(recorded).filter(([name, value]) => {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
      return true;
    } catch {
      return false;
    }
  });
  const length = headerValue(kept, 'content-length');
  return length !== undefined && Number(length) !== bodyLength
    ? kept.filter(([n]) => n.toLowerCase() !== 'content-length')
    : kept;
}

function written(res: AnswerResponse, data: Buffer): Promise<void> {
  if (res.write(data)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function sendAnswer(
  res: AnswerResponse,
  answer: RecordedHttpAnswer,
  timing: Timing,
  requestEndMs: number,
  tap?: AnswerTap,
): Promise<void> {
  const at = pacer(timing, requestEndMs);
  if (answer.status === null) {
    // The recording holds no answer (the upstream was unreachable): the client sees a
    // dropped connection again, after the recorded time.
    await at(answer.headAtUs);
    res.destroy();
    return;
  }
  const bodyLength = answer.body.reduce((n, p) => n + p.data.length, 0);
  await at(answer.headAtUs);
  if (res.destroyed) return;
  const headers = replayHeaders(answer.headers, bodyLength);
  const statusText = answer.statusText ?? STATUS_CODES[answer.status] ?? '';
  res.writeHead(answer.status, statusText, flattenHeaders(headers));
  res.flushHeaders();
  tap?.head(answer.status, statusText, headers);
  for (const piece of answer.body) {
    await at(piece.atUs);
    if (res.destroyed) return;
    await written(res, piece.data);
    tap?.piece(piece.data);
  }
  // As recorded: a complete answer ends; one the upstream cut short is cut short again; one
  // the client walked away from stays open until the client walks away again.
  if (answer.state === 'complete') res.end();
  else if (answer.state !== 'client_aborted') res.destroy();
}
