import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/core/guard/index.js';
import { CORPUS, type Verdict } from './corpus.js';
import { leadCtx, teammateCtx } from './fixtures.js';

const ROLES = { lead: leadCtx, teammate: teammateCtx } as const;

describe('guard corpus', () => {
  it('has at least 250 commands and 80 everyday commands the lead may run', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(250);
    expect(CORPUS.filter((e) => e.lead === 'allow').length).toBeGreaterThanOrEqual(80);
    expect(new Set(CORPUS.map((e) => e.cmd)).size).toBe(CORPUS.length);
  });

  for (const role of ['lead', 'teammate'] as const) {
    it(`matches every expected ${role} verdict (precision/recall printed; refusal = positive)`, () => {
      let tp = 0, fp = 0, fn = 0, tn = 0;
      const wrong: string[] = [];
      for (const e of CORPUS) {
        const v = checkCommand(role, e.cmd, ROLES[role]);
        const got: Verdict = v.allowed ? 'allow' : 'deny';
        if (!v.allowed) {
          expect(v.reason).toMatch(/may not (run|write)/);
          expect(v.advice.length).toBeGreaterThan(20);
        }
        if (got === 'deny' && e[role] === 'deny') tp++;
        else if (got === 'deny') fp++;
        else if (e[role] === 'deny') fn++;
        else tn++;
        if (got !== e[role]) wrong.push(`${e[role]} expected, ${got} got: ${JSON.stringify(e.cmd)} (${e.note})${v.allowed ? '' : ` — ${v.reason}`}`);
      }
      const precision = tp / (tp + fp || 1);
      const recall = tp / (tp + fn || 1);
      console.log(`guard corpus [${role}]: ${CORPUS.length} commands, ${tp + fn} must be refused, ${tn + fp} allowed — precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (tp ${tp}, fp ${fp}, fn ${fn}, tn ${tn})`);
      expect(wrong).toEqual([]);
    });
  }

  it('solo has no role guard', () => {
    expect(checkCommand('solo', 'rm -rf / && git push --force', leadCtx)).toEqual({ allowed: true });
  });

  it('a refusal names the command, the reason and what to do instead', () => {
    const v = checkCommand('lead', 'npm test && rm -rf src', leadCtx);
    expect(v).toMatchObject({ allowed: false });
    if (v.allowed) return;
    expect(v.reason).toBe('team lead may not run `rm -rf src`: it would recursively remove files.');
    expect(v.advice).toMatch(/SendMessage/);
    const t = checkCommand('teammate', 'git reset --hard main', teammateCtx);
    expect(!t.allowed && t.advice).toMatch(/HEAD~N/);
    const m = checkCommand('lead', 'git merge --abort', leadCtx);
    expect(!m.allowed && m.advice).toMatch(/TeamMerge/);
  });

  // The bench (bench/guard.ts) reports p50/p99; here only the best case is asserted, since parallel
  // test files share two cores and the wall-clock tail measures the machine, not the guard.
  // Skipped under mutation testing: instrumented code is slower by design, so the bound would measure Stryker.
  it.skipIf(process.env.STRYKER_MUTATION_RUN === '1')('decides a 1,000-character command in under 5 ms', () => {
    const cmd = `${Array.from({ length: 25 }, (_, i) => `git log --oneline -n ${i} | grep -v "x${i}"`).join(' && ')}`.slice(0, 1000);
    checkCommand('lead', cmd, leadCtx);
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      checkCommand('lead', cmd, leadCtx);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`guard decision, ${cmd.length}-char command: min ${times[0]?.toFixed(2)} ms, median ${times[25]?.toFixed(2)} ms`);
    expect(times[0]).toBeLessThan(5);
  });
});
