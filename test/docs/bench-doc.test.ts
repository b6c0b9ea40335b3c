/**
 * `npm run bench -- <section>` as a real process: docs/benchmarks.md is rewritten with that run's table, dated
 * by the run, and the sections it did not run keep their last results. Pointed at a temporary results dir and
 * document (BENCH_RESULTS_DIR, BENCH_DOC), so the tracked ones are never touched.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { scrubbedEnv, tempDir } from '../agent/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function bench(args: string[], dir: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: scrubbedEnv(dir, { BENCH_RESULTS_DIR: path.join(dir, 'results'), BENCH_DOC: path.join(dir, 'benchmarks.md'), BENCH_GUARD_RUNS: '20' }),
    timeout: 60_000,
  });
}

it('a run of one section rewrites its table in docs/benchmarks.md, dated by the run, and keeps the others', () => {
  const t = tempDir('thclaws-bench-doc-');
  try {
    const results = path.join(t.dir, 'results');
    fs.mkdirSync(results);
    // An earlier run's teams section, as bench/run.ts wrote it.
    const earlier = { at: '2026-11-30T21:09:06.256Z', cores: 2, node: 'v20.20.2', title: 'Agent Teams runtime (real processes)', file: 'teams', rows: [{ metric: 'spawn → live, background mode', value: 'p50 158 ms / p99 162 ms', target: 'p50 <= 500 ms' }] };
    fs.writeFileSync(path.join(results, 'teams.json'), JSON.stringify(earlier));
    fs.writeFileSync(path.join(t.dir, 'benchmarks.md'), '# stale hand-written history\n');

    const run = bench(['guard'], t.dir);
    expect(run.status, run.stderr).toBe(0);

    const doc = fs.readFileSync(path.join(t.dir, 'benchmarks.md'), 'utf8');
    const guard = JSON.parse(fs.readFileSync(path.join(results, 'guard.json'), 'utf8')) as { at: string; rows: Array<{ case: string }> };
    expect(doc).not.toContain('stale hand-written history');
    // The guard table of this run, dated by it, one line per case.
    const section = doc.slice(doc.indexOf('## Guard decision time (20 runs each'));
    expect(section.length).toBeLessThan(doc.length);
    const minute = guard.at.slice(0, 16).replace('T', ' ');
    expect(section).toMatch(new RegExp(`Run ${minute} UTC, \\d+ cores, node v[\\d.]+, load average [\\d.]+ → [\\d.]+\\.`));
    for (const row of guard.rows) expect(section).toContain(`| ${row.case} | `);
    // The section not run keeps its last results and their date; one never run says how to run it.
    expect(doc).toContain('## Agent Teams runtime (real processes)\n\n`npm run bench -- teams`. Run 2026-11-30 21:09 UTC, 2 cores, node v20.20.2.');
    expect(doc).toContain('| spawn → live, background mode | p50 158 ms / p99 162 ms | p50 <= 500 ms |');
    expect(doc).toContain('## sandbox\n\nNo result in bench/results/ yet: `npm run bench -- sandbox`');
    // In the run's order: team store before guard before teams.
    expect(doc.indexOf('## team-store')).toBeLessThan(doc.indexOf('## Guard'));
    expect(doc.indexOf('## Guard')).toBeLessThan(doc.indexOf('## Agent Teams runtime'));
  } finally {
    t.cleanup();
  }
});

it('an unknown section is one line and exit 2, and nothing is written', () => {
  const t = tempDir('thclaws-bench-doc-');
  try {
    const run = bench(['nosuch'], t.dir);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^bench: unknown section nosuch \(sections: team-store, guard,/)]);
    expect(fs.existsSync(path.join(t.dir, 'benchmarks.md'))).toBe(false);
  } finally {
    t.cleanup();
  }
});
