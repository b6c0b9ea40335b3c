/** A pane paused by flow control for longer than any timeout still gets every byte its child printed before exiting. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { PtyProcess } from '../../src/core/teams/launchers/pty-process.js';
import { OutputScheduler } from '../../src/main/host/scheduler.js';
import { AgentTerminal } from '../../src/main/host/terminal.js';
import { PtyLauncher } from '../../src/core/teams/launchers/pty.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() };
const PAUSE_MS = 12_000;
const lines = "for (let i = 0; i < 20; i++) console.log('tail line ' + i);";

describe('a pty paused past 10 s while its child prints and exits', () => {
  it('PtyProcess: all 20 lines arrive after a 12 s pause, then the exit', async () => {
    const p = new PtyProcess([process.execPath, '-e', lines], { cwd: os.tmpdir(), env });
    p.pause();
    let out = '';
    let exitedAt = 0;
    p.onData((d) => (out += d));
    void p.exited.then(() => (exitedAt = Date.now()));
    await new Promise((r) => setTimeout(r, PAUSE_MS));
    const resumedAt = Date.now();
    p.resume();
    expect(await p.exited).toEqual({ code: 0, signal: null });
    for (let i = 0; i < 20; i++) expect(out).toContain(`tail line ${i}\r\n`);
    // The exit is reported once the tail is read, not while the pane is still paused.
    expect(exitedAt).toBeGreaterThanOrEqual(resumedAt);
  }, 30_000);

  it('host launcher: a view that acks nothing for 12 s pauses the pane; output.log and the view still get the tail', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-pty-pause-'));
    const store = TeamStore.forWorkspace(ws);
    store.init();
    const sched = new OutputScheduler();
    const terminal = new AgentTerminal('alice', sched);
    let seen = '';
    let unacked = 0;
    const view = {
      send: (e: { type: string; data?: string }) => {
        if (e.type !== 'output' && e.type !== 'replay') return;
        seen += e.data!;
        unacked += e.data!.length;
      },
    };
    terminal.attach(view);
    let exitSeen: unknown = null;
    const launcher = new PtyLauncher(store, { terminal: () => terminal, exited: (_a, _r, e) => (exitSeen = e) });
    // 528 KiB of 'a' in 8 KiB steps (past the high-water mark: the view's silence pauses the pty with at most
    // a step unread); told to go on (once paused), 20 lines (they fit in the kernel's pty buffer) and exit.
    const code = `let n = 66; const step = () => { if (n-- > 0) { process.stdout.write(Buffer.alloc(8192, 97)); setTimeout(step, 10); } }; step(); process.stdin.once('data', () => { ${lines} process.exit(0); });`;
    const run = await launcher.launch({ spawn_id: 's1', agent: 'alice', argv: [process.execPath, '-e', code], cwd: ws, env, team_dir: store.dir, requested_at: Date.now() });
    try {
      const paused = Date.now() + 10_000;
      while (!terminal.paused && Date.now() < paused) await new Promise((r) => setTimeout(r, 20));
      expect(terminal.paused).toBe(true);
      // Only now (paused) does the child print its tail and exit.
      terminal.write('go\r');
      await new Promise((r) => setTimeout(r, PAUSE_MS));
      // The view catches up: acks everything it has, and keeps acking what follows.
      const ackAll = () => {
        const n = unacked;
        unacked = 0;
        if (n) terminal.ack(view, n);
      };
      const acker = setInterval(ackAll, 5);
      ackAll();
      expect(await run.exited).toEqual({ code: 0, signal: null });
      clearInterval(acker);
      expect(exitSeen).toEqual({ code: 0, signal: null });
      const log = fs.readFileSync(store.paths.output('alice'), 'latin1');
      for (let i = 0; i < 20; i++) expect(log).toContain(`tail line ${i}\r\n`);
      const end = Date.now() + 5000;
      while (!seen.includes('tail line 19') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < 20; i++) expect(seen).toContain(`tail line ${i}\r\n`);
    } finally {
      await launcher.dispose();
      sched.dispose();
      fs.rmSync(ws, { recursive: true, force: true });
    }
  }, 40_000);
});
