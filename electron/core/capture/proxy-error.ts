// Errors the proxy itself produces are shaped like the API's own, so every OpenAI client
// surfaces them as a normal APIError with a message that says it was Loupe, not OpenAI.

export type ProxyErrorCode =
  | 'upstream_unreachable'
  | 'bad_request'
  | 'proxy_internal'
  | 'too_many_connections'
  | 'proxy_shutting_down'
  /** A `/fork/<id>` base URL naming no plan on this proxy. */
  | 'loupe_fork_unknown'
  /** A WebSocket upgrade under a fork base URL (forks serve HTTP only). */
  | 'loupe_fork_websocket';

export interface ProxyError {
  status: number;
  code: ProxyErrorCode;
  message: string;
}

export function proxyErrorBody(error: ProxyError): string {
  return JSON.stringify({ error: { type: 'proxy_error', code: error.code, message: error.message, param: null } });
}

/**
 * The whole HTTP/1.1 response for an error answered on a bare socket, before any request
 * object exists; the connection is closed after it. `extra` are more header lines.
 */
export function proxyErrorResponse(error: ProxyError, statusText: string, extra: string[] = []): string {
  const body = proxyErrorBody(error);
  const head = [
    `HTTP/1.1 ${error.status} ${statusText}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-loupe-error: ${error.code}`,
    ...extra,
    'connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNRESET',
  'EPIPE',
]);

/**
 * Maps a failure before the upstream answered to what the client is told. A timeout is a
 * 504 but keeps the code `upstream_unreachable`: the contract names that one body for both
 * statuses, and clients that match on it should not miss a timeout. The status and the
 * message tell the two apart; the recording keeps the state `upstream_timeout`.
 */
export function upstreamFailure(
  err: { code?: string; message: string },
  upstream: string,
  timedOut: boolean,
): ProxyError {
  if (timedOut || err.code === 'ETIMEDOUT') {
    return {
      status: 504,
      code: 'upstream_unreachable',
      message: `Loupe proxy: the upstream ${upstream} did not answer in time (${err.message})`,
    };
  }
  const why = err.code && UNREACHABLE.has(err.code) ? err.code : err.message;
  return {
    status: 502,
    code: 'upstream_unreachable',
    message: `Loupe proxy: cannot reach the upstream ${upstream} (${why})`,
  };
}
