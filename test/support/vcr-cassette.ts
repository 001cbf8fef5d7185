// VCR.py cassettes as written by pydantic-ai, simonw-llm and dd-trace-py. Variants seen:
//   request/response `body: {string: …}` or `body: …`; `!!binary` (base64, often gzip);
//   pydantic-ai's `parsed_body` (JSON stored as YAML, original bytes lost);
//   httpx-style responses with `content:` and `status_code:` (body stored decoded);
//   headers as `name: [values]`; many interactions per file.
// pydantic-ai's Realtime cassettes reuse the file layout for WebSocket frames
// (`kind`/`direction`/`data` entries), which are not HTTP and cannot be replayed here.
import { parse } from 'yaml';
import { buildExchange, pathOf } from './build-exchange.js';
import type { HeaderPair, RecordedExchange, Recording, Synthesized } from './recording.js';

type Node = Record<string, unknown>;

function asNode(value: unknown): Node | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Node) : null;
}

function headerPairs(value: unknown): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  const node = asNode(value);
  if (node === null) return pairs;
  for (const [name, v] of Object.entries(node)) {
    for (const one of Array.isArray(v) ? v : [v]) {
      if (one !== null && one !== undefined) pairs.push([name, String(one)]);
    }
  }
  return pairs;
}

interface Body {
  bytes: Buffer | null;
  reserialized: boolean;
}

/** A body from its stored form; the YAML library has already turned `!!binary` into bytes. */
function bodyOf(message: Node, textKey: 'body' | 'content'): Body {
  if (message.parsed_body !== undefined) {
    const parsed = message.parsed_body;
    // pydantic-ai only parses bodies that were JSON; a string here is the raw text.
    if (typeof parsed === 'string') return { bytes: Buffer.from(parsed, 'utf8'), reserialized: false };
    return { bytes: Buffer.from(JSON.stringify(parsed), 'utf8'), reserialized: true };
  }
  let stored = message[textKey];
  const wrapper = asNode(stored);
  if (wrapper !== null && 'string' in wrapper) stored = wrapper.string;
  if (stored instanceof Uint8Array) return { bytes: Buffer.from(stored), reserialized: false };
  if (typeof stored === 'string') return { bytes: Buffer.from(stored, 'utf8'), reserialized: false };
  return { bytes: null, reserialized: false };
}

function statusOf(response: Node): number {
  const status = response.status ?? response.status_code;
  const code = asNode(status)?.code ?? status;
  const n = typeof code === 'number' ? code : Number(code);
  if (!Number.isInteger(n)) throw new Error(`response without a numeric status: ${JSON.stringify(status)}`);
  return n;
}

function exchangeOf(request: Node, response: Node): RecordedExchange {
  // httpx-style cassettes name the response body `content`; vcrpy's own format uses `body`.
  const responseBody = bodyOf(response, response.content !== undefined ? 'content' : 'body');
  const requestBody = bodyOf(request, 'body');
  const synthesized: Synthesized[] = responseBody.reserialized ? ['json-reserialized'] : [];
  return buildExchange({
    method: String(request.method ?? 'GET'),
    path: pathOf(String(request.uri ?? request.url)),
    requestHeaders: headerPairs(request.headers),
    requestBody: requestBody.bytes,
    status: statusOf(response),
    responseHeaders: headerPairs(response.headers),
    responseBody: responseBody.bytes ?? Buffer.alloc(0),
    synthesized,
  });
}

export function loadVcrCassette(file: string, source: string, text: string): Recording {
  const doc = asNode(parse(text));
  const interactions = Array.isArray(doc?.interactions) ? doc.interactions : [];
  const exchanges: RecordedExchange[] = [];
  let frames = 0;
  for (const entry of interactions) {
    const node = asNode(entry);
    const request = asNode(node?.request);
    const response = asNode(node?.response);
    if (request !== null && response !== null) exchanges.push(exchangeOf(request, response));
    else if (node !== null && 'direction' in node) frames += 1;
  }
  if (exchanges.length > 0) return { file, source, format: 'vcr-yaml', exchanges };
  if (frames > 0) {
    return {
      file,
      source,
      format: 'realtime-ws-yaml',
      exchanges,
      skipped: `Realtime API WebSocket session (${frames} frames), not an HTTP exchange`,
    };
  }
  return { file, source, format: 'vcr-yaml', exchanges, skipped: 'cassette holds no interactions' };
}
