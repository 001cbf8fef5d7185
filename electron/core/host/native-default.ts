// Makes the Electron build of better-sqlite3 (ADR 4) the default for every connection in
// this process, not only the ones opened with `nativeBinding`. The service opens
// recordings read-only without that option (electron/core/service/recording-source.ts), and
// better-sqlite3 then loads its default binary through the `bindings` package, which is
// the Node build in development. Seeding Node's module cache under the default binary's
// path makes `bindings` find the Electron build there instead.
//
// Only for development under Electron (nativeBindingFor returned a file); a packaged app's
// default binary is already the Electron one. The clean fix is a process-wide default in
// electron/core/store/db.ts; until then this keeps "Open Recording…" working in `npm start`.
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The file better-sqlite3 loads when no nativeBinding is given (bindings' build/Release candidate). */
export function defaultBindingPath(): string {
  const pkg = path.dirname(require.resolve('better-sqlite3/package.json'));
  return path.join(pkg, 'build', 'Release', 'better_sqlite3.node');
}

export function useAsDefaultBinding(file: string): void {
  const addon = require(path.resolve(file)) as unknown;
  const target = defaultBindingPath();
  const entry = { id: target, filename: target, loaded: true, exports: addon, children: [], paths: [] };
  require.cache[target] = entry as unknown as NodeJS.Module;
}
