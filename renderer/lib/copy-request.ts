// An exchange's request as a command to run again: "Copy as cURL" and "Copy as fetch", the
// way browser devtools offer them. The recorder kept only a hint of each secret, so every
// secret header gets a placeholder the user fills from their environment
// ($OPENAI_API_KEY); the hint itself is never copied. Headers that describe one connection
// (host, length, encoding) or only mean something to Loupe are left out.
import type { ExchangeDetail } from '../../shared/api/types.js';
import { secretNameRule } from '../../shared/capture/secret-names.js';

const SKIPPED = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'accept-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);

export const KEY_VARIABLE = 'OPENAI_API_KEY';

/** The recorder's own rule for credential names (ADR 21): what it kept only a hint of. */
const isSecretHeader = secretNameRule();

type Request = Pick<ExchangeDetail, 'method' | 'upstream' | 'path' | 'requestHeaders'> & {
  request: Pick<ExchangeDetail['request'], 'text'>;
};

interface Header {
  name: string;
  /** The value, or for a secret the part before the placeholder ("Bearer "). */
  value: string;
  secret: boolean;
}

function headersOf(ex: Request): Header[] {
  return ex.requestHeaders
    .filter(([name]) => !SKIPPED.has(name.toLowerCase()) && !name.toLowerCase().startsWith('x-loupe-'))
    .map(([name, value]) => {
      if (!isSecretHeader(name)) return { name, value, secret: false };
      const scheme = /^\s*(Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
      return { name, value: scheme, secret: true };
    });
}

export function requestUrl(ex: Pick<ExchangeDetail, 'upstream' | 'path'>): string {
  return `${ex.upstream.replace(/\/+$/, '')}${ex.path}`;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function asCurl(ex: Request): string {
  const lines = [`curl ${shellQuote(requestUrl(ex))}`];
  if (ex.method !== 'GET' || ex.request.text) lines.push(`-X ${ex.method}`);
  for (const h of headersOf(ex)) {
    // Double quotes so the shell fills in the key; the name and scheme hold no $ or quotes.
    lines.push(h.secret ? `-H "${h.name}: ${h.value}$${KEY_VARIABLE}"` : `-H ${shellQuote(`${h.name}: ${h.value}`)}`);
  }
  if (ex.request.text) lines.push(`--data-raw ${shellQuote(ex.request.text)}`);
  return lines.join(' \\\n  ');
}

export function asFetch(ex: Request): string {
  const headers = headersOf(ex).map((h) =>
    h.secret
      ? `    ${JSON.stringify(h.name)}: \`${h.value.replace(/[`\\$]/g, '\\$&')}\${process.env.${KEY_VARIABLE}}\`,`
      : `    ${JSON.stringify(h.name)}: ${JSON.stringify(h.value)},`,
  );
  const parts = [`  method: ${JSON.stringify(ex.method)},`];
  if (headers.length) parts.push(`  headers: {\n${headers.join('\n')}\n  },`);
  if (ex.request.text) parts.push(`  body: ${JSON.stringify(ex.request.text)},`);
  return `await fetch(${JSON.stringify(requestUrl(ex))}, {\n${parts.join('\n')}\n});`;
}
