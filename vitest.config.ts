import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Unit tests sit beside their module (`graph.test.ts`); integration tests that start the
// real proxy on port 0 are `*.int.test.ts`. Node-side tests run under plain Node; renderer
// tests (components and stores) under jsdom 29 with React; browser tests live in e2e/ and
// run under their own config (vitest.e2e.config.ts).
//
// Each project is a part whose time shows on its own in `npm test`. `npm run test:quick`
// runs `unit` and `renderer` only: the edit loop's check, under a minute.
const NODE_SOURCES = ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'];
// Seeded fuzzing, the wire-format conformance suite and the packaging layout check: slow,
// and each a question of its own.
const FUZZ = ['**/*-fuzz.int.test.ts'];
const CONFORMANCE = ['test/conformance.int.test.ts'];
const PACKAGING = ['electron/app/packaging-layout.int.test.ts'];

const node = { environment: 'node' as const, testTimeout: 30_000, hookTimeout: 30_000, pool: 'forks' as const };

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: NODE_SOURCES, exclude: ['**/node_modules/**', '**/*.int.test.ts'], ...node } },
      {
        test: {
          name: 'integration',
          include: NODE_SOURCES.map((glob) => glob.replace(/\.test\.ts$/, '.int.test.ts')),
          exclude: ['**/node_modules/**', ...FUZZ, ...CONFORMANCE, ...PACKAGING],
          ...node,
        },
      },
      { test: { name: 'fuzz', include: FUZZ, exclude: ['**/node_modules/**'], ...node } },
      { test: { name: 'conformance', include: CONFORMANCE, ...node } },
      { test: { name: 'packaging', include: PACKAGING, ...node } },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          include: ['renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['renderer/test/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
