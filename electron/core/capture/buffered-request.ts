// A client request whose body was read whole before it is forwarded (a fork plan or a
// replay had to see all of it first), handed to forwardHttp as if it still came off the
// socket: one 'data' and 'end', on the next turn, after forwardHttp has listened.
import { EventEmitter } from 'node:events';
import type { ProxyRequest } from './client-exchange.js';

/**
 * The client's request with its body already read: forwardHttp reads it as it would the
 * socket. A rewritten body is sent with its own length and no content-encoding.
 */
export function bufferedRequest(req: ProxyRequest, body: Buffer, asSent: boolean): ProxyRequest {
  const rawHeaders: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!asSent && /^(content-length|transfer-encoding|content-encoding)$/i.test(name)) continue;
    rawHeaders.push(name, req.rawHeaders[i + 1]!);
  }
  const headers = { ...req.headers };
  if (!asSent) {
    delete headers['transfer-encoding'];
    delete headers['content-encoding'];
    rawHeaders.push('content-length', String(body.length));
    headers['content-length'] = String(body.length);
  }
  const out = Object.assign(new EventEmitter(), {
    method: req.method,
    url: req.url,
    rawHeaders,
    headers,
    socket: req.socket,
    pause: () => out,
    resume: () => out,
  });
  setImmediate(() => {
    if (body.length) out.emit('data', body);
    out.emit('end');
  });
  return out as unknown as ProxyRequest;
}
