/**
 * `npm run bench [-- <name>…]`: runs the sections (all, or those named), prints each table, writes
 * bench/results/<file>.json, then rewrites docs/benchmarks.md from the results (bench/report.ts).
 * BENCH_RESULTS_DIR and BENCH_DOC move both elsewhere (tests never rewrite tracked files).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeBenchmarksDoc, type SectionRef } from './report.js';
import type { BenchSection } from './types.js';

/** name (as given on the command line), module, its run function, the results file of its full run. */
const SECTIONS: Array<[string, string, string, string]> = [
  ['team-store', './team-store.js', 'runTeamStoreBench', 'team-store'],
  ['guard', './guard.js', 'runGuardBench', 'guard'],
  ['agent', './agent.js', 'runAgentBench', 'agent'],
  ['dashboard', './dashboard.js', 'runDashboardBench', 'dashboard'],
  ['large-team', './large-team.js', 'runLargeTeamBench', 'large-team'],
  ['host', './host.js', 'runHostBench', 'host'],
  ['agent-tools', './agent-tools.js', 'runAgentToolsBench', 'agent-tools'],
  ['teams', './teams.js', 'runTeamsBench', 'teams'],
  ['sandbox', './sandbox.js', 'runSandboxBench', 'sandbox'],
  ['approvals', './approvals.js', 'runApprovalsBench', 'approvals'],
  ['review', './review.js', 'runReviewBench', 'review'],
  ['worktree', './worktree.js', 'runWorktreeBench', 'worktree'],
  ['store-remote', './store-remote.js', 'runStoreRemoteBench', 'store-remote'],
  ['remote', './remote.js', 'runRemoteBench', 'remote'],
  ['remote-teammate', './teammate-latency.js', 'runTeammateLatencyBench', 'remote-teammate'],
];

function printTable(section: BenchSection): void {
  const rows = section.rows;
  if (!rows.length) return;
  const cols = Object.keys(rows[0]!);
  const cells = [cols, ...rows.map((r) => cols.map((c) => String(r[c] ?? '')))];
  const widths = cols.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n### ${section.title}`);
  console.log(line(cols));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of cells.slice(1)) console.log(line(r));
}

const args = process.argv.slice(2);
// A section's own options (`--baseline <dir>`, dashboard.ts) are not section names.
const only = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
// `team` was the name before sections were named by their file; still accepted.
const wanted = (name: string) => !only.length || only.includes(name) || (name === 'team-store' && only.includes('team'));
const unknown = only.filter((n) => n !== 'team' && !SECTIONS.some(([name]) => name === n));
if (unknown.length) {
  console.error(`bench: unknown section ${unknown.join(', ')} (sections: ${SECTIONS.map(([n]) => n).join(', ')})`);
  process.exit(2);
}
const outDir = process.env.BENCH_RESULTS_DIR ?? path.join(import.meta.dirname, 'results');
const docPath = process.env.BENCH_DOC ?? path.join(import.meta.dirname, '..', 'docs', 'benchmarks.md');
fs.mkdirSync(outDir, { recursive: true });
console.log(`bench on ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString()}`);
for (const [name, modPath, fn] of SECTIONS) {
  if (!wanted(name)) continue;
  let mod: Record<string, () => Promise<BenchSection>>;
  try {
    mod = await import(modPath);
  } catch (err) {
    console.log(`\n(${name}: not available: ${(err as Error).message.split('\n')[0]})`);
    continue;
  }
  const loadBefore = os.loadavg()[0]!;
  const section = await mod[fn]!();
  printTable(section);
  const result = { at: new Date().toISOString(), cores: os.cpus().length, node: process.version, load: [loadBefore, os.loadavg()[0]!], ...section };
  fs.writeFileSync(path.join(outDir, `${section.file}.json`), JSON.stringify(result, null, 2));
}
// The dashboard's before/after run (`--baseline`) has its own table, after the dashboard's.
const refs: SectionRef[] = SECTIONS.flatMap(([name, , , file]) => [{ name, file }, ...(name === 'dashboard' ? [{ name: 'dashboard --baseline <ref>', file: 'dashboard-compare' }] : [])]);
writeBenchmarksDoc(refs, outDir, docPath);
console.log(`\n${path.relative(process.cwd(), docPath)} rewritten from ${path.relative(process.cwd(), outDir)}/`);
