/** Vitest config for Stryker only: the pure tests named in stryker/targets.mjs, in worker threads. */
import { defineConfig } from 'vitest/config';
import { TESTS } from './targets.mjs';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: TESTS,
    setupFiles: ['test/setup-env.ts'],
    // Timing assertions measure the machine, and mutant switching slows every call: skipped here.
    env: { STRYKER_MUTATION_RUN: '1' },
    testTimeout: 60_000,
  },
});
