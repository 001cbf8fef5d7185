// A replay miss as the client sees it: an API-shaped 4xx error, so any OpenAI client raises
// it as an APIError that says why, and a test replaying a cassette fails with a reason
// instead of hanging. 400 because SDKs do not retry it (they retry 408, 409, 429 and 5xx).
import type { ReplayMiss } from './matcher.js';

export const MISS_STATUS = 400;
export const MISS_TYPE = 'loupe_replay_miss';

export function missMessage(method: string, path: string, miss: ReplayMiss): string {
  const c = miss.closest;
  const closest = c
    ? `closest recorded request: exchange ${c.exchange}${c.message !== undefined ? ` message ${c.message + 1}` : ''}, ${c.method} ${c.path}${c.run ? ` in run ${c.run}` : ''}`
    : 'no recorded request is close';
  return `loupe replay: no recorded exchange matches ${method} ${path}; ${closest}: ${miss.diff.join('; ')}`;
}

export function missError(
  method: string,
  path: string,
  miss: ReplayMiss,
): { type: string; code: string; message: string; param: null; closest: ReplayMiss['closest']; diff: string[] } {
  return {
    type: MISS_TYPE,
    code: MISS_TYPE,
    message: missMessage(method, path, miss),
    param: null,
    closest: miss.closest,
    diff: miss.diff,
  };
}

export function missBody(method: string, path: string, miss: ReplayMiss): string {
  return JSON.stringify({ error: missError(method, path, miss) });
}
