import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // Most files wait on real processes, ptys and git rather than compute: two at a time on the 2-core CI
    // machine (vitest's default there is one) keeps the suite inside its time budget.
    maxWorkers: 2,
    setupFiles: ['test/setup-env.ts'],
    globalSetup: ['test/tmp-root.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
