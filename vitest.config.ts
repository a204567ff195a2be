import { defineConfig } from 'vitest/config';

/**
 * Two projects. `unit`: in-process tests (real LanceDB on disk, real MCP clients over in-memory transports,
 * local fixture servers). `integration`: tests that spawn processes (the built CLI over stdio and HTTP, npm
 * pack and install, the conformance runner, the operator page in a real headless Chromium). Run one with `npx vitest run --project unit`.
 *
 * No test races the clock: the time limits below only stop a hung test, and are generous so a loaded machine
 * (two shared cores) slows the suite down instead of failing it. Waits are on events (expect.poll and
 * friends resolve as soon as the condition holds; their bound is as generous).
 */
const INTEGRATION = [
  'test/integration/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/docs/cli.test.ts',
  'test/agents/spawn.test.ts',
  'test/agents/stdio.test.ts',
  'test/http/app.test.ts',
  'test/http-docs/client.test.ts',
  'test/http-docs/package.test.ts',
  'test/tenants/keys-usage.test.ts',
  'test/tools/local-tools.stdio.test.ts',
  'test/ui/**/*.test.ts',
];

export default defineConfig({
  test: {
    // LanceDB and spawned servers are real; two cores, so keep parallelism modest.
    maxWorkers: 2,
    globalSetup: ['test/global-setup.ts'],
    expect: { poll: { timeout: 60_000 } },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: INTEGRATION, testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        extends: true,
        test: { name: 'integration', include: INTEGRATION, testTimeout: 600_000, hookTimeout: 600_000 },
      },
    ],
  },
});
