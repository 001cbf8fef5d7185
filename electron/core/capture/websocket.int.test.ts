// WebSocket mode through the proxy with the SDK's own ResponsesWS client: several turns on
// one connection, continuations, a mid-turn close from the upstream and from the client.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { storedChunks } from '../store/raw-read.js';
import { eventually, startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';

type ServerEvent = { type: string; response?: { id: string } };

function connect(h: Harness, sim: Record<string, unknown> = {}, baseURL = h.core.proxy.baseUrl) {
  const client = new OpenAI({
    apiKey: TEST_KEY,
    baseURL,
    maxRetries: 0,
    defaultHeaders: { 'x-sim': JSON.stringify(sim), 'x-loupe-agent': 'coder' },
  });
  const ws = new ResponsesWS(client);
  const events: ServerEvent[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason })),
  );
  ws.on('event', (e) => events.push(e as ServerEvent));
  ws.on('error', () => {});
  const completed = (n: number) =>
    eventually(() => (events.filter((e) => e.type === 'response.completed').length >= n ? true : undefined));
  return { ws, events, closed, completed };
}

/** The newest WebSocket exchange, once it has ended, if it is newer than `after`. */
async function endedWsExchange(h: Harness, after: number) {
  return eventually(() => {
    const row = wsExchange(h);
    return row && row.id > after && row.state ? row : undefined;
  });
}

function wsExchange(h: Harness) {
  return h.core.db
    .prepare(
      `SELECT e.id, e.transport, e.path, e.agent, e.request_headers, h.status, x.state, x.error
       FROM exchanges e LEFT JOIN response_heads h ON h.exchange_id = e.id LEFT JOIN exchange_ends x ON x.exchange_id = e.id
       WHERE e.transport = 'websocket' ORDER BY e.id DESC LIMIT 1`,
    )
    .get() as
    | {
        id: number;
        transport: string;
        path: string;
        agent: string;
        request_headers: string;
        status: number;
        state: string | null;
        error: string | null;
      }
    | undefined;
}

const lastWsId = (h: Harness) => wsExchange(h)?.id ?? 0;

let mute: net.Server | null = null;

const upgradeRequest = (keyLine: string) =>
  `GET /v1/responses HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${keyLine}\r\nSec-WebSocket-Version: 13\r\n\r\n`;

/** Sends an upgrade request on a raw socket and returns what came back until the close. */
function rawUpgrade(port: number, keyLine: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(upgradeRequest(keyLine)));
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

describe('WebSocket mode through the proxy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('relays several turns on one connection and records every frame in order', async () => {
    const before = lastWsId(h);
    const { ws, events, closed, completed } = connect(h, { events: 4 });
    ws.send({ type: 'response.create', model: 'gpt-5', input: 'first turn' });
    await completed(1);
    const firstId = events.find((e) => e.type === 'response.completed')!.response!.id;
    ws.send({ type: 'response.create', model: 'gpt-5', input: 'second turn', previous_response_id: firstId });
    await completed(2);
    ws.close({ code: 1000, reason: 'done' });
    expect(await closed).toMatchObject({ code: 1000 });
    // The upgrade reached the upstream with the key but without Loupe's own headers.
    const seen = h.sim.stats().lastRequest!;
    expect(seen.path).toBe('/v1/responses');
    expect(seen.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(Object.keys(seen.headers).some((k) => k.startsWith('x-loupe'))).toBe(false);

    const row = await endedWsExchange(h, before);
    expect(row).toMatchObject({
      transport: 'websocket',
      path: '/v1/responses',
      agent: 'coder',
      status: 101,
      state: 'complete',
    });
    expect(row.request_headers).not.toContain(TEST_KEY);
    const sent = storedChunks(h.core.db, row.id, 'client')
      .filter((c) => c.opcode === 1)
      .map((c) => JSON.parse(c.data.toString()).type);
    expect(sent).toEqual(['response.create', 'response.create']);
    const received = storedChunks(h.core.db, row.id, 'server')
      .filter((c) => c.opcode === 1)
      .map((c) => JSON.parse(c.data.toString()).type);
    expect(received).toEqual(events.map((e) => e.type));
    const close = storedChunks(h.core.db, row.id, 'client').find((c) => c.opcode === 8)!;
    expect(close.data.readUInt16BE(0)).toBe(1000);
  });

  it("masks an MCP tool's OAuth token in stored client messages", async () => {
    const before = lastWsId(h);
    const token = 'gho_ws-mcp-oauth-token-0123456789abcdef';
    const { ws, closed, completed } = connect(h, { events: 2 });
    ws.send({
      type: 'response.create',
      model: 'gpt-5',
      input: 'use the tool',
      tools: [{ type: 'mcp', server_label: 'gh', server_url: 'https://mcp.example.com', authorization: token }],
    });
    await completed(1);
    ws.close({ code: 1000, reason: 'done' });
    await closed;
    const row = await endedWsExchange(h, before);
    const sent = storedChunks(h.core.db, row.id, 'client')
      .filter((c) => c.opcode === 1)
      .map((c) => JSON.parse(c.data.toString()));
    expect(sent[0].tools[0]).toMatchObject({
      type: 'mcp',
      server_label: 'gh',
      authorization: '*'.repeat(token.length),
    });
    expect(sent[0].input).toBe('use the tool');
    await h.settle();
    for (const suffix of ['', '-wal'])
      expect(fs.readFileSync(h.dbPath + suffix).includes(Buffer.from(token))).toBe(false);
  });

  it('passes an upstream close mid-turn through with its code and records it', async () => {
    const before = lastWsId(h);
    const { ws, events, closed } = connect(h, { events: 10, resetAfterEvents: 3, gapMs: 2 });
    ws.send({ type: 'response.create', model: 'gpt-5', input: 'will be cut' });
    expect((await closed).code).toBe(1011);
    expect(events).toHaveLength(3);
    const row = await endedWsExchange(h, before);
    expect(row.state).toBe('complete');
    expect(row.error).toMatch(/closed by the upstream with code 1011/);
    const close = storedChunks(h.core.db, row.id, 'server').find((c) => c.opcode === 8)!;
    expect(close.data.readUInt16BE(0)).toBe(1011);
  });

  it('closes the upstream when the client closes mid-turn', async () => {
    const before = lastWsId(h);
    const { ws, events, closed } = connect(h, { events: 200, gapMs: 5 });
    ws.send({ type: 'response.create', model: 'gpt-5', input: 'long' });
    await eventually(() => (events.length >= 3 ? true : undefined));
    ws.close({ code: 4000, reason: 'user cancelled' });
    await closed;
    const row = await endedWsExchange(h, before);
    expect(row.error).toMatch(/closed by the client with code 4000/);
    // The upstream saw the close: its side of the record ends with the echoed close frame.
    const serverClose = storedChunks(h.core.db, row.id, 'server').find((c) => c.opcode === 8);
    expect(serverClose?.data.readUInt16BE(0)).toBe(4000);
  });

  it('answers an invalid handshake with a 400 that says why, without dialling the upstream', async () => {
    const before = lastWsId(h);
    const upgradesBefore = h.sim.stats().requests;
    const wire = await rawUpgrade(h.core.proxy.port, 'Sec-WebSocket-Key: not-a-key');
    expect(wire).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(JSON.parse(wire.slice(wire.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
      type: 'proxy_error',
      code: 'bad_request',
      message: expect.stringMatching(/Sec-WebSocket-Key must be 16 bytes in base64/),
    });
    expect(await endedWsExchange(h, before)).toMatchObject({ status: 400, state: 'proxy_error' });
    expect(h.sim.stats().requests).toBe(upgradesBefore);
  });

  it('answers a handshake ws itself refuses (a duplicated subprotocol) with a 400, and stays up', async () => {
    const before = lastWsId(h);
    const wire = await rawUpgrade(
      h.core.proxy.port,
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: chat, chat',
    );
    expect(wire).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(wire).toMatch(/not a valid WebSocket handshake: .*subprotocol/);
    expect(await endedWsExchange(h, before)).toMatchObject({ status: 400, state: 'proxy_error' });
  });

  it.each(['closed', 'reset'])(
    'closes the upstream connection of a client that %s during the handshake, and records it',
    async (how) => {
      // An upstream that reads the upgrade request and never answers it.
      let upstreamGotRequest!: () => void;
      const requested = new Promise<void>((resolve) => (upstreamGotRequest = resolve));
      const upstreamClosed = new Promise<void>((resolve) => {
        mute = net.createServer((s) => {
          s.once('data', () => upstreamGotRequest());
          s.on('close', () => resolve());
        });
      });
      await new Promise<void>((r) => mute!.listen(0, '127.0.0.1', r));
      const slow = await startHarness({ upstream: `http://127.0.0.1:${(mute!.address() as net.AddressInfo).port}` });
      try {
        const socket = net.connect(slow.core.proxy.port, '127.0.0.1', () =>
          socket.write(upgradeRequest('Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==')),
        );
        socket.on('error', () => {});
        await requested;
        // A reset used to be an uncaught socket error: nothing listened for one until ws took over.
        if (how === 'reset') socket.resetAndDestroy();
        else socket.destroy();
        await upstreamClosed;
        expect(await endedWsExchange(slow, 0)).toMatchObject({
          state: 'client_aborted',
          error: 'the client went away during the handshake',
        });
      } finally {
        await slow.close();
        mute!.close();
      }
    },
  );

  it('drops the client at once when the upstream breaks the protocol, and records why', async () => {
    // An upstream that completes the handshake by hand, then sends a frame with reserved
    // bits set, and never closes its side (so nothing but the proxy can end it).
    const broken = net.createServer({ allowHalfOpen: true }, (s) => {
      s.on('error', () => {});
      s.once('data', (d) => {
        const key = /sec-websocket-key: *(\S+)/i.exec(d.toString('latin1'))![1]!;
        const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
        s.write(
          `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
        );
        setTimeout(() => s.write(Buffer.from([0xf1, 0x02, 0x68, 0x69])), 50);
      });
    });
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    const bad = await startHarness({ upstream: `http://127.0.0.1:${(broken.address() as net.AddressInfo).port}` });
    try {
      const client = new WebSocket(`ws://127.0.0.1:${bad.core.proxy.port}/v1/responses`);
      client.on('error', () => {});
      await new Promise((r) => client.once('open', r));
      // ws would have waited 30 s for the upstream's close frame before anyone told the client.
      const closed = await Promise.race([
        new Promise((r) => client.once('close', () => r(true))),
        new Promise((r) => setTimeout(() => r(false), 5_000)),
      ]);
      expect(closed).toBe(true);
      expect(await endedWsExchange(bad, 0)).toMatchObject({
        state: 'upstream_reset',
        error: expect.stringMatching(/^the upstream broke the WebSocket protocol: .*RSV/),
      });
    } finally {
      await bad.close();
      broken.close();
    }
  });

  it('refuses a message over the size limit either way with 1009, tells the other side, and records why', async () => {
    const limit = 1 << 20;
    const capped = await startHarness({ maxWebSocketMessageBytes: limit });
    try {
      // From the client: a message just under the limit goes through, one over it does not.
      const client = new WebSocket(`ws://127.0.0.1:${capped.core.proxy.port}/v1/responses`, {
        headers: { authorization: `Bearer ${TEST_KEY}` },
      });
      client.on('error', () => {});
      await new Promise((r) => client.once('open', r));
      const replies: string[] = [];
      client.on('message', (m) => replies.push(m.toString().slice(0, 40)));
      client.send(JSON.stringify({ type: 'response.create', model: 'gpt-5', input: 'x'.repeat(limit - 200) }));
      await eventually(() => (replies.some((r) => r.includes('response.completed')) ? true : undefined));
      const closed = new Promise<[number, string]>((r) =>
        client.once('close', (code, reason) => r([code, reason.toString()])),
      );
      client.send(JSON.stringify({ type: 'response.create', model: 'gpt-5', input: 'x'.repeat(limit + 10) }));
      expect((await closed)[0]).toBe(1009);
      expect(await endedWsExchange(capped, 0)).toMatchObject({
        state: 'proxy_error',
        error: `a message from the client was over Loupe's WebSocket message limit (${limit} bytes)`,
      });

      // From the upstream: a final event larger than the limit (the simulator's completed
      // response carries the whole text).
      const first = lastWsId(capped);
      const { ws, closed: sdkClosed } = connect(capped, { events: 2, chunkChars: limit });
      ws.send({ type: 'response.create', model: 'gpt-5', input: 'say a lot' });
      expect(await sdkClosed).toMatchObject({ code: 1009, reason: 'Loupe: upstream message too big' });
      expect(await endedWsExchange(capped, first)).toMatchObject({
        state: 'proxy_error',
        error: `a message from the upstream was over Loupe's WebSocket message limit (${limit} bytes)`,
      });
    } finally {
      await capped.close();
    }
  });

  it('answers 502 on the upgrade when the upstream is unreachable', async () => {
    const dead = await startHarness({ upstream: 'http://127.0.0.1:9' });
    try {
      const { ws, closed } = connect(dead);
      ws.send({ type: 'response.create', model: 'gpt-5', input: 'x' });
      await closed;
      expect(await endedWsExchange(dead, 0)).toMatchObject({ status: 502, state: 'upstream_unreachable' });
    } finally {
      await dead.close();
    }
  });
});
