/**
 * `npm run bench -- store-remote`: task claims per second by a teammate whose store is the lead's host's (each claim with its completion)
 * (HostStore → the host's Unix socket → its StoreServer → the files) against the same claims on the local files
 * (TeamStore), in one run: one claimer, then four at once. The host is a real `thclaws host --no-lead` process.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HostStore } from '../src/core/store/host-store.js';
import { TeamStore } from '../src/core/store/index.js';
import { connectStoreSocket } from '../src/main/daemon/store-link.js';
import { hostPaths } from '../src/main/daemon/runtime-dir.js';
import type { BenchSection } from './types.js';

const REPO = path.resolve(import.meta.dirname, '..');
const TASKS = Number(process.env.BENCH_STORE_REMOTE_TASKS) || 400;
const CLAIMERS = ['c0', 'c1', 'c2', 'c3'];

type Claimer = Pick<TeamStore['tasks'], 'claimNext' | 'complete'>;

async function team(dir: string): Promise<TeamStore> {
  const store = TeamStore.forWorkspace(dir, {});
  store.init();
  await store.config.create({ name: 'bench', members: CLAIMERS.map((name) => ({ name })) });
  for (let i = 0; i < TASKS; i++) await store.tasks.create({ subject: `t${i}`, description: '' });
  return store;
}

/**
 * Claims until none is left, each claimer as fast as it can; an agent holds one task at a time, so each claim is
 * followed by its completion: claims (each with its completion) per second over the whole run.
 */
async function claimAll(claimers: Array<{ name: string; tasks: Claimer }>): Promise<{ claims: number; seconds: number }> {
  const t0 = performance.now();
  const counts = await Promise.all(claimers.map(async ({ name, tasks }) => {
    let n = 0;
    for (let t = await tasks.claimNext(name); t; t = await tasks.claimNext(name)) {
      await tasks.complete(t.id, name, 'done');
      n++;
    }
    return n;
  }));
  return { claims: counts.reduce((a, b) => a + b, 0), seconds: (performance.now() - t0) / 1000 };
}

async function local(n: number): Promise<{ claims: number; seconds: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-local-'));
  try {
    const store = await team(dir);
    const leases = await Promise.all(CLAIMERS.slice(0, n).map((c) => store.acquireLease(c)));
    const r = await claimAll(CLAIMERS.slice(0, n).map((name) => ({ name, tasks: store.tasks })));
    for (const l of leases) await l.release();
    return r;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function viaHost(n: number): Promise<{ claims: number; seconds: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-remote-'));
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-store-rt-'));
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime };
  // The team exists before its host starts, as a lead's host serves its team.
  await team(dir);
  const host = spawn(path.join(REPO, 'bin/thclaws'), ['host', '--dir', dir, '--no-lead', '--idle-ms', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    host.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    for (let i = 0; !/ready \(pid \d+\)/.test(out); i++) {
      if (i > 600 || host.exitCode !== null) throw new Error(`the host did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const socket = hostPaths(dir, env).socket;
    const stores = CLAIMERS.slice(0, n).map((agent) => new HostStore({ agent, connect: () => connectStoreSocket(socket) }));
    const leases = await Promise.all(stores.map((s) => s.attach()));
    const r = await claimAll(stores.map((s) => ({ name: s.agent, tasks: s.tasks })));
    for (const l of leases) await l.release();
    return r;
  } finally {
    host.kill('SIGTERM');
    await new Promise((r) => (host.exitCode !== null ? r(null) : host.once('exit', r)));
    for (const d of [dir, runtime]) fs.rmSync(d, { recursive: true, force: true });
  }
}

export async function runStoreRemoteBench(): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  const details: Record<string, unknown> = {};
  for (const n of [1, 4]) {
    const l = await local(n);
    const h = await viaHost(n);
    details[`claimers_${n}`] = { local: l, host: h };
    const rate = (x: { claims: number; seconds: number }) => Math.round(x.claims / x.seconds);
    rows.push({ 'claim + complete': `${n} claimer${n > 1 ? 's' : ''}`, 'local files (TeamStore)': `${rate(l)} /s`, 'through the host (HostStore)': `${rate(h)} /s`, 'host / local': `${(rate(h) / rate(l)).toFixed(2)}×`, tasks: TASKS });
  }
  return { title: "A teammate's claims through the lead's host against local files", file: 'store-remote', rows, details };
}
