// The UI port shares its process with the capture proxy: a request it cannot read must get
// a 400 and leave the proxy relaying, never end `loupe serve`. Through the built bin
// (`npm test` builds dist/ first; run `npm run build` before running this file alone).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import {
  assertBuilt,
  closedCleanly,
  exchangeRaw,
  parseResponses,
  startServe,
} from '../../../test/support/serve-process.js';

describe('loupe serve, sent a request its UI port cannot read', () => {
  let sim: SimUpstream;
  let dir: string;
  beforeAll(async () => {
    assertBuilt();
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ui-faults-'));
  });
  afterAll(async () => {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers 400 with an {error} body, keeps relaying through the proxy, and shuts down cleanly', async () => {
    const serve = await startServe(path.join(dir, 'faults.loupe'), sim.url);
    onTestFinished(() => void serve.child.kill('SIGKILL'));
    const host = `Host: 127.0.0.1:${serve.uiPort}\r\n`;
    const close = 'Connection: close\r\n';
    const malformed = [
      // No token is needed for this one: the target cannot be parsed to look for one.
      `GET http://[ HTTP/1.1\r\n${host}${close}\r\n`,
      `GET /%E0%A4%A?token=${serve.token} HTTP/1.1\r\n${host}${close}\r\n`,
      // The same two as WebSocket upgrades.
      `GET http://[ HTTP/1.1\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      `GET /api/events%E0%A4%A?token=${serve.token} HTTP/1.1\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    ];
    for (const wire of malformed) {
      const answer = await exchangeRaw(serve.uiPort, [wire]);
      expect(answer, `no answer to ${JSON.stringify(wire)}; stderr: ${serve.stderr()}`).not.toBeNull();
      const [response] = parseResponses(answer!);
      expect(response?.status, `${JSON.stringify(wire)}; stderr: ${serve.stderr()}`).toBe(400);
      expect(JSON.parse(response!.body)).toEqual({
        error: { code: 'bad_request', message: expect.stringMatching(/request target/) },
      });
      expect(response!.body).not.toContain(serve.token);
    }
    expect(serve.running()).toBe(true);

    const client = new OpenAI({ apiKey: 'sk-ui-faults-test-00000000000000000', baseURL: serve.proxy, maxRetries: 0 });
    const relayed = await client.responses.create({ model: 'gpt-5', input: 'still relaying?' });
    expect(relayed.status).toBe('completed');
    const page = parseResponses(
      (await exchangeRaw(serve.uiPort, [
        `POST /api/app.info HTTP/1.1\r\n${host}${close}x-loupe-token: ${serve.token}\r\nContent-Length: 2\r\n\r\n{}`,
      ]))!,
    );
    expect(page[0]?.status).toBe(200);

    // A 400 is the client's doing, not a fault to report.
    expect(serve.stderr()).not.toMatch(/failed|Error/);
    expect(await serve.stop()).toBe(0);
    expect(fs.existsSync(`${serve.db}.lock`)).toBe(false);
    expect(closedCleanly(serve.db)).toBe(true);
  });
});
