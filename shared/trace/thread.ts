// Threading: which responses form one agent run. Signals, strongest first:
// 1. an explicit label (`/s/<label>` or `x-loupe-session`);
// 2. `previous_response_id` naming a response already seen;
// 3. the same `conversation` id.
// Anything else starts a run of its own. (Stateless input chaining, chat history prefixes,
// WebSocket lanes and idle gaps come with the full trace model.)
import type { ResponseRecord } from './types.js';

export interface ThreadInput {
  record: ResponseRecord;
  label: string | null;
}

export interface Run {
  id: string;
  label: string | null;
  responses: ResponseRecord[];
}

export function threadRuns(inputs: ThreadInput[]): Run[] {
  const runs: Run[] = [];
  const byLabel = new Map<string, Run>();
  const byResponse = new Map<string, Run>();
  const byConversation = new Map<string, Run>();

  for (const { record, label } of inputs) {
    const prev = record.request.previousResponseId;
    const conversation = record.request.conversationId;
    let run =
      (label !== null ? byLabel.get(label) : undefined) ??
      (prev ? byResponse.get(prev) : undefined) ??
      (conversation ? byConversation.get(conversation) : undefined) ??
      // A retrieve or resumed stream of a response already seen belongs to its run.
      byResponse.get(record.responseId);
    if (!run) {
      run = { id: label !== null ? `label:${label}` : `run:${record.responseId}`, label, responses: [] };
      runs.push(run);
      if (label !== null) byLabel.set(label, run);
    }
    run.responses.push(record);
    byResponse.set(record.responseId, run);
    if (conversation) byConversation.set(conversation, run);
  }
  return runs;
}
