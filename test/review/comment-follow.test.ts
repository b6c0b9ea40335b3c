/**
 * Review comments through the host's view protocol on real git: a sent comment follows its line when the
 * teammate commits a function above it (never left on identical text in another function), a comment whose
 * lines changed is outdated and, if never sent, is still sent (marked as written on an earlier version, with
 * its quoted lines), and a comment on a file the teammate deleted is kept and marked as gone.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvent, ReviewCommentView } from '../../src/contract/api.js';
import { waitFor, worktreeTeam } from '../teams/helpers.js';
import { openHostView } from '../host-view.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' });

/** Two functions with the same guard line (2 and 7). */
export const GUARDS = 'function first(x) {\n  if (!x) return null;\n  return x.a;\n}\n\nfunction second(x) {\n  if (!x) return null;\n  return x.b;\n}\n';
export const ABOVE = 'function zero(x) {\n  if (!x) return null;\n  return x.z;\n}\n\n';

describe('review comments follow the teammate\'s commits', () => {
  it('moved with its line, outdated when its lines change (still sent, marked), listed when its file is deleted', async () => {
    const { ws, store, worktrees } = await worktreeTeam(['a']);
    const wt = worktrees[0]!;
    cleanups.push(ws.cleanup);
    fs.writeFileSync(path.join(wt, 'guard.js'), GUARDS);
    fs.writeFileSync(path.join(wt, 'notes.txt'), 'teh notes\n');
    git(wt, 'add', '-A');
    git(wt, 'commit', '-qm', 'a: guards');
    const view = await openHostView(ws.dir);
    cleanups.push(() => view.close());
    const comments = () => ([...view.events].reverse().find((e) => e.type === 'review_changes' && e.agent === 'a') as Extract<HostEvent, { type: 'review_changes' }> | undefined)?.comments ?? [];
    await waitFor(() => view.events.some((e) => e.type === 'review_changes' && e.agent === 'a'), "a's changes");

    const add = async (p: string, line: number, text: string) => {
      const r = await view.call({ type: 'review_comment', agent: 'a', path: p, line, text });
      expect(r.ok, r.error).toBe(true);
      return (r.result as { id: string }).id;
    };
    const onSecond = await add('guard.js', 7, 'second: throw instead?');
    expect(await view.call({ type: 'review_send', agent: 'a' })).toMatchObject({ ok: true, result: { sent: 1 } });
    const onReturn = await add('guard.js', 8, 'x.b may be undefined');
    const onNotes = await add('notes.txt', 1, 'typo');

    // The teammate commits a function above both, changes the commented return, and deletes notes.txt.
    fs.writeFileSync(path.join(wt, 'guard.js'), ABOVE + GUARDS.replace('return x.b;', 'return x.b ?? null;'));
    fs.rmSync(path.join(wt, 'notes.txt'));
    git(wt, 'add', '-A');
    git(wt, 'commit', '-qm', 'a: zero, b fallback, notes gone');
    const by = (id: string) => comments().find((c) => c.id === id) as ReviewCommentView;
    await waitFor(() => by(onReturn)?.state === 'outdated' && by(onNotes)?.state === 'outdated', 'the changed comments outdated');

    // Followed to the same guard in second() (line 12 now), not left on line 7, which is first()'s guard now.
    expect(by(onSecond)).toMatchObject({ state: 'sent', line: 12, lines: ['  if (!x) return null;'] });
    expect(by(onReturn)).toMatchObject({ state: 'outdated', sent_at: null, lines: ['  return x.b;'] });
    expect(by(onNotes)).toMatchObject({ state: 'outdated', gone: true });

    // "Send review" sends the two never sent, marked, with the lines they were written about.
    const sent = await view.call({ type: 'review_send', agent: 'a' });
    expect(sent).toMatchObject({ ok: true, result: { sent: 2 } });
    const msg = store.inboxes.unread('a').at(-1)!.text;
    expect(msg).toContain('guard.js:8 (written on an earlier version of this file; these lines have changed since)\n    >   return x.b;\n  x.b may be undefined');
    expect(msg).toContain('notes.txt:1 (written on an earlier version of your changes; this file is no longer in them)\n    > teh notes\n  typo');
    await waitFor(() => by(onReturn)?.sent_at, 'the outdated comment marked as sent');
    expect(await view.call({ type: 'review_send', agent: 'a' })).toMatchObject({ ok: true, result: { sent: 0 } });
  }, 60_000);
});
