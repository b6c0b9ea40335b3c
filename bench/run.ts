/** `npm run bench`: runs every section, prints its table, writes bench/results/<file>.json. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchSection } from './types.js';

const SECTIONS: Array<[string, string, string]> = [
  ['team store', './team-store.js', 'runTeamStoreBench'],
  ['guard', './guard.js', 'runGuardBench'],
  ['agent', './agent.js', 'runAgentBench'],
  ['dashboard', './dashboard.js', 'runDashboardBench'],
  ['host', './host.js', 'runHostBench'],
  ['agent-tools', './agent-tools.js', 'runAgentToolsBench'],
  ['teams', './teams.js', 'runTeamsBench'],
  ['sandbox', './sandbox.js', 'runSandboxBench'],
  ['approvals', './approvals.js', 'runApprovalsBench'],
  ['review', './review.js', 'runReviewBench'],
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
const outDir = path.join(import.meta.dirname, 'results');
fs.mkdirSync(outDir, { recursive: true });
console.log(`bench on ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString()}`);
for (const [name, modPath, fn] of SECTIONS) {
  if (only.length && !only.includes(name.split(' ')[0]!)) continue;
  let mod: Record<string, () => Promise<BenchSection>>;
  try {
    mod = await import(modPath);
  } catch (err) {
    console.log(`\n(${name}: not available: ${(err as Error).message.split('\n')[0]})`);
    continue;
  }
  const section = await mod[fn]!();
  printTable(section);
  fs.writeFileSync(path.join(outDir, `${section.file}.json`), JSON.stringify({ at: new Date().toISOString(), cores: os.cpus().length, node: process.version, ...section }, null, 2));
}
