// `loupe diff` through the built CLI on real recordings: runs recorded through the real
// proxy (SQLite file, openai SDK, the built-in simulator as upstream), then compared: two
// runs of one program match (exit 0), a changed prompt or tool differs (exit 1) with the
// first divergence named, against a run in the same file or in another (`OTHER:RUN`), and
// usage errors exit 2. Run `npm run build` before running this file alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');

function loupe(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const WEATHER = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  strict: true,
};

/** A two-step tool loop as an app runs it: the model calls get_weather, the app answers, the model replies. */
async function toolLoop(
  h: Harness,
  label: string,
  prompt: string,
  tools: OpenAI.Responses.Tool[] = [WEATHER],
): Promise<void> {
  const client = new OpenAI({
    apiKey: TEST_KEY,
    baseURL: h.core.proxy.baseUrl.replace(/\/v1$/, `/s/${label}/v1`),
    maxRetries: 0,
  });
  const sim = (o: object) => ({ headers: { 'x-sim': JSON.stringify(o) } });
  const first = await client.responses.create(
    { model: 'gpt-5', instructions: 'You answer weather questions.', input: prompt, tools, stream: false },
    sim({ toolCalls: 1, events: 0 }),
  );
  const calls = first.output.filter((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call');
  expect(calls).toHaveLength(1);
  await client.responses.create(
    {
      model: 'gpt-5',
      instructions: 'You answer weather questions.',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: calls[0]!.call_id, output: '{"temp":20}' }],
      tools,
      stream: true,
    },
    sim({ events: 4 }),
  );
}

let h: Harness;
let file: string;
let other: string;

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  h = await startHarness();
  await toolLoop(h, 'golden', 'Weather in Paris?');
  await toolLoop(h, 'again', 'Weather in Paris?');
  await toolLoop(h, 'reworded', 'What is the weather like in Paris?');
  await toolLoop(h, 'tool-changed', 'Weather in Paris?', [
    {
      ...WEATHER,
      parameters: {
        ...WEATHER.parameters,
        properties: { city: { type: 'string' }, unit: { type: 'string' } },
        required: ['city', 'unit'],
      },
    },
  ]);
  await h.settle();
  // A copy to compare against as "another file"; the harness's folder goes when it closes.
  const dir = fs.mkdtempSync(path.join(path.dirname(h.dir), 'loupe-diff-'));
  file = path.join(dir, 'runs.loupe');
  other = path.join(dir, 'golden.loupe');
  await h.core.close();
  fs.copyFileSync(h.dbPath, file);
  fs.copyFileSync(h.dbPath, other);
}, 60_000);

afterAll(async () => {
  await h?.close();
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

describe('loupe diff', () => {
  it('two runs of the same program match: exit 0, every step the same (ids and times aside)', async () => {
    const out = await loupe(['diff', file, 'label:golden', 'label:again', '--format', 'json']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
    const doc = JSON.parse(out.stdout) as {
      match: boolean;
      first_divergence: unknown;
      steps: Array<{ match: boolean; a: { response_id: string }; b: { response_id: string } }>;
    };
    expect(doc.match).toBe(true);
    expect(doc.first_divergence).toBeNull();
    expect(doc.steps.map((s) => s.match)).toEqual([true, true]);
    expect(doc.steps[0]!.a.response_id).not.toBe(doc.steps[0]!.b.response_id);
    const text = await loupe(['diff', file, 'golden', 'again']);
    expect(text.status).toBe(0);
    expect(text.stdout).toContain('The runs match');
  });

  it('a changed prompt differs at step 1: exit 1, with both texts', async () => {
    const out = await loupe(['diff', file, 'label:golden', 'label:reworded', '--format', 'json']);
    expect(out.status).toBe(1);
    const doc = JSON.parse(out.stdout) as {
      match: boolean;
      first_divergence: { step: number; a: string; b: string; what: string };
    };
    expect(doc.match).toBe(false);
    expect(doc.first_divergence).toEqual({
      step: 1,
      a: 'Weather in Paris?',
      b: 'What is the weather like in Paris?',
      what: 'input item 1 (message user) differs in content',
      path: 'input[0]',
    });
  });

  it('a changed tool schema differs on every step, against a golden run in another file', async () => {
    const out = await loupe(['diff', file, 'label:tool-changed', `${other}:label:golden`, '--format', 'json']);
    expect(out.status).toBe(1);
    const doc = JSON.parse(out.stdout) as {
      first_divergence: { step: number; what: string; path: string };
      steps: Array<{ differences: Array<{ kind: string; path: string }> }>;
    };
    expect(doc.first_divergence).toMatchObject({
      step: 1,
      path: 'tools.get_weather',
      what: 'tool get_weather differs (parameters.properties.unit, parameters.required[1])',
    });
    for (const s of doc.steps)
      expect(s.differences.filter((d) => d.kind === 'request').map((d) => d.path)).toEqual(['tools.get_weather']);
    const text = await loupe(['diff', file, 'label:tool-changed', `${other}:label:golden`]);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain('First divergence at step 1: tool get_weather differs');
  });

  it('usage errors and runs it cannot find exit 2', async () => {
    const few = await loupe(['diff', file, 'label:golden']);
    expect(few.status).toBe(2);
    expect(few.stderr).toContain('diff needs a recording and two runs');
    const format = await loupe(['diff', file, 'golden', 'again', '--format', 'yaml']);
    expect(format.status).toBe(2);
    const missing = await loupe(['diff', file, 'golden', 'nope']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no run "nope" in');
    expect(missing.stderr).toContain('label:golden');
    const noFile = await loupe(['diff', path.join(path.dirname(file), 'absent.loupe'), 'a', 'b']);
    expect(noFile.status).toBe(2);
    expect(noFile.stderr).toContain('no recording at');
  });
});
