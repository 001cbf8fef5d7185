// What the run index holds for each response of a run. A response still changing (in
// flight, or not yet threaded for good) is its record; a settled one is a stub that names
// it, counts its items, and is read back from the file when someone asks for it
// (settled-threading.ts settles them; run-index.ts keeps the stubs). Runs hold their
// settled responses first.
import type { RunOf } from '../../../shared/trace/thread/thread.js';
import type { ResponseRecord } from '../../../shared/trace/types.js';

export interface SettledResponse {
  readonly settled: true;
  readonly exchangeId: number;
  readonly responseId: string;
  /** How many output items it has (kept in the run snapshot). */
  readonly outputItems: number;
  /** Exchanges whose reads (retrieve, polls) were folded into it: read back with it (response-reads.ts). */
  readonly readBy?: number[];
}

export type IndexedResponse = ResponseRecord | SettledResponse;
export type IndexedRun = RunOf<IndexedResponse>;

export function isSettled(r: IndexedResponse): r is SettledResponse {
  return 'settled' in r;
}

export function settledStub(record: ResponseRecord): SettledResponse {
  const stub: SettledResponse = {
    settled: true,
    exchangeId: record.exchangeId,
    responseId: record.responseId,
    outputItems: record.output.length,
  };
  return record.readBy ? { ...stub, readBy: record.readBy } : stub;
}
