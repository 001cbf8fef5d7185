// What a request names, read once at the door for every listener: the URL (its query may
// carry the token, its path the API channel) and the path decoded, for files. A target
// that is no URL (`GET http://[`) or whose percent-encoding is broken (`/%E0%A4%A`) is the
// client's mistake: a 400, thrown for the fault guard to answer. The message never quotes
// the target, which can hold the token.
import { ApiError } from '../../../shared/api/errors.js';

export interface RequestTarget {
  url: URL;
  /** `url.pathname` percent-decoded. */
  path: string;
}

export function readTarget(raw: string | undefined): RequestTarget {
  let url: URL;
  try {
    url = new URL(raw ?? '/', 'http://127.0.0.1');
  } catch {
    throw new ApiError('bad_request', 'the request target is not a valid path or URL');
  }
  try {
    return { url, path: decodeURIComponent(url.pathname) };
  } catch {
    throw new ApiError('bad_request', 'the request target has broken percent-encoding (not UTF-8)');
  }
}
