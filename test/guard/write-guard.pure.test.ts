/** checkWrite (the Write/Edit tools' guard), pure: the lead's merge exception and a teammate's zones. */
import { describe, expect, it } from 'vitest';
import { checkWrite } from '../../src/core/guard/index.js';
import { leadCtx, teammateCtx, WS } from './fixtures.js';

const refusal = (v: ReturnType<typeof checkWrite>) => (v.allowed ? null : v);

describe('checkWrite', () => {
  it('solo writes anywhere', () => {
    expect(checkWrite('solo', `${WS}/.thclaws/x`, leadCtx)).toEqual({ allowed: true });
  });

  it('the lead writes nothing outside a merge, and during one only the files git lists as unmerged', () => {
    const out = refusal(checkWrite('lead', `${WS}/src/a.ts`, leadCtx));
    expect(out?.reason).toBe(`team lead may not write or edit ${WS}/src/a.ts: the lead is a coordinator and delegates every code change.`);
    expect(out?.advice).toMatch(/SendMessage/);
    const merging = { ...leadCtx, mergeInProgress: true, unmergedFiles: ['src/a.ts', `${WS}/b.ts`] };
    expect(checkWrite('lead', `${WS}/src/a.ts`, merging)).toEqual({ allowed: true });
    expect(checkWrite('lead', `${WS}/src/x/../a.ts`, merging)).toEqual({ allowed: true });
    expect(checkWrite('lead', `${WS}/b.ts`, merging)).toEqual({ allowed: true });
    expect(refusal(checkWrite('lead', `${WS}/src/c.ts`, merging))?.reason).toMatch(/during a merge the lead may only edit the files git lists as unmerged/);
    // The list only counts while a merge is in progress.
    expect(checkWrite('lead', `${WS}/src/a.ts`, { ...merging, mergeInProgress: false }).allowed).toBe(false);
    expect(checkWrite('lead', `${WS}/src/a.ts`, { ...leadCtx, mergeInProgress: true }).allowed).toBe(false);
  });

  it('a teammate writes its own worktree and scratch, not others\' worktrees, team state, .git or the lead\'s checkout', () => {
    const own = `${WS}/.worktrees/alice`;
    for (const p of [`${own}/src/a.ts`, `${own}/new/dir/x`, '/tmp/x', '/home/u/.npm/x']) expect(checkWrite('teammate', p, teammateCtx)).toEqual({ allowed: true });
    const cases: Array<[string, RegExp]> = [
      [`${WS}/.worktrees/bob/a.ts`, /another teammate's worktree/],
      [`${own}/../bob/a.ts`, /another teammate's worktree/],
      [`${WS}/.worktrees`, /worktrees directory/],
      [`${WS}/.thclaws/state/x.json`, /team state under \.thclaws/],
      [`${WS}/.git/config`, /shared \.git directory/],
      [`${WS}/src/a.ts`, /lead's checkout .*outside your own worktree/],
      [`${own}/../../README.md`, /lead's checkout/],
    ];
    for (const [p, why] of cases) {
      const v = refusal(checkWrite('teammate', p, teammateCtx));
      expect(v?.reason, p).toMatch(/^teammate may not write \//);
      expect(v?.reason, p).toMatch(why);
      expect(v?.advice, p).toMatch(/SendMessage|own worktree/);
    }
  });

  it('a teammate without a worktree of its own (run in the shared checkout) may write it, not the worktrees', () => {
    const shared = { ...teammateCtx, cwd: `${WS}/pkg`, agentName: 'dave', branch: 'team/dave' };
    expect(checkWrite('teammate', `${WS}/src/a.ts`, shared)).toEqual({ allowed: true });
    expect(checkWrite('teammate', `${WS}/.worktrees/bob/a.ts`, shared).allowed).toBe(false);
  });
});
