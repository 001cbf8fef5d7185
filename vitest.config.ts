import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Unit tests sit beside their module (`graph.test.ts`); integration tests that start the
// real proxy on port 0 are `*.int.test.ts`. Node-side tests run under plain Node; renderer
// tests (components and stores) under jsdom 29 with React; browser tests live in e2e/ and
// run under their own config (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: 'forks',
        },
      },
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
