/**
 * The dashboard's WebSocket carries several events per message (server.ts `eventMessages`: what one turn of the
 * event loop made), through the real chain a person's page uses by default: ptys in the workspace host, its
 * socket, the dashboard as the host's client. Coalescing must lose nothing: every pane gets its output whole
 * and in order, and a page that stops acknowledging still pauses the flooding program.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW, type HostEvent } from '../../src/contract/api.js';
import { startHostDaemon, type HostDaemon } from '../../src/main/daemon/host-daemon.js';
import { openHostManager } from '../../src/main/daemon/open-host.js';
import { RemoteViews } from '../../src/main/daemon/remote-views.js';
import { startDashboardServer, type DashboardServer } from '../../src/main/web/server.js';
import { makeTeamWorkspace, messageEvents, waitFor } from './helpers.js';

const MATES = ['a1', 'a2', 'a3', 'a4', 'a5'];
const FLOODED = MATES.slice(0, 4);
const LINES = 8000;
/** A child printing `L<i> ` + 120 x's for i < LINES (≈ 1 MiB), with backpressure, then staying alive. */
const flood = `let i=0;const pad='x'.repeat(120);(function w(){while(i<${LINES}){if(!process.stdout.write('L'+(i++)+' '+pad+'\\n')){process.stdout.once('drain',w);return}}setInterval(()=>{},1e9)})()`;
const endless = `const b=('y'.repeat(1023)+'\\n').repeat(64);(function w(){while(process.stdout.write(b));process.stdout.once('drain',w)})()`;

/** A page: counts messages and events; acknowledges output (and reports receipt) as the renderer does, while `acking`. */
async function openPage(server: DashboardServer) {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`);
  const got = { messages: 0, outputs: 0, multi: 0, acking: true, unacked: new Map<string, number>() };
  const panes = new Map<string, { seq: number; data: string; breaks: string[] }>();
  const fire = (body: Record<string, unknown>) => ws.send(JSON.stringify({ id: 0, ...body }));
  const ack = (agent: string) => {
    const n = got.unacked.get(agent) ?? 0;
    if (n) fire({ type: 'ack', agent, chars: n });
    got.unacked.set(agent, 0);
  };
  ws.on('message', (d) => {
    const events = messageEvents(d.toString());
    got.messages++;
    let chars = 0;
    let outputs = 0;
    for (const e of events as HostEvent[]) {
      if (e.type !== 'output' && e.type !== 'replay') continue;
      outputs++;
      chars += e.data.length;
      const p = panes.get(e.agent);
      if (e.type === 'replay' || !p) panes.set(e.agent, { seq: e.seq + e.data.length, data: e.type === 'replay' ? '' : e.data, breaks: [] });
      else {
        if (e.seq !== p.seq) p.breaks.push(`${e.seq} after ${p.seq}`);
        p.seq = e.seq + e.data.length;
        p.data += e.data;
      }
      got.unacked.set(e.agent, (got.unacked.get(e.agent) ?? 0) + e.data.length);
      if (got.acking) ack(e.agent);
    }
    got.outputs += outputs;
    if (outputs > 1) got.multi++;
    if (chars) fire({ type: 'received', chars });
  });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  fire({ type: 'subscribe' });
  for (const a of MATES) fire({ type: 'attach', agent: a, cols: 120, rows: 32 });
  return { ws, got, panes, ack };
}

describe("the dashboard's messages of several events, as the host's client", () => {
  const ws = fs.realpathSync(makeTeamWorkspace(MATES));
  const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('web-messages-rt-') };
  let daemon: HostDaemon;
  let server: DashboardServer;

  beforeAll(async () => {
    daemon = await startHostDaemon({ workspace: ws, env, open: (w) => openHostManager(w, { startLead: false, extra: { env: { XDG_CONFIG_HOME: tmp('web-messages-cfg-') } } }), log: () => {} });
    const views = new RemoteViews({ workspace: ws, argv: ['/bin/false'], env }, { targetFor: () => { throw new Error('no other folder here'); }, demo: () => Promise.reject(new Error('no demo')) });
    server = await startDashboardServer({ manager: views, rendererDir: tmp('web-messages-renderer-') });
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await daemon?.close('test over');
  });

  it('four panes flooding at once: every line reaches its pane once and in order, several events to a message; a page that stops acknowledging pauses the flood', async () => {
    const page = await openPage(server);
    await waitFor(() => MATES.every((a) => page.panes.has(a)), 'the replay of every pane');
    const host = daemon.manager.host;
    await Promise.all(FLOODED.map((a) => host.spawn(a, [process.execPath, '-e', flood])));
    const last = `L${LINES - 1} `;
    await waitFor(() => FLOODED.every((a) => page.panes.get(a)?.data.includes(last)), 'the last line in every pane', 60_000);
    for (const a of FLOODED) {
      const p = page.panes.get(a)!;
      expect(p.breaks, a).toEqual([]);
      const numbers = [...p.data.matchAll(/L(\d+) x+\r\n/g)].map((m) => Number(m[1]));
      expect(numbers.length, a).toBe(LINES);
      expect(numbers.every((n, i) => n === i), `${a}: lines out of order or missing`).toBe(true);
    }
    // The coalescing itself: fewer messages than events, many carrying several panes' output.
    expect(page.got.multi).toBeGreaterThan(0);
    expect(page.got.messages).toBeLessThan(page.got.outputs);

    // Flow control through the coalesced messages: unacknowledged, an endless writer is paused, not drained.
    page.got.acking = false;
    await host.spawn('a5', [process.execPath, '-e', endless]);
    const t = host.terminal('a5');
    await waitFor(() => t.paused, 'a5 paused by the page that stopped acknowledging', 10_000);
    expect(page.got.unacked.get('a5') ?? 0).toBeLessThanOrEqual(FLOW.highWater + FLOW.transit);
    const at = page.panes.get('a5')!.seq;
    // Acknowledged, it runs again: more output arrives.
    page.got.acking = true;
    page.ack('a5');
    await waitFor(() => page.panes.get('a5')!.seq > at + FLOW.highWater, 'a5 running again once acknowledged', 10_000);
    page.ws.close();
  }, 90_000);
});
