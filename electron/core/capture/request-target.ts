// Loupe is a base URL, not an HTTP proxy: each request it forwards names a path
// (origin-form, RFC 9112 §3.2.1), and the path goes to the one upstream Loupe was given.
// A client told to use Loupe as an HTTP proxy sends a whole URL instead (absolute-form,
// `GET http://169.254.169.254/latest`). Forwarded as a path, that URL would reach the
// upstream, or a corporate proxy on the way that honours absolute-form, as a target of the
// client's choosing, a cloud metadata address for one. So anything but a path is refused.
import type { ProxyError } from './proxy-error.js';

const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Why the proxy will not forward a request with this target, or null when it is a path. */
export function requestTargetProblem(target: string | undefined): ProxyError | null {
  if (target !== undefined && target.charCodeAt(0) === 0x2f) return null;
  // The target itself is not repeated: its query may carry a credential.
  const what =
    target !== undefined && ABSOLUTE.test(target) ? 'a full URL, as a client sends to an HTTP proxy' : 'not a path';
  return {
    status: 400,
    code: 'bad_request',
    message: `Loupe proxy: the request target is ${what}; Loupe is not an HTTP proxy. Set the client's base URL (OPENAI_BASE_URL) to Loupe's http://127.0.0.1:<port>/v1 instead`,
  };
}
