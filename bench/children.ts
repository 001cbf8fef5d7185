// Child processes of the benchmark. Each system under test runs in its own process, as it
// would for a user, so the load generator's own work does not share its event loop.
// Usage: node dist/bench/children.js sim|bare|tcp|loupe|serve <upstream-url> <db-path>
//        node dist/bench/children.js replay <first-exchange-id> <db-path>
// Each prints its base URL as one JSON line, then answers IPC messages: 'stats',
// 'recorded', 'settled', 'close'.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { EVENTS } from '../shared/api/contract.js';
import { startCore, type Core } from '../electron/core/core.js';
import { startService } from '../electron/core/service/service-thread.js';
import { startSimUpstream } from '../electron/core/sim/index.js';
import { openDb } from '../electron/core/store/db.js';
import { indexRecording } from '../electron/core/replay/recording-index.js';
import { startReplayServer } from '../electron/core/replay/replay-server.js';
import { ReplayMatcher } from '../shared/replay/matcher.js';
import { ignoreList } from '../shared/replay/normalize.js';

type Child = {
  url: string;
  stats(): Promise<Record<string, number>>;
  /** Everything relayed so far is on disk (Loupe); a no-op for the others. */
  recorded(): Promise<void>;
  /** Every background job done: on disk and derived (Loupe); a no-op for the others. */
  settled(): Promise<void>;
  close(): Promise<void>;
};
const nothingPending = async () => {};

/** The floor: a bare Node pass-through with a keep-alive pool, pipe(), no parsing, no recording. */
async function startBare(upstream: string): Promise<Child> {
  const target = new URL(upstream);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const up = http.request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', (s) => s.setNoDelay(true));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    stats: async () => ({ rss: process.memoryUsage().rss }),
    recorded: nothingPending,
    settled: nothingPending,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * The floor under any relay process on this machine: each client connection piped to its own
 * upstream connection, bytes only, no HTTP at all. What a hop costs before any proxy logic.
 */
async function startTcp(upstream: string): Promise<Child> {
  const target = new URL(upstream);
  const server = net.createServer((client) => {
    const up = net.connect(Number(target.port), target.hostname);
    client.setNoDelay(true);
    up.setNoDelay(true);
    client.pipe(up).pipe(client);
    client.on('error', () => up.destroy());
    up.on('error', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats: async () => ({ rss: process.memoryUsage().rss }),
    recorded: nothingPending,
    settled: nothingPending,
    close: () =>
      new Promise((r) => {
        server.close(() => r());
      }),
  };
}

async function startLoupe(upstream: string, dbPath: string): Promise<Child> {
  return coreChild(await startCore({ dbPath, port: 0, upstream, log: (l) => process.stderr.write(`${l}\n`) }));
}

/**
 * Loupe as `loupe serve` runs it: the core plus the API service the UI reads (in a thread
 * of its own, service-thread.ts), with every event listened to, as the headless server does.
 */
async function startServe(upstream: string, dbPath: string): Promise<Child> {
  const core = await startCore({ dbPath, port: 0, upstream, log: (l) => process.stderr.write(`${l}\n`) });
  const service = await startService(core);
  for (const event of EVENTS) service.on(event, () => {});
  return coreChild(core, () => service.close());
}

function coreChild(core: Core, closeFirst: () => Promise<void> = nothingPending): Child {
  return {
    url: core.proxy.baseUrl.replace(/\/v1$/, ''),
    stats: async () => ({
      rss: process.memoryUsage().rss,
      exchanges: core.recorder.health.exchanges,
      lost: core.recorder.health.lostExchanges,
    }),
    recorded: () => core.recorded(),
    settled: () => core.settled(),
    close: async () => {
      await closeFirst();
      await core.close();
    },
  };
}

/**
 * `loupe replay` without --db: the replay server answering from a recording, here the
 * exchanges from `firstId` on of the file the `loupe` child is still writing (read-only).
 */
async function startReplay(firstId: number, dbPath: string): Promise<Child> {
  const db = openDb(dbPath, { readonly: true });
  const ignore = ignoreList();
  const { entries } = await indexRecording(db, ignore);
  const server = await startReplayServer({
    db,
    matcher: new ReplayMatcher(entries.filter((e) => e.id >= firstId)),
    ignore,
  });
  return {
    url: server.url,
    stats: async () => ({ rss: process.memoryUsage().rss, served: server.stats.served, misses: server.stats.misses }),
    recorded: nothingPending,
    settled: nothingPending,
    close: async () => {
      await server.close();
      db.close();
    },
  };
}

async function startSim(): Promise<Child> {
  const sim = await startSimUpstream();
  return {
    url: sim.url,
    stats: async () => ({ rss: process.memoryUsage().rss, requests: sim.stats().requests }),
    recorded: nothingPending,
    settled: nothingPending,
    close: () => sim.close(),
  };
}

const [kind, upstream = '', dbPath = ''] = process.argv.slice(2);
const child =
  kind === 'sim'
    ? await startSim()
    : kind === 'bare'
      ? await startBare(upstream)
      : kind === 'tcp'
        ? await startTcp(upstream)
        : kind === 'serve'
          ? await startServe(upstream, dbPath)
          : kind === 'replay'
            ? await startReplay(Number(upstream), dbPath)
            : await startLoupe(upstream, dbPath);
process.send!({ ready: child.url });
process.on('message', async (msg: { id: number; op: 'stats' | 'recorded' | 'settled' | 'close'; gc?: boolean }) => {
  if (msg.op === 'stats') {
    // A forced full GC also flushes code V8 considers old, so the next wave would run
    // colder; only the final memory figure asks for one.
    if (msg.gc) (globalThis as { gc?: () => void }).gc?.();
    process.send!({ id: msg.id, stats: await child.stats() });
  } else if (msg.op === 'recorded' || msg.op === 'settled') {
    await child[msg.op]();
    process.send!({ id: msg.id, done: true });
  } else {
    await child.close();
    process.send!({ id: msg.id, closed: true }, undefined, {}, () => process.exit(0));
  }
});
