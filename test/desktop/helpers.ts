import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostEvent, Member } from '../../src/contract/api.js';
import { bundleForNode } from '../bundle-node.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const THCLAWS = path.join(ROOT, 'bin/thclaws');

/** The agent simulator, bundled once and run by plain node (fast start, no loader thread). */
export const agentSimScript = (): string => bundleForNode('test/desktop/agent-sim.ts');

/** A git workspace with a team made by the store's CLI, as a person would make it. */
export function makeTeamWorkspace(members: string[], tasks: string[] = []): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-desk-'));
  execFileSync('git', ['init', '-q'], { cwd: ws });
  execFileSync(THCLAWS, ['team', 'create', 'demo', '--members', members.join(','), '--dir', ws], { stdio: 'pipe' });
  for (const t of tasks) execFileSync(THCLAWS, ['team', 'task', 'add', '--subject', t, '--dir', ws], { stdio: 'pipe' });
  return ws;
}

export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The events of one WebSocket message from the dashboard: one or more, one per line (server.ts `eventMessages`). */
export const messageEvents = (text: string): HostEvent[] => text.split('\n').map((l) => JSON.parse(l) as HostEvent);

/**
 * A member as a dashboard shows it after `events`, folded as the renderer's `reduceTeam` does (a `roster`
 * replaces the members, a `member` replaces one), so a state carried by a roster counts as much as one carried
 * by a `member` delta. The host sends a change once, in whichever comes first (a status written as the team is
 * re-created arrives inside the new roster, and the status event after it changes nothing), so a test that
 * looks only at `member` events can wait forever.
 */
export function shownMember(events: HostEvent[], name: string): Member | undefined {
  let m: Member | undefined;
  for (const e of events) {
    if (e.type === 'roster') m = e.members.find((x) => x.name === name);
    if (e.type === 'member' && e.member.name === name) m = e.member;
  }
  return m;
}

/**
 * Waits for a `thclaws dashboard` (or `npm run demo -- --dashboard`) to print its URL and, with `hostPid`, its
 * host's pid; a process that exits first rejects at once with what it printed (e.g. the renderer not built).
 */
export function dashboardReady(proc: ChildProcess, opts: { hostPid?: boolean; ms?: number; what?: string } = {}): Promise<{ url: string; hostPid: number; out: () => string }> {
  let out = '';
  const what = opts.what ?? 'the dashboard';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} printed no URL${opts.hostPid ? ' and host pid' : ''} in ${(opts.ms ?? 60_000) / 1000} s: ${out}`)), opts.ms ?? 60_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /http:\/\/\S+token=\S+/.exec(out)?.[0];
      const pid = /host \(pid (\d+)\)/.exec(out)?.[1];
      if (!url || (opts.hostPid && !pid)) return;
      clearTimeout(timer);
      resolve({ url, hostPid: Number(pid ?? 0), out: () => out });
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before its URL: ${out}`));
    });
  });
}
