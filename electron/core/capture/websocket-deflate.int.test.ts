// permessage-deflate through the real proxy: a `ws` client and a `ws` upstream that both
// speak it negotiate it on both legs, messages cross intact and compressed on the wire,
// and the recording holds the messages as sent (decompressed).
import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer, type PerMessageDeflateOptions } from 'ws';
import { storedChunks } from '../store/raw-read.js';
import { eventually, startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';

/** An upstream that answers each text message with `reply(message)`, and notes its handshakes. */
async function deflateUpstream(perMessageDeflate: PerMessageDeflateOptions | false, reply: (m: string) => string) {
  const server = http.createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate });
  const seen: {
    requestExtensions: string | undefined;
    answeredExtensions: string | undefined;
    ws: WebSocket;
    socket: net.Socket;
  }[] = [];
  let answered: string | undefined;
  wss.on(
    'headers',
    (lines) => (answered = lines.find((l) => /^sec-websocket-extensions:/i.test(l))?.replace(/^[^:]+:\s*/, '')),
  );
  wss.on('connection', (ws, req) => {
    seen.push({
      requestExtensions: req.headers['sec-websocket-extensions'],
      answeredExtensions: answered,
      ws,
      socket: req.socket as net.Socket,
    });
    ws.on('message', (data) => ws.send(reply(data.toString())));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () => {
    for (const c of wss.clients) c.terminate();
    wss.close();
    return new Promise<void>((r) => server.close(() => r()));
  };
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, seen, close };
}

const openClients: WebSocket[] = [];

/** A client on its own TCP socket (so its wire bytes can be counted), open, with what it heard. */
async function openClient(h: Harness, perMessageDeflate: PerMessageDeflateOptions | boolean) {
  let socket!: net.Socket;
  let answeredExtensions: string | undefined;
  const ws = new WebSocket(`ws://127.0.0.1:${h.core.proxy.port}/v1/responses`, {
    headers: { authorization: `Bearer ${TEST_KEY}` },
    perMessageDeflate,
    createConnection: (opts: http.ClientRequestArgs) =>
      (socket = net.connect({ host: opts.hostname ?? opts.host ?? '127.0.0.1', port: Number(opts.port) })),
  });
  ws.on('upgrade', (res) => (answeredExtensions = res.headers['sec-websocket-extensions'] as string | undefined));
  ws.on('error', () => {});
  openClients.push(ws);
  const messages: string[] = [];
  ws.on('message', (m) => messages.push(m.toString()));
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('unexpected-response', (_q, res) => j(new Error(`handshake refused: ${res.statusCode}`)));
  });
  return { ws, socket, messages, answeredExtensions };
}

function lastWs(h: Harness) {
  return h.core.db
    .prepare(
      `SELECT e.id, x.state, x.error FROM exchanges e LEFT JOIN exchange_ends x ON x.exchange_id = e.id WHERE e.transport = 'websocket' ORDER BY e.id DESC LIMIT 1`,
    )
    .get() as { id: number; state: string | null; error: string | null } | undefined;
}
const ended = (h: Harness) => eventually(() => (lastWs(h)?.state ? lastWs(h) : undefined));
const texts = (h: Harness, id: number, stream: 'client' | 'server') =>
  storedChunks(h.core.db, id, stream)
    .filter((c) => c.opcode === 1)
    .map((c) => c.data.toString());

describe('permessage-deflate through the proxy', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(
      openClients
        .splice(0)
        .map((ws) => ws.readyState === WebSocket.CLOSED || new Promise((r) => (ws.once('close', r), ws.close(1000)))),
    );
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  async function proxyTo(
    upstream: Awaited<ReturnType<typeof deflateUpstream>>,
    options: { maxWebSocketMessageBytes?: number } = {},
  ) {
    cleanups.push(upstream.close);
    const h = await startHarness({ upstream: upstream.url, ...options });
    cleanups.push(() => h.close());
    return h;
  }

  it('is negotiated on both legs, relays messages intact both ways, compressed on the wire, and records them decompressed', async () => {
    const upstream = await deflateUpstream({ threshold: 0 }, (m) =>
      JSON.stringify({ type: 'echo', text: m.toUpperCase() }),
    );
    const h = await proxyTo(upstream);
    const client = await openClient(h, { threshold: 0 });

    const [leg] = upstream.seen;
    expect(leg!.requestExtensions).toMatch(/^permessage-deflate\b/);
    expect(leg!.ws.extensions).toBe('permessage-deflate');
    expect(client.ws.extensions).toBe('permessage-deflate');
    // The client hears the upstream's own answer.
    expect(client.answeredExtensions).toBe(leg!.answeredExtensions);

    const sent = JSON.stringify({ type: 'response.create', model: 'gpt-5', input: 'compress me '.repeat(20_000) });
    client.ws.send(sent);
    await eventually(() => (client.messages.length ? true : undefined));
    const reply = JSON.stringify({ type: 'echo', text: sent.toUpperCase() });
    expect(client.messages).toEqual([reply]);
    // Both legs carried a fraction of the 240 kB each way.
    expect(leg!.socket.bytesRead).toBeLessThan(sent.length / 20);
    expect(client.socket.bytesRead).toBeLessThan(reply.length / 20);

    client.ws.close(1000);
    const row = await ended(h);
    expect(row.state).toBe('complete');
    expect(texts(h, row.id, 'client')).toEqual([sent]);
    expect(texts(h, row.id, 'server')).toEqual([reply]);
  });

  it("answers the client with the upstream's parameters: no context takeover, smaller windows", async () => {
    const upstream = await deflateUpstream(
      {
        threshold: 0,
        serverNoContextTakeover: true,
        clientNoContextTakeover: true,
        serverMaxWindowBits: 10,
        clientMaxWindowBits: 9,
      },
      (m) => m,
    );
    const h = await proxyTo(upstream);
    const client = await openClient(h, { threshold: 0 });
    const [leg] = upstream.seen;
    expect(leg!.answeredExtensions).toMatch(/server_no_context_takeover/);
    expect(client.answeredExtensions).toBe(leg!.answeredExtensions);
    for (const text of ['one '.repeat(500), 'two '.repeat(500)]) client.ws.send(text);
    await eventually(() => (client.messages.length === 2 ? true : undefined));
    expect(client.messages).toEqual(['one '.repeat(500), 'two '.repeat(500)]);
  });

  it("offers the upstream the client's own parameters", async () => {
    const upstream = await deflateUpstream({ threshold: 0 }, (m) => m);
    const h = await proxyTo(upstream);
    const client = await openClient(h, {
      serverNoContextTakeover: true,
      serverMaxWindowBits: 11,
      clientMaxWindowBits: 12,
    });
    expect(upstream.seen[0]!.requestExtensions).toBe(
      'permessage-deflate; server_no_context_takeover; server_max_window_bits=11; client_max_window_bits=12',
    );
    expect(client.answeredExtensions).toBe(upstream.seen[0]!.answeredExtensions);
  });

  it('gives no extension to a client that offered none, nor when the upstream declined it', async () => {
    const upstream = await deflateUpstream({ threshold: 0 }, (m) => m);
    const h = await proxyTo(upstream);
    const plain = await openClient(h, false);
    expect(upstream.seen[0]!.requestExtensions).toBeUndefined();
    expect(upstream.seen[0]!.ws.extensions).toBe('');
    expect(plain.ws.extensions).toBe('');
    expect(plain.answeredExtensions).toBeUndefined();
    plain.ws.close(1000);

    const declining = await deflateUpstream(false, (m) => m);
    const h2 = await proxyTo(declining);
    const offered = await openClient(h2, true);
    expect(declining.seen[0]!.requestExtensions).toMatch(/^permessage-deflate/);
    expect(offered.ws.extensions).toBe('');
    offered.ws.send('still relayed');
    await eventually(() => (offered.messages.length ? true : undefined));
    expect(offered.messages).toEqual(['still relayed']);
  });

  it('declines on both legs an offer the ws server would refuse, rather than fail the handshake after the upstream accepted', async () => {
    const upstream = await deflateUpstream({ threshold: 0 }, (m) => m);
    const h = await proxyTo(upstream);
    // A valid offer spoiled by a second one with an unknown parameter.
    const ws = new WebSocket(`ws://127.0.0.1:${h.core.proxy.port}/v1/responses`, {
      perMessageDeflate: false,
      headers: { 'sec-websocket-extensions': 'permessage-deflate, permessage-deflate; bogus' },
    });
    ws.on('error', () => {});
    await new Promise((r) => ws.once('open', r));
    expect(upstream.seen[0]!.requestExtensions).toBeUndefined();
    ws.close(1000);
  });

  it('refuses with 1009 a small compressed message that inflates past the message limit', async () => {
    const limit = 1 << 20;
    const upstream = await deflateUpstream({ threshold: 0 }, (m) => m);
    const h = await proxyTo(upstream, { maxWebSocketMessageBytes: limit });
    const client = await openClient(h, { threshold: 0 });
    const closed = new Promise<number>((r) => client.ws.once('close', (code) => r(code)));
    const before = client.socket.bytesWritten;
    client.ws.send('x'.repeat(8 * limit));
    expect(await closed).toBe(1009);
    // It crossed the wire as a few kilobytes: the limit held on the inflated size.
    expect(client.socket.bytesWritten - before).toBeLessThan(64 << 10);
    const row = await ended(h);
    expect(row).toMatchObject({
      state: 'proxy_error',
      error: `a message from the client was over Loupe's WebSocket message limit (${limit} bytes)`,
    });
    expect(texts(h, row.id, 'client')).toEqual([]);
  });
});
