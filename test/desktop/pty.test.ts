import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { OutputScheduler } from '../../src/main/host/scheduler.js';
import { AgentTerminal } from '../../src/main/host/terminal.js';
import { PtyProcess } from '../../src/core/teams/launchers/pty-process.js';
import { PtyLauncher } from '../../src/core/teams/launchers/pty.js';

const MB = 1024 * 1024;
/** Writes `mb` MiB of 'a' (no newlines: the pty adds no bytes) and exits at once. */
const flood = (mb: number) => [process.execPath, '-e', `const b=Buffer.alloc(${MB},97);let n=${mb};(function w(){while(n>0){n--;if(!process.stdout.write(b)){process.stdout.once('drain',w);return}}})()`];
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() };

describe('pty output is complete', () => {
  it('delivers every byte of a 50 MB flood from a child that exits right after writing', async () => {
    const p = new PtyProcess(flood(50), { cwd: os.tmpdir(), env });
    let got = 0;
    let bad = 0;
    p.onData((d) => {
      got += d.length;
      if (/[^a]/.test(d)) bad++;
    });
    const exit = await p.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(bad).toBe(0);
    expect(got).toBe(50 * MB);
  });

  it('keeps every byte while flow control pauses the pty mid-flood', async () => {
    const p = new PtyProcess(flood(8), { cwd: os.tmpdir(), env });
    let got = 0;
    let pauses = 0;
    p.onData((d) => {
      got += d.length;
      if (got > MB * (pauses + 1) && pauses < 3) {
        pauses++;
        p.pause();
        setTimeout(() => p.resume(), 200);
      }
    });
    await p.exited;
    expect(pauses).toBe(3);
    expect(got).toBe(8 * MB);
  });

  it('keeps the tail when the child exits while the reader is paused', async () => {
    for (let round = 0; round < 3; round++) {
      const p = new PtyProcess([process.execPath, '-e', `process.stdout.write(Buffer.alloc(${32 * 1024},98))`], { cwd: os.tmpdir(), env });
      let got = 0;
      let paused = false;
      p.onData((d) => {
        got += d.length;
        if (!paused) {
          paused = true;
          p.pause();
          setTimeout(() => p.resume(), 400); // the child has exited by then
        }
      });
      await p.exited;
      expect(got).toBe(32 * 1024);
    }
  });

  it('reports the child exit code and a signal that killed it', async () => {
    const a = new PtyProcess(['bash', '-c', 'echo bye; exit 7'], { cwd: os.tmpdir(), env });
    let out = '';
    a.onData((d) => (out += d));
    expect(await a.exited).toEqual({ code: 7, signal: null });
    expect(out).toContain('bye');
    const b = new PtyProcess(['sleep', '30'], { cwd: os.tmpdir(), env });
    setTimeout(() => b.kill('SIGTERM'), 200);
    expect(await b.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('a stop sent right after the start ends the child too (the pty may not have made its process group yet)', async () => {
    // Stop right after Respawn, at 0-4 ms. A signal sent before the group existed was dropped (47 of 300 hung);
    // one that reached the wrapper after its trap but before it forked the child was too (6 of 300). Each stop
    // must end the child well before its 30 s sleep would.
    const hung: number[] = [];
    for (let i = 0; i < 300; i++) {
      const p = new PtyProcess(['sleep', '30'], { cwd: os.tmpdir(), env });
      if (i % 5) await new Promise((r) => setTimeout(r, i % 5));
      p.kill('SIGTERM');
      const ended = await Promise.race([p.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
      if (!ended) {
        hung.push(i);
        process.kill(-p.pid, 'SIGKILL');
      }
    }
    expect(hung).toEqual([]);
  });

  it('a stop right after a child started that handles TERM reaches it once, not twice (the late resend is only for a child that missed it)', async () => {
    // A teammate that counts its TERMs (a second one could mean "now, without cleaning up"), stopped as soon as its
    // handler is in place (a few ms after its start). Before, any child started within two clock ticks before the
    // signal got it again: 3 of 10 such stops counted two.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pty-term-'));
    const counts: number[] = [];
    const lines = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').split('\n').length - 1 : 0);
    try {
      for (let i = 0; i < 20; i++) {
        const term = path.join(dir, `term${i}`);
        const loop = path.join(dir, `loop${i}`);
        const p = new PtyProcess(['bash', '-c', `trap 'echo T >> ${term}' TERM; : > ${loop}; while :; do sleep 0.005; echo >> ${loop}; done`], { cwd: os.tmpdir(), env });
        const deadline = Date.now() + 10_000;
        while (!fs.existsSync(loop) && Date.now() < deadline) await new Promise((r) => setImmediate(r));
        p.kill('SIGTERM');
        // Every signal was sent by now (the resend, if any, at once); two turns of its loop later it has run their traps.
        const seen = lines(loop);
        while (lines(loop) < seen + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        counts.push(lines(term));
        process.kill(-p.pid, 'SIGKILL');
        await p.exited;
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(counts).toEqual(counts.map(() => 1));
  });

  it('launcher: the same bytes reach the terminal and output.log, through the store', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-pty-'));
    const store = TeamStore.forWorkspace(ws);
    store.init();
    const sched = new OutputScheduler();
    const terminal = new AgentTerminal('alice', sched);
    let seen = 0;
    // A view that renders (acks) everything it gets, a moment later.
    const view = {
      send: (e: { type: string; data?: string }) => {
        if (e.type !== 'output' && e.type !== 'replay') return;
        seen += e.data!.length;
        setTimeout(() => terminal.ack(view, e.data!.length), 1);
      },
    };
    terminal.attach(view);
    let exitSeen: unknown = null;
    const launcher = new PtyLauncher(store, { terminal: () => terminal, exited: (_a, _r, e) => (exitSeen = e) });
    const run = await launcher.launch({ spawn_id: 's1', agent: 'alice', argv: flood(20), cwd: ws, env, team_dir: store.dir, requested_at: Date.now() });
    expect(launcher.live().map((l) => l.agent)).toEqual(['alice']);
    await run.exited;
    expect(exitSeen).toEqual({ code: 0, signal: null });
    const log = fs.readFileSync(store.paths.output('alice'), 'latin1');
    expect(log.startsWith('--- thclaws spawn s1 ')).toBe(true); // the runtime's per-spawn marker
    expect(log.slice(log.indexOf('\n') + 1)).toBe('a'.repeat(20 * MB));
    expect(terminal.seq).toBe(20 * MB);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen).toBe(20 * MB);
    expect(launcher.live()).toEqual([]);
    sched.dispose();
  });

  it('core launcher (thclaws team host): output.log holds every byte of a child that exits right after a 30 MB write', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-pty-'));
    const store = TeamStore.forWorkspace(ws);
    store.init();
    const launcher = new PtyLauncher(store);
    try {
      for (const [i, mb] of [30, 1].entries()) {
        const run = await launcher.launch({ spawn_id: `c${i}`, agent: 'bob', argv: flood(mb), cwd: ws, env, team_dir: store.dir, requested_at: Date.now() });
        expect(await run.exited).toEqual({ code: 0, signal: null });
        const log = fs.readFileSync(store.paths.output('bob'), 'latin1');
        const at = log.lastIndexOf(`--- thclaws spawn c${i} `);
        expect(at).toBeGreaterThanOrEqual(0);
        const body = log.slice(log.indexOf('\n', at) + 1);
        expect(body.length).toBe(mb * MB); // 0 bytes lost, and nothing of the wrapper's end marker
        expect(/[^a]/.test(body)).toBe(false);
      }
    } finally {
      await launcher.dispose();
      fs.rmSync(ws, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the end marker cannot be forged by what a child prints', () => {
  it("a child printing the wrapper's end sequence (a file it cats, a model's text) keeps its output flowing, its input and its stop", async () => {
    // Markers as an earlier wrapper printed them, and with a guessed nonce.
    const END_MARKER = '\x1b]6973;thclaws-pty-end\x07\x1b]6973;thclaws-pty-end;0123456789abcdef0123456789abcdef\x07';
    // Prints the marker, then echoes one line of input and waits; only a real exit may end the pane.
    const child = [process.execPath, '-e', `process.stdout.write('nonce:'+(process.env.THCLAWS_PTY_END??'none')+' ');process.stdout.write(${JSON.stringify('before' + END_MARKER + 'after\n')});process.stdin.once('data',(d)=>process.stdout.write('typed:'+d));setInterval(()=>{},1000)`];
    const p = new PtyProcess(child, { cwd: os.tmpdir(), env });
    let out = '';
    p.onData((d) => (out += d));
    const until = async (what: string) => {
      const deadline = Date.now() + 20_000;
      while (!out.includes(what)) {
        if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(what)} in ${JSON.stringify(out)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await until('after');
    expect(out).toContain('nonce:none ');
    p.write('hello\r');
    await until('typed:hello');
    p.kill('SIGTERM');
    expect(await p.exited).toEqual({ code: null, signal: 'SIGTERM' });
  }, 40_000);
});
