// dd-trace-py's own JSON cassettes: one `{request, response}` per file, headers as a flat
// object, body as decoded text (while content-encoding: gzip may still be listed).
import { buildExchange, pathOf } from './build-exchange.js';
import type { HeaderPair, Recording } from './recording.js';

type Node = Record<string, unknown>;

function asNode(value: unknown): Node {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Node;
  throw new Error('dd-trace cassette: expected an object');
}

function headerPairs(value: unknown): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  for (const [name, v] of Object.entries(asNode(value ?? {}))) {
    for (const one of Array.isArray(v) ? v : [v]) pairs.push([name, String(one)]);
  }
  return pairs;
}

function bytes(value: unknown): Buffer | null {
  return typeof value === 'string' ? Buffer.from(value, 'utf8') : null;
}

export function loadDdtraceJson(file: string, source: string, text: string): Recording {
  const doc = asNode(JSON.parse(text));
  const request = asNode(doc.request);
  const response = asNode(doc.response);
  const status = response.status;
  const code = typeof status === 'number' ? status : Number(asNode(status).code);
  const exchange = buildExchange({
    method: String(request.method),
    path: pathOf(String(request.url ?? request.uri)),
    requestHeaders: headerPairs(request.headers),
    requestBody: bytes(request.body),
    status: code,
    responseHeaders: headerPairs(response.headers),
    responseBody: bytes(response.body) ?? Buffer.alloc(0),
  });
  return { file, source, format: 'ddtrace-json', exchanges: [exchange] };
}
