import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where a workspace's host keeps its lease, socket and log: outside the workspace, only this user's. */
export interface HostPaths {
  dir: string;
  /** The workspace's real path (symlinks resolved): the key's source. */
  workspace: string;
  socket: string;
  lock: string;
  log: string;
}

const uid = (): number => (typeof process.getuid === 'function' ? process.getuid() : 0);

/**
 * The user's runtime directory: `$XDG_RUNTIME_DIR/thclaws` when that is set (a per-user 0700 tmpfs on
 * systemd machines), else `<tmp>/thclaws-<uid>`. Created 0700; refused when another user owns it or others
 * may enter it (someone could have made it first to watch or replace the sockets).
 */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR) ? path.join(env.XDG_RUNTIME_DIR, 'thclaws') : path.join(os.tmpdir(), `thclaws-${uid()}`);
  fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(base);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`${base} is not a directory`);
  if (st.uid !== uid()) throw new Error(`${base} belongs to another user (uid ${st.uid})`);
  if ((st.mode & 0o077) !== 0) fs.chmodSync(base, 0o700);
  return base;
}

/** The host's files for a workspace, keyed by a hash of its real path (two spellings, one host). */
export function hostPaths(workspace: string, env: NodeJS.ProcessEnv = process.env): HostPaths {
  const real = fs.realpathSync(workspace);
  const key = createHash('sha256').update(real).digest('hex').slice(0, 24);
  const dir = runtimeDir(env);
  return { dir, workspace: real, socket: path.join(dir, `host-${key}.sock`), lock: path.join(dir, `host-${key}.lock`), log: path.join(dir, `host-${key}.log`) };
}
