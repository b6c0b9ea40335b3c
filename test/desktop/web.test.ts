import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RecentWorkspaces } from '../../src/main/host/recent.js';
import { runDashboard } from '../../src/main/web/run.js';
import type { HostEvent } from '../../src/contract/api.js';
import { makeTeamWorkspace, messageEvents } from './helpers.js';

let server: Awaited<ReturnType<typeof runDashboard>>;
let base: string;
const TOKEN = 'test-token-0123456789';

beforeAll(async () => {
  const ws = makeTeamWorkspace(['alice']);
  const renderer = fs.mkdtempSync(path.join(os.tmpdir(), 'renderer-'));
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>t</title>');
  fs.mkdirSync(path.join(renderer, 'assets'));
  fs.writeFileSync(path.join(renderer, 'assets', 'a.js'), 'console.log(1)');
  server = await runDashboard({
    workspace: ws, startLead: false, rendererDir: renderer, token: TOKEN,
    extra: { recent: new RecentWorkspaces(path.join(renderer, 'recent.json')) },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => server?.close());

function get(p: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + p, { headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

function open(query: string, origin?: string, headers?: Record<string, string>): Promise<{ ws: WebSocket; events: HostEvent[] } | { refused: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws${query}`, { ...(origin ? { origin } : {}), ...(headers ? { headers } : {}) });
    const events: HostEvent[] = [];
    ws.on('message', (d) => events.push(...messageEvents(d.toString())));
    ws.on('open', () => resolve({ ws, events }));
    ws.on('unexpected-response', (_req, res) => resolve({ refused: res.statusCode! }));
    ws.on('error', () => resolve({ refused: -1 }));
  });
}

const until = async (cond: () => boolean) => {
  const end = Date.now() + 15_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('web transport', () => {
  it('refuses HTTP without the token, with a wrong one, a foreign Origin or Host; serves with it', async () => {
    expect((await get('/')).status).toBe(403);
    expect((await get('/?token=wrong')).status).toBe(403);
    expect((await get(`/?token=${TOKEN}`, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(`/?token=${TOKEN}`, { host: 'evil.example' })).status).toBe(403);
    const ok = await get(`/?token=${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers['content-security-policy']).toContain("default-src 'self'");
    const cookie = String(ok.headers['set-cookie']).split(';')[0]!;
    expect((await get('/assets/a.js', { cookie })).status).toBe(200);
    expect((await get('/assets/a.js')).status).toBe(403);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd', { cookie })).status).toBe(404); // normalised inside the root
    expect((await get('/..%2F..%2Fpackage.json', { cookie })).status).toBe(403);
  });

  it('refuses a WebSocket without the token or from a foreign Origin', async () => {
    expect(await open('')).toEqual({ refused: 403 });
    expect(await open(`?token=${TOKEN}`, 'http://evil.example')).toEqual({ refused: 403 });
  });

  it('the page cookie (a browser sends it to every server on 127.0.0.1, any port) is not the token and opens no WebSocket', async () => {
    const cookie = String((await get(`/?token=${TOKEN}`)).headers['set-cookie']).split(';')[0]!;
    expect(cookie).not.toContain(TOKEN);
    expect((await get('/assets/a.js', { cookie })).status).toBe(200);
    expect(await open('', undefined, { cookie })).toEqual({ refused: 403 });
    expect(await open('', base, { cookie })).toEqual({ refused: 403 });
  });

  it('validates every message: bad ones get an error reply and the host keeps serving', async () => {
    const c = await open(`?token=${TOKEN}`, base);
    if ('refused' in c) throw new Error('refused');
    c.ws.send('{not json');
    c.ws.send(JSON.stringify({ id: 5, type: 'input', agent: '../../x', data: 'a' }));
    c.ws.send(JSON.stringify({ id: 6, type: 'subscribe' }));
    await until(() => c.events.some((e) => e.type === 'reply' && e.id === 6));
    const replies = c.events.filter((e) => e.type === 'reply');
    expect(replies[0]).toMatchObject({ ok: false, id: -1, error: expect.stringContaining('not JSON') });
    expect(replies[1]).toMatchObject({ ok: false, id: 5, error: expect.stringContaining('agent') });
    expect(c.events.find((e) => e.type === 'roster')).toMatchObject({ team: 'demo', members: [{ name: 'lead' }, { name: 'alice' }] });
    // An oversized frame closes that socket only.
    const closed = new Promise((r) => c.ws.on('close', r));
    c.ws.send('x'.repeat(2 * 1024 * 1024));
    await closed;
    const d = await open(`?token=${TOKEN}`, base);
    if ('refused' in d) throw new Error('refused after oversized frame');
    d.ws.send(JSON.stringify({ id: 1, type: 'settings_get' }));
    await until(() => d.events.some((e) => e.type === 'reply' && e.id === 1 && e.ok));
    d.ws.close();
  });
});
