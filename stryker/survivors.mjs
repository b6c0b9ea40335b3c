/**
 * Lists what a Stryker run left alive, from reports/mutation/mutation.json:
 * per file the score table row, then each surviving or uncovered mutant as `file:line mutator → replacement`.
 * `node stryker/survivors.mjs [path-filter]` (a substring of the file path).
 */
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('../reports/mutation/mutation.json', import.meta.url), 'utf8'));
const filter = process.argv[2] ?? '';
const rows = [];
const alive = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  if (!file.includes(filter)) continue;
  const count = (s) => mutants.filter((m) => m.status === s).length;
  const [killed, timedOut, survived, noCov] = ['Killed', 'Timeout', 'Survived', 'NoCoverage'].map(count);
  const valid = killed + timedOut + survived + noCov;
  const score = valid ? (100 * (killed + timedOut)) / valid : 100;
  rows.push(`| \`${file}\` | ${valid} | ${killed} | ${timedOut} | ${survived} | ${noCov} | ${score.toFixed(1)} % |`);
  for (const m of mutants) {
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    const one = (m.replacement ?? '').replace(/\s+/g, ' ');
    alive.push(`${file}:${m.location.start.line}:${m.location.start.column} ${m.status === 'NoCoverage' ? '[no coverage] ' : ''}${m.mutatorName} → ${one.length > 140 ? `${one.slice(0, 140)}…` : one}`);
  }
}
console.log('| file | mutants | killed | timed out | survived | no coverage | score |\n|---|---|---|---|---|---|---|');
console.log(rows.join('\n'));
console.log(alive.join('\n'));
