// `--otlp URL` as users run it: the built `loupe` in a child process pushes each run's spans
// to a local OTLP/HTTP receiver, which decodes the protobuf with the OpenTelemetry proto
// definitions (protobufjs code generated from them, shipped in @opentelemetry/otlp-transformer).
// `npm test` builds dist/ first; run `npm run build` before running this file alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import { otlpReceiver } from '../../../test/support/otlp-receiver.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');
const require = createRequire(import.meta.url);
const proto = require('otlp-transformer-protobufjs/build/src/generated/root.js').opentelemetry.proto;

interface DecodedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: Array<{ spanId: string }>;
}

function decode(body: Buffer, json: boolean): DecodedSpan[] {
  const message = json
    ? proto.collector.trace.v1.ExportTraceServiceRequest.fromObject(JSON.parse(body.toString('utf8')))
    : proto.collector.trace.v1.ExportTraceServiceRequest.decode(body);
  const request = proto.collector.trace.v1.ExportTraceServiceRequest.toObject(message, {
    longs: String,
    bytes: String,
  }) as {
    resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>;
  };
  const hex = (b: string | undefined) => (b ? Buffer.from(b, json ? 'hex' : 'base64').toString('hex') : '');
  return request.resourceSpans.flatMap((rs) =>
    rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((s) => ({
        traceId: json ? (s.traceId as string) : hex(s.traceId as string),
        spanId: json ? (s.spanId as string) : hex(s.spanId as string),
        parentSpanId: json ? ((s.parentSpanId as string) ?? '') : hex(s.parentSpanId as string | undefined),
        name: s.name as string,
        kind: s.kind as number,
        attributes: Object.fromEntries(
          ((s.attributes as Array<{ key: string; value: Record<string, unknown> }>) ?? []).map((a) => [
            a.key,
            Object.values(a.value)[0],
          ]),
        ),
        links: ((s.links as Array<{ spanId: string }>) ?? []).map((l) => ({ spanId: json ? l.spanId : hex(l.spanId) })),
      })),
    ),
  );
}

function runLoupe(args: string[], env: Record<string, string> = {}, until?: RegExp) {
  const child = spawn(process.execPath, [bin, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  const reached = new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (until?.test(stderr)) resolve();
    });
    child.once('exit', (code) => (until ? reject(new Error(`loupe exited ${code} early: ${stderr}`)) : resolve()));
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, reached, exit, stderr: () => stderr };
}

let dir: string;
let sim: SimUpstream;
beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'otlp', 'otlp-worker.js')))
    throw new Error('dist/ is missing the OTLP push: run `npm run build` first');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-otlp-'));
  sim = await startSimUpstream();
});
afterAll(async () => {
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('loupe --otlp', () => {
  it("pushes an Agents SDK run's agents, chats and tool calls as GenAI spans over protobuf, with the configured headers", async () => {
    const rx = await otlpReceiver();
    try {
      const db = path.join(dir, 'support.loupe');
      const demo = runLoupe(
        ['demo', '--scenario', 'support', '--speed', '200', '--db', db, '--port', '0', '--otlp', rx.url],
        { OTEL_EXPORTER_OTLP_HEADERS: 'x-team=loupe-test' },
        /loupe demo: finished/,
      );
      await demo.reached;
      demo.child.kill('SIGTERM');
      expect(await demo.exit).toBe(0);

      expect(rx.received.length).toBeGreaterThan(0);
      for (const r of rx.received) {
        expect(r.path).toBe('/v1/traces');
        expect(r.headers['content-type']).toBe('application/x-protobuf');
        expect(r.headers['x-team']).toBe('loupe-test');
      }
      const spans = rx.received.flatMap((r) => decode(r.body, false));
      // Each span once, whatever pass of the push found it.
      expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
      const names = spans.map((s) => s.name);
      // The run's own span is named for its first agent; each agent the SDK ran has one under it.
      expect(names.filter((n) => n.startsWith('invoke_agent ')).sort()).toEqual([
        'invoke_agent Billing specialist',
        'invoke_agent Triage agent',
        'invoke_agent Triage agent',
      ]);
      const chats = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
      expect(chats.length).toBeGreaterThanOrEqual(2);
      for (const chat of chats) {
        expect(chat.kind).toBe(3); // CLIENT, as the protobuf enum numbers it
        expect(chat.name).toBe(`chat ${chat.attributes['gen_ai.request.model']}`);
        expect(chat.attributes['gen_ai.provider.name']).toBe('openai');
        expect(chat.attributes['gen_ai.response.id']).toMatch(/^resp_/);
        expect(chat.attributes['gen_ai.usage.input_tokens']).toBeDefined();
        expect(chat.attributes).not.toHaveProperty('gen_ai.input.messages');
      }
      expect(
        spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool').length,
      ).toBeGreaterThanOrEqual(3);
      // One trace per run, and every parent is a span that was pushed.
      const ids = new Set(spans.map((s) => s.spanId));
      for (const s of spans) if (s.parentSpanId) expect(ids.has(s.parentSpanId)).toBe(true);
    } finally {
      await rx.close();
    }
  });

  it('pushes OTLP/JSON with content on request, and a recording exported twice keeps its ids', async () => {
    const rx = await otlpReceiver();
    try {
      const db = path.join(dir, 'record.loupe');
      const script = path.join(dir, 'agent.mjs');
      fs.writeFileSync(
        script,
        `import OpenAI from ${JSON.stringify(require.resolve('openai'))};\n` +
          `const client = new OpenAI({ apiKey: 'sk-otlp-test' });\n` +
          `const first = await client.responses.create({ model: 'gpt-5', input: 'Say hi' });\n` +
          `await client.responses.create({ model: 'gpt-5', input: 'And again', previous_response_id: first.id });\n`,
      );
      const rec = runLoupe([
        'record',
        '--db',
        db,
        '--upstream',
        sim.url,
        '--otlp',
        rx.url,
        '--otlp-json',
        '--otlp-content',
        '--',
        process.execPath,
        script,
      ]);
      expect(await rec.exit).toBe(0);
      expect(rx.received.length).toBeGreaterThan(0);
      expect(rx.received.every((r) => r.headers['content-type'] === 'application/json')).toBe(true);
      const spans = rx.received.flatMap((r) => decode(r.body, true));
      const chats = spans.filter((s) => s.name === 'chat gpt-5');
      expect(chats).toHaveLength(2);
      expect(JSON.parse(chats[0]!.attributes['gen_ai.input.messages'] as string)).toEqual([
        { role: 'user', parts: [{ type: 'text', content: 'Say hi' }] },
      ]);
      expect(chats[1]!.links.map((l) => l.spanId)).toEqual([chats[0]!.spanId]);
      expect(JSON.stringify(spans)).not.toContain('sk-otlp-test');

      // The file export uses the same ids: the recording's own id seeds them.
      const exported = await exportOtlp(db);
      const exportedChats = exported.filter((s: { name: string }) => s.name === 'chat gpt-5');
      expect(exportedChats.map((s: { spanId: string }) => s.spanId)).toEqual(chats.map((s) => s.spanId));
      expect(await exportOtlp(db)).toEqual(exported);
    } finally {
      await rx.close();
    }
  });

  it('gives two recordings of the same label different trace ids', async () => {
    const traceIds: string[] = [];
    for (const name of ['one', 'two']) {
      const db = path.join(dir, `label-${name}.loupe`);
      const script = path.join(dir, 'label.mjs');
      fs.writeFileSync(
        script,
        `import OpenAI from ${JSON.stringify(require.resolve('openai'))};\nawait new OpenAI({ apiKey: 'sk-x' }).responses.create({ model: 'gpt-5', input: 'hi' });\n`,
      );
      const rec = runLoupe([
        'record',
        '--db',
        db,
        '--upstream',
        sim.url,
        '--label',
        'same-label',
        '--',
        process.execPath,
        script,
      ]);
      expect(await rec.exit).toBe(0);
      traceIds.push((await exportOtlp(db))[0].traceId);
    }
    expect(traceIds[0]).not.toBe(traceIds[1]);
  });

  it('keeps relaying when the collector is gone, and says so once', async () => {
    const dead = await otlpReceiver();
    const url = dead.url;
    await dead.close();
    const db = path.join(dir, 'dead.loupe');
    const script = path.join(dir, 'dead.mjs');
    fs.writeFileSync(
      script,
      `import OpenAI from ${JSON.stringify(require.resolve('openai'))};\nconst r = await new OpenAI({ apiKey: 'sk-x' }).responses.create({ model: 'gpt-5', input: 'hi' });\nprocess.exit(r.status === 'completed' ? 7 : 1);\n`,
    );
    const rec = runLoupe(['record', '--db', db, '--upstream', sim.url, '--otlp', url, '--', process.execPath, script]);
    expect(await rec.exit).toBe(7);
    expect(rec.stderr()).toMatch(/OTLP push to http:\/\/127\.0\.0\.1:\d+\/v1\/traces failed/);
    expect(rec.stderr().match(/OTLP push to .* failed/g)).toHaveLength(1);
  });

  it('refuses a bad --otlp value, and its switches without it, as usage errors', async () => {
    const bad = runLoupe(['serve', '--otlp', 'not a url']);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toMatch(/--otlp needs an http\(s\) URL/);
    const lone = runLoupe(['serve', '--otlp-json']);
    expect(await lone.exit).toBe(2);
    expect(lone.stderr()).toMatch(/--otlp-json needs --otlp URL/);
  });
});

async function exportOtlp(db: string) {
  const child = spawn(process.execPath, [bin, 'export', db, '--format', 'otlp'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  return JSON.parse(out).resourceSpans[0].scopeSpans[0].spans;
}
