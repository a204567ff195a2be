import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // LanceDB and spawned servers are real; two cores, so keep parallelism modest.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
  },
});
