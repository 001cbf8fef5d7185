import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: the built `loupe serve` in a child process, the simulator as
// upstream, the real openai SDK as the agent, Debian's Chromium through playwright-core.
// One file at a time: each test drives a real browser and a real server.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
