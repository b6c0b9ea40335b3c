import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import headlessPkg from '@xterm/headless';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HostEvent, Member } from '../../src/shared/api.js';
import { bufferText } from '../../src/main/host/screen-mirror.js';
import { makeTeamWorkspace, THCLAWS, waitFor } from './helpers.js';

const { Terminal } = headlessPkg;

/** A view over the dashboard's WebSocket that writes the lead's terminal as the renderer does. */
class WsView {
  readonly events: HostEvent[] = [];
  readonly term = new Terminal({ cols: 100, rows: 30, scrollback: 1000, allowProposedApi: true });
  private chain = Promise.resolve();
  private next = 1;
  constructor(private readonly ws: WebSocket) {
    ws.on('message', (d) => {
      const ev = JSON.parse(d.toString()) as HostEvent;
      this.events.push(ev);
      if ((ev.type === 'output' || ev.type === 'replay') && ev.agent === 'lead') {
        this.chain = this.chain.then(() => new Promise<void>((r) => {
          if (ev.type === 'replay') this.term.reset();
          this.term.write(ev.data, r);
        }));
        // Acknowledge as a renderer does, or flow control would pause the lead for this view.
        ws.send(JSON.stringify({ id: 0, type: 'ack', agent: 'lead', chars: ev.data.length }));
      }
      if (ev.type === 'pty_size' && ev.agent === 'lead') this.chain = this.chain.then(() => this.term.resize(ev.cols, ev.rows));
    });
  }
  static open(url: string): Promise<WsView> {
    const u = new URL(url);
    const ws = new WebSocket(`ws://${u.host}/ws?token=${u.searchParams.get('token')}`);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new WsView(ws)));
      ws.once('error', reject);
    });
  }
  send(body: Record<string, unknown>): void {
    this.ws.send(JSON.stringify({ id: this.next++, ...body }));
  }
  member(name: string): Member | undefined {
    let m: Member | undefined;
    for (const e of this.events) {
      if (e.type === 'roster') m = e.members.find((x) => x.name === name) ?? m;
      if (e.type === 'member' && e.member.name === name) m = e.member;
    }
    return m;
  }
  async text(): Promise<string> {
    await this.chain;
    return bufferText(this.term);
  }
  close(): void {
    this.ws.terminate();
  }
}

/**
 * `thclaws dashboard --via-host`: the dashboard is a client of the workspace's host process; SIGKILL of the
 * dashboard leaves the lead running in the host, and a dashboard started again shows the same lead, its screen
 * restored, and typing still reaches it.
 */
describe('the team outlives the dashboard', () => {
  const ws = makeTeamWorkspace(['alice']);
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted' }));
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-rt-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  const procs: ChildProcess[] = [];
  let hostPid = 0;

  const startDashboard = async () => {
    const proc = spawn(THCLAWS, ['dashboard', '--dir', ws, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    procs.push(proc);
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => /host \(pid \d+\)/.test(out), 'the dashboard URL and its host pid');
    return { proc, url: /http:\/\/\S+token=\S+/.exec(out)![0], hostPid: Number(/host \(pid (\d+)\)/.exec(out)![1]) };
  };

  afterAll(async () => {
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    const stop = spawn(THCLAWS, ['host', '--stop', '--dir', ws], { env, stdio: 'ignore' });
    await new Promise((r) => stop.once('exit', r));
    if (hostPid) {
      try {
        process.kill(hostPid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 60_000);

  it('SIGKILL of the dashboard: the lead keeps its pid, a new dashboard restores its screen, typing works, two views see the same', async () => {
    const first = await startDashboard();
    hostPid = first.hostPid;
    const a = await WsView.open(first.url);
    a.send({ type: 'subscribe' });
    a.send({ type: 'attach', agent: 'lead', cols: 100, rows: 30 });
    await waitFor(() => a.member('lead')?.terminal.kind === 'pty', 'the lead running in the host');
    const leadPid = (a.member('lead')!.terminal as { pid: number }).pid;
    await waitFor(async () => (await a.text()).includes('>'), 'the lead prompt');
    a.send({ type: 'input', agent: 'lead', data: 'hello before\r' });
    await waitFor(async () => (await a.text()).includes('scripted provider'), 'the first answer', 40_000);

    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    expect(() => process.kill(hostPid, 0)).not.toThrow();

    const second = await startDashboard();
    expect(second.hostPid).toBe(hostPid);
    const b = await WsView.open(second.url);
    const c = await WsView.open(second.url);
    for (const v of [b, c]) {
      v.send({ type: 'subscribe' });
      v.send({ type: 'attach', agent: 'lead', cols: 100, rows: 30 });
    }
    await waitFor(() => b.member('lead')?.terminal.kind === 'pty', 'the lead in the new dashboard');
    expect((b.member('lead')!.terminal as { pid: number }).pid).toBe(leadPid);
    // The restored screen holds what the lead showed before the dashboard died.
    await waitFor(async () => (await b.text()).includes('hello before'), 'the restored screen');
    b.send({ type: 'input', agent: 'lead', data: 'hello after\r' });
    await waitFor(async () => (await b.text()).split('scripted provider').length > 2, 'the answer after the restart', 40_000);
    await waitFor(async () => (await c.text()) === (await b.text()), 'both views showing the same screen');
    expect(await a.text()).toContain('hello before');
    for (const v of [a, b, c]) v.close();
  }, 120_000);
});
