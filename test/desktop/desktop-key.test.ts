/**
 * The desktop app's model key stays encrypted at rest now that its dashboard is a client of a plain-Node host:
 * Electron main (here: the same RemoteViews code path with a real AES `KeyCipher` standing in for safeStorage)
 * encrypts a key the page saves before it reaches the disk and hands it to the host in memory (`key_hold`),
 * also to a host started again later. Real host processes and agents: the key's bytes are never on disk in
 * clear (config dir, workspace, runtime dir with the host's log), never in any process's command line, never
 * in the host's or this client's environment listing, never in a frame sent to the page (its last 4 only);
 * only the agents the host starts get it in their environment, as the key they spend.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../src/core/agent/api-key.js';
import { aesTestCipher } from '../aes-cipher.js';
import { LEAD, TeamStore } from '../../src/core/store/index.js';
import { DesktopKeys } from '../../src/main/daemon/desktop-keys.js';
import { hostTarget } from '../../src/main/daemon/host-targets.js';
import { RemoteViews, type ViewLink } from '../../src/main/daemon/remote-views.js';
import { readViewEvent } from '../../src/main/daemon/view-event.js';
import type { HostEvent } from '../../src/contract/api.js';
import { makeTeamWorkspace, THCLAWS, waitFor } from './helpers.js';

const execFileP = promisify(execFile);
const KEY = 'sk-ant-api03-DesktopOnly0123456789abcdefghij_-QrSt';

/** Every file under `dir` whose bytes hold `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const p = path.join(e.parentPath, e.name);
    try {
      if (e.isFile() && fs.readFileSync(p).includes(needle)) hits.push(p);
    } catch {
      // a temp file renamed away meanwhile: its bytes are in the file it became
    }
  }
  return hits;
}

const parentOf = (pid: number): number | null => {
  try {
    return Number(/^PPid:\s*(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  } catch {
    return null;
  }
};
const descends = (pid: number, from: number): boolean => {
  for (let p: number | null = parentOf(pid); p && p > 1; p = parentOf(p)) if (p === from) return true;
  return false;
};

/** The pids whose /proc file (cmdline or environ) holds the key, among those this user can read. */
function processesHolding(file: 'cmdline' | 'environ'): number[] {
  const pids: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/${file}`).includes(KEY)) pids.push(Number(d));
    } catch {
      // gone, or another user's
    }
  }
  return pids;
}

describe("the desktop app's key: encrypted at rest by main, held in memory by the host", () => {
  const ws = fs.realpathSync(makeTeamWorkspace(['alice']));
  const store = TeamStore.forWorkspace(ws);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-dkey-home-'));
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-dkey-rt-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: runtime };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  // No model call is made; were one made, it would go nowhere.
  env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';
  const cipher = aesTestCipher();
  const events: HostEvent[] = [];
  const links: ViewLink[] = [];
  const hostPids: number[] = [];
  const desktop = () => new RemoteViews(hostTarget(ws, {}, env), { targetFor: (d) => hostTarget(d, {}, env), demo: () => Promise.reject(new Error('no demo')), client: 'electron', keys: new DesktopKeys(cipher, env) });
  let next = 1;
  const request = async (link: ViewLink, body: Record<string, unknown>) => {
    const id = next++;
    await link.handle({ id, ...body });
    return waitFor(() => events.find((e): e is Extract<HostEvent, { type: 'reply' }> => e.type === 'reply' && e.id === id), `the reply to ${String(body.type)}`, 60_000);
  };
  const lastSetup = () => events.filter((e): e is Extract<HostEvent, { type: 'setup' }> => e.type === 'setup').at(-1)?.setup;
  const credentials = new ApiKeyStore({ env }).file;

  beforeAll(async () => {
    fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ teamEnabled: true }));
  });

  afterAll(async () => {
    for (const l of links) l.close();
    await execFileP(THCLAWS, ['host', '--stop', '--dir', ws], { env }).catch(() => undefined);
    for (const pid of hostPids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }, 60_000);

  it('a key saved from the page is encrypted by main before the disk; the host holds it for its agents; the page sees its last 4', async () => {
    const views = desktop();
    hostPids.push(await views.probe());
    const link = views.connect((e) => events.push(readViewEvent(e)!));
    links.push(link);
    await request(link, { type: 'subscribe' });
    await waitFor(() => lastSetup()?.needs_key, 'the welcome: no key yet', 60_000);

    const saved = await request(link, { type: 'key_set', key: ` ${KEY} ` });
    expect(saved).toMatchObject({ ok: true, result: { last4: 'QrSt' } });
    // At rest: encrypted with the desktop's cipher, mode 0600; the CLI's plain reader says what to do instead.
    const file = JSON.parse(fs.readFileSync(credentials, 'utf8')) as Record<string, string>;
    expect(file).toEqual({ anthropic_api_key_enc: expect.any(String), cipher: 'test-safeStorage' });
    expect(fs.statSync(credentials).mode & 0o777).toBe(0o600);
    expect(() => new ApiKeyStore({ env }).read()).toThrow(/encrypted by the desktop app's keychain/);

    // The lead was waiting only for the key: it starts, with the key in its environment; so does a teammate.
    const lead = await waitFor(async () => (await store.statuses.read(LEAD))?.pid, 'the lead running', 60_000);
    // Its reply may say "did not come up within 8 s" on a loaded machine (the pty runs on): its status says when it is up.
    await request(link, { type: 'member_start', name: 'alice' });
    const alice = await waitFor(async () => {
      const s = await store.statuses.read('alice');
      return s?.pid && descends(s.pid, hostPids[0]!) ? s.pid : null;
    }, 'alice running in the host', 90_000);
    expect(lastSetup()).toMatchObject({ needs_key: false, key: { source: 'file', last4: 'QrSt' } });

    const host = hostPids[0]!;
    expect(processesHolding('cmdline')).toEqual([]);
    const withKey = processesHolding('environ');
    expect(withKey).not.toContain(host);
    expect(withKey).not.toContain(process.pid);
    // Only the agents (and their own wrappers) have it: the host's children. A short-lived child of an agent (a git
    // run during boot) can be caught just as its parent exits and reads as re-parented: a lasting orphan fails.
    const strays = () => processesHolding('environ').filter((pid) => !descends(pid, host));
    await waitFor(() => strays().length === 0, `every process holding the key to be one of the host's agents (not: ${strays().join(', ')})`, 20_000);
    expect(withKey).toEqual(expect.arrayContaining([lead, alice]));

    for (const dir of [home, ws, runtime]) expect(filesHolding(dir, KEY), dir).toEqual([]);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY.slice(0, -4));
  }, 240_000);

  it("a page of the same host served to a browser cannot replace the desktop's encrypted key with one in clear", async () => {
    const browser = new RemoteViews(hostTarget(ws, {}, env), { targetFor: (d) => hostTarget(d, {}, env), demo: () => Promise.reject(new Error('no demo')) });
    const link = browser.connect((e) => events.push(readViewEvent(e)!));
    links.push(link);
    const other = 'sk-ant-api03-SomethingElse0123456789abcdefghij_-ZzZz';
    const r = await request(link, { type: 'key_set', key: other });
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/kept encrypted by the desktop app/) });
    expect(fs.readFileSync(credentials, 'utf8')).toContain('test-safeStorage');
    expect(filesHolding(home, other)).toEqual([]);
    link.close();
  }, 120_000);

  it('the next host (the desktop app started again) gets the key from main in memory: the lead starts, nothing in clear', async () => {
    for (const l of links.splice(0)) l.close();
    await execFileP(THCLAWS, ['host', '--stop', '--dir', ws], { env });
    events.length = 0;
    const views = desktop();
    const pid = await views.probe();
    hostPids.push(pid);
    expect(pid).not.toBe(hostPids[0]);
    const link = views.connect((e) => events.push(readViewEvent(e)!));
    links.push(link);
    await request(link, { type: 'subscribe' });
    await waitFor(() => lastSetup()?.key?.last4 === 'QrSt', 'the host holding the key', 60_000);
    const lead = await waitFor(async () => {
      const s = await store.statuses.read(LEAD);
      return s?.pid && descends(s.pid, pid) ? s.pid : null;
    }, 'the lead started by the new host', 60_000);
    expect(processesHolding('environ')).toContain(lead);
    expect(processesHolding('environ')).not.toContain(pid);
    expect(processesHolding('cmdline')).toEqual([]);
    for (const dir of [home, ws, runtime]) expect(filesHolding(dir, KEY), dir).toEqual([]);
    expect(JSON.stringify(events)).not.toContain(KEY);
  }, 240_000);
});
