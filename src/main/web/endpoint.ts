/**
 * The dashboard's address kept between runs: a dashboard started again for the same workspace serves the same
 * URL (port and token), so a page left open reconnects by itself. The token lives only in this file (0600, in
 * the 0700 runtime dir, keyed by the workspace's real path) and in the URL printed to the person, never on a
 * command line. A file that is not this user's private regular file, or does not parse, is set aside and a new
 * token made: it is never trusted blindly.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/store/index.js';
import { hostPaths, runtimeDir } from '../daemon/runtime-dir.js';

/** 32 random bytes, base64url: what `startDashboardServer` makes when given none. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const EndpointSchema = z.object({ port: z.number().int().min(1).max(65535), token: z.string().regex(TOKEN) }).strict();
export type Endpoint = z.infer<typeof EndpointSchema>;

export interface KeptEndpoint {
  file: string;
  token: string;
  /** The port the last dashboard served on; absent on a first run or after a bad file. */
  port?: number;
  /** One line for the person when the file was set aside. */
  note?: string;
  /**
   * Records the port now served with this token: a new file made only if none appeared meanwhile (two first
   * runs at once: the first one's address is kept), a kept one rewritten only when the port changed.
   */
  save(port: number): void;
}

export const newToken = (): string => randomBytes(32).toString('base64url');

const uid = (): number | null => (typeof process.getuid === 'function' ? process.getuid() : null);

/** The kept endpoint of a workspace's dashboard, or a new token when there is none to trust. */
export function keptEndpoint(workspace: string, env: NodeJS.ProcessEnv = process.env): KeptEndpoint {
  return keptEndpointAt(hostPaths(workspace, env).dashboard);
}

/** A remote workspace's dashboard (`--remote`): kept here, keyed by its URL (the folder is on the other machine). */
export function keptRemoteEndpoint(url: string, env: NodeJS.ProcessEnv = process.env): KeptEndpoint {
  const key = createHash('sha256').update(url).digest('hex').slice(0, 24);
  return keptEndpointAt(path.join(runtimeDir(env), `dashboard-remote-${key}.json`));
}

function keptEndpointAt(file: string): KeptEndpoint {
  const read = readEndpoint(file);
  const token = read.endpoint?.token ?? newToken();
  return {
    file,
    token,
    ...(read.endpoint ? { port: read.endpoint.port } : {}),
    ...(read.note ? { note: read.note } : {}),
    save: (port) => {
      const text = `${JSON.stringify({ port, token })}\n`;
      if (!read.endpoint) createPrivate(file, text);
      else if (read.endpoint.port !== port) writeFileAtomic(file, text, { mode: 0o600 });
    },
  };
}

/** A new 0600 file, whole or not at all; false when one exists already (it is left as it is). */
function createPrivate(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.new`;
  fs.rmSync(tmp, { force: true });
  fs.writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

export function readEndpoint(file: string): { endpoint: Endpoint | null; note?: string } {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return { endpoint: null };
  const why = !st.isFile()
    ? 'not a regular file'
    : uid() !== null && st.uid !== uid()
      ? `owned by uid ${st.uid}`
      : (st.mode & 0o077) !== 0
        ? `readable by others (mode ${(st.mode & 0o777).toString(8)})`
        : null;
  if (why) return setAside(file, why);
  let text: string;
  try {
    // O_NOFOLLOW: a link swapped in after the lstat is refused, not followed.
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    try {
      text = fs.readFileSync(fd, 'utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    return setAside(file, `unreadable (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return setAside(file, 'not JSON');
  }
  const parsed = EndpointSchema.safeParse(raw);
  return parsed.success ? { endpoint: parsed.data } : setAside(file, 'not a port and token');
}

/** Moves a file not to be trusted out of the way (kept 0600 for a look), so the next save starts afresh. */
function setAside(file: string, why: string): { endpoint: null; note: string } {
  const aside = `${file}.bad-${Date.now()}`;
  try {
    fs.renameSync(file, aside);
    fs.chmodSync(aside, 0o600);
  } catch {
    fs.rmSync(file, { force: true, recursive: true });
    return { endpoint: null, note: `the dashboard's kept address ${file} was ${why}: removed it; this dashboard has a new URL` };
  }
  return { endpoint: null, note: `the dashboard's kept address ${file} was ${why}: set it aside as ${aside}; this dashboard has a new URL` };
}
