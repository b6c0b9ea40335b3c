/**
 * StrykerJS (9.6.1: 10.x needs Node 22). `npm run mutate` runs every file in stryker/targets.mjs;
 * `npm run mutate -- --mutate 'src/core/guard/fs-rules.ts:40-80'` narrows to a file or a line range.
 */
import { MUTATE } from './stryker/targets.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'stryker/vitest.config.mts' },
  mutate: MUTATE,
  coverageAnalysis: 'perTest',
  // Shared, loaded cores: a mutant counts as timed out only well past the dry run's time.
  timeoutMS: 15000,
  timeoutFactor: 2,
  // TypeScript 7 has no JS compiler API: a tsconfig Stryker cannot find skips its tsconfig preprocessor
  // (vitest transpiles with esbuild, so the mutants need no type check).
  tsconfigFile: 'stryker/no-tsconfig.json',
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  // reports/: Stryker's own output, and scripts/flaky-check.sh writes and deletes logs there while a run copies the project.
  ignorePatterns: ['dist', 'dist.*', 'out', 'release', 'test-results', 'playwright-report', 'bench/results', '.thclaws', 'reports'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
