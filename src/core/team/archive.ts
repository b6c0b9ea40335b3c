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
