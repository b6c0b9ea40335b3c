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
  const dir = path.join(sessionsDir(workspace), `${m[1]}.outputs`);
  let fd: number;
  try {
    // No symlink at the end, and no wait on a FIFO (a blocking open would hang the host until a writer came).
    fd = fs.openSync(path.join(dir, m[2]!), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new TeamError('not_found', `${m[2]} is no longer in this workspace's .thclaws/sessions (removed, or saved in another workspace)`);
    throw new TeamError('invalid', `${m[2]} is not a regular file`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new TeamError('invalid', `${m[2]} is not a regular file`);
    // Nor a folder on the way turned into a symlink (`sessions` or `<id>.outputs` leading out of the workspace).
    if (!inSessions(workspace, fd, dir, m[1]!, m[2]!)) throw new TeamError('invalid', `${m[2]} is not in this workspace's .thclaws/sessions (a symlink leads out)`);
    const buf = Buffer.alloc(Math.min(st.size, MAX_BYTES));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    // Streamed, the decoder keeps back a character the cut split (else it ends in U+FFFD).
    const text = new TextDecoder().decode(buf.subarray(0, n), { stream: st.size > n });
    return { name: m[2]!, text, bytes: st.size, cut: st.size > n };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Whether the open file is really `<workspace>/.thclaws/sessions/<id>.outputs/<name>` (the workspace itself may be
 * reached by a symlink). Where /proc names what was opened, that is the path checked: a folder swapped for a
 * symlink and back between the open and this check is seen; elsewhere the folder's real path as it is now.
 */
function inSessions(workspace: string, fd: number, dir: string, id: string, name: string): boolean {
  try {
    const want = path.join(fs.realpathSync(workspace), '.thclaws', 'sessions', `${id}.outputs`, name);
    return (openedPath(fd) ?? path.join(fs.realpathSync(dir), name)) === want;
  } catch {
    return false;
  }
}

/** The path the kernel holds for an open file (Linux), or null without /proc. */
function openedPath(fd: number): string | null {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}
