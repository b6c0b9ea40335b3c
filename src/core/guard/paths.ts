/** Where a path lands: the workspace, a scratch dir, another teammate's worktree, team state. Lexical only. */
import os from 'node:os';
import path from 'node:path';
import { isInside } from '../fs-paths.js';
import type { GuardContext } from './types.js';
import type { Word } from './words.js';
import { teammateOfBranch } from '../../contract/branch.js';

export interface Zones {
  roots: string[];
  worktrees: string[];
  /** This agent's own worktree (teammates), if known. */
  own: string | null;
  /** The agent runs inside its own worktree: the rest of the lead's checkout is not its to write. */
  confined: boolean;
  thclaws: string[];
  gitDirs: string[];
  tmp: string[];
  home: string;
}

export const within = isInside;

export function zonesFor(ctx: GuardContext): Zones {
  const roots = [path.resolve(ctx.workspaceRoot)];
  const worktrees = roots.map((r) => path.join(r, '.worktrees'));
  let own: string | null = null;
  const name = ctx.agentName ?? teammateOfBranch(ctx.branch);
  if (name && name !== 'lead') own = path.join(worktrees[0] as string, name);
  else {
    // Unknown name: the worktree the agent runs in is its own.
    const rel = path.relative(worktrees[0] as string, path.resolve(ctx.cwd));
    const first = rel.split(path.sep)[0];
    if (first && !rel.startsWith('..') && !path.isAbsolute(rel)) own = path.join(worktrees[0] as string, first);
  }
  return {
    roots,
    worktrees,
    own,
    confined: own !== null && within(path.resolve(ctx.cwd), own),
    thclaws: roots.map((r) => path.join(r, '.thclaws')),
    gitDirs: roots.map((r) => path.join(r, '.git')),
    tmp: [...(ctx.tmpDirs ?? ['/tmp', '/var/tmp', os.tmpdir()])].map((d) => path.resolve(d)),
    home: ctx.home ?? os.homedir(),
  };
}

/** Absolute candidates for a path word, one per possible cwd; null when the value is unknown. */
export function resolvePath(w: Word, cwds: readonly string[], home: string): string[] | null {
  if (w.dynamic) return null;
  let t = w.text;
  if (t === '~' || t.startsWith('~/')) t = home + t.slice(1);
  if (w.glob) {
    // A pattern can match anything below its static directory.
    const cut = t.search(/[*?[]/);
    t = t.slice(0, cut);
    t = t.endsWith('/') || t === '' ? t || '.' : path.dirname(t);
  }
  if (path.isAbsolute(t)) return [path.resolve(t)];
  return cwds.map((c) => path.resolve(c, t));
}

const DEVICES = /^\/dev\/(null|zero|stdout|stderr|stdin|tty|fd\/\d+|pts\/\d+)$/;

export function isDevice(p: string): boolean {
  return DEVICES.test(p);
}

export function inWorkspace(p: string, z: Zones): boolean {
  return z.roots.some((r) => within(p, r));
}

/** Inside a scratch directory, never one of them itself (a TMPDIR under /tmp is a root too, not /tmp's content). */
export function inTmp(p: string, z: Zones): boolean {
  return !inWorkspace(p, z) && z.tmp.some((t) => within(p, t)) && !z.tmp.includes(p);
}

export type TeammateZone = 'other-worktree' | 'worktrees-dir' | 'team-state' | 'shared-git' | 'lead-checkout';

/** Zones a teammate may not write to; `recursive` also flags directories that contain them. */
export function teammateZone(p: string, z: Zones, recursive: boolean): TeammateZone | null {
  for (const wt of z.worktrees) {
    if (within(p, wt)) {
      if (p === wt) return 'worktrees-dir';
      if (z.own && within(p, z.own)) return null;
      return 'other-worktree';
    }
    if (recursive && within(wt, p)) return 'worktrees-dir';
  }
  if (z.thclaws.some((d) => within(p, d))) return 'team-state';
  if (z.gitDirs.some((d) => within(p, d))) return 'shared-git';
  if (z.confined && z.roots.some((r) => within(p, r))) return 'lead-checkout';
  return null;
}

export function describeZone(zone: TeammateZone, p: string): string {
  switch (zone) {
    case 'other-worktree':
      return `write into another teammate's worktree (${p})`;
    case 'worktrees-dir':
      return `touch the team's worktrees directory (${p}), which holds other teammates' worktrees`;
    case 'team-state':
      return `write team state under .thclaws/ (${p})`;
    case 'shared-git':
      return `write inside the shared .git directory (${p})`;
    case 'lead-checkout':
      return `write into the lead's checkout (${p}), outside your own worktree`;
  }
}
