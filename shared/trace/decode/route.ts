// Which API an exchange spoke, from method and path alone. Paths are matched on their
// suffix so every base-URL style lands in the same place: `/v1/responses`, Azure's
// `/openai/deployments/<name>/chat/completions?api-version=…`, OpenRouter's
// `/api/v1/chat/completions`, or a gateway's own prefix.

import { withoutTrailingSlashes } from '../../trailing-slashes.js';

export type Route =
  | { kind: 'responses.create' }
  | { kind: 'responses.compact' }
  | { kind: 'responses.retrieve'; responseId: string }
  | { kind: 'responses.cancel'; responseId: string }
  | { kind: 'responses.input_items'; responseId: string }
  | { kind: 'chat.completions' }
  | { kind: 'conversations'; conversationId: string | null }
  | { kind: 'traces.ingest' }
  | { kind: 'other' };

/** Path segments after `/responses/` that are endpoints, not response ids. */
const RESPONSES_SUBRESOURCES = new Set(['compact', 'input_tokens']);

/** Path without query or trailing slash, and the query as a map (URLSearchParams is not in this folder's lib). */
export function splitPath(pathAndQuery: string): { path: string; query: Map<string, string> } {
  const q = pathAndQuery.indexOf('?');
  const rawPath = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  const query = new Map<string, string>();
  if (q !== -1) {
    for (const pair of pathAndQuery.slice(q + 1).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const key = decode((eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' '));
      const value = decode((eq === -1 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' '));
      if (!query.has(key)) query.set(key, value);
    }
  }
  const path = rawPath.length > 1 ? withoutTrailingSlashes(rawPath) : rawPath;
  return { path, query };
}

export function routeOf(method: string, pathAndQuery: string): Route {
  const m = method.toUpperCase();
  const { path } = splitPath(pathAndQuery);
  let match: RegExpExecArray | null;

  if (m === 'POST' && /(?:^|\/)responses\/compact$/.test(path)) return { kind: 'responses.compact' };
  if (m === 'POST' && /(?:^|\/)responses$/.test(path)) return { kind: 'responses.create' };
  if (m === 'POST' && (match = /(?:^|\/)responses\/([^/]+)\/cancel$/.exec(path)) !== null) {
    return { kind: 'responses.cancel', responseId: decode(match[1] ?? '') };
  }
  if (m === 'GET' && (match = /(?:^|\/)responses\/([^/]+)\/input_items$/.exec(path)) !== null) {
    return { kind: 'responses.input_items', responseId: decode(match[1] ?? '') };
  }
  if (m === 'GET' && (match = /(?:^|\/)responses\/([^/]+)$/.exec(path)) !== null) {
    const id = decode(match[1] ?? '');
    if (!RESPONSES_SUBRESOURCES.has(id)) return { kind: 'responses.retrieve', responseId: id };
  }
  if (m === 'POST' && /(?:^|\/)chat\/completions$/.test(path)) return { kind: 'chat.completions' };
  if (m === 'POST' && /(?:^|\/)traces\/ingest$/.test(path)) return { kind: 'traces.ingest' };
  if ((match = /(?:^|\/)conversations(?:\/([^/]+)(?:\/items(?:\/[^/]+)?)?)?$/.exec(path)) !== null) {
    return { kind: 'conversations', conversationId: match[1] === undefined ? null : decode(match[1]) };
  }
  return { kind: 'other' };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray "%" is still a usable id as sent
  }
}
