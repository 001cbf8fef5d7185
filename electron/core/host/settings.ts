// The desktop app's settings: the proxy's port and upstream, and the names to redact beyond
// the built-in rule (as `--redact` does for the CLI), kept in settings.json in the
// user data folder. A missing file means the defaults; a broken one is reported (with
// what is wrong) and the defaults are used until the user fixes it, never overwritten.
import { DEFAULT_PROXY_PORT, DEFAULT_UPSTREAM } from '../capture/proxy-server.js';
import { readJson, writeJson } from './json-file.js';
import { checkRedactName } from '../../../shared/capture/secret-names.js';
import { withoutTrailingSlashes } from '../../../shared/trailing-slashes.js';

export interface ProxySettings {
  /** 0 picks a free port on every start. */
  port: number;
  upstream: string;
  /**
   * Header, query parameter and JSON key names whose values are never stored, beyond the
   * built-in rule (shared/capture/secret-names.ts). Absent when there are none.
   */
  redact?: string[];
}

export const DEFAULT_SETTINGS: ProxySettings = { port: DEFAULT_PROXY_PORT, upstream: DEFAULT_UPSTREAM };

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** Checks and completes a settings object; missing keys take their defaults. */
export function parseSettings(value: unknown, base: ProxySettings = DEFAULT_SETTINGS): ProxySettings {
  if (value === undefined || value === null)
    return withRedact({ port: base.port, upstream: base.upstream }, base.redact ?? []);
  if (typeof value !== 'object' || Array.isArray(value))
    throw new SettingsError('settings must be a JSON object like {"port": 7455, "upstream": "https://api.openai.com"}');
  const v = value as Record<string, unknown>;
  const port = v.port ?? base.port;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SettingsError(
      `"port" must be a whole number from 0 to 65535 (0 picks a free port); got ${JSON.stringify(v.port)}`,
    );
  }
  const upstream = v.upstream ?? base.upstream;
  if (typeof upstream !== 'string' || !isHttpUrl(upstream)) {
    throw new SettingsError(
      `"upstream" must be an http:// or https:// URL such as ${DEFAULT_UPSTREAM}; got ${JSON.stringify(v.upstream)}`,
    );
  }
  return withRedact({ port, upstream: withoutTrailingSlashes(upstream) }, redactNames(v.redact ?? base.redact ?? []));
}

function withRedact(settings: ProxySettings, redact: string[]): ProxySettings {
  return redact.length ? { ...settings, redact: [...redact] } : settings;
}

function redactNames(value: unknown): string[] {
  const example = '["x-my-key", "client_secret"]';
  if (!Array.isArray(value))
    throw new SettingsError(`"redact" must be a list of names such as ${example}; got ${JSON.stringify(value)}`);
  return value.map((name) => {
    const problem = typeof name === 'string' ? checkRedactName(name) : `${JSON.stringify(name)} is not a name`;
    if (problem) throw new SettingsError(`"redact": ${problem}; give names such as ${example}`);
    return name as string;
  });
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.host;
  } catch {
    return false;
  }
}

export class SettingsFile {
  constructor(readonly file: string) {}

  /** The saved settings, or the defaults with the reason when the file cannot be used. */
  load(): { settings: ProxySettings; problem: string | null } {
    try {
      return { settings: parseSettings(readJson(this.file)), problem: null };
    } catch (err) {
      return { settings: { ...DEFAULT_SETTINGS }, problem: `${this.file}: ${(err as Error).message}` };
    }
  }

  save(settings: ProxySettings): void {
    writeJson(this.file, withRedact({ port: settings.port, upstream: settings.upstream }, settings.redact ?? []));
  }
}
