/** A Claude Code team's task list: one `<id>.json` per task under `tasks/<team>/` (they outlive the team folder). */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { tasksDir } from './paths.js';
import { readJsonFile, taskSchema, type ClaudeTask } from './schemas.js';

/** The team's tasks in id order; undefined when it has no task folder. */
export async function readTasks(team: string, root?: string, version?: string): Promise<ClaudeTask[] | undefined> {
  const dir = tasksDir(team, root);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const tasks: ClaudeTask[] = [];
  // Only `<n>.json`: the `.lock` beside them and temp files of an atomic write are not tasks.
  for (const name of names.filter((n) => /^[^.].*\.json$/.test(n))) {
    const task = await readJsonFile(path.join(dir, name), taskSchema, version);
    if (task) tasks.push(task); // gone between readdir and read: deleted, not an error
  }
  return tasks.sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
}
