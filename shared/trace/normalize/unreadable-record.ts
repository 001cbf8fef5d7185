// What stands in for a response whose stored record cannot be read back (a damaged
// recording): it keeps its place in the run, visibly, instead of failing the whole read.
import type { ExchangeContext, ResponseRecord } from '../types.js';

export interface UnreadableRow {
  exchangeId: number;
  /** null when the row itself was lost, not only its record. */
  responseId: string | null;
  model: string | null;
  exchange: ExchangeContext;
}

export const UNREADABLE_CODE = 'unreadable';

export function unreadableRecord(row: UnreadableRow, error: string): ResponseRecord {
  return {
    exchangeId: row.exchangeId,
    exchange: row.exchange,
    api: 'other',
    responseId: row.responseId ?? `exchange:${row.exchangeId}`,
    model: row.model,
    status: 'unreadable',
    streamed: false,
    request: { params: {}, input: [], previousResponseId: null, conversationId: null },
    output: [],
    events: [],
    usage: null,
    error: { code: UNREADABLE_CODE, message: `Loupe could not read this response back from the recording: ${error}` },
    timings: { ttftUs: null, durationUs: null },
  };
}
