/**
 * `npm run demo -- --dashboard`'s Ctrl-C says what it stops: a real `thclaws dashboard --demo`, its demo team
 * built by its scripted lead, then SIGINT as a terminal sends it. It names the agents and their host before
 * stopping them, says it is done, exits 0, and the throw-away workspace is gone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pidAlive } from '../../src/core/store/holder.js';
import { dashboardReady, THCLAWS, waitFor } from './helpers.js';

describe("the demo's Ctrl-C", () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-democ-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-democ-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  let dash: ChildProcess | undefined;
  let hostPid = 0;

  afterAll(() => {
    if (dash?.exitCode === null) dash.kill('SIGKILL');
    if (hostPid && pidAlive(hostPid)) process.kill(hostPid, 'SIGKILL');
  });

  it('names the agents and the host it stops and the folder it removes, then says it is done', async () => {
    dash = spawn(THCLAWS, ['dashboard', '--demo', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const ready = await dashboardReady(dash, { hostPid: true, what: 'the demo' });
    hostPid = ready.hostPid;
    const ws = /thclaws dashboard for (\S+)/.exec(ready.out())![1]!;
    // Its own write after the URL's: it may come in a later chunk than the one the ready wait saw.
    await waitFor(() => ready.out().includes("Ctrl-C stops the demo's agents and removes its workspace."), `the demo's help line (${ready.out()})`, 10_000);
    // The demo's lead builds its team (the names Ctrl-C will say).
    await waitFor(() => fs.existsSync(path.join(ws, '.thclaws', 'state', 'team', 'config.json')), 'the demo team created', 90_000);
    const exited = new Promise<number | null>((r) => dash!.once('exit', (code) => r(code)));
    dash.kill('SIGINT');
    expect(await exited).toBe(0);
    const out = ready.out();
    expect(out).toContain(`stopping the demo: the lead and backend, frontend, qa in the demo's host (pid ${hostPid}), then removing its workspace ${ws}\n`);
    expect(out).toContain(`stopped the demo; removed ${ws}\n`);
    expect(out.indexOf('stopping the demo')).toBeLessThan(out.indexOf('stopped the demo'));
    expect(fs.existsSync(ws)).toBe(false);
    await waitFor(() => !pidAlive(hostPid), "the demo's host gone", 30_000);
  }, 180_000);
});
