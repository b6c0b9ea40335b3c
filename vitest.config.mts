import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    setupFiles: ['test/setup-env.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
