// Checks the fixture loader against MANIFEST.md (an independent description written by the
// collector) and the replay upstream against the loaded bytes. When ../shared/fixtures is
// absent the suite reports as skipped, never as passed.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodedResponseBody,
  fixturesRoot,
  listFixtureFiles,
  loadRecordings,
  type RecordedExchange,
  type Recording,
} from './fixtures.js';
import { readManifest, type ManifestEntry } from './manifest.js';
import { rawRequest } from './raw-request.js';
import { MISMATCH_STATUS, startReplayUpstream, type ReplayUpstream } from './replay-upstream.js';
import { sseBlocks } from './sse-events.js';
import { headerValue, isGzip } from './wire-body.js';

const root = fixturesRoot();

// Envelope rows in the MANIFEST do not say how many HTTP responses they hold.
const ENVELOPE_EXCHANGES: Record<string, number> = {
  // Two attempts, each keeping the raw chat.completion body the API returned.
  'vercel-ai/openai/chat/openai-chat-cached-input-tokens-11178.json': 2,
  // AI SDK result (text, usage) instead of the wire body: nothing replayable.
  'vercel-ai/openai/responses/issue-12842-input-file-text-csv-success.json': 0,
  // Request and response headers, but the stream was reduced to event type names.
  'vercel-ai/openai/responses/issue-16021-openai-zod-patterns-live.json': 0,
};

function expectedExchangeCount(entry: ManifestEntry): number {
  if (entry.exchanges !== undefined) return entry.exchanges.length;
  const d = entry.description;
  if (d.startsWith('recorded request+response envelope')) {
    const n = ENVELOPE_EXCHANGES[entry.file];
    if (n === undefined) throw new Error(`new envelope fixture ${entry.file}: decide what it holds`);
    return n;
  }
  if (d.startsWith('Realtime API WebSocket session')) return 0;
  const consecutive = /(\d+) consecutive responses/.exec(d);
  return consecutive ? Number(consecutive[1]) : 1;
}

// Ids that are real-looking but not OpenAI-minted, with where they come from. The MANIFEST
// flags hand-written vercel rows (⚠), non-OpenAI servers and anonymized captures itself;
// these files are not flagged there.
const NON_OPENAI_IDS: Record<string, string> = {
  'pydantic-ai/test_openai/test_compatible_api_with_tool_calls_without_id.yaml': 'Gemini OpenAI-compatible endpoint',
  'pydantic-ai/test_openai_responses/test_openai_invalid_previous_response_id.yaml': 'hand-edited (resp_1234)',
  'pydantic-ai/test_openai_responses/test_openai_previous_response_id_auto_mode.yaml': 'hand-edited (msg_test_…)',
  'pydantic-ai/test_openai_responses/test_openai_responses_usage_limit_not_exceeded.yaml':
    'hand-edited (resp_count_tokens_test_001)',
  'pydantic-ai/test_openai_responses/test_openai_responses_verbosity.yaml': 'hand-edited (resp_test_verbosity_simple)',
  'simonw-llm/test_tools_streaming/test_tools_streaming_variant_a.yaml':
    'OpenRouter ids (gen-…) under an api.openai.com URI',
  'simonw-llm/test_tools_streaming/test_tools_streaming_variant_b.yaml':
    'OpenRouter ids (gen-…) under an api.openai.com URI',
  'simonw-llm/test_tools_streaming/test_tools_streaming_variant_c.yaml':
    'OpenRouter ids (gen-…) under an api.openai.com URI',
  'simonw-llm/test_tools_streaming/test_tools_streaming_variant_d.yaml': 'hand-made OpenRouter-style ids',
};

const ANY_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{5,}$/;
const OPENAI_ID = /^(?:[a-z]+_[0-9a-f]{32,}|chatcmpl-[A-Za-z0-9-]{20,})$/;

function openAiMinted(entry: ManifestEntry): boolean {
  const d = entry.description;
  return (
    !entry.handWritten && !/not (an )?OpenAI/.test(d) && !d.includes('anonymized') && !(entry.file in NON_OPENAI_IDS)
  );
}

// MANIFEST kinds of a model response (files, conversations, token counts, 'other' do not name one).
const MODEL_KINDS = new Set(['JSON', 'SSE', 'chat-JSON', 'compaction-JSON']);

/** The MANIFEST says exchange `i` is a successful model response, which must carry its id. */
function namesItsResponse(entry: ManifestEntry, i: number): boolean {
  if (entry.exchanges !== undefined) {
    const m = entry.exchanges[i];
    return m !== undefined && m.status === 200 && MODEL_KINDS.has(m.kind);
  }
  const d = entry.description;
  return !entry.handWritten && /(Responses|Chat Completions) (stream|non-streamed JSON)/.test(d);
}

/** Events whose data is JSON: the MANIFEST counts these (it skips malformed hand-written lines). */
function jsonEventCount(exchange: RecordedExchange): number {
  return sseBlocks(decodedResponseBody(exchange)).filter((b) => {
    try {
      JSON.parse(b.data);
      return true;
    } catch {
      return false;
    }
  }).length;
}

function recordedSseEventCount(exchange: RecordedExchange): number {
  return sseBlocks(decodedResponseBody(exchange)).length;
}

describe.skipIf(!root)('fixture loader', () => {
  let recordings: Recording[] = [];
  let manifest = new Map<string, ManifestEntry>();
  const byFile = (file: string): Recording | undefined => recordings.find((r) => r.file === file);

  beforeAll(() => {
    recordings = loadRecordings();
    manifest = readManifest(root ?? '');
  });

  it('accounts for every file in the folder, loaded or skipped with a reason', () => {
    const files = listFixtureFiles(root ?? '');
    expect(files.length).toBeGreaterThan(0);
    expect(recordings.map((r) => r.file)).toEqual(files);
    for (const r of recordings) {
      if (r.exchanges.length === 0) expect(r.skipped, r.file).toMatch(/\w/);
      else expect(r.skipped, r.file).toBeUndefined();
      expect(r.format, r.file).not.toBe('unknown');
    }
  });

  it('finds every file in the MANIFEST, under its source section', () => {
    for (const r of recordings) {
      const entry = manifest.get(r.file);
      expect(entry, `${r.file} has no MANIFEST row`).toBeDefined();
      expect(entry?.source, r.file).toBe(r.source);
    }
  });

  it('skips only Realtime WebSocket sessions and envelopes without a wire body', () => {
    for (const r of recordings.filter((x) => x.skipped !== undefined)) {
      const entry = manifest.get(r.file);
      const realtime = entry?.description.startsWith('Realtime API WebSocket session') ?? false;
      const envelope = ENVELOPE_EXCHANGES[r.file] === 0;
      expect(realtime || envelope, `${r.file}: ${r.skipped}`).toBe(true);
      if (realtime) expect(r.format).toBe('realtime-ws-yaml');
    }
  });

  it('loads as many exchanges per file and per source as the MANIFEST describes', () => {
    const expected: Record<string, number> = {};
    const actual: Record<string, number> = {};
    for (const r of recordings) {
      const entry = manifest.get(r.file);
      if (entry === undefined) continue;
      const n = expectedExchangeCount(entry);
      expect(r.exchanges.length, r.file).toBe(n);
      expected[r.source] = (expected[r.source] ?? 0) + n;
      actual[r.source] = (actual[r.source] ?? 0) + r.exchanges.length;
    }
    expect(actual).toEqual(expected);
  });

  it('matches method, status, streaming and event count of each MANIFEST exchange', () => {
    for (const r of recordings) {
      const entry = manifest.get(r.file);
      entry?.exchanges?.forEach((m, i) => {
        const e = r.exchanges[i];
        const where = `${r.file} #${i}`;
        expect(e, where).toBeDefined();
        if (e === undefined) return;
        expect(e.method, where).toBe(m.method);
        expect(e.status, where).toBe(m.status);
        expect(e.streamed, where).toBe(m.kind === 'SSE');
        if (m.events !== undefined) expect(recordedSseEventCount(e), where).toBe(m.events);
        const endpoint = m.endpoint.replace(/^\[[^\]]*\]/, '');
        if (endpoint.startsWith('/')) {
          const pattern = endpoint.replace(/[.*+?^$()|\\]/g, '\\$&').replace(/\{id\}/g, '[^/]+');
          expect(e.path.split('?')[0], where).toMatch(new RegExp(pattern));
        }
      });
    }
  });

  it('matches streaming, event counts and error status of vercel recordings', () => {
    for (const r of recordings.filter((x) => x.source === 'vercel-ai' && x.exchanges.length > 0)) {
      const d = manifest.get(r.file)?.description ?? '';
      const stream = /(?:Responses|Chat Completions) stream, (\d+) (?:events|chunks)/.exec(d);
      for (const e of r.exchanges) expect(e.streamed, r.file).toBe(stream !== null);
      if (stream) {
        const events = r.exchanges.reduce((sum, e) => sum + jsonEventCount(e), 0);
        expect(events, r.file).toBe(Number(stream[1]));
      }
      if (d.includes('error body only')) expect(r.exchanges[0]?.status, r.file).toBeGreaterThanOrEqual(400);
    }
  });

  it('gives every exchange an HTTP status and a non-empty body', () => {
    for (const r of recordings) {
      for (const e of r.exchanges) {
        expect(Number.isInteger(e.status) && e.status >= 100 && e.status <= 599, r.file).toBe(true);
        expect(e.responseBody.length, r.file).toBeGreaterThan(0);
        expect(e.path, r.file).toMatch(/^\//);
      }
    }
  });

  it('keeps content-encoding only on bodies that really are encoded', () => {
    let gzipped = 0;
    for (const r of recordings) {
      for (const e of r.exchanges) {
        const encoding = headerValue(e.responseHeaders, 'content-encoding');
        expect(isGzip(e.responseBody), r.file).toBe(encoding === 'gzip');
        if (encoding === 'gzip') {
          gzipped += 1;
          expect(gunzipSync(e.responseBody).equals(decodedResponseBody(e)), r.file).toBe(true);
        }
      }
    }
    // simonw-llm and dd-trace keep gzip bodies as `!!binary`; losing them all would hide a bug.
    if (recordings.some((r) => r.source === 'simonw-llm')) expect(gzipped).toBeGreaterThan(0);
  });

  it('derives ids that look like ids, and OpenAI-minted ones wherever the traffic is OpenAI’s', () => {
    let responses = 0;
    for (const r of recordings) {
      const entry = manifest.get(r.file);
      const strict = entry !== undefined && openAiMinted(entry);
      for (const e of r.exchanges) {
        const ids = [...e.expected.responseIds, ...e.expected.outputItemIds];
        responses += e.expected.responseIds.length;
        for (const id of ids) {
          expect(id, r.file).toMatch(ANY_ID);
          if (strict) expect(id, r.file).toMatch(OPENAI_ID);
        }
      }
      r.exchanges.forEach((e, i) => {
        if (entry !== undefined && namesItsResponse(entry, i)) {
          expect(e.expected.responseIds.length, `${r.file} #${i}: no response id`).toBeGreaterThan(0);
        }
      });
    }
    expect(responses).toBeGreaterThan(0);
    for (const file of Object.keys(NON_OPENAI_IDS)) {
      if (byFile(file) === undefined) continue;
      const ids =
        byFile(file)?.exchanges.flatMap((e) => [...e.expected.responseIds, ...e.expected.outputItemIds]) ?? [];
      expect(
        ids.some((id) => !OPENAI_ID.test(id)),
        `${file} is listed as non-OpenAI but all ids look minted`,
      ).toBe(true);
    }
  });

  it('splits vercel files holding consecutive responses into one exchange per response', () => {
    for (const r of recordings.filter((x) => x.format === 'vercel-chunks' && x.exchanges.length > 1)) {
      for (const e of r.exchanges) {
        const events = sseBlocks(e.responseBody).map((b) => b.event);
        expect(events[0], r.file).toBe('response.created');
        expect(events.filter((t) => t === 'response.created').length, r.file).toBe(1);
        expect(e.expected.responseIds.length, r.file).toBe(1);
      }
    }
  });
});

/** Sends an exchange's request to the replay upstream and returns what came back. */
function replayOne(upstream: ReplayUpstream, e: RecordedExchange) {
  const headers: Record<string, string> = e.requestBody ? { 'content-type': 'application/json' } : {};
  return rawRequest(upstream.url, e.method, e.path, e.requestBody, headers);
}

describe.skipIf(!root)('replay upstream', () => {
  // A handful covering each storage quirk: gzip `!!binary`, httpx `content:` with a stale
  // content-encoding, parsed_body, an Azure '//openai/…' path, rebuilt vercel SSE split
  // into several responses, an error body with inferred status, and multi-endpoint files.
  const HANDFUL = [
    'simonw-llm/test_openai_responses/test_responses_tool_use.yaml',
    'simonw-llm/test_openai_responses/test_tools.yaml',
    'dd-trace-py/openai/chat_completion_streamed_tokens.yaml',
    'dd-trace-py/openai/azure_chat_completion_streamed.yaml',
    'dd-trace-py/cassettes/openai/openai_responses_post_eae4a165.json',
    'pydantic-ai/test_openai_responses/test_openai_responses_model_file_search_tool.yaml',
    'pydantic-ai/test_openai_responses/test_openai_responses_thinking_with_code_execution_tool_stream.yaml',
    'vercel-ai/azure/azure-reasoning-encrypted-content.1.chunks.txt',
    'vercel-ai/openai/responses/openai-error.1.json',
  ];
  let recordings: Recording[] = [];
  const opened: ReplayUpstream[] = [];
  const start = async (exchanges: RecordedExchange[], sseFraming?: 'chunked'): Promise<ReplayUpstream> => {
    const upstream = await startReplayUpstream(exchanges, sseFraming ? { sseFraming } : {});
    opened.push(upstream);
    return upstream;
  };

  beforeAll(() => {
    recordings = loadRecordings();
  });
  afterAll(async () => {
    await Promise.all(opened.map((u) => u.close()));
  });

  it('serves a handful of recordings byte for byte, in order, streaming SSE in several reads', async () => {
    const chosen = recordings.filter((r) => HANDFUL.includes(r.file));
    expect(chosen.length).toBeGreaterThan(0);
    for (const r of chosen) {
      const upstream = await start(r.exchanges);
      for (const [i, e] of r.exchanges.entries()) {
        const where = `${r.file} #${i}`;
        const res = await replayOne(upstream, e);
        expect(res.status, where).toBe(e.status);
        expect(res.body.equals(e.responseBody), where).toBe(true);
        expect(res.headers['content-length'], where).toBe(String(e.responseBody.length));
        expect(res.headers['content-type'], where).toBe(headerValue(e.responseHeaders, 'content-type'));
        expect(res.headers['content-encoding'], where).toBe(headerValue(e.responseHeaders, 'content-encoding'));
        if (e.streamed && !res.headers['content-encoding'] && sseBlocks(e.responseBody).length > 1) {
          expect(res.reads, `${where}: SSE arrived in one read`).toBeGreaterThan(1);
        }
        expect(upstream.received[i]?.matched, where).toBe(e);
        expect(upstream.received[i]?.body.equals(e.requestBody ?? Buffer.alloc(0)), where).toBe(true);
      }
      expect(upstream.remaining(), r.file).toEqual([]);
    }
  });

  it('serves every loaded exchange byte for byte', async () => {
    for (const r of recordings.filter((x) => x.exchanges.length > 0)) {
      const upstream = await start(r.exchanges);
      for (const [i, e] of r.exchanges.entries()) {
        const res = await replayOne(upstream, e);
        expect(res.status, `${r.file} #${i}`).toBe(e.status);
        expect(res.body.equals(e.responseBody), `${r.file} #${i}`).toBe(true);
      }
    }
  });

  it('drops hop-by-hop and framing headers and keeps repeated ones', async () => {
    const r = recordings.find((x) => x.file === 'dd-trace-py/openai/response.yaml');
    if (r === undefined) return;
    const e = r.exchanges[0];
    if (e === undefined) throw new Error('dd-trace response.yaml has no exchange');
    const res = await replayOne(await start([e]), e);
    const names = res.rawHeaders.map(([n]) => n.toLowerCase());
    expect(names).not.toContain('transfer-encoding');
    expect(names.filter((n) => n === 'content-length')).toHaveLength(1);
    const cookies = e.responseHeaders.filter(([n]) => n.toLowerCase() === 'set-cookie').length;
    expect(res.rawHeaders.filter(([n]) => n.toLowerCase() === 'set-cookie')).toHaveLength(cookies);
  });

  it('can send SSE with chunked transfer-encoding, as the real API does', async () => {
    const r = recordings.find((x) => x.format === 'vercel-chunks' && x.exchanges.length === 1);
    const e = r?.exchanges[0];
    if (e === undefined) return;
    const res = await replayOne(await start([e], 'chunked'), e);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.body.equals(e.responseBody)).toBe(true);
  });

  it('answers a request that matches no remaining exchange with a loud 599', async () => {
    const e = recordings.flatMap((r) => r.exchanges).find((x) => x.path === '/v1/responses');
    if (e === undefined) return;
    const upstream = await start([e]);
    const wrong = await rawRequest(upstream.url, 'POST', '/v1/chat/completions', Buffer.from('{}'));
    expect(wrong.status).toBe(MISMATCH_STATUS);
    expect(wrong.body.toString()).toContain('no recorded exchange left for POST /v1/chat/completions');
    expect(wrong.body.toString()).toContain('next expected: POST /v1/responses');
    await replayOne(upstream, e);
    const again = await replayOne(upstream, e);
    expect(again.status).toBe(MISMATCH_STATUS);
    expect(again.body.toString()).toContain('all recorded exchanges were served');
    expect(upstream.received.map((x) => x.matched === null)).toEqual([true, false, true]);
  });
});
