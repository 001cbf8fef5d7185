// How a demo scenario reaches Loupe: the real openai SDK, pointed at the proxy under a
// labelled base URL (`/s/<label>/v1`, which Loupe strips before forwarding and uses to
// name the run), with the sim's scenario and speed in request headers. A real upstream
// ignores those headers; the built-in simulator plays the scripted turns from them.
import OpenAI from 'openai';
import type { ResponsesWS } from 'openai/resources/responses/ws';

/** A key that is obviously not a real one; the simulator accepts anything. */
export const DEMO_API_KEY = 'sk-demo-loupe-000000000000000000000000000000000000';

export interface DemoContext {
  /** The proxy's base URL, `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  apiKey: string;
  /** 1 is real time; 10 plays ten times faster (sim pace and client tool latency). */
  speed: number;
  /** Prefix of the run labels this demo writes. */
  label: string;
  /** The fetch every HTTP client uses (tests wrap it to see the exact bytes received). */
  fetch?: typeof fetch;
  /** Called with each WebSocket client as it is created (tests tap its raw frames). */
  onSocket?: (ws: ResponsesWS) => void;
}

/** `http://host/v1` → `http://host/s/<label>/v1`. */
export function labeledBaseURL(baseURL: string, label: string): string {
  const url = new URL(baseURL);
  url.pathname = `/s/${encodeURIComponent(label)}${url.pathname}`;
  return url.toString().replace(/\/$/, '');
}

export function simHeaders(scenario: string, speed: number): Record<string, string> {
  return { 'x-sim-scenario': scenario, 'x-sim': JSON.stringify({ speed }) };
}

export function demoClient(ctx: DemoContext, scenario: string, label: string): OpenAI {
  return new OpenAI({
    apiKey: ctx.apiKey,
    baseURL: labeledBaseURL(ctx.baseURL, label),
    maxRetries: 0,
    defaultHeaders: simHeaders(scenario, ctx.speed),
    ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
  });
}

/** A tool's run time on the client side, at the demo's speed. */
export function toolLatency(ctx: DemoContext, ms: number): Promise<void> {
  const wait = ms / ctx.speed;
  return wait < 1 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, wait));
}
