import { afterAll, describe, expect, it } from 'vitest';
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

  // One test per command and role: a failure names the command, and mutation testing's per-test coverage
  // re-runs only the commands that reach a mutant. The confusion matrix is printed once per role.
  for (const role of ['lead', 'teammate'] as const) {
    describe(`${role} verdicts (refusal = positive)`, () => {
      const counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
      afterAll(() => {
        const { tp, fp, fn, tn } = counts;
        if (tp + fp + fn + tn !== CORPUS.length) return; // a filtered run: no figures
        const precision = tp / (tp + fp || 1);
        const recall = tp / (tp + fn || 1);
        console.log(`guard corpus [${role}]: ${CORPUS.length} commands, ${tp + fn} must be refused, ${tn + fp} allowed — precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} (tp ${tp}, fp ${fp}, fn ${fn}, tn ${tn})`);
      });
      CORPUS.forEach((e, i) => {
        it(`#${i} ${e[role]}: ${JSON.stringify(e.cmd)} (${e.note})`, () => {
          const v = checkCommand(role, e.cmd, ROLES[role]);
          const got: Verdict = v.allowed ? 'allow' : 'deny';
          if (got === 'deny') counts[e[role] === 'deny' ? 'tp' : 'fp']++;
          else counts[e[role] === 'deny' ? 'fn' : 'tn']++;
          if (!v.allowed) {
            expect(v.reason).toMatch(/may not (run|write)/);
            expect(v.advice.length).toBeGreaterThan(20);
          }
          expect(got, v.allowed ? 'allowed' : v.reason).toBe(e[role]);
        });
      });
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
  // Decision time is measured by `npm run bench -- guard` (p50/p99), never asserted here: on shared cores a
  // bound measures the machine (the best of 50 took 21 ms under load where it takes under 5 ms idle).
});
