// Changing the proxy settings: check, restart the proxy in place, then persist. The order
// matters: nothing is saved unless the new proxy listens, so settings.json never names a
// port Loupe could not take. The menu calls this now; a `settings.set` contract channel
// would call exactly this too.
import type { AppHost } from './app-host.js';
import { parseSettings, type ProxySettings, type SettingsFile } from './settings.js';

export interface AppliedSettings {
  settings: ProxySettings;
  proxyUrl: string;
}

/**
 * `change` may be partial ({port} or {upstream}); throws SettingsError or PortInUseError with a message for the user.
 */
export async function applySettings(host: AppHost, file: SettingsFile, change: unknown): Promise<AppliedSettings> {
  const next = parseSettings(change, host.settings);
  await host.apply(next);
  file.save(next);
  return { settings: next, proxyUrl: host.proxyUrl };
}
