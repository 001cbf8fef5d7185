// Which spans of this session's runs are ready to push, each once. A response's spans go as
// soon as it has finished (a tool's span once its output reached the model); a run's own
// `invoke_agent` span, whose end moves while the run grows, once the run has been idle for
// RUN_IDLE_MS, or at shutdown. Only this session's exchanges are read (from `firstId` on),
// so the work grows with what was recorded since start, not with the library.
import { runSpans, type GenAiSpan } from '../../../shared/export/genai-spans.js';
import { RUN_IDLE_MS } from '../../../shared/trace/thread/run-idle.js';
import { attachAgentSpans } from '../../../shared/trace/thread/attach-agent-spans.js';
import type { Db } from '../store/db.js';
import { ReadDamage } from '../store/read-damage.js';
import { loadAgentSpans, loadRuns } from '../store/runs-read.js';

const UNFINISHED = new Set(['in_progress', 'queued']);

export class SessionSpans {
  private readonly sent = new Set<string>();
  private readonly runSize = new Map<string, { responses: number; since: number }>();

  constructor(
    private readonly db: Db,
    private readonly firstId: number,
    private readonly recordingId: string,
    private readonly content: boolean,
  ) {}

  /** Spans not pushed yet that are final now; with `all`, every one (shutdown). */
  ready(now: number, all = false): GenAiSpan[] {
    // A row that cannot be read is pushed as the error span of its placeholder response.
    const damage = new ReadDamage();
    const runs = loadRuns(this.db, damage, this.firstId);
    const agentSpans = attachAgentSpans(runs, loadAgentSpans(this.db, damage, this.firstId)).byRun;
    const out: GenAiSpan[] = [];
    for (const run of runs) {
      const size = this.runSize.get(run.id);
      if (size === undefined || size.responses !== run.responses.length)
        this.runSize.set(run.id, { responses: run.responses.length, since: now });
      const idle = now - (this.runSize.get(run.id)?.since ?? now) >= RUN_IDLE_MS;
      const finished = new Set(run.responses.filter((r) => !UNFINISHED.has(r.status)).map((r) => r.responseId));
      for (const span of runSpans(run, {
        recordingId: this.recordingId,
        agentSpans: agentSpans.get(run.id),
        content: this.content,
      })) {
        if (this.sent.has(span.spanId)) continue;
        const final = all || (span.responseId === null ? idle : finished.has(span.responseId));
        if (!final) continue;
        this.sent.add(span.spanId);
        out.push(span);
      }
    }
    return out;
  }
}
