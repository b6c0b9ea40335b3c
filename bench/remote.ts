/**
 * The team on another machine (`thclaws dashboard --remote`): the same view requests over the SSH stream
 * (loopback sshd, a second local user: test/remote/ssh-machine.ts) against the workspace host's local socket,
 * in one run, each with a scripted lead in its REPL.
 * - keystroke echo: one character typed into the lead's pty → its echo back in an output event (the view's
 *   round trip: request → host → pty → host → view), BENCH_REMOTE_KEYS keys each side, alternating sides;
 * - pane throughput: the lead prints BENCH_REMOTE_MIB MiB (a scripted reply) while the view acknowledges as a
 *   renderer does; characters per second from the prompt sent to the last character received.
 * Needs root (local users, sshd); otherwise the section says why and measures nothing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostEvent } from '../src/contract/api.js';
import { connectOrStartHost, stopHost, type HostConnection } from '../src/main/daemon/host-client.js';
import { hostTarget } from '../src/main/daemon/host-targets.js';
import { parseRemoteUrl } from '../src/main/daemon/remote-url.js';
import { connectRemoteHost } from '../src/main/daemon/ssh-link.js';
import { skipReason, startSshMachine } from '../test/remote/ssh-machine.js';
import type { BenchSection } from './types.js';

const KEYS = Number(process.env.BENCH_REMOTE_KEYS ?? 40);
const MIB = Number(process.env.BENCH_REMOTE_MIB ?? 1);
const LEAD = 'lead';
const line = (i: number) => `flood line ${String(i).padStart(6, '0')} ${'x'.repeat(60)}`;
const FLOOD = Array.from({ length: Math.ceil((MIB * 1024 * 1024) / 80) }, (_, i) => line(i)).join('\n') + '\nFLOOD END';
const SCRIPT = { rules: [{ match: 'flood please', turns: [{ text: FLOOD }] }], fallback: [{ text: 'ok' }] };

/** A view of one host connection: acknowledges output as a renderer does; waits for what the lead's pane shows. */
function view(c: HostConnection) {
  let text = '';
  const waiters = new Set<() => void>();
  c.onEvent((e: HostEvent) => {
    if (e.type !== 'output' && e.type !== 'replay') return;
    if (e.agent !== LEAD) return;
    text += e.data;
    if (e.data.length) c.send({ id: 0, type: 'ack', agent: LEAD, chars: e.data.length });
    for (const w of waiters) w();
  });
  const until = (ok: (t: string) => boolean, ms = 60_000) =>
    new Promise<void>((resolve, reject) => {
      if (ok(text)) return resolve();
      const timer = setTimeout(() => (waiters.delete(w), reject(new Error(`bench remote: timed out; the pane shows …${text.slice(-200)}`))), ms);
      const w = () => {
        if (!ok(text)) return;
        clearTimeout(timer);
        waiters.delete(w);
        resolve();
      };
      waiters.add(w);
    });
  return { until, length: () => text.length, text: () => text };
}

const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * f))] ?? NaN;
const ms = (x: number) => `${x.toFixed(2)} ms`;

export async function runRemoteBench(): Promise<BenchSection> {
  const title = 'Remote: the view over SSH (loopback sshd, another user) against the local socket';
  const why = skipReason();
  if (why) return { title, file: 'remote', rows: [{ metric: 'not measured', value: why, target: '' }] };
  const m = await startSshMachine({ users: ['thcr1'] });
  const local = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-remote-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: local, XDG_CONFIG_HOME: path.join(local, '.config'), XDG_RUNTIME_DIR: local };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  const conns: HostConnection[] = [];
  try {
    // The same workspace on both sides: a git repo on the scripted provider, the lead on SCRIPT.
    const lws = path.join(local, 'ws');
    fs.mkdirSync(path.join(lws, '.thclaws'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: lws });
    fs.writeFileSync(path.join(lws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted' }));
    fs.writeFileSync(path.join(local, 'script.json'), JSON.stringify(SCRIPT));
    const rws = m.workspace('thcr1');
    const made = m.run('thcr1', ['sh', '-c', 'cd "$1" && git init -q && mkdir .thclaws && printf %s \'{"provider":"scripted"}\' > .thclaws/settings.json && cat > .git/script.json', 'sh', rws], { input: JSON.stringify(SCRIPT) });
    if (made.status !== 0) throw new Error(`bench remote: the remote workspace: ${made.stderr.trim()}`);

    const t = hostTarget(lws, { leadScript: path.join(local, 'script.json') }, env);
    const sides = {
      local: await connectOrStartHost(t.workspace, t.argv, { client: 'bench', env }),
      remote: await connectRemoteHost(parseRemoteUrl(m.url('thcr1', rws)), { leadScript: path.join(rws, '.git', 'script.json') }, { client: 'bench', ssh: m.sshWords, bin: m.bin, env }),
    };
    conns.push(sides.local, sides.remote);
    const views = { local: view(sides.local), remote: view(sides.remote) };
    for (const [name, c] of Object.entries(sides)) {
      c.send({ id: 1, type: 'subscribe' });
      c.send({ id: 2, type: 'attach', agent: LEAD, cols: 120, rows: 40 });
      await views[name as keyof typeof views].until((s) => s.includes('thclaws>'), 90_000);
    }
    // Keystroke echo, alternating sides so both meet the same load.
    const echo: Record<'local' | 'remote', number[]> = { local: [], remote: [] };
    for (let i = 0; i < KEYS * 2; i++) {
      const side = i % 2 ? 'remote' : 'local';
      const v = views[side];
      const before = v.length();
      const t0 = performance.now();
      sides[side].send({ id: 0, type: 'input', agent: LEAD, data: 'x' });
      await v.until((s) => s.length > before && s.slice(before).includes('x'), 10_000);
      echo[side].push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 40 + Math.random() * 40));
    }
    // Clear the typed line (Ctrl-U), then the flood on each side in turn.
    const mibps: Record<'local' | 'remote', number> = { local: 0, remote: 0 };
    for (const side of ['local', 'remote'] as const) {
      sides[side].send({ id: 0, type: 'input', agent: LEAD, data: '\x15' });
      await new Promise((r) => setTimeout(r, 200));
      const v = views[side];
      const before = v.length();
      const t0 = performance.now();
      sides[side].send({ id: 0, type: 'input', agent: LEAD, data: 'flood please\r' });
      await v.until((s) => s.length > before && s.slice(before).includes('FLOOD END'), 180_000);
      const chars = v.length() - before;
      mibps[side] = chars / (1024 * 1024) / ((performance.now() - t0) / 1000);
    }
    const p50 = { local: q(echo.local, 0.5), remote: q(echo.remote, 0.5) };
    const ratio = mibps.remote / mibps.local;
    return {
      title,
      file: 'remote',
      rows: [
        { metric: `keystroke echo, local socket (p50 / p90, ${KEYS} keys)`, value: `${ms(p50.local)} / ${ms(q(echo.local, 0.9))}`, target: '' },
        { metric: `keystroke echo, over ssh (p50 / p90, ${KEYS} keys)`, value: `${ms(p50.remote)} / ${ms(q(echo.remote, 0.9))}`, target: '' },
        { metric: 'keystroke echo, ssh − local (p50)', value: ms(p50.remote - p50.local), target: '<= 5 ms' },
        { metric: `pane throughput (${MIB} MiB from the lead), local / ssh`, value: `${mibps.local.toFixed(2)} / ${mibps.remote.toFixed(2)} MiB/s`, target: '' },
        { metric: 'pane throughput, ssh ÷ local', value: ratio.toFixed(2), target: '>= 0.8' },
      ],
      details: { echo, mibps },
    };
  } finally {
    for (const c of conns) c.close();
    await stopHost(path.join(local, 'ws'), env, { force: true }).catch(() => undefined);
    await m.close();
    fs.rmSync(local, { recursive: true, force: true });
  }
}
