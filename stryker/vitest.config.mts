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
    // At nice 19 on shared cores the first test of a file (it pays for loading the shell parser) took over
    // 60 s in a dry run and failed it (2026-12-02, load 22); Stryker's own per-mutant timeout still applies.
    testTimeout: 300_000,
  },
});
