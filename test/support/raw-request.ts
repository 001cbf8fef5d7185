// A client that reports exactly what arrived. fetch() would gunzip bodies and hide chunk
// boundaries, which are the two things replay tests need to see.
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Header pairs in wire order, original case. */
  rawHeaders: Array<[string, string]>;
  body: Buffer;
  /** How many reads the body arrived in: >1 shows the bytes were streamed. */
  reads: number;
}

export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  body: Buffer | null = null,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      // `path` is passed through untouched: recorded paths such as '//openai/deployments/…'
      // must reach the server as recorded, which new URL(path, base) would not preserve.
      { host: url.hostname, port: url.port, method, path, headers, agent: false },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const rawHeaders: Array<[string, string]> = [];
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            rawHeaders.push([res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '']);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders,
            body: Buffer.concat(parts),
            reads: parts.length,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}
