// A local OTLP/HTTP collector for tests of `--otlp`: a real server on a port of its own that
// keeps every push it receives, as sent, and answers each with 200.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface OtlpReceiver {
  /** Where to push, ending in /v1/traces. */
  url: string;
  received: ReceivedPush[];
  close(): Promise<void>;
}

export async function otlpReceiver(): Promise<OtlpReceiver> {
  const received: ReceivedPush[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': req.headers['content-type'] ?? 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
