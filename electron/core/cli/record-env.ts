// The environment `loupe record` gives the command it runs, and what it takes from it.
import { parseUpstream } from '../../../shared/capture/upstream-url.js';

type Env = Record<string, string | undefined>;

/**
 * The upstream the command would have used without Loupe: its own OPENAI_BASE_URL (a local
 * model server, Azure, another provider). Without this, `record` would send that
 * provider's key to api.openai.com. Undefined when it is unset or not an http(s) URL.
 */
export function inheritedUpstream(env: Env): string | undefined {
  const url = env.OPENAI_BASE_URL?.trim();
  if (!url) return undefined;
  try {
    parseUpstream(url);
    return url;
  } catch {
    return undefined;
  }
}

const LOOPBACK = ['127.0.0.1', 'localhost'];
const PROXY_VARS = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy'];

/**
 * With a corporate proxy set, clients such as Python's httpx and requests would send their
 * calls to Loupe's 127.0.0.1 through that proxy, which cannot reach it. Adds the loopback
 * names to NO_PROXY and no_proxy (clients read one or the other), keeping what was there.
 */
export function withLoopbackNoProxy(env: Env): Env {
  if (!PROXY_VARS.some((name) => env[name])) return env;
  const existing = [env.NO_PROXY, env.no_proxy]
    .flatMap((v) => (v ? v.split(',') : []))
    .map((s) => s.trim())
    .filter(Boolean);
  const merged = [...new Set([...existing, ...LOOPBACK])].join(',');
  return { ...env, NO_PROXY: merged, no_proxy: merged };
}
