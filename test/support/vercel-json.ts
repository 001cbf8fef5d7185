// vercel/ai `*.json` fixtures. Most are a bare response body (served byte for byte); error
// bodies come without their HTTP status; a few are test envelopes written by the AI SDK
// maintainers. Only envelopes that still hold the raw wire body become exchanges.
import { buildExchange } from './build-exchange.js';
import type { RecordedExchange, Recording, Synthesized } from './recording.js';

type Node = Record<string, unknown>;

function asNode(value: unknown): Node | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : null;
}

/** Status the API sends with an error body of this type (openai-node's error classes map the same way). */
export function inferErrorStatus(error: Node): number {
  const message = typeof error.message === 'string' ? error.message : '';
  // Some OpenAI-compatible servers (DashScope) echo the status in the message: "<400> …".
  const echoed = /^<(\d{3})>/.exec(message)?.[1];
  if (echoed !== undefined) return Number(echoed);
  const kind = `${String(error.type)} ${String(error.code)}`;
  if (/insufficient_quota|rate_limit/.test(kind)) return 429;
  if (/authentication|invalid_api_key/.test(kind)) return 401;
  if (/permission/.test(kind)) return 403;
  if (/not_found/.test(kind)) return 404;
  if (/server_error|internal/.test(kind)) return 500;
  return 400;
}

function isChat(file: string, body: Node | null): boolean {
  if (typeof body?.object === 'string') return body.object.startsWith('chat.completion');
  return file.includes('/chat/');
}

function jsonExchange(path: string, status: number, body: Buffer, synthesized: Synthesized[]): RecordedExchange {
  return buildExchange({
    method: 'POST',
    path,
    requestHeaders: [],
    requestBody: null,
    status,
    responseHeaders: [['content-type', 'application/json']],
    responseBody: body,
    synthesized: ['method', 'path', 'response-headers', ...synthesized],
  });
}

const pathFor = (chat: boolean): string => (chat ? '/v1/chat/completions' : '/v1/responses');

/** Envelope with `attempts[].rawResponseBody`: each attempt was one HTTP response. */
function attemptsRecording(file: string, source: string, attempts: unknown[]): Recording {
  const exchanges: RecordedExchange[] = [];
  for (const attempt of attempts) {
    const raw = asNode(asNode(attempt)?.rawResponseBody);
    if (raw === null) continue;
    const body = Buffer.from(JSON.stringify(raw), 'utf8');
    exchanges.push(jsonExchange(pathFor(isChat(file, raw)), 200, body, ['status', 'json-reserialized']));
  }
  return exchanges.length > 0
    ? { file, source, format: 'vercel-envelope', exchanges }
    : { file, source, format: 'vercel-envelope', exchanges, skipped: 'envelope attempts hold no rawResponseBody' };
}

function envelopeSkip(file: string, source: string, doc: Node): Recording | null {
  if (!('request' in doc) || !('response' in doc)) return null;
  const response = asNode(doc.response);
  const reason =
    response !== null && 'eventTypes' in response
      ? 'SDK envelope: request and response headers recorded, but the streamed body was reduced to event types and final text'
      : 'SDK envelope: holds the AI SDK result (text, usage), not the HTTP response body';
  return { file, source, format: 'vercel-envelope', exchanges: [], skipped: reason };
}

export function loadVercelJson(file: string, source: string, bytes: Buffer): Recording {
  const doc = asNode(JSON.parse(bytes.toString('utf8')));
  if (doc === null) throw new Error(`${file}: expected a JSON object`);
  if (Array.isArray(doc.attempts)) return attemptsRecording(file, source, doc.attempts);
  const skip = envelopeSkip(file, source, doc);
  if (skip !== null) return skip;
  const error = asNode(doc.error);
  const isError = error !== null && !('output' in doc) && !('choices' in doc);
  const exchange = isError
    ? jsonExchange(pathFor(isChat(file, null)), inferErrorStatus(error), bytes, ['status'])
    : jsonExchange(pathFor(isChat(file, doc)), 200, bytes, ['status']);
  return { file, source, format: 'vercel-json', exchanges: [exchange] };
}
