/**
 * A tool output a pane cut short ("… 85 more lines (all in .thclaws/sessions/<id>.outputs/Bash-<call>.txt)"),
 * whole, for the dashboard's expander. The pane's text is the agent's, so the name it gives is only a key: the
 * file is looked up in this workspace's sessions folder by its two names, never by the path as written (no
 * `..`, no other folder, no symlink), and at most MAX_BYTES of it are sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sessionsDir } from '../../core/agent/sessions.js';
import { TeamError } from '../../core/store/index.js';

/** `<session id>.outputs/<file>.txt` at the end of what the pane names (relative, or absolute from a worktree). */
export const SAVED_OUTPUT = /(?:^|\/)\.thclaws\/sessions\/([A-Za-z0-9][\w-]*)\.outputs\/([\w.-]+\.txt)$/;
/** What one reply carries (the page's messages are at most 1 MiB). */
export const MAX_BYTES = 512 * 1024;

export interface SavedOutput {
  /** The file's name (the tool and its call). */
  name: string;
  text: string;
  /** Its size in bytes; more than `text` holds when it was cut to MAX_BYTES. */
  bytes: number;
  cut: boolean;
}

export function readSavedOutput(workspace: string, file: string): SavedOutput {
  const m = SAVED_OUTPUT.exec(file);
  if (!m) throw new TeamError('invalid', `not a saved tool output: ${file.slice(0, 200)}`);
  const full = path.join(sessionsDir(workspace), `${m[1]}.outputs`, m[2]!);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(full);
  } catch {
    throw new TeamError('not_found', `${m[2]} is no longer in this workspace's .thclaws/sessions (removed, or saved in another workspace)`);
  }
  if (!st.isFile()) throw new TeamError('invalid', `${m[2]} is not a regular file`);
  const fd = fs.openSync(full, 'r');
  try {
    const buf = Buffer.alloc(Math.min(st.size, MAX_BYTES));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return { name: m[2]!, text: buf.subarray(0, n).toString('utf8'), bytes: st.size, cut: st.size > n };
  } finally {
    fs.closeSync(fd);
  }
}
