// Turns stored body bytes back into text chunks with their arrival times, undoing the
// content-encoding on the recorder's own copy (the client got the compressed bytes
// untouched). Decompression is streamed chunk by chunk so a compressed SSE stream keeps
// its per-event timing.
import zlib from 'node:zlib';
import type { DecodedBody } from '../../../shared/trace/types.js';

export interface StoredChunk {
  data: Buffer;
  tUs: number;
  opcode: number;
}

type Decoder = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;

function decoderFor(encoding: string): Decoder | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

export async function decodeBody(
  chunks: StoredChunk[],
  contentEncoding: string | undefined,
  truncated: boolean,
): Promise<DecodedBody> {
  const encoding = (contentEncoding ?? 'identity').trim().toLowerCase();
  const text = new TextDecoder('utf-8');
  if (encoding === 'identity' || encoding === '') {
    const out = chunks.map((c) => ({ tUs: c.tUs, text: text.decode(c.data, { stream: true }) }));
    appendTail(out, text.decode());
    return { chunks: out, decodeError: null, truncated };
  }
  const decoder = decoderFor(encoding);
  if (!decoder) {
    return { chunks: [], decodeError: `unsupported content-encoding "${encoding}"; raw bytes kept`, truncated };
  }
  const out: DecodedBody['chunks'] = [];
  const pending: Buffer[] = [];
  let failure: Error | null = null;
  decoder.on('data', (b: Buffer) => pending.push(b));
  decoder.on('error', (err) => (failure = err));
  for (const c of chunks) {
    if (failure) break;
    decoder.write(c.data);
    await new Promise<void>((resolve) => decoder.flush(() => resolve()));
    out.push({ tUs: c.tUs, text: text.decode(Buffer.concat(pending.splice(0)), { stream: true }) });
  }
  if (!failure) {
    decoder.end();
    await new Promise<void>((resolve) => {
      decoder.once('end', resolve);
      decoder.once('error', () => resolve());
      decoder.resume();
    });
  }
  appendTail(out, text.decode(Buffer.concat(pending.splice(0))));
  const err = failure as Error | null;
  return {
    chunks: out.filter((c) => c.text.length > 0),
    decodeError: err ? `cannot decode ${encoding} body: ${err.message}; raw bytes kept` : null,
    truncated,
  };
}

function appendTail(out: DecodedBody['chunks'], tail: string): void {
  if (!tail) return;
  const last = out[out.length - 1];
  if (last) last.text += tail;
  else out.push({ tUs: 0, text: tail });
}
