// Reading request bodies. Normal requests are buffered (the sim must parse them);
// `echoBody` requests are hashed as they stream in, so a multi-megabyte upload costs
// no more memory than the small prefix kept for stats().lastRequest.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** How much of an echoed body stats().lastRequest keeps. */
export const ECHO_KEEP_BYTES = 64 * 1024;

/** The client went away before its request body was complete: nothing left to answer. */
export class ClientGoneError extends Error {}

function consume(req: IncomingMessage, onChunk: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    req.on('data', onChunk);
    req.once('end', resolve);
    // Node reports a body cut short by the client as an 'aborted' error before 'close'.
    req.once('error', (err) =>
      reject(
        req.complete
          ? err
          : new ClientGoneError(`client closed the connection during the request body (${err.message})`),
      ),
    );
    // A client that gives up mid-upload never sends 'end'; without this the handler would wait forever.
    req.once('close', () => {
      if (!req.complete) reject(new ClientGoneError('client closed the connection during the request body'));
    });
  });
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await consume(req, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

export interface BodyDigest {
  bytes: number;
  sha256: string;
  /** The first ECHO_KEEP_BYTES of the body. */
  head: Buffer;
}

export async function hashBody(req: IncomingMessage): Promise<BodyDigest> {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let bytes = 0;
  await consume(req, (chunk) => {
    if (bytes < ECHO_KEEP_BYTES) head.push(chunk.subarray(0, ECHO_KEEP_BYTES - bytes));
    bytes += chunk.length;
    hash.update(chunk);
  });
  return { bytes, sha256: hash.digest('hex'), head: Buffer.concat(head) };
}
