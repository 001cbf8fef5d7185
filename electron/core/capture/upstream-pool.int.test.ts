// The upstream connection: one keep-alive pool, and HTTP(S)_PROXY / NO_PROXY honoured.
import http from 'node:http';
import net from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import { startHarness } from '../../../test/support/harness.js';

/** A minimal corporate proxy: answers CONNECT, resolving the made-up host `sim.test` to loopback. */
async function startConnectProxy(): Promise<{ url: string; connects: string[]; close(): Promise<void> }> {
  const connects: string[] = [];
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client: net.Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host === 'sim.test' ? '127.0.0.1' : host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connects,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

describe('upstream connections', () => {
  let sim: SimUpstream;
  let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
  beforeAll(async () => {
    sim = await startSimUpstream();
    proxy = await startConnectProxy();
  });
  afterAll(async () => {
    await proxy.close();
    await sim.close();
  });

  it('reuses one keep-alive connection for sequential requests', async () => {
    const h = await startHarness();
    try {
      for (let i = 0; i < 8; i++) await h.client.responses.create({ model: 'gpt-5', input: `n${i}` });
      expect(h.sim.stats().openSockets).toBe(1);
    } finally {
      await h.close();
    }
  });

  it('tunnels through HTTP_PROXY when one is set', async () => {
    const h = await startHarness({ upstream: `http://sim.test:${sim.port}`, env: { HTTP_PROXY: proxy.url } });
    try {
      expect(h.core.proxy.via).toBe(proxy.url);
      const response = await h.client.responses.create({ model: 'gpt-5', input: 'through the corporate proxy' });
      expect(response.status).toBe('completed');
      expect(proxy.connects).toContain(`sim.test:${sim.port}`);
    } finally {
      await h.close();
    }
  });

  it('goes direct for hosts in NO_PROXY', async () => {
    const before = proxy.connects.length;
    const h = await startHarness({
      upstream: `http://sim.test:${sim.port}`,
      env: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.org, .test' },
    });
    try {
      expect(h.core.proxy.via).toBe(null);
      // Direct means resolving `sim.test` ourselves, which fails: a 502, and no CONNECT.
      const err = await h.client.responses.create({ model: 'gpt-5', input: 'x' }).catch((e: unknown) => e);
      expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect(proxy.connects.length).toBe(before);
    } finally {
      await h.close();
    }
  });
});
