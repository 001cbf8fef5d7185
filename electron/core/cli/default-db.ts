// The default library: `library.loupe` in the same user data folder Electron's
// app.getPath('userData') uses for an app named Loupe, so the CLI and the desktop app
// share one library without either knowing about the other.
import os from 'node:os';
import path from 'node:path';

export function defaultLibraryPath(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.LOUPE_DB) return env.LOUPE_DB;
  const home = os.homedir();
  let base: string;
  if (platform === 'darwin') base = path.join(home, 'Library', 'Application Support');
  else if (platform === 'win32') base = env.APPDATA ?? path.join(home, 'AppData', 'Roaming');
  else base = env.XDG_CONFIG_HOME ?? path.join(home, '.config');
  return path.join(base, 'Loupe', 'library.loupe');
}
