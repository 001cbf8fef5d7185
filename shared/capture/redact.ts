// Secrets never reach disk, logs or screen. Every header list passes through here before
// it is stored; what survives is a hint a person can recognise (`Bearer sk-…abcd`) but
// nobody can use.
import type { HeaderList } from './exchange.js';

/** Header names whose values are secrets, lower case. */
export const SECRET_HEADER_NAMES: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'api-key',
  'x-api-key',
  'openai-api-key',
  'x-goog-api-key',
  'cookie',
  'set-cookie',
];

const SECRET_HEADERS = new Set(SECRET_HEADER_NAMES);

const COOKIE_HEADERS = new Set(['cookie', 'set-cookie']);

/** Query parameters that carry keys on some OpenAI-compatible servers. */
const SECRET_PARAMS = /^(api[-_]?key|key|access_token|token)$/i;

/** Below this length a secret is hidden entirely: four visible characters would give too much away. */
const MIN_HINTABLE = 16;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/** `Bearer sk-proj-abc…wxyz` becomes `Bearer sk-…wxyz`; short or odd values become `…`. */
export function secretHint(value: string): string {
  const match = /^(\s*(?:Bearer|Basic|Token)\s+)?(.*)$/is.exec(value);
  const scheme = match?.[1] ?? '';
  const token = (match?.[2] ?? '').trim();
  if (token.length < MIN_HINTABLE) return `${scheme}…`;
  const prefix = /^(sk-|sess-|pk-)/.exec(token)?.[1] ?? '';
  return `${scheme}${prefix}…${token.slice(-4)}`;
}

export function redactHeaders(headers: HeaderList): HeaderList {
  return headers.map(([name, value]) => {
    const lower = name.toLowerCase();
    if (!SECRET_HEADERS.has(lower)) return [name, value];
    if (COOKIE_HEADERS.has(lower)) return [name, `[redacted ${value.length} bytes]`];
    return [name, secretHint(value)];
  });
}

/** Hides key-like query parameters in a path before it is stored. */
export function redactPath(path: string): string {
  const q = path.indexOf('?');
  if (q < 0) return path;
  const query = path
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && SECRET_PARAMS.test(decodeURIComponentSafe(name)) ? `${name}=…` : pair;
    })
    .join('&');
  return `${path.slice(0, q)}?${query}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
