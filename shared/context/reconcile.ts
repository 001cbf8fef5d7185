// How close counted contexts come to the API's own `input_tokens`: the mean and median
// absolute difference over requests whose bodies were recorded. "Plain" requests leave out
// what the wire cannot show the size of (hosted tools' prompts and results, images, files,
// stored prompt templates), where the difference is the API's, not the tokenizer's.
import { arr, obj, str } from '../trace/json.js';
import type { ResponseRecord } from '../trace/types.js';
import type { ContextTokens } from './context-tokens.js';

export interface Differences {
  responses: number;
  mean: number;
  median: number;
}

export interface Reconciliation {
  all: Differences;
  plain: Differences;
  text: string;
}

export function reconciliation(rows: ReadonlyArray<{ record: ResponseRecord; tokens: ContextTokens }>): Reconciliation {
  const all: number[] = [];
  const plain: number[] = [];
  for (const { record, tokens } of rows) {
    if (tokens.overhead === null || tokens.unresolved !== null || Object.keys(record.request.params).length === 0)
      continue;
    if (record.api !== 'responses' && record.api !== 'chat.completions') continue;
    const d = Math.abs(tokens.overhead);
    all.push(d);
    if (isPlain(record, tokens)) plain.push(d);
  }
  const a = differences(all);
  const p = differences(plain);
  const fmt = (d: Differences) => `${d.responses} requests, mean ${d.mean.toFixed(1)}, median ${d.median}`;
  return { all: a, plain: p, text: `all: ${fmt(a)}; plain text: ${fmt(p)}` };
}

function differences(values: number[]): Differences {
  const sorted = [...values].sort((x, y) => x - y);
  const mean = values.length === 0 ? 0 : values.reduce((n, v) => n + v, 0) / values.length;
  return { responses: values.length, mean, median: sorted[sorted.length >> 1] ?? 0 };
}

function isPlain(record: ResponseRecord, tokens: ContextTokens): boolean {
  if (record.request.params.prompt !== undefined) return false;
  if (tokens.parts.some((p) => p.part === 'tools' && (p.text ?? '') === '')) return false;
  return !tokens.parts.some((p) => p.item !== null && carriesMedia(p.item.raw.content ?? p.item.raw.output));
}

function carriesMedia(v: unknown): boolean {
  return arr(v as never).some((part) => {
    const type = str(obj(part as never)?.type) ?? '';
    return type.includes('image') || type.includes('file') || type.includes('audio');
  });
}
