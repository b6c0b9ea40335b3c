import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectOrStartHost } from '../../src/main/daemon/host-client.js';
import { RemoteViews } from '../../src/main/daemon/remote-views.js';
import { THCLAWS } from './helpers.js';

export const tmp = (p: string): string => fs.mkdtempSync(path.join(os.tmpdir(), p));

/** A running host (no lead) and the views of a dashboard that is its client; `stops` gets what kills the host. */
export async function hostAndViews(prefix: string, stops: Array<() => Promise<unknown>>) {
  const ws = tmp(prefix);
  const env = { ...process.env, XDG_RUNTIME_DIR: tmp('hard-rt-') };
  const argv = [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'];
  const c = await connectOrStartHost(ws, argv, { client: 'test', env });
  stops.push(async () => process.kill(c.pid, 'SIGKILL'));
  c.close();
  return { c, ws, env, argv, views: viewsOf(ws, argv, env) };
}

/** The views of a dashboard for `ws`, which start its host with `argv` when none runs. */
export const viewsOf = (ws: string, argv: string[], env: NodeJS.ProcessEnv): RemoteViews =>
  new RemoteViews({ workspace: ws, argv, env }, { targetFor: () => ({ workspace: ws, argv, env }), demo: () => Promise.reject(new Error('no demo')) });
