/** Guard decision time: one checkCommand call on a ~1,000-character chain and on a short command (target < 5 ms). */
import { checkCommand } from '../src/core/guard/index.js';
import type { GuardContext } from '../src/core/guard/types.js';
import type { BenchSection } from './types.js';

/** BENCH_GUARD_RUNS: fewer runs, for a quick look (and the test of bench/run.ts). */
const RUNS = Number(process.env.BENCH_GUARD_RUNS) || 2_000;

/** A realistic long lead command: inspection, tests, a heredoc, pipes and a nested `sh -c`. */
function longCommand(): string {
  const parts = [
    'cd /ws && git status --short && git log --oneline --graph -20 main..team/alice',
    'git diff --stat $(git merge-base HEAD team/alice) team/alice -- src test',
    'npm test -- --reporter=dot 2>&1 | tee /tmp/test.log | tail -n 40',
    'grep -rn "TODO\\|FIXME" src --include=*.ts | sort | uniq -c | sort -rn | head -20',
    "find . -name '*.ts' -not -path './node_modules/*' -newer package.json -print | xargs wc -l | sort -n | tail",
    'for b in team/alice team/bob team/carol; do echo "== $b"; git log --oneline main..$b | head -5; done',
    "sh -c 'git fetch --all --prune && git branch -a --merged main'",
    'node scripts/report.mjs --input /tmp/test.log --out /tmp/report.json && jq ".failures | length" /tmp/report.json',
    'git show --name-only --format="%h %an %s" team/bob~3..team/bob && echo done',
  ];
  const heredoc = "\ncat <<'EOF' > /tmp/summary.md\n# merge plan\n- alice: ready\n- bob: waiting on review\nEOF";
  let cmd = parts.join(' && ');
  while (cmd.length + heredoc.length < 1000) cmd += ' && git status --porcelain | wc -l';
  return cmd + heredoc;
}

interface Figures {
  p50: number;
  p99: number;
  max: number;
  /** CPU time of this process only: excludes time lost to other processes on a busy machine. */
  cpuP99: number;
  allowed: boolean;
}

function quantile(t: number[], q: number): number {
  return t[Math.min(t.length - 1, Math.floor(q * t.length))] as number;
}

function measure(role: 'lead' | 'teammate', cmd: string, ctx: GuardContext): Figures {
  let allowed = false;
  for (let i = 0; i < 50; i++) allowed = checkCommand(role, cmd, ctx).allowed; // warm-up (JIT, parser load)
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    checkCommand(role, cmd, ctx);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return { p50: quantile(wall, 0.5), p99: quantile(wall, 0.99), max: wall[wall.length - 1] as number, cpuP99: quantile(cpu, 0.99), allowed };
}

export async function runGuardBench(): Promise<BenchSection> {
  const lead: GuardContext = { workspaceRoot: '/ws', cwd: '/ws', branch: 'main', agentName: 'lead' };
  const mate: GuardContext = { workspaceRoot: '/ws', cwd: '/ws/.worktrees/alice', branch: 'team/alice', agentName: 'alice' };
  const long = longCommand();
  const cases: Array<[string, 'lead' | 'teammate', string, GuardContext]> = [
    [`lead, ${long.length}-char chain (allowed)`, 'lead', long, lead],
    [`lead, ${long.length + 13}-char chain with rm -rf (refused)`, 'lead', `rm -rf src && ${long}`, lead],
    [`teammate, ${long.length}-char chain`, 'teammate', long, mate],
    ['lead, short: git status', 'lead', 'git status', lead],
    ['teammate, short: git reset --hard HEAD~1', 'teammate', 'git reset --hard HEAD~1', mate],
  ];
  const rows: BenchSection['rows'] = [];
  for (const [name, role, cmd, ctx] of cases) {
    const m = measure(role, cmd, ctx);
    rows.push({
      case: name,
      verdict: m.allowed ? 'allowed' : 'refused',
      p50_ms: +m.p50.toFixed(3),
      p99_ms: +m.p99.toFixed(3),
      max_ms: +m.max.toFixed(3),
      cpu_p99_ms: +m.cpuP99.toFixed(3),
      target: '< 5 ms',
    });
  }
  return { title: `Guard decision time (${RUNS} runs each, pure checkCommand, no git calls)`, file: 'guard', rows, details: { runs: RUNS, longCommand: long } };
}
