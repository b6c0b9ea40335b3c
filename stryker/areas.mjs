/**
 * What `npm run mutate:sample` runs against a mutant, besides the tests that import the module (vitest's
 * `related`): the test folders and Playwright specs of the area the file belongs to. The longest matching
 * prefix wins, so a file can have its own row. `tests` are vitest filters (a path or the start of one:
 * `test/desktop/host-daemon` runs every host-daemon*.test.ts); `e2e` are Playwright spec files.
 * Processes run the bundle, and Chromium the built page: a mutant's build follows from its path (buildsFor).
 */
export const AREAS = [
  { prefix: 'src/core/store/', tests: ['test/team/', 'src/core/store/'] },
  { prefix: 'src/core/store/budgets.ts', tests: ['test/team/', 'src/core/store/', 'src/main/host/budget-feed', 'test/teams/budget'], e2e: ['e2e/budgets.spec.ts'] },
  { prefix: 'src/core/store/spend.ts', tests: ['test/team/', 'src/core/store/', 'src/main/host/budget-feed'], e2e: ['e2e/budgets.spec.ts'] },
  { prefix: 'src/core/agent/', tests: ['test/agent/', 'src/core/agent/'] },
  { prefix: 'src/core/agent/providers/', tests: ['test/agent/', 'src/core/agent/providers/', 'test/teams/budget'] },
  { prefix: 'src/core/agent/tools/', tests: ['test/agent/', 'src/core/agent/tools/', 'test/sandbox/'] },
  { prefix: 'src/core/agent/mcp/', tests: ['test/agent/sdk-mcp', 'test/agent/mcp', 'src/core/agent/mcp/', 'test/teams/mcp'] },
  { prefix: 'src/core/agent/cost.ts', tests: ['test/agent/', 'src/core/agent/', 'src/main/host/budget-feed'], e2e: ['e2e/budgets.spec.ts'] },
  { prefix: 'src/core/guard/', tests: ['test/guard/', 'src/core/guard/'] },
  { prefix: 'src/core/sandbox/', tests: ['test/sandbox/', 'src/core/sandbox/'] },
  { prefix: 'src/core/fs-paths.ts', tests: ['test/guard/', 'test/sandbox/', 'src/core/fs-paths'] },
  { prefix: 'src/core/git.ts', tests: ['test/review/', 'test/teams/merge', 'src/core/git'] },
  { prefix: 'src/core/teams/', tests: ['test/teams/', 'src/core/teams/'] },
  { prefix: 'src/core/teams/launchers/', tests: ['test/teams/', 'test/desktop/pty', 'src/core/teams/launchers/'] },
  { prefix: 'src/core/teams/approvals.ts', tests: ['test/teams/', 'src/core/teams/'], e2e: ['e2e/approvals.spec.ts'] },
  { prefix: 'src/core/review/', tests: ['test/review/', 'src/core/review/'], e2e: ['e2e/review.spec.ts', 'e2e/review-follow.spec.ts'] },
  { prefix: 'src/cli/', tests: ['test/agent/', 'src/cli/'] },
  // The host and dashboard commands start processes the desktop suites drive.
  { prefix: 'src/cli/host-command.ts', tests: ['test/desktop/host-daemon', 'test/desktop/exit-unused', 'test/desktop/socket-dir'] },
  { prefix: 'src/cli/dashboard-command.ts', tests: ['test/desktop/dashboard-endpoint', 'test/desktop/web'], e2e: ['e2e/dashboard-died.spec.ts'] },
  { prefix: 'src/cli/team/', tests: ['test/team/', 'test/review/teams-cli', 'test/teams/resume', 'src/cli/team/'] },
  { prefix: 'src/main/daemon/', tests: ['test/desktop/host-daemon', 'test/desktop/host-log', 'test/desktop/socket-dir', 'test/desktop/stop-twice', 'test/desktop/team-outlives-dashboard', 'src/main/daemon/'], e2e: ['e2e/stop-team.spec.ts'] },
  { prefix: 'src/main/host/', tests: ['test/desktop/host.test', 'test/desktop/team-gui', 'test/desktop/lead-abort', 'test/teams/dashboard-controls', 'src/main/host/'], e2e: ['e2e/dashboard.spec.ts'] },
  { prefix: 'src/main/host/budget-feed.ts', tests: ['src/main/host/budget-feed', 'test/desktop/budget'], e2e: ['e2e/budgets.spec.ts'] },
  { prefix: 'src/main/host/review-feed.ts', tests: ['test/review/', 'src/main/host/review-feed'], e2e: ['e2e/review.spec.ts'] },
  { prefix: 'src/main/host/approvals-feed.ts', tests: ['test/desktop/lead-questions'], e2e: ['e2e/approvals.spec.ts', 'e2e/approvals-attack.spec.ts'] },
  { prefix: 'src/main/host/team-resume.ts', tests: ['test/desktop/team-resume', 'test/teams/resume'], e2e: ['e2e/dashboard.spec.ts'] },
  { prefix: 'src/main/host/lead-setup.ts', tests: ['test/desktop/team-gui', 'src/main/host/lead-setup'], e2e: ['e2e/first-run.spec.ts'] },
  { prefix: 'src/main/host/membership.ts', tests: ['test/desktop/team-gui', 'test/desktop/membership', 'src/main/host/membership'], e2e: ['e2e/dashboard.spec.ts'] },
  { prefix: 'src/main/host/screen-mirror.ts', tests: ['test/desktop/host.test', 'src/main/host/screen-mirror'], e2e: ['e2e/restore.spec.ts'] },
  { prefix: 'src/main/host/flow.ts', tests: ['src/main/host/flow', 'test/desktop/host.test'], e2e: ['e2e/typing-yield.spec.ts'] },
  { prefix: 'src/main/host/scheduler.ts', tests: ['src/main/host/flow', 'test/desktop/host.test'], e2e: ['e2e/typing-yield.spec.ts'] },
  { prefix: 'src/main/web/', tests: ['test/desktop/web', 'src/main/web/'], e2e: ['e2e/dashboard.spec.ts'] },
  { prefix: 'src/main/electron/', tests: ['src/main/electron/'], e2e: ['e2e/electron.spec.ts'] },
  { prefix: 'src/preload/', tests: ['src/preload/'], e2e: ['e2e/electron.spec.ts'] },
  { prefix: 'src/contract/', tests: ['src/contract/', 'test/desktop/web'], e2e: ['e2e/dashboard.spec.ts'] },
  { prefix: 'src/renderer/', tests: ['src/renderer/'], e2e: ['e2e/dashboard.spec.ts', 'e2e/ux.spec.ts'] },
  { prefix: 'src/renderer/components/review/', tests: ['src/renderer/components/review/', 'test/review/patch-pages'], e2e: ['e2e/review.spec.ts', 'e2e/review-follow.spec.ts', 'e2e/done-landing.spec.ts'] },
  { prefix: 'src/renderer/components/BudgetCard.tsx', tests: ['src/renderer/'], e2e: ['e2e/budgets.spec.ts'] },
  { prefix: 'src/renderer/components/Approvals.tsx', tests: ['src/renderer/'], e2e: ['e2e/approvals.spec.ts'] },
  { prefix: 'src/renderer/components/StopTeam.tsx', tests: ['src/renderer/'], e2e: ['e2e/stop-team.spec.ts'] },
  { prefix: 'src/renderer/components/Welcome.tsx', tests: ['src/renderer/'], e2e: ['e2e/first-run.spec.ts'] },
  { prefix: 'src/renderer/terminals.ts', tests: ['src/renderer/'], e2e: ['e2e/dashboard.spec.ts', 'e2e/typing-yield.spec.ts', 'e2e/load-size.spec.ts'] },
  { prefix: 'src/renderer/write-pacing.ts', tests: ['src/renderer/write-pacing'], e2e: ['e2e/typing-yield.spec.ts'] },
  // Anything else under src/: the folder's own unit tests and the whole-team runs.
  { prefix: 'src/', tests: ['test/teams/'] },
];
