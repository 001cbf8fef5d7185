// A fault while answering one UI request stays in that request. The headless server shares
// its process with the capture proxy, so a throw that escaped one of its listeners would
// stop the recording and leave its lock behind. Every request and upgrade listener runs in
// one of these guards, the one error mapping of this transport:
// - a throw, sync or async, becomes an `{error: {code, message}}` answer: an ApiError's own
//   status (a malformed request is a 400), anything else a 500 `internal`, reported in one
//   log line;
// - once an answer has begun it cannot be replaced, so the connection is cut instead;
// - answering never throws in turn: if it fails, the connection is cut.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { HTTP_STATUS, toErrorBody, type ApiErrorBody } from '../../../shared/api/errors.js';

export type Log = (line: string) => void;
type RequestListener = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;
type UpgradeListener = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;

export function guardRequest(
  log: Log,
  listener: RequestListener,
): (req: http.IncomingMessage, res: http.ServerResponse) => void {
  return (req, res) => {
    const fail = (err: unknown) => {
      const { status, error } = faultAnswer(err, log);
      try {
        if (res.headersSent) res.destroy();
        else sendJson(res, status, { error });
      } catch {
        res.destroy();
      }
    };
    try {
      const done = listener(req, res);
      if (done) done.catch(fail);
    } catch (err) {
      fail(err);
    }
  };
}

export function guardUpgrade(log: Log, listener: UpgradeListener): UpgradeListener {
  return (req, socket, head) => {
    // Node takes its own error listener off a socket it hands over for an upgrade. A reset
    // before ws adopts it, or while a refusal is written, must not be an uncaught error.
    socket.on('error', () => socket.destroy());
    try {
      listener(req, socket, head);
    } catch (err) {
      const { status, error } = faultAnswer(err, log);
      refuseUpgrade(socket, status, JSON.stringify({ error }));
    }
  };
}

function faultAnswer(err: unknown, log: Log): { status: number; error: ApiErrorBody } {
  const error = toErrorBody(err);
  if (error.code === 'internal') log(`loupe: UI request failed: ${error.message}`);
  return { status: HTTP_STATUS[error.code], error };
}

export const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

export function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, JSON_HEADERS);
  res.end(json);
}

/** Answers an upgrade on its raw socket (there is no ServerResponse) and closes it. */
export function refuseUpgrade(socket: Duplex, status: number, json = ''): void {
  const type = json ? 'content-type: application/json; charset=utf-8\r\n' : '';
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nconnection: close\r\n${type}content-length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
  );
}
