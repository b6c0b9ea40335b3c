/**
 * docs/benchmarks.md, written by `npm run bench` from bench/results/<file>.json: one current table per section,
 * each dated by the run that measured it. A run of some sections replaces those and keeps the others' last
 * results; older figures live in git (`git log -p docs/benchmarks.md`), not in the document.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BenchSection } from './types.js';

/** What bench/run.ts writes to bench/results/<file>.json. */
export interface BenchResult extends BenchSection {
  /** ISO time the section finished. */
  at: string;
  cores: number;
  node: string;
  /** 1-minute load average when the section started and when it ended (absent in results older than this field). */
  load?: [number, number];
}

/** One section of the run: its name (`npm run bench -- <name>`) and its results file. */
export interface SectionRef {
  name: string;
  file: string;
}

const cell = (v: unknown): string => String(v ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(rows: BenchSection['rows']): string[] {
  if (!rows.length) return ['(no rows)'];
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [`| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${cols.map((c) => cell(r[c])).join(' | ')} |`)];
}

function dated(r: BenchResult): string {
  const when = r.at.replace('T', ' ').replace(/:\d\d\.\d+Z$/, ' UTC');
  const load = r.load ? `, load average ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}` : '';
  return `Run ${when}, ${r.cores} cores, node ${r.node}${load}.`;
}

/** The whole document from each section's latest result (undefined: never run here). */
export function renderBenchmarks(sections: Array<{ ref: SectionRef; result: BenchResult | undefined }>): string {
  const out = [
    '# Benchmarks',
    '',
    '<!-- Written by `npm run bench` (bench/run.ts, bench/report.ts) from bench/results/*.json: do not edit by hand. -->',
    '',
    'Each section is the latest run of `npm run bench -- <name>` (`npm run bench` runs them all), dated by that run;',
    "a run replaces its sections and keeps the others'. Figures from the project's shared 2-core VMs vary with",
    "the machine's load (given where the run recorded it): read them as orders of magnitude. Earlier figures and",
    'the passes that produced them are in git: `git log -p docs/benchmarks.md README.md`.',
  ];
  for (const { ref, result } of sections) {
    out.push('', `## ${result ? result.title : ref.name}`, '');
    if (!result) {
      out.push(`No result in bench/results/ yet: \`npm run bench -- ${ref.name}\` (earlier figures: the git history of README.md).`);
      continue;
    }
    out.push(`\`npm run bench -- ${ref.name}\`. ${dated(result)}`, '', ...table(result.rows));
  }
  return `${out.join('\n')}\n`;
}

function readResult(file: string): BenchResult | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as BenchResult;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`bench: ${file}: ${(err as Error).message}`);
  }
}

/** Rewrites `docPath` from the results in `resultsDir`, in the order of `refs`. */
export function writeBenchmarksDoc(refs: SectionRef[], resultsDir: string, docPath: string): void {
  const sections = refs.map((ref) => ({ ref, result: readResult(path.join(resultsDir, `${ref.file}.json`)) }));
  fs.writeFileSync(docPath, renderBenchmarks(sections));
}
