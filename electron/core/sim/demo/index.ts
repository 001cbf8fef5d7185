// The built-in demo agent: scripted, realistic agent runs played by real clients (the
// openai SDK; @openai/agents for `support`) through a Loupe proxy whose upstream is the
// simulator, so a newcomer watches live runs appear without an API key.
// - runDemo(): plays scenarios against any proxy base URL (the caller owns the proxy).
// - startDemo(): for the app's service: a simulator plus a second proxy recording into the
//   core's own store, then the scenarios; the core's own proxy and upstream are untouched.
import { startProxy } from '../../capture/proxy-server.js';
import type { Core } from '../../core.js';
import { startSimUpstream } from '../index.js';
import { SCENARIOS } from '../../../../shared/sim/scenario.js';
import { DEMO_API_KEY, type DemoContext } from './client.js';
import { runCoding } from './coding.js';
import { runProgram } from './program.js';
import { runResearch } from './research.js';
import { runTravel } from './travel.js';
import type { DemoRun } from './types.js';

export type { DemoRun } from './types.js';

const DRIVERS = {
  // Loaded on demand: @openai/agents is large and installs global tracing state on import.
  support: async (ctx: DemoContext) => (await import('./support.js')).runSupport(ctx),
  coding: runCoding,
  program: runProgram,
  research: runResearch,
  travel: runTravel,
} satisfies Record<string, (ctx: DemoContext) => Promise<DemoRun[]>>;

export type DemoScenario = keyof typeof DRIVERS;

export const DEMO_SCENARIOS = Object.keys(DRIVERS) as DemoScenario[];

/** Name, title and one-line description of every scenario, for help text and the UI. */
export function demoCatalog(): Array<{ name: DemoScenario; title: string; description: string }> {
  return DEMO_SCENARIOS.map((name) => {
    const s = SCENARIOS.find((x) => x.name === name)!;
    return { name, title: s.title, description: s.description };
  });
}

export interface DemoOptions {
  /** The Loupe proxy's base URL, `http://127.0.0.1:<port>/v1`; its upstream must be the simulator. */
  baseURL: string;
  scenario: DemoScenario | 'all';
  /** 1 = real time (default); larger is faster. */
  speed?: number;
  apiKey?: string;
  /** Run-label prefix; defaults to `demo-<time>` so repeated demos stay separate runs. */
  label?: string;
  /** Passed to every HTTP client (tests wrap it to see the exact bytes received). */
  fetch?: typeof fetch;
  /** Called with each WebSocket client as it is created (tests tap its raw frames). */
  onSocket?: DemoContext['onSocket'];
  /** Called as each scenario starts and ends (the CLI prints progress from it). */
  onProgress?: (event: { scenario: DemoScenario; phase: 'started' | 'finished'; runs?: DemoRun[] }) => void;
}

export interface DemoResult {
  runs: DemoRun[];
}

export function isDemoScenario(name: string): name is DemoScenario {
  return (DEMO_SCENARIOS as string[]).includes(name);
}

/** Plays one scenario, or all of them one after another. */
export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const speed = options.speed ?? 1;
  if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`demo speed must be a positive number, got ${speed}`);
  const ctx: DemoContext = {
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? DEMO_API_KEY,
    speed,
    label: options.label ?? `demo-${Date.now().toString(36)}`,
    fetch: options.fetch,
    onSocket: options.onSocket,
  };
  const scenarios = options.scenario === 'all' ? DEMO_SCENARIOS : [options.scenario];
  const runs: DemoRun[] = [];
  for (const scenario of scenarios) {
    options.onProgress?.({ scenario, phase: 'started' });
    const played = await DRIVERS[scenario](ctx);
    runs.push(...played);
    options.onProgress?.({ scenario, phase: 'finished', runs: played });
  }
  return { runs };
}

export interface RunningDemo {
  /** The demo proxy's base URL (upstream: the simulator; store: the core's). */
  baseURL: string;
  /** Settles when every scenario has played (rejects if one failed). */
  done: Promise<DemoResult>;
  /** Waits for the demo to end and releases the simulator and the demo proxy. */
  close(): Promise<void>;
}

/**
 * Where the next demo's simulator starts its ids. Each demo has a simulator of its own, and a
 * fresh one hands out the same ids: two demos played at once (or again into one recording)
 * would share response ids, and the Agents SDK spans of one would join the other's run. So
 * each takes a block of its own, from a base that moves with the clock between processes.
 */
let demoIds = (Math.floor(Date.now() / 1000) % 100_000) * 10_000;
const DEMO_ID_BLOCK = 1_000;

/**
 * Starts a demo inside a running core: a simulator and a second proxy on port 0 that
 * records into `core.recorder`, so demo runs land in the open recording like any other.
 */
export async function startDemo(
  core: Core,
  options: { scenario: DemoScenario | 'all'; speed?: number; label?: string } = { scenario: 'all' },
): Promise<RunningDemo> {
  const sim = await startSimUpstream({ idOffset: (demoIds += DEMO_ID_BLOCK) });
  let proxy;
  try {
    proxy = await startProxy({ port: 0, upstream: sim.url, sink: core.recorder, env: {} });
  } catch (err) {
    await sim.close();
    throw err;
  }
  const done = runDemo({ ...options, baseURL: proxy.baseUrl });
  let closed: Promise<void> | null = null;
  return {
    baseURL: proxy.baseUrl,
    done,
    close: () =>
      (closed ??= (async () => {
        await done.catch(() => undefined);
        await proxy.close();
        await sim.close();
      })()),
  };
}
