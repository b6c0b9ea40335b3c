/**
 * What `npm run mutate` mutates, and the pure tests that judge each file's mutants.
 * A test listed here must run in a worker thread: no real child processes, no process.chdir(),
 * no servers (Stryker's vitest runner runs every test file in threads and re-runs them per mutant).
 * Add a group per area; `npm run mutate -- --mutate 'src/x.ts:10-40'` narrows any run to one range.
 */
export const TARGETS = [
  {
    area: 'guard',
    mutate: [
      'src/core/guard/argv.ts',
      'src/core/guard/check.ts',
      'src/core/guard/dynamic.ts',
      'src/core/guard/editors.ts',
      'src/core/guard/fs-rules.ts',
      'src/core/guard/git-argv.ts',
      'src/core/guard/git-refs.ts',
      'src/core/guard/git-rules.ts',
      'src/core/guard/interp.ts',
      'src/core/guard/paths.ts',
      'src/core/guard/programs.ts',
      'src/core/guard/words.ts',
      'src/core/guard/write-guard.ts',
    ],
    tests: ['test/guard/corpus.test.ts', 'test/guard/*.pure.test.ts'],
  },
  {
    area: 'sandbox policy',
    mutate: ['src/core/sandbox/policy.ts'],
    tests: ['src/core/sandbox/policy.test.ts'],
  },
  {
    area: 'permission rules',
    mutate: ['src/core/agent/permission-rules.ts'],
    tests: ['src/core/agent/permissions.test.ts', 'src/core/agent/permission-rules-*.test.ts'],
  },
  {
    area: 'path classifier',
    mutate: ['src/core/fs-paths.ts', 'src/core/store/classify.ts'],
    tests: ['src/core/fs-paths.test.ts', 'src/core/store/classify.test.ts'],
  },
  {
    area: 'task graph and names',
    mutate: ['src/core/store/task-graph.ts', 'src/contract/limits.ts', 'src/core/store/names.ts'],
    tests: ['src/core/store/task-graph.test.ts', 'src/core/store/names.test.ts'],
  },
  {
    area: 'host flow control and scheduler',
    mutate: ['src/main/host/flow.ts', 'src/main/host/scheduler.ts'],
    tests: ['src/main/host/flow.test.ts'],
  },
  {
    area: 'protocol frames',
    mutate: ['src/core/teams/protocol.ts'],
    tests: ['src/core/teams/protocol.test.ts'],
  },
  {
    // Module-level zod schemas: almost every mutant is static and re-runs both files, so keep the list short.
    area: 'api contract',
    mutate: ['src/contract/api.ts', 'src/contract/fields.ts', 'src/contract/review-views.ts'],
    tests: ['src/contract/api.test.ts', 'src/contract/api-contract.test.ts', 'src/contract/api-schemas.test.ts'],
  },
  {
    area: 'renderer write pacing',
    mutate: ['src/renderer/write-pacing.ts'],
    tests: ['src/renderer/write-pacing.test.ts'],
  },
];

/**
 * STRYKER_AREA="<area>,<area>" narrows both lists to those groups. A static mutant (module-level code, such
 * as limits.ts's patterns) re-runs every listed test, so running a group with only its own tests keeps it quick.
 */
const areas = process.env.STRYKER_AREA?.split(',').map((a) => a.trim());
const picked = areas ? TARGETS.filter((t) => areas.includes(t.area)) : TARGETS;
if (areas && picked.length !== areas.length) throw new Error(`STRYKER_AREA: unknown area in ${process.env.STRYKER_AREA}; known: ${TARGETS.map((t) => t.area).join(', ')}`);

export const MUTATE = picked.flatMap((t) => t.mutate);
export const TESTS = [...new Set(picked.flatMap((t) => t.tests))];
