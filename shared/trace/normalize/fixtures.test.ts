// Real recorded traffic from public projects (../shared/fixtures, see its MANIFEST.md),
// read in place and never copied. Expectations come from the recordings themselves:
// what the server said the output and status were, read as plainly as possible.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalizeExchange } from './normalize.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import type { Json, JsonObject, ResponseRecord } from '../types.js';

const ROOT = fileURLToPath(new URL('../../../../shared/fixtures/', import.meta.url));
const present = existsSync(ROOT);

function files(dir: string, suffix: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) return files(relative(ROOT, p), suffix);
    return name.endsWith(suffix) ? [relative(ROOT, p)] : [];
  });
}

const obj = (v: unknown): JsonObject | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;
const itemKeys = (items: Json[]) => items.map((i) => [obj(i)?.id ?? null, obj(i)?.type ?? null]);
const recordKeys = (r: ResponseRecord) => r.output.map((i) => [i.id, i.type]);
const tryJson = (line: string): JsonObject | null => {
  try {
    return obj(JSON.parse(line));
  } catch {
    return null;
  }
};

/** What a Responses event list says about each response it holds: final output (or done items) and status. */
function expectedResponses(events: JsonObject[]): Array<{ items: Json[]; status: string; count: number }> {
  const groups: JsonObject[][] = [];
  for (const e of events) {
    if (e.type === 'response.created' || groups.length === 0) groups.push([]);
    groups[groups.length - 1]!.push(e);
  }
  return groups.map((g) => {
    const final = g.find((e) =>
      ['response.completed', 'response.failed', 'response.incomplete'].includes(String(e.type)),
    );
    const finalOutput = (obj(final?.response)?.output as Json[] | undefined) ?? [];
    // Without a final output, each slot's done item, or its added item when it never finished.
    const streamed = new Map<number, Json>();
    for (const e of g) {
      if (e.type === 'response.output_item.done') streamed.set(Number(e.output_index), e.item as Json);
      if (e.type === 'response.output_item.added' && !streamed.has(Number(e.output_index)))
        streamed.set(Number(e.output_index), e.item as Json);
    }
    const items =
      finalOutput.length > 0 ? finalOutput : [...streamed].sort(([x], [y]) => x - y).map(([, item]) => item);
    const error = g.some((e) => e.type === 'error');
    const status = error ? 'error' : final === undefined ? 'aborted' : String(final.type).replace('response.', '');
    return { items, status, count: g.length };
  });
}

describe.skipIf(!present)('real recordings: vercel-ai Responses streams (JSON lines re-framed as SSE)', () => {
  const streams = [
    ...files('vercel-ai/openai/responses', '.chunks.txt'),
    ...files('vercel-ai/azure', '.chunks.txt'),
    ...files('vercel-ai/open-responses', '.chunks.txt'),
  ].filter((f) => !f.includes('deepseek'));

  it('finds the recordings', () => expect(streams.length).toBeGreaterThan(40));

  it.each(streams)('%s', (file) => {
    const lines = readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    // A hand-written fixture holds lines that are not valid JSON; their type is still readable.
    const events = lines.map((line) => tryJson(line) ?? { type: /"type":"([^"]+)"/.exec(line)?.[1] ?? null });
    const chunks = lines.map((line, i) => ({
      tUs: (i + 1) * 1_000,
      text: `event: ${String(events[i]?.type)}\ndata: ${line}\n\n`,
    }));
    const result = normalizeExchange(rawExchange({ response: chunks }));
    const expected = expectedResponses(events);
    const broken = lines.filter((l) => tryJson(l) === null).length;
    expect(result.notes.filter((n) => /data is not valid JSON/.test(n))).toHaveLength(broken);
    expect(
      result.notes.filter((n) => !/data is not valid JSON|^stream carried|^stream ended without a final event/.test(n)),
    ).toEqual([]);

    expect(result.responses.map((r) => r.events.length).reduce((a, b) => a + b, 0)).toBe(lines.length);
    expect(result.responses).toHaveLength(expected.length);
    result.responses.forEach((record, i) => {
      const want = expected[i]!;
      expect(recordKeys(record)).toEqual(itemKeys(want.items));
      expect(record.streamed).toBe(true);
      expect(record.status).toBe(want.status);
    });
  });

  it('maps the failed and incomplete recordings', () => {
    const run = (file: string) => {
      const lines = readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
      const chunks = lines.map((l, i) => ({ tUs: i * 10, text: `event: ${String(tryJson(l)?.type)}\ndata: ${l}\n\n` }));
      return normalizeExchange(rawExchange({ response: chunks })).responses[0]!;
    };
    expect(run('vercel-ai/openai/responses/openai-response-failed-only.1.chunks.txt')).toMatchObject({
      responseId: 'resp_test_failed_001',
      status: 'failed',
      error: { code: 'rate_limit_exceeded' },
    });
    expect(run('vercel-ai/open-responses/responses/issue-18872-unknown-incomplete-reason.chunks.txt')).toMatchObject({
      responseId: 'exchange:1',
      status: 'incomplete',
      error: { code: 'server_timeout' },
      usage: { totalTokens: 2 },
    });
    const cut = run('vercel-ai/openai/responses/openai-issue-8562-missing-reasoning-summary.1.chunks.txt');
    expect(cut.status).toBe('aborted');
    expect(cut.output.map((i) => i.type)).toEqual(['reasoning', 'message']);
  });
});

describe.skipIf(!present)('real recordings: vercel-ai JSON bodies', () => {
  const bodies = [
    ...files('vercel-ai/openai/responses', '.json'),
    ...files('vercel-ai/azure', '.json'),
    ...files('vercel-ai/open-responses', '.json'),
    ...files('vercel-ai/openai/chat', '.json'),
  ];

  it.each(bodies)('%s', (file) => {
    const body = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as JsonObject;
    const isChat = Array.isArray(body.choices);
    const error = obj(body.error);
    // An envelope written by the test suite, not a body.
    if (!isChat && !Array.isArray(body.output) && error === null) return;
    const path = isChat || file.includes('/chat/') ? '/v1/chat/completions' : '/v1/responses';
    const result = normalizeExchange(
      rawExchange({ path, status: error !== null && !Array.isArray(body.output) ? 400 : 200, response: body }),
    );
    const record = result.responses[0]!;
    expect(result.responses).toHaveLength(1);
    if (error !== null && !Array.isArray(body.output)) {
      expect(record).toMatchObject({ status: 'error', responseId: 'exchange:1', error: { message: error.message } });
    } else if (isChat) {
      const message = obj(obj((body.choices as Json[])[0])?.message);
      expect(record.responseId).toBe(body.id);
      expect(record.output.filter((i) => i.type === 'function_call')).toHaveLength(
        ((message?.tool_calls as Json[] | undefined) ?? []).length,
      );
      if (message?.content) expect(record.output.find((i) => i.type === 'message')?.raw.content).toBe(message.content);
    } else {
      expect(recordKeys(record)).toEqual(itemKeys(body.output as Json[]));
      expect(record.status).toBe(body.status ?? 'completed');
      expect(record.responseId).toBe(body.id);
    }
  });
});

describe.skipIf(!present)('real recordings: vercel-ai chat streams', () => {
  it.each([
    'vercel-ai/openai/chat/azure-model-router.1.chunks.txt',
    'vercel-ai/azure/azure-deepseek-reasoning.1.chunks.txt',
  ])('%s', (file) => {
    const lines = readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const chunks = [...lines.map((l) => `data: ${l}\n\n`), 'data: [DONE]\n\n'].map((text, i) => ({
      tUs: i * 100,
      text,
    }));
    const record = normalizeExchange(rawExchange({ path: '/v1/chat/completions', response: chunks })).responses[0]!;
    const parsed = lines.map(tryJson);
    const deltas = parsed.flatMap((c) => ((c?.choices as Json[]) ?? []).map((ch) => obj(obj(ch)?.delta)));
    const text = deltas.map((d) => (typeof d?.content === 'string' ? d.content : '')).join('');
    expect(record.responseId).toBe(parsed.map((c) => c?.id).find((id) => typeof id === 'string' && id !== ''));
    expect(record.status).toBe('completed');
    expect(record.output.find((i) => i.type === 'message')?.raw.content).toBe(text);
    expect(record.events).toHaveLength(lines.length + 1);
  });
});
