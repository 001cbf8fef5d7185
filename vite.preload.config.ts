// Bundles the sandboxed preload (electron/preload.ts) into dist/electron/preload.cjs: one
// CommonJS file, `electron` left external, nothing else required at run time. A sandboxed
// preload gets a `require` that knows only `electron` and a few Node built-ins.
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist/electron',
    emptyOutDir: false,
    target: 'chrome130',
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    lib: {
      entry: 'electron/preload.ts',
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rolldownOptions: {
      external: ['electron'],
    },
  },
});
