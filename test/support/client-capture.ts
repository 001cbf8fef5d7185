// What a real client library sent, read at its fetch: every request body as the bytes the
// client handed to fetch, so a test can check they reached the upstream unchanged through
// Loupe. Libraries that take a `fetch` option (the AI SDK, LangChain's `configuration`,
// the openai SDK) are given `capture.fetch`.
import type { ExportDocument } from '../../shared/export/export-json.js';
import type { ReceivedRequest } from './tool-loop-upstream.js';

export interface ClientCapture {
  fetch: typeof fetch;
  /** Request bodies in the order the client sent them. */
  sent: Buffer[];
}

export function clientCapture(): ClientCapture {
  const sent: Buffer[] = [];
  const capture: typeof fetch = async (input, init) => {
    const body = init?.body;
    if (typeof body === 'string') sent.push(Buffer.from(body, 'utf8'));
    else if (body instanceof Uint8Array) sent.push(Buffer.from(body));
    else if (body != null)
      throw new Error(`a request body of a kind this capture does not read: ${Object.prototype.toString.call(body)}`);
    return fetch(input, init);
  };
  return { fetch: capture, sent };
}

/** The bodies, as text, sorted: concurrent clients' requests arrive in no fixed order. */
export function bodiesOf(list: Array<Buffer | ReceivedRequest>): string[] {
  return list.map((b) => (Buffer.isBuffer(b) ? b : b.body).toString('latin1')).sort();
}

/** Each run's response ids, runs and ids sorted: the grouping an export shows, whatever the run order. */
export function grouping(doc: ExportDocument): string[][] {
  return doc.runs.map((run) => run.responses.map((r) => r.id).sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** `groups` sorted as grouping() sorts them. */
export function sortedGroups(groups: string[][]): string[][] {
  return groups.map((g) => [...g].sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));
}
