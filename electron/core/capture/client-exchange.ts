// What forwarding needs from the client's side of an exchange. Node's IncomingMessage and
// ServerResponse fit it, and so do the fast path's SocketRequest and SocketResponse (ADR 9),
// so forward-http's ordering, backpressure and error rules are written once for both.
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

export interface ProxyRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  /** `[name, value, ...]` in wire order. */
  readonly rawHeaders: string[];
  /** Lower-cased names, duplicates joined, as Node builds them. */
  readonly headers: IncomingHttpHeaders;
  readonly socket: Socket;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

export interface ProxyResponse {
  writeHead(status: number, statusText: string, headers: string[]): unknown;
  writeHead(status: number, headers: string[]): unknown;
  flushHeaders(): void;
  /** False when the client's buffer is full: wait for 'drain'. */
  write(chunk: Uint8Array): boolean;
  end(chunk?: Uint8Array): unknown;
  /**
   * Optional (the fast path's responses). True once the head says the body goes to the
   * client chunked, so body bytes already in chunked framing can be written as they are.
   */
  readonly takesChunkedFraming?: boolean;
  /** Writes bytes already in chunked framing, untouched; end() then adds no last chunk of its own. */
  writeFramed?(framed: Uint8Array): boolean;
  destroy(err?: Error): unknown;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  on(event: 'drain' | 'close', listener: () => void): unknown;
}
