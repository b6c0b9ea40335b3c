/**
 * The dashboard's kept address, with real `thclaws dashboard` processes on one workspace: killed and started
 * again it prints the same URL (the page left open can come back); the port and token are kept only in a 0600
 * file in the 0700 runtime dir, never on a command line; the kept port taken by someone else, a new one, said
 * on stdout; a kept file that is malformed, or readable by others, is set aside and a new token made.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { hostPaths } from '../../src/main/daemon/runtime-dir.js';
import { readEndpoint } from '../../src/main/web/endpoint.js';
import { dashboardReady, makeTeamWorkspace, THCLAWS } from './helpers.js';

const execFileP = promisify(execFile);
const ws = fs.realpathSync(makeTeamWorkspace(['alice']));
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-ep-home-'));
const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-ep-rt-')) };
const file = hostPaths(ws, env).dashboard;
const procs: ChildProcess[] = [];
let hostPid = 0;

/** One `thclaws dashboard` run: its URL, what it printed, and its pid (killed with SIGKILL by `kill`). */
async function dashboard(): Promise<{ url: string; out: string; err: () => string; kill: () => Promise<void>; pid: number }> {
  const proc = spawn(THCLAWS, ['dashboard', '--dir', ws, '--no-lead'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(proc);
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ready = await dashboardReady(proc, { hostPid: true, ms: 30_000 });
  hostPid = ready.hostPid;
  return {
    url: ready.url,
    out: ready.out(),
    err: () => err,
    pid: proc.pid!,
    kill: async () => {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

const status = (url: string): Promise<number> =>
  new Promise((resolve, reject) => http.get(url, (res) => (res.resume(), resolve(res.statusCode!))).on('error', reject));
const kept = () => JSON.parse(fs.readFileSync(file, 'utf8')) as { port: number; token: string };
const modeOf = (p: string) => fs.statSync(p).mode & 0o777;
const cmdline = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');

afterAll(async () => {
  for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await execFileP(THCLAWS, ['host', '--stop', '--dir', ws], { env }).catch(() => undefined);
});

describe("a dashboard started again serves the same URL, kept 0600 in the runtime dir", () => {
  it('killed and started again: the same URL, which serves the page; the token only in the private file and the printed URL', async () => {
    const first = await dashboard();
    const token = new URL(first.url).searchParams.get('token')!;
    expect(kept()).toEqual({ port: Number(new URL(first.url).port), token });
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(path.dirname(file))).toBe(0o700);
    // Nowhere on a command line: neither the dashboard's nor its host's.
    if (process.platform === 'linux') for (const pid of [first.pid, hostPid]) expect(cmdline(pid)).not.toContain(token);
    await first.kill();

    const second = await dashboard();
    expect(second.url).toBe(first.url);
    expect(second.out).not.toContain('is taken');
    expect(await status(second.url)).toBe(200);
    await second.kill();
  });

  it('the kept port taken: a new port with the same token, said on stdout; the kept address stays and comes back once free', async () => {
    const before = kept();
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(before.port, '127.0.0.1', () => r()));
    try {
      const d = await dashboard();
      const url = new URL(d.url);
      expect(Number(url.port)).not.toBe(before.port);
      expect(url.searchParams.get('token')).toBe(before.token);
      expect(d.out).toContain(`port ${before.port}, this workspace's dashboard address, is taken (another dashboard of it, or another program): serving on ${url.port} for now`);
      expect(kept()).toEqual(before);
      await d.kill();
    } finally {
      await new Promise((r) => squatter.close(r));
    }
    const again = await dashboard();
    expect(new URL(again.url).port).toBe(String(before.port));
    await again.kill();
  });

  it('a second dashboard of the workspace while the first runs: its own port, and the first keeps the address', async () => {
    const first = await dashboard();
    const second = await dashboard();
    expect(second.url).not.toBe(first.url);
    expect(new URL(second.url).searchParams.get('token')).toBe(new URL(first.url).searchParams.get('token'));
    await second.kill();
    await first.kill();
    const again = await dashboard();
    expect(again.url).toBe(first.url);
    await again.kill();
  });

  it('a malformed kept file is set aside (0600) and replaced: a new token, said on stderr', async () => {
    const before = kept();
    fs.writeFileSync(file, '{"port": 1, "token": "short"', { mode: 0o600 });
    const d = await dashboard();
    const token = new URL(d.url).searchParams.get('token')!;
    expect(token).not.toBe(before.token);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(d.err()).toContain('was not JSON: set it aside as');
    const aside = fs.readdirSync(path.dirname(file)).filter((f) => f.startsWith(`${path.basename(file)}.bad-`));
    expect(aside).toHaveLength(1);
    expect(modeOf(path.join(path.dirname(file), aside[0]!))).toBe(0o600);
    expect(kept().token).toBe(token);
    expect(modeOf(file)).toBe(0o600);
    await d.kill();
  });

  it('a kept file others may read is not trusted: its token is never served again', async () => {
    const leaked = kept();
    fs.chmodSync(file, 0o644);
    const d = await dashboard();
    expect(new URL(d.url).searchParams.get('token')).not.toBe(leaked.token);
    expect(d.err()).toContain('readable by others (mode 644)');
    expect(modeOf(file)).toBe(0o600);
    await d.kill();
  });

  it('a symlink in its place is set aside, never followed', () => {
    const target = path.join(home, 'elsewhere.json');
    fs.writeFileSync(target, JSON.stringify({ port: 4000, token: 'a'.repeat(43) }), { mode: 0o600 });
    const link = path.join(home, 'link.json');
    fs.symlinkSync(target, link);
    const r = readEndpoint(link);
    expect(r.endpoint).toBeNull();
    expect(r.note).toContain('not a regular file');
    expect(fs.existsSync(link)).toBe(false);
    expect(fs.readFileSync(target, 'utf8')).toContain('4000');
  });
});
