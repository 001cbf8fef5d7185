// `--on-miss forward`: a request the recording cannot answer goes to the live upstream as
// is, and the answer comes back as is. It is a plain pass-through, not the capture relay:
// with `--db OUT` the Loupe core in front of the replay server records it, and without it
// there is nothing to record.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import WebSocket from 'ws';
import { clientResponseHeaders, flattenHeaders, pairHeaders, upstreamRequestHeaders } from '../../shared/capture/hop-headers.js';
import { proxyErrorBody } from '../../shared/capture/proxy-error.js';
import { upstreamPath, type UpstreamTarget } from '../../shared/capture/upstream-url.js';

export function forwardLive(target: UpstreamTarget, req: IncomingMessage, path: string, body: Buffer, res: ServerResponse): void {
  const client = target.protocol === 'https:' ? https : http;
  const headers = upstreamRequestHeaders(pairHeaders(req.rawHeaders), target.host);
  const call = client.request({
    host: target.hostname,
    port: target.port,
    method: req.method,
    path: upstreamPath(target, path),
    headers: flattenHeaders(headers),
  });
  call.on('response', (up) => {
    res.writeHead(up.statusCode ?? 502, up.statusMessage, flattenHeaders(clientResponseHeaders(pairHeaders(up.rawHeaders))));
    up.pipe(res);
    up.on('error', () => res.destroy());
  });
  call.on('error', (err) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const text = proxyErrorBody({ status: 502, code: 'upstream_unreachable', message: `loupe replay: the live upstream ${target.display} failed: ${err.message}` });
    res.writeHead(502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  res.on('close', () => {
    if (!res.writableFinished) call.destroy();
  });
  call.end(body);
}

/** Opens the live WebSocket a connection continues on once it missed. */
export function liveSocket(target: UpstreamTarget, req: IncomingMessage, path: string): WebSocket {
  const scheme = target.protocol === 'https:' ? 'wss:' : 'ws:';
  const headers: Record<string, string> = {};
  for (const [name, value] of upstreamRequestHeaders(pairHeaders(req.rawHeaders), target.host)) {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower.startsWith('sec-websocket-')) continue;
    headers[name] = value;
  }
  return new WebSocket(`${scheme}//${target.host}${upstreamPath(target, path)}`, { headers, perMessageDeflate: false });
}
