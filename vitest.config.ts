import { defineConfig } from 'vitest/config';

// Unit tests sit beside their module (`graph.test.ts`); integration tests that start the
// real proxy on port 0 are `*.int.test.ts`. Both run under plain Node; browser tests live
// in e2e/ and run under their own script.
export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'electron/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
