// Real request/response pairs from VCR cassettes (pydantic-ai, dd-trace-py, simonw-llm)
// under ../shared/fixtures, read in place. Each interaction is replayed as a recorded
// exchange; expectations are read straight from the recorded bodies.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { normalizeExchange } from './normalize.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import { routeOf } from '../decode/route.js';
import type { Json, JsonObject } from '../types.js';

const ROOT = fileURLToPath(new URL('../../../../shared/fixtures/', import.meta.url));
const present = existsSync(ROOT);

function files(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) return files(relative(ROOT, p));
    return name.endsWith('.yaml') ? [relative(ROOT, p)] : [];
  });
}

interface Interaction {
  method: string;
  path: string;
  request: string | undefined;
  status: number;
  contentType: string | null;
  response: string;
}

type Loose = Record<string, unknown>;
const loose = (v: unknown): Loose => (typeof v === 'object' && v !== null ? (v as Loose) : {});
const obj = (v: unknown): JsonObject | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;

/** Bodies come as `parsed_body` (YAML), a string, or `!!binary` gzip that the capture edge would have decoded. */
function bodyOf(side: Loose): string | undefined {
  if (side.parsed_body !== undefined) return JSON.stringify(side.parsed_body);
  if (typeof side.content === 'string') return side.content;
  const b = typeof side.body === 'object' && side.body !== null ? loose(side.body).string : side.body;
  if (typeof b === 'string') return b;
  if (b instanceof Uint8Array)
    return (b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : Buffer.from(b)).toString('utf8');
  return undefined;
}

function headerOf(side: Loose, name: string): string | null {
  for (const [k, v] of Object.entries(loose(side.headers)))
    if (k.toLowerCase() === name) return String(Array.isArray(v) ? v[0] : v);
  return null;
}

function load(file: string): Interaction[] {
  const doc = loose(YAML.parse(readFileSync(join(ROOT, file), 'utf8'), { version: '1.1' }));
  return (Array.isArray(doc.interactions) ? doc.interactions : [])
    .map(loose)
    .filter((i) => i.request !== undefined) // Realtime WebSocket cassettes hold frames, not requests
    .map((i) => {
      const rq = loose(i.request);
      const rs = loose(i.response);
      const url = new URL(String(rq.uri));
      return {
        method: String(rq.method),
        path: url.pathname + url.search,
        request: bodyOf(rq),
        status: Number(loose(rs.status).code ?? rs.status_code),
        contentType: headerOf(rs, 'content-type'),
        response: bodyOf(rs) ?? '',
      };
    });
}

function sseData(text: string): JsonObject[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((block) =>
      block
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n'),
    )
    .filter((d) => d !== '' && d !== '[DONE]')
    .map((d) => obj(JSON.parse(d)))
    .filter((e) => e !== null);
}

const FINAL = ['response.completed', 'response.failed', 'response.incomplete'];
const STATUSES = ['completed', 'failed', 'incomplete', 'in_progress', 'queued', 'cancelled'];
const keys = (items: Json[]) => items.map((i) => [obj(i)?.id ?? null, obj(i)?.type ?? null]);

/** Items the chat→items mapping yields for a message list: text turns, one per tool call, one per tool result. */
function chatItemCount(messages: Json[]): number {
  return messages.reduce<number>((n, m) => {
    const msg = obj(m);
    const calls = ((msg?.tool_calls as Json[] | undefined) ?? []).length;
    const text =
      typeof msg?.content === 'string' ? msg.content !== '' : Array.isArray(msg?.content) && msg.content.length > 0;
    return n + calls + (msg?.role === 'tool' || text || calls === 0 ? 1 : 0);
  }, 0);
}

function parseOrNull(text: string): JsonObject | null {
  try {
    return obj(JSON.parse(text));
  } catch {
    return null;
  }
}

function check(x: Interaction): void {
  const route = routeOf(x.method, x.path);
  const raw = rawExchange({
    method: x.method,
    path: x.path,
    request: x.request ?? '',
    status: x.status,
    contentType: x.contentType,
    response: x.response,
  });
  const { responses, notes } = normalizeExchange(raw);
  if (route.kind === 'other') {
    expect(responses).toEqual([]);
    return;
  }
  if (route.kind === 'conversations') return; // covered by the assertions on the responses that name them
  expect(responses).toHaveLength(1);
  const record = responses[0]!;
  // Some recorders drop the content type; the body shows what it is.
  const isStream = /event-stream/.test(x.contentType ?? '') || /^(data|event):/.test(x.response);
  const body = isStream ? null : parseOrNull(x.response);
  if (x.status >= 400) {
    expect(record).toMatchObject({
      status: 'error',
      responseId: 'exchange:1',
      error: { message: obj(body?.error)?.message },
    });
    return;
  }
  const request = x.request ? parseOrNull(x.request) : null;
  if (route.kind === 'chat.completions') {
    expect(record.request.input).toHaveLength(chatItemCount((request?.messages as Json[] | undefined) ?? []));
    if (!isStream && !Array.isArray(body?.choices)) {
      // pydantic-ai's echo server answers with bodies that are not completions on purpose.
      expect(record).toMatchObject({ status: 'error', error: { code: 'unreadable_response' } });
      expect(notes).toHaveLength(1);
      return;
    }
    const chunks = isStream ? sseData(x.response) : [];
    const finished = chunks.some((c) => ((c.choices as Json[] | undefined) ?? []).some((ch) => obj(ch)?.finish_reason));
    expect(record.responseId).toBe(isStream ? chunks.map((e) => e.id).find((id) => id) : body?.id);
    expect(record.status).toBe('completed');
    expect(notes).toEqual(isStream && !finished ? ['stream ended with [DONE] but no finish_reason'] : []);
    return;
  }
  if (request !== null && route.kind !== 'responses.retrieve') {
    const input = request.input;
    expect(record.request.input).toHaveLength(typeof input === 'string' ? 1 : Array.isArray(input) ? input.length : 0);
    expect(record.request.previousResponseId).toBe(request.previous_response_id ?? null);
  }
  if (isStream) {
    const events = sseData(x.response);
    const final = events.find((e) => FINAL.includes(String(e.type)));
    const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item as Json);
    const finalOutput = (obj(final?.response)?.output as Json[] | undefined) ?? [];
    expect(notes).toEqual([]);
    expect(record.events).toHaveLength(events.length);
    expect(record.status).toBe(final === undefined ? 'aborted' : String(final.type).replace('response.', ''));
    expect(record.output.map((i) => [i.id, i.type])).toEqual(keys(finalOutput.length > 0 ? finalOutput : done));
  } else {
    // A few hand-made cassettes omit `status` or spell it "complete"; /compact never has one.
    const status = body?.status;
    const known = typeof status === 'string' && STATUSES.includes(status);
    const expectedNotes =
      typeof status === 'string' && !known
        ? [`unknown response status "${status}"; taken as completed`]
        : status === undefined && route.kind !== 'responses.compact'
          ? ['response has no status; taken as completed']
          : [];
    expect(notes).toEqual(expectedNotes);
    expect(record.responseId).toBe(body?.id);
    expect(record.status).toBe(known ? status : 'completed');
    expect(record.output.map((i) => [i.id, i.type])).toEqual(keys((body?.output as Json[] | undefined) ?? []));
  }
}

describe.skipIf(!present)('real recordings: VCR cassettes', () => {
  // Realtime API sessions hold WebSocket frames only (not /v1/responses); they are left out, not passed.
  const cassettes = [...files('pydantic-ai'), ...files('dd-trace-py'), ...files('simonw-llm')].filter((f) =>
    readFileSync(join(ROOT, f), 'utf8').includes('- request:'),
  );

  it('finds the cassettes', () => expect(cassettes.length).toBeGreaterThan(100));

  it.each(cassettes)('%s', (file) => {
    for (const interaction of load(file)) check(interaction);
  });
});
