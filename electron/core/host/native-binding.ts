// Which better-sqlite3 binary to load. Node (CLI, tests) uses the one npm built in
// node_modules. Electron needs one built for its own ABI: in development `npm start`
// builds it into .electron-native/<electron version>/ (scripts/electron-native.mjs) and
// the shell makes that file every connection's binary (useNativeBinding, store/db.ts); a
// packaged app was rebuilt by electron-builder and needs nothing. See docs/adr/0004-native-module.md.
import fs from 'node:fs';
import path from 'node:path';

export function electronNativeDir(projectRoot: string, electronVersion: string): string {
  return path.join(projectRoot, '.electron-native', electronVersion);
}

export function nativeBindingFor(
  projectRoot: string,
  versions: NodeJS.ProcessVersions = process.versions,
  packaged = false,
): string | undefined {
  const electron = (versions as NodeJS.ProcessVersions & { electron?: string }).electron;
  if (!electron || packaged) return undefined;
  const file = path.join(
    electronNativeDir(projectRoot, electron),
    'node_modules',
    'better-sqlite3',
    'build',
    'Release',
    'better_sqlite3.node',
  );
  if (!fs.existsSync(file)) {
    throw new Error(
      `better-sqlite3 has not been built for Electron ${electron}; run \`npm start\` (it builds it) or \`node scripts/electron-native.mjs\``,
    );
  }
  return file;
}
