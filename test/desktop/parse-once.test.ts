/**
 * Each message is validated by zod once in each process it enters, then passed inward typed. The path of a
 * page's request as `thclaws dashboard` serves it: WebSocket → the dashboard's server → RemoteViews → the host's
 * socket → host daemon → Connection → HostSession. Both processes run here (the real host daemon on its real
 * socket, the real web server, a real WebSocket for the page); each parse is put on the side whose code called
 * it (by its stack), and counted per request. The host's events pass through the dashboard unparsed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startHostDaemon, type HostDaemon } from '../../src/main/daemon/host-daemon.js';
import { openHostManager } from '../../src/main/daemon/open-host.js';
import { RemoteViews } from '../../src/main/daemon/remote-views.js';
import { forwardToWindow, MAIN_REQUEST_ID } from '../../src/main/daemon/view-event.js';
import { startDashboardServer, type DashboardServer } from '../../src/main/web/server.js';
import { EventSchema, RequestSchema, type HostEvent } from '../../src/contract/api.js';
import { makeTeamWorkspace, messageEvents, waitFor } from './helpers.js';

type Side = 'host' | 'dashboard' | 'other';
const SIDES: Array<[RegExp, Side]> = [
  [/src\/main\/(daemon\/host-daemon|host\/connection|host\/session)\.ts/, 'host'],
  [/src\/main\/(daemon\/(remote-views|host-client|view-event)|web\/server)\.ts/, 'dashboard'],
];
const sideOf = (stack: string): Side => {
  for (const line of stack.split('\n').slice(1)) for (const [re, side] of SIDES) if (re.test(line)) return side;
  return 'other';
};

/** Every safeParse of the request and event schemas, with the side that called it. */
function countParses() {
  const parses: Array<{ schema: 'request' | 'event'; side: Side }> = [];
  Error.stackTraceLimit = 60;
  for (const [schema, s] of [['request', RequestSchema], ['event', EventSchema]] as const) {
    const real = s.safeParse.bind(s) as (raw: unknown) => unknown;
    vi.spyOn(s, 'safeParse').mockImplementation(((raw: unknown) => {
      parses.push({ schema, side: sideOf(new Error().stack ?? '') });
      return real(raw);
    }) as typeof s.safeParse);
  }
  const tally = (schema: 'request' | 'event', from = 0) => {
    const t = { host: 0, dashboard: 0, other: 0 };
    for (const p of parses.slice(from)) if (p.schema === schema) t[p.side]++;
    return t;
  };
  return { mark: () => parses.length, tally };
}

/** A page: a real WebSocket to the dashboard's server; each request answered by its reply. */
async function openPage(server: DashboardServer) {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`);
  const texts: string[] = [];
  ws.on('message', (d) => texts.push(d.toString()));
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  const events = () => texts.flatMap(messageEvents);
  const ask = async (body: Record<string, unknown> & { id: number }) => {
    ws.send(JSON.stringify(body));
    return waitFor(() => events().find((e): e is Extract<HostEvent, { type: 'reply' }> => e.type === 'reply' && e.id === body.id), `the reply to ${String(body.type)}`);
  };
  return { ws, texts, events, ask };
}

describe('a request is parsed once per process it enters; the dashboard forwards what it does not act on', () => {
  const ws = fs.realpathSync(makeTeamWorkspace(['alice']));
  const tmp = (p: string) => fs.mkdtempSync(path.join(os.tmpdir(), p));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('parse-once-rt-') };
  const renderer = tmp('parse-once-renderer-');
  let daemon: HostDaemon;
  const servers: DashboardServer[] = [];

  beforeAll(async () => {
    daemon = await startHostDaemon({ workspace: ws, env, open: (w) => openHostManager(w, { startLead: false, extra: { env: { XDG_CONFIG_HOME: tmp('parse-once-cfg-') } } }), log: () => {} });
  }, 30_000);
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    for (const s of servers) await s.close();
    await daemon.close('test over');
  });

  it('as the host\'s client: the host parses each request once, the dashboard only those it acts on; no event is parsed on the way', async () => {
    const views = new RemoteViews({ workspace: ws, argv: ['/bin/false'], env }, { targetFor: () => { throw new Error('no other folder here'); }, demo: () => Promise.reject(new Error('no demo')) });
    const server = await startDashboardServer({ manager: views, rendererDir: renderer });
    servers.push(server);
    const page = await openPage(server);
    const parses = countParses();
    const start = parses.mark();
    // [request, parses in the dashboard's process, parses in the host's]
    const cases: Array<[Record<string, unknown> & { id: number }, number, number]> = [
      [{ id: 1, type: 'subscribe' }, 1, 1], // acted on: a host the view moves to hears it again
      [{ id: 2, type: 'settings_get' }, 0, 1],
      [{ id: 3, type: 'input', agent: 'alice', data: 'x' }, 0, 1], // a keystroke
      [{ id: 4, type: 'resize', agent: 'alice', cols: 0 }, 0, 1], // invalid: refused by the host, where it enters
      [{ id: 5, type: 'attach', agent: 'alice', cols: 80, rows: 24 }, 1, 1],
      [{ id: 6, type: 'key_hold', key: 'sk-ant-api03-NotFromAPage0123456789abcdefghij' }, 1, 0], // refused in the dashboard
    ];
    const seen: Array<[string, number, number]> = [];
    for (const [req] of cases) {
      const from = parses.mark();
      await page.ask(req);
      const t = parses.tally('request', from);
      seen.push([String(req.type), t.dashboard, t.host]);
      expect(t.other).toBe(0);
    }
    expect(seen).toEqual(cases.map(([req, dash, host]) => [String(req.type), dash, host]));
    expect(page.events().find((e) => e.type === 'reply' && e.id === 4)).toMatchObject({ ok: false, error: expect.stringMatching(/^invalid request: cols/) });
    expect(page.events().find((e) => e.type === 'reply' && e.id === 6)).toMatchObject({ ok: false, error: expect.stringMatching(/desktop app's own message/) });
    // The host's events (the roster, settings, a screen…) reached the page, valid, and were never parsed on the way.
    expect(page.events().some((e) => e.type === 'roster')).toBe(true);
    for (const e of page.events()) expect(EventSchema.safeParse(e).success).toBe(true);
    expect(parses.tally('event', start).dashboard).toBe(0);
    page.ws.close();
  }, 60_000);

  it('what a page over IPC can send but JSON cannot hold (a BigInt, a cycle) is answered with an error, never a line to the host', async () => {
    const views = new RemoteViews({ workspace: ws, argv: ['/bin/false'], env }, { targetFor: () => { throw new Error('no'); }, demo: () => Promise.reject(new Error('no')) });
    const got: HostEvent[] = [];
    const link = views.connect((e) => got.push(typeof e === 'string' ? (JSON.parse(e) as HostEvent) : e));
    const cyclic: Record<string, unknown> = { id: 8, type: 'input', agent: 'alice' };
    cyclic.data = cyclic;
    await link.handle({ id: 7, type: 'input', agent: 'alice', data: 7n });
    await link.handle(cyclic);
    await link.handle({ id: 9, type: 'settings_get' });
    const reply = await waitFor(() => got.find((e) => e.type === 'reply' && e.id === 9), 'the reply to settings_get');
    expect(reply).toMatchObject({ ok: true });
    expect(got.filter((e) => e.type === 'reply' && !e.ok).map((e) => e.type === 'reply' && e.error)).toEqual([expect.stringMatching(/^invalid request/), expect.stringMatching(/^invalid request/)]);
    link.close();
  }, 60_000);

  it('in-process: one parse per request, where it enters the process (the dashboard is the host)', async () => {
    const server = await startDashboardServer({ manager: daemon.manager, rendererDir: renderer });
    servers.push(server);
    const page = await openPage(server);
    const parses = countParses();
    for (const req of [{ id: 1, type: 'subscribe' }, { id: 2, type: 'settings_get' }, { id: 3, type: 'input', agent: 'alice', data: 'x' }, { id: 4, type: 'resize', agent: 'alice', cols: 0 }]) {
      const from = parses.mark();
      await page.ask(req);
      const t = parses.tally('request', from);
      expect([req.type, t.host + t.dashboard + t.other]).toEqual([req.type, 1]);
    }
    page.ws.close();
  }, 60_000);
});

describe("Electron main forwards the host's events to its window as text, parsing only those it acts on", () => {
  afterEach(() => vi.restoreAllMocks());

  it("output and the page's replies go on byte for byte, unparsed; host_closed and main's own reply are parsed, once each, for main", () => {
    const parses = countParses();
    const sent: string[] = [];
    const heard: HostEvent[] = [];
    const send = forwardToWindow([(e) => heard.push(e)], (text) => sent.push(text));
    const output = JSON.stringify({ type: 'output', agent: 'alice', data: 'x'.repeat(4096), seq: 1 } satisfies HostEvent);
    const pageReply = JSON.stringify({ type: 'reply', id: 5, ok: true, result: { big: 'y'.repeat(4096) } } satisfies HostEvent);
    for (let i = 0; i < 100; i++) send(i % 2 ? pageReply : output);
    expect(sent).toEqual(Array.from({ length: 100 }, (_, i) => (i % 2 ? pageReply : output)));
    expect(parses.tally('event')).toEqual({ host: 0, dashboard: 0, other: 0 });
    expect(heard).toEqual([]);
    send(JSON.stringify({ type: 'host_closed', reason: 'stopped' }));
    send(JSON.stringify({ type: 'reply', id: MAIN_REQUEST_ID, ok: false, error: 'no team' }));
    send({ type: 'notice', level: 'warn', text: 'made in main' });
    expect(heard).toEqual([{ type: 'host_closed', reason: 'stopped' }, { type: 'reply', id: MAIN_REQUEST_ID, ok: false, error: 'no team' }]);
    expect(sent.slice(100).map((t) => (JSON.parse(t) as HostEvent).type)).toEqual(['host_closed', 'reply', 'notice']);
    expect(parses.tally('event').dashboard).toBe(2);
  });
});
