// Secrets never reach disk, logs or screen. Every header list and request path passes
// through here before it is stored; a header or query parameter whose name holds a
// credential (secret-names.ts) keeps only a hint a person can recognise (`Bearer sk-…abcd`)
// but nobody can use. JSON bodies are masked by json-secret-scrubber.ts, by the same rule.
import type { HeaderList } from './exchange.js';
import { secretNameRule } from './secret-names.js';

/** Cookies hold many values; none is kept, not even a hint. */
const COOKIE_HEADERS = new Set(['cookie', 'set-cookie']);

/** Below this length a secret is hidden entirely: four visible characters would give too much away. */
const MIN_HINTABLE = 16;

/** `Bearer sk-proj-abc…wxyz` becomes `Bearer sk-…wxyz`; short or odd values become `…`. */
export function secretHint(value: string): string {
  const match = /^(\s*(?:Bearer|Basic|Token)\s+)?(.*)$/is.exec(value);
  const scheme = match?.[1] ?? '';
  const token = (match?.[2] ?? '').trim();
  if (token.length < MIN_HINTABLE) return `${scheme}…`;
  const prefix = /^(sk-|sess-|pk-)/.exec(token)?.[1] ?? '';
  return `${scheme}${prefix}…${token.slice(-4)}`;
}

/** What the recording path applies to a request line and to response heads. */
export interface Redactor {
  headers(headers: HeaderList): HeaderList;
  /** Hides credential query parameters in a path, keeping a hint of each. */
  path(path: string): string;
}

/** A redactor for the built-in rule plus the user's own names (`--redact NAME`, settings). */
export function createRedactor(extraNames: readonly string[] = []): Redactor {
  const isSecret = secretNameRule(extraNames);
  return {
    headers: (headers) =>
      headers.map(([name, value]) => {
        if (!isSecret(name)) return [name, value];
        if (COOKIE_HEADERS.has(name.toLowerCase())) return [name, `[redacted ${value.length} bytes]`];
        return [name, secretHint(value)];
      }),
    path(path) {
      const q = path.indexOf('?');
      if (q < 0) return path;
      const query = path
        .slice(q + 1)
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          if (eq < 0 || !isSecret(decodeURIComponentSafe(pair.slice(0, eq)))) return pair;
          return `${pair.slice(0, eq)}=${secretHint(decodeURIComponentSafe(pair.slice(eq + 1)))}`;
        })
        .join('&');
      return `${path.slice(0, q)}?${query}`;
    },
  };
}

const DEFAULT_REDACTOR = createRedactor();

export function redactHeaders(headers: HeaderList): HeaderList {
  return DEFAULT_REDACTOR.headers(headers);
}

export function redactPath(path: string): string {
  return DEFAULT_REDACTOR.path(path);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
