// Where a reply's body bytes go: straight into the response, or through a compressor
// piped into it. With compression, flush() pushes out everything written so far, which
// is how a compressed SSE stream still delivers each event as it is sent.
// Backpressure: write() returns false when the caller must wait for drainEvent on
// `writable`; the pipe already pauses the compressor while the response is full.
import type { ServerResponse } from 'node:http';
import { constants, createBrotliCompress, createDeflate, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
import type { SimEncoding } from '../../../shared/sim/options.js';

export interface BodySink {
  /** What to wait on for 'drain' after write() returned false. */
  readonly writable: NodeJS.WritableStream;
  write(chunk: string | Buffer): boolean;
  /** Resolves when everything written so far has been handed to the response. */
  flush(): Promise<void>;
  /** Bytes written but not yet in the kernel's socket buffer. */
  pending(): number;
  end(chunk?: string | Buffer): void;
}

function compressor(encoding: SimEncoding): Gzip | BrotliCompress {
  switch (encoding) {
    case 'gzip':
      return createGzip();
    case 'deflate':
      return createDeflate();
    case 'br':
      // Quality 4 instead of the default 11: the sim must not be the benchmark's bottleneck.
      return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  }
}

export function openBodySink(res: ServerResponse, encoding: SimEncoding | null): BodySink {
  if (encoding === null) {
    return {
      writable: res,
      write: (chunk) => res.write(chunk),
      flush: () => Promise.resolve(),
      pending: () => res.writableLength,
      end: (chunk) => (chunk === undefined ? res.end() : res.end(chunk)),
    };
  }
  const zip = compressor(encoding);
  const flushKind = encoding === 'br' ? constants.BROTLI_OPERATION_FLUSH : constants.Z_SYNC_FLUSH;
  zip.pipe(res);
  zip.once('error', () => res.destroy());
  // The compressor holds native memory; a client that leaves must not strand it.
  res.once('close', () => {
    if (!zip.writableFinished) zip.destroy();
  });
  return {
    writable: zip,
    write: (chunk) => zip.write(chunk),
    flush: () =>
      new Promise<void>((resolve) => {
        if (zip.destroyed || zip.writableEnded) resolve();
        else zip.flush(flushKind, () => resolve());
      }),
    pending: () => zip.writableLength + zip.readableLength + res.writableLength,
    end: (chunk) => (chunk === undefined ? zip.end() : zip.end(chunk)),
  };
}
