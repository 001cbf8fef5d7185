// A compressed response cannot be masked in place when it is stored (ADR 21): its bytes
// are kept as they came. When its request held a credential (a masked value under a
// credential's name: the API echoes `metadata` back), the decoded text is masked instead,
// before anything reads it: derived records, exchanges.get and every export.
import type { DecodedBody } from '../trace/types.js';
import { JsonSecretScrubber } from './json-secret-scrubber.js';

const encoder = new TextEncoder();

/** Whether the stored request body still names a credential with a string value (masked when stored). */
export function requestHeldSecret(request: DecodedBody): boolean {
  const scrubber = new JsonSecretScrubber();
  for (const chunk of request.chunks) {
    scrubber.scrub(encoder.encode(chunk.text));
    if (scrubber.masked) return true;
  }
  return false;
}

/** Masks credentials in a decoded body, chunk after chunk, a value split across chunks included. */
export function maskDecoded(body: DecodedBody): DecodedBody {
  const scrubber = new JsonSecretScrubber();
  const decoder = new TextDecoder();
  const chunks = body.chunks.map((chunk) => {
    const bytes = encoder.encode(chunk.text);
    scrubber.scrub(bytes);
    return { tUs: chunk.tUs, text: decoder.decode(bytes, { stream: true }) };
  });
  const tail = decoder.decode();
  if (tail && chunks.length) chunks[chunks.length - 1]!.text += tail;
  return { ...body, chunks };
}
