// An export of a previous_response_id chain with long tool outputs (the bench's shape, few
// turns) recorded through the real proxy with the openai SDK. Read from the run snapshot the
// export holds its records cut (cut-records.ts) and reads each whole only to count its
// tokens and write OTLP's messages; threaded whole (a copy without the snapshot) it holds
// them whole. Both must give the same bytes in every format, and the documents what the
// whole texts say: each output's o200k tokens, each output in OTLP's messages in full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainedAgent, type ChainedAgentResult, type ChainedShape } from '../../../bench/chained-recording.js';
import { TEXT_PREVIEW_CHARS } from '../../../shared/api/run-skeleton.js';
import { countO200k } from '../../../shared/context/o200k.js';
import { FRAME_TOKENS } from '../../../shared/context/render-text.js';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import {
  expectExportsHoldRecording,
  expectSnapshotExportsEqualThreaded,
  type Exported,
} from '../../../test/support/export-checks.js';
import { RunIndex } from '../service/run-index.js';

const SHAPE: ChainedShape = { turns: 8, callsPerTurn: 3, outputChars: { min: 9_000, max: 40_000 } };

let h: Harness;
let sent: ChainedAgentResult;
let exported: Exported[];
beforeAll(async () => {
  h = await startHarness();
  sent = await chainedAgent(h.core.proxy.baseUrl, SHAPE);
  await h.settle();
  exported = await expectSnapshotExportsEqualThreaded(h.core.db, h.dir);
}, 120_000);
afterAll(() => h?.close());

/** Every function_call_output of the run, whole, by call id, as the store reads it back. */
function wholeOutputs(): Map<string, string> {
  const index = new RunIndex(h.core.db, { snapshot: false });
  const out = new Map<string, string>();
  for (const { id } of index.ordered())
    for (const r of index.run(id)!.responses)
      for (const item of index.fullRecordOf(r).request.input)
        if (item.type === 'function_call_output') out.set(item.callId!, item.raw.output as string);
  return out;
}

describe('an export of a chained run with long outputs, held cut', () => {
  it('equals, read cut from the snapshot, the export of the run held whole, and holds all it recorded', () => {
    expectExportsHoldRecording(h.core.db, exported);
    expect(sent.outputChars.flat().every((n) => n > TEXT_PREVIEW_CHARS)).toBe(true);
  });

  it('counts each output’s whole text, not its preview', () => {
    const outputs = wholeOutputs();
    expect(outputs.size).toBe(sent.outputsSent);
    const doc = JSON.parse(exported.find((e) => e.format === 'json')!.text) as ExportDocument;
    const [run] = doc.runs;
    const last = run!.responses.at(-1)!;
    // The last context carries every output sent, each counted whole once.
    const counted = last.context.filter((p) => p.item?.startsWith('function_call_output:'));
    expect(counted).toHaveLength(sent.outputsSent);
    for (const p of counted) {
      const text = outputs.get(p.item!.slice('function_call_output:'.length))!;
      expect(p.tokens).toBe(countO200k(text) + FRAME_TOKENS);
    }
    expect(last.context_tokens).toBe(last.context.reduce((n, p) => n + (p.tokens ?? 0), 0));
  });

  it('writes each output whole in OTLP’s messages', () => {
    const otlp = exported.find((e) => e.format === 'otlp' && e.options.otlpContent)!.text;
    for (const text of wholeOutputs().values())
      expect(otlp.includes(JSON.stringify(JSON.stringify(text)).slice(1, -1))).toBe(true);
  });
});
