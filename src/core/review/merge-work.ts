/**
 * The person's work inside a merge left in progress. When a merge is left conflicted (by the merge panel or the
 * lead's TeamMerge) the state git left is recorded file by file (index entries and working-tree content) beside
 * the merge in the git dir; what differs from it later is what someone resolved or edited. Abort is refused
 * while there is such work unless confirmed, and then that work is saved to a patch under `.thclaws/` first.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TeamError } from '../store/index.js';
import { gitText, runGit, splitZ } from '../git.js';
import { quoteList } from './merge-plan.js';

/** Who left the merge in progress: a merge the person left from the panel is theirs to finish or abort. */
export type MergeOwner = 'person' | 'lead';

interface Recorded {
  by: MergeOwner;
  /** The MERGE_HEAD it was recorded for: a record left by an earlier merge says nothing about this one. */
  head: string;
  files: Record<string, string>;
}

export interface MergeWork {
  /** null: no record (a merge started by hand): every changed file counts as possibly someone's work. */
  by: MergeOwner | null;
  /** Files resolved or edited since the merge was left. */
  touched: string[];
  /** Files the merge staged that now also have unstaged edits (git's abort cannot run over them). */
  unstagedOverStaged: string[];
  /** Files still conflicted. */
  unmerged: string[];
}

const SKIP = ['.thclaws/', '.worktrees/'];
/** Where saved work goes, relative to the project root. */
export const SAVED_DIR = '.thclaws/merge-aborts';

async function recordFile(root: string): Promise<string> {
  return path.resolve(root, (await gitText(root, ['rev-parse', '--git-path', 'thclaws-left-merge.json'])).trim());
}

interface Now {
  sigs: Record<string, string>;
  unstagedOverStaged: string[];
  unmerged: string[];
}

/** Each changed file's state: its index entries (stages included) and its working-tree content. */
async function current(root: string): Promise<Now> {
  const st = splitZ((await runGit(root, ['status', '--porcelain=v1', '-z', '--untracked-files=no'])).stdout);
  const paths: string[] = [];
  const unstagedOverStaged: string[] = [];
  const unmerged: string[] = [];
  for (let i = 0; i < st.length; i++) {
    const rec = st[i]!;
    const p = rec.slice(3);
    if (rec[0] === 'R' || rec[0] === 'C') i++;
    if (SKIP.some((d) => p.startsWith(d))) continue;
    paths.push(p);
    const [x, y] = [rec[0]!, rec[1]!];
    if (x === 'U' || y === 'U' || (x === 'A' && y === 'A') || (x === 'D' && y === 'D')) unmerged.push(p);
    else if ('MADRC'.includes(x) && (y === 'M' || y === 'D')) unstagedOverStaged.push(p);
  }
  const index = new Map<string, string[]>();
  for (const rec of splitZ((await runGit(root, ['ls-files', '-s', '-z'])).stdout)) {
    const tab = rec.indexOf('\t');
    const p = rec.slice(tab + 1);
    (index.get(p) ?? index.set(p, []).get(p)!).push(rec.slice(0, tab));
  }
  const sigs: Record<string, string> = {};
  for (const p of paths) {
    let work = 'absent';
    try {
      const abs = path.join(root, p);
      const l = fs.lstatSync(abs);
      work = createHash('sha1').update(l.isSymbolicLink() ? `link:${fs.readlinkSync(abs)}` : fs.readFileSync(abs)).digest('hex');
    } catch {
      // deleted in the working tree
    }
    sigs[p] = `${(index.get(p) ?? []).join(',')}|${work}`;
  }
  return { sigs, unstagedOverStaged, unmerged };
}

/** Records the merge git just left in progress (call right after the conflicting `git merge`). */
async function mergeHead(root: string): Promise<string | null> {
  const r = await runGit(root, ['rev-parse', '-q', '--verify', 'MERGE_HEAD']);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : null;
}

export async function recordLeftMerge(root: string, by: MergeOwner): Promise<void> {
  const rec: Recorded = { by, head: (await mergeHead(root)) ?? '', files: (await current(root)).sigs };
  fs.writeFileSync(await recordFile(root), JSON.stringify(rec));
}

/** What was done in the lead's checkout since the merge in progress was left. */
export async function mergeWork(root: string): Promise<MergeWork> {
  const now = await current(root);
  let rec: Recorded | null = null;
  try {
    rec = JSON.parse(fs.readFileSync(await recordFile(root), 'utf8')) as Recorded;
  } catch {
    rec = null;
  }
  if (rec && (typeof rec.files !== 'object' || !rec.files || rec.head !== (await mergeHead(root)))) rec = null;
  const all = new Set([...Object.keys(now.sigs), ...Object.keys(rec?.files ?? {})]);
  const touched = rec ? [...all].filter((p) => now.sigs[p] !== rec.files[p]).sort() : Object.keys(now.sigs).sort();
  return { by: rec?.by ?? null, touched, unstagedOverStaged: now.unstagedOverStaged, unmerged: now.unmerged };
}

async function forget(root: string): Promise<void> {
  fs.rmSync(await recordFile(root), { force: true });
}

/** Why an abort is refused while there is someone's work, and the ways forward. */
function refusal(w: MergeWork): string {
  const over = w.unstagedOverStaged.length
    ? ` ${quoteList(w.unstagedOverStaged)} ${w.unstagedOverStaged.length === 1 ? 'has' : 'have'} unstaged edits over what the merge staged, which git's abort cannot back out without discarding them.`
    : '';
  const finish = w.unmerged.length ? `resolve ${quoteList(w.unmerged)}, git add, then git commit` : 'nothing is left conflicted: commit it (git commit)';
  return `abort refused: the merge in progress holds work done since it was left (resolved or edited: ${quoteList(w.touched)}); aborting would throw it away.${over} To keep it, ${finish}; or abort again and confirm: that work is saved to a patch under ${SAVED_DIR}/ first.`;
}

export interface Aborted {
  aborted: boolean;
  /** The patch holding the work that was in the merge (relative to the project root), when there was any. */
  saved: string | null;
  kept: string[];
}

/**
 * Backs out of the merge in progress. Refused while someone's work is in it unless `confirm`; confirmed, that
 * work (the whole checkout against HEAD, conflict resolutions and edits) is written to a patch first.
 */
export async function abortLeftMerge(root: string, opts: { confirm?: boolean } = {}): Promise<Aborted> {
  if (!(await mergeHead(root))) return { aborted: false, saved: null, kept: [] };
  const w = await mergeWork(root);
  if (!w.touched.length) {
    const a = await runGit(root, ['merge', '--abort']);
    if (a.code !== 0) throw new TeamError('conflict', `git merge --abort failed: ${a.stderr.trim().split('\n')[0]}`);
    await forget(root);
    return { aborted: true, saved: null, kept: [] };
  }
  if (!opts.confirm) throw new TeamError('conflict', refusal(w));
  const diff = await runGit(root, ['diff', '--binary', '--no-color', '--no-ext-diff', 'HEAD']);
  if (diff.code !== 0 || diff.truncated) throw new TeamError('conflict', 'abort refused: the work in the merge could not be saved to a patch; nothing was changed');
  const rel = `${SAVED_DIR}/merge-abort-${new Date().toISOString().replace(/[:.]/g, '-')}.patch`;
  fs.mkdirSync(path.join(root, SAVED_DIR), { recursive: true });
  fs.writeFileSync(path.join(root, rel), diff.stdout);
  // The work is saved: when git's abort refuses (edits over staged files), the checkout goes back to HEAD.
  if ((await runGit(root, ['merge', '--abort'])).code !== 0) await gitText(root, ['reset', '-q', '--hard', 'HEAD']);
  await forget(root);
  return { aborted: true, saved: rel, kept: w.touched };
}

/**
 * The lead's refusal while the person is resolving the merge in its checkout (null: the lead may back out): a
 * merge the panel left is the person's; one started by hand (the lead's guard refuses a raw merge) is theirs
 * once anything in it changed; one the lead's TeamMerge left is the lead's.
 */
export async function personResolving(root: string): Promise<string | null> {
  const w = await mergeWork(root);
  if (w.by === 'lead' || (w.by === null && !w.touched.length)) return null;
  const what = w.touched.length ? ` (they have resolved or edited ${quoteList(w.touched)})` : '';
  return `the person is resolving the merge in progress in the lead's checkout${what}: do not abort it and do not touch those files; leave it to them (they commit it or abort it from the dashboard) and carry on with other work`;
}
