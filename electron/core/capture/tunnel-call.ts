// Node's http client behind the UpstreamCall contract, for upstreams reached through a
// corporate proxy (HTTPS_PROXY/HTTP_PROXY): the tunnel (CONNECT, proxy auth) is the
// proxy agent's job, and latency there is dominated by the extra hop anyway (ADR 8).
import http from 'node:http';
import https from 'node:https';
import type { UpstreamTarget } from '../../../shared/capture/upstream-url.js';
import { flattenHeaders } from '../../../shared/capture/hop-headers.js';
import { silenceTimeout, type StartUpstreamCall } from './upstream-call.js';

export function tunnelCaller(target: UpstreamTarget, agent: http.Agent, timeoutMs: number): StartUpstreamCall {
  return (request, events) => {
    let over = false;
    let timedOut = false;
    const headers = flattenHeaders(request.headers);
    if (request.body === 'chunked') headers.push('Transfer-Encoding', 'chunked');
    const upstream = (target.protocol === 'https:' ? https : http).request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: request.method,
      path: request.path,
      headers: headers as unknown as http.OutgoingHttpHeaders,
      agent,
      timeout: timeoutMs,
    });
    const fail = (err: NodeJS.ErrnoException) => {
      if (over) return;
      over = true;
      events.onError(err, timedOut);
    };
    upstream.on('timeout', () => {
      timedOut = true;
      upstream.destroy(silenceTimeout(timeoutMs));
    });
    upstream.on('error', fail);
    let response: http.IncomingMessage | null = null;
    upstream.on('response', (res) => {
      response = res;
      events.onResponse({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        rawHeaders: res.rawHeaders,
      });
      res.on('data', (chunk: Buffer) => {
        if (!over) events.onData(chunk);
      });
      res.on('end', () => {
        if (over) return;
        over = true;
        events.onEnd();
      });
      res.on('aborted', () =>
        fail(Object.assign(new Error('upstream connection reset mid-body'), { code: 'ECONNRESET' })),
      );
      res.on('error', fail);
    });
    return {
      write: (chunk) => (over ? true : upstream.write(chunk)),
      end: () => {
        if (!over) upstream.end();
      },
      onDrain: (listener) => upstream.on('drain', listener),
      pause: () => response?.pause(),
      resume: () => response?.resume(),
      destroy: () => {
        over = true;
        upstream.destroy();
      },
    };
  };
}
