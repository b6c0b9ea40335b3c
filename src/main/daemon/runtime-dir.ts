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
  /**
   * The same host's store-only socket: `store` requests alone (a teammate's), what an ssh -R forwards to a
   * teammate on another machine, so no process there can drive the host (stop it, type into a pane, approve).
   */
  store: string;
  /**
   * In the lease dir, a symlink to the running host's socket: a client whose runtime dir differs from the
   * host's (XDG_RUNTIME_DIR unset in `su`, cron, ssh) still finds it there.
   */
  link: string;
  lock: string;
  log: string;
  /** The dashboard's kept port and token (src/main/web/endpoint.ts), 0600. */
  dashboard: string;
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

/** A Unix socket path longer than this is cut short by the kernel (108 bytes on Linux with the NUL, 104 on macOS). */
export const MAX_SOCKET_PATH = process.platform === 'darwin' ? 103 : 107;

/**
 * Where the one-per-workspace lease lives: `/tmp/thclaws-<uid>-leases`, whatever the environment says. The
 * runtime directory follows `XDG_RUNTIME_DIR`, which cron, `su` and some terminals leave unset: two hosts
 * started from such places would each hold a lease in their own directory and both run the workspace's lead.
 */
export function leaseDir(): string {
  const dir = process.platform === 'win32' ? path.join(os.tmpdir(), 'thclaws-leases') : `/tmp/thclaws-${uid()}-leases`;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`${dir} is not a directory`);
  if (st.uid !== uid()) throw new Error(`${dir} belongs to another user (uid ${st.uid})`);
  if ((st.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
  return dir;
}

/** The host's files for a workspace, keyed by a hash of its real path (two spellings, one host). */
export function hostPaths(workspace: string, env: NodeJS.ProcessEnv = process.env): HostPaths {
  const real = fs.realpathSync(workspace);
  const key = createHash('sha256').update(real).digest('hex').slice(0, 24);
  const dir = runtimeDir(env);
  const socket = path.join(dir, `host-${key}.sock`);
  // Cut short, every workspace's socket would get the same name and a client could reach another workspace's host.
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    throw new Error(`the host's socket path would be ${Buffer.byteLength(socket)} bytes, over the ${MAX_SOCKET_PATH}-byte limit for Unix sockets: set XDG_RUNTIME_DIR to a shorter directory`);
  }
  const leases = leaseDir();
  return { dir, workspace: real, socket, store: path.join(dir, `team-${key}.sock`), link: path.join(leases, `host-${key}.sock`), lock: path.join(leases, `host-${key}.lock`), log: path.join(dir, `host-${key}.log`), dashboard: path.join(dir, `dashboard-${key}.json`) };
}
