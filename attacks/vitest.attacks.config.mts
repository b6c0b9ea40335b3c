import { defineConfig } from 'vitest/config';

// Attack reproductions only (never part of `npm test`): npx vitest run -c attacks/vitest.attacks.config.mts
export default defineConfig({
  test: { include: ['attacks/**/*.attack.test.ts'], pool: 'forks', maxWorkers: 1, setupFiles: ['test/setup-env.ts'], testTimeout: 120_000 },
});
