import fs from 'node:fs';
import path from 'node:path';
import type { Journal } from './journal.js';
import { LEAD } from './names.js';
import type { TeamPaths } from './paths.js';

/**
 * Moves a replaced team's config, inboxes, tasks and member dirs to `replaced-<ms>/` inside the team dir;
 * the lead's own dir (its live lease) stays.
 */
export function archiveTeam(paths: TeamPaths, journal: Journal): string {
  const dest = path.join(paths.root, `replaced-${Date.now()}`);
  fs.mkdirSync(path.join(dest, 'agents'), { recursive: true });
  const move = (from: string, to: string) => {
    try {
      fs.renameSync(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  };
  move(paths.config, path.join(dest, 'config.json'));
  move(paths.inboxesDir, path.join(dest, 'inboxes'));
  move(paths.tasksDir, path.join(dest, 'tasks'));
  let agents: string[] = [];
  try {
    agents = fs.readdirSync(paths.agentsDir);
  } catch {
    // none
  }
  for (const a of agents) if (a !== LEAD) move(path.join(paths.agentsDir, a), path.join(dest, 'agents', a));
  journal.record({ event: 'note', file: paths.config, reason: 'team replaced; previous state moved aside', moved_to: dest });
  return dest;
}

/** Where a removed member's inbox and history went: `removed/<name>-<ms>/`. */
export function removedMembersDir(paths: TeamPaths): string {
  return path.join(paths.root, 'removed');
}

/** Names of members removed before (their history kept under `removed/`): a new member may not take one. */
export function removedMemberNames(paths: TeamPaths): Set<string> {
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(removedMembersDir(paths));
  } catch {
    // none removed yet
  }
  return new Set(entries.map((e) => e.replace(/-\d+$/, '')));
}

/**
 * A removed member's inbox (with its read archive and rejected lines) and its agent dir (status, output.log,
 * answers) move to `removed/<name>-<ms>/`: kept, never deleted, and out of the live team's way.
 */
export function archiveMember(paths: TeamPaths, journal: Journal, name: string): string {
  const dest = path.join(removedMembersDir(paths), `${name}-${Date.now()}`);
  fs.mkdirSync(path.join(dest, 'inbox'), { recursive: true });
  const move = (from: string, to: string) => {
    try {
      fs.renameSync(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  };
  for (const f of [paths.inbox(name), paths.archive(name), paths.rejected(name)]) move(f, path.join(dest, 'inbox', path.basename(f)));
  move(paths.agentDir(name), path.join(dest, 'agent'));
  journal.record({ event: 'note', file: paths.config, reason: `member ${name} removed; inbox and history moved aside`, moved_to: dest });
  return dest;
}
