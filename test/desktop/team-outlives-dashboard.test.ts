/**
 * The team outlives the window, with real processes: `thclaws dashboard` (a client) starts the workspace's
 * `thclaws host`, which owns the lead's and three teammates' ptys (scripted provider, each streaming output).
 * SIGKILL of the dashboard mid-stream: a dashboard started again sees the same pids, every pane restored equal
 * to a terminal fed the whole output.log, not one character lost or doubled at the seam, two views alike, and
 * typing reaches the lead. Then SIGKILL of the host: the dashboard's view reconnects to the next host, whose
 * "Resume team" brings the lead and every teammate back (teammates in their worktrees) on their conversations.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSession, sessionsDir } from '../../src/core/agent/sessions.js';
import { deriveState, LEAD, TeamStore } from '../../src/core/store/index.js';
import { connectHost } from '../../src/main/daemon/host-client.js';
import { dashboardReady, makeTeamWorkspace, THCLAWS, waitFor } from './helpers.js';
import { referenceText, TermView } from './term-view.js';

const execFileP = promisify(execFile);
const MATES = ['alice', 'bob', 'carol'];
const AGENTS = [LEAD, ...MATES];
const LINES = 240;
const streamText = Array.from({ length: LINES }, (_, i) => `streamed line ${String(i + 1).padStart(4, '0')} of ${LINES}`).join('\n') + '\nSTREAM DONE';
const script = {
  rules: [
    { match: 'stream please', turns: [{ text: streamText, delay_ms: 4 }] },
    { match: 'what came before', turns: [{ text: 'ANSWER AFTER RESUME' }] },
  ],
  fallback: [{ text: 'FALLBACK ANSWER' }],
};

describe('the team outlives the dashboard, and Resume team outlives the host', () => {
  const ws = fs.realpathSync(makeTeamWorkspace(MATES));
  const store = TeamStore.forWorkspace(ws);
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-rt-'));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  const scriptFile = path.join(home, 'script.json');
  const procs: ChildProcess[] = [];
  const views: TermView[] = [];
  const hostPids: number[] = [];

  /** The pty's bytes of this spawn: output.log after its spawn marker line. */
  const ptyBytes = (agent: string) => {
    const log = fs.readFileSync(store.paths.output(agent), 'utf8');
    return log.slice(log.indexOf('\n') + 1);
  };

  const startDashboard = async () => {
    const proc = spawn(THCLAWS, ['dashboard', '--dir', ws, '--port', '0', '--lead-script', scriptFile], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    procs.push(proc);
    // A dashboard that exits first (e.g. the renderer not built) fails the test at once with its output.
    const { url, hostPid } = await dashboardReady(proc, { hostPid: true });
    hostPids.push(hostPid);
    return { proc, url, hostPid };
  };
  const view = async (make: () => Promise<TermView>) => {
    const v = await make();
    views.push(v);
    v.attachAll(AGENTS);
    return v;
  };
  const sessionTexts = (id: string) => readSession(path.join(sessionsDir(ws), `${id}.jsonl`)).messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((b) => ('text' in b ? b.text : '')).join('')));

  let first: Awaited<ReturnType<typeof startDashboard>>;
  let second: Awaited<ReturnType<typeof startDashboard>>;
  let a: TermView;
  let direct: TermView;
  const pids = new Map<string, number>();

  beforeAll(async () => {
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: ws });
    await store.config.update((c) => {
      for (const m of c.members) m.isolation = 'worktree';
    });
    fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true }));
    fs.writeFileSync(scriptFile, JSON.stringify(script));
    first = await startDashboard();
    a = await view(() => TermView.overWebSocket(first.url));
    // A client straight on the host's socket, attached before any output: it must see every character once.
    direct = await view(() => TermView.overHostSocket(ws, env));
    await waitFor(() => a.pid(LEAD), 'the lead running in the host', 60_000);
    for (const m of MATES) expect(await a.request({ type: 'member_start', name: m })).toMatchObject({ ok: true });
    for (const n of AGENTS) pids.set(n, await waitFor(() => a.pid(n), `${n} in a pty of the host`, 60_000));
  }, 180_000);

  it("the host a dashboard started carries none of the dashboard's secrets: not in its command line, not in its environment", () => {
    const token = new URL(first.url).searchParams.get('token')!;
    const cmdline = fs.readFileSync(`/proc/${first.hostPid}/cmdline`, 'utf8');
    const environ = fs.readFileSync(`/proc/${first.hostPid}/environ`, 'utf8');
    for (const listing of [cmdline, environ]) expect(listing.includes(token)).toBe(false);
    expect(environ.split('\0').filter((kv) => /token|api_key|secret/i.test(kv.split('=')[0]!))).toEqual([]);
  });

  afterAll(async () => {
    for (const v of views) v.close();
    for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
    await execFileP(THCLAWS, ['host', '--stop', '--dir', ws], { env }).catch(() => undefined);
    for (const pid of hostPids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }, 60_000);

  it('SIGKILL of the dashboard mid-stream: same pids; every pane restored equal to its output.log; no character lost or doubled; two views alike; typing works', async () => {
    await waitFor(async () => (await a.text(LEAD)).includes('thclaws>'), 'the lead prompt', 60_000);
    a.fire({ type: 'input', agent: LEAD, data: 'stream please\r' });
    for (const m of MATES) expect(await a.request({ type: 'send_message', to: m, text: 'stream please' })).toMatchObject({ ok: true });
    // Mid-stream: every agent has streamed some lines, not all.
    for (const n of AGENTS) await waitFor(async () => (await a.text(n)).includes('streamed line 0020'), `${n} streaming`, 60_000);

    first.proc.kill('SIGKILL');
    await new Promise((r) => first.proc.once('exit', r));
    second = await startDashboard();
    expect(second.hostPid).toBe(first.hostPid);
    const b = await view(() => TermView.overWebSocket(second.url));
    const c = await view(() => TermView.overWebSocket(second.url));
    for (const n of AGENTS) {
      await waitFor(() => b.pid(n), `${n} in the new dashboard`);
      expect(b.pid(n), n).toBe(pids.get(n));
    }
    // Both new views (each replays on its own connection; under load the second can lag the first).
    for (const v of [b, c]) for (const n of AGENTS) await waitFor(async () => (await v.text(n)).includes('STREAM DONE'), `${n}'s stream done`, 90_000);
    for (const n of AGENTS) {
      const bytes = await waitFor(() => {
        const log = ptyBytes(n);
        return log.length === direct.received.get(n)!.from + direct.received.get(n)!.data.length && log.includes('STREAM DONE') ? log : null;
      }, `${n}'s output.log flushed`);
      for (const v of [direct, b, c]) {
        const r = v.received.get(n)!;
        // From its replay on, each view got exactly the pty's characters: nothing lost or doubled at the seam.
        expect(r.breaks, n).toEqual([]);
        expect(r.data === bytes.slice(r.from), `${n}: the stream after the replay equals output.log from there`).toBe(true);
      }
      expect(direct.received.get(n)!.from, `${n}: the direct client saw it from the start`).toBe(0);
      // The restored screen (replay + live) equals a terminal that saw every byte; both new views alike.
      const ref = await referenceText(bytes);
      expect(await b.text(n), n).toBe(ref);
      expect(await c.text(n), n).toBe(ref);
      expect(bytes.split('streamed line 0100 of').length, `${n}: each line once`).toBe(2);
    }
    b.fire({ type: 'input', agent: LEAD, data: 'hello after\r' });
    await waitFor(async () => (await c.text(LEAD)).includes('FALLBACK ANSWER'), 'the lead answering typing after the restart', 60_000);
  }, 240_000);

  it('SIGKILL of the host: the view reconnects to the next host, whose Resume team brings every member back on its conversation', async () => {
    const before = new Map<string, { pid: number; session: string }>();
    for (const n of AGENTS) {
      const st = await store.statuses.read(n);
      expect(st?.session_id, `${n} recorded its session`).toBeTruthy();
      before.set(n, { pid: st!.pid!, session: st!.session_id! });
    }
    process.kill(second.hostPid, 'SIGKILL');
    for (const m of MATES) await waitFor(async () => deriveState(await store.statuses.read(m)) .match(/^(dead|stopped)$/) !== null, `${m} ended with its host (dead, or stopped by its SIGHUP handler)`);
    expect(second.proc.exitCode).toBeNull();
    // A page of the same dashboard reconnects, as a renderer does: the next host is started for it.
    const d = await view(() => TermView.overWebSocket(second.url));
    const leadPid = await waitFor(() => (d.pid(LEAD) !== before.get(LEAD)!.pid ? d.pid(LEAD) : null), 'a new lead in the next host', 60_000);
    const reply = await d.request({ type: 'team_resume' });
    expect(reply).toMatchObject({ ok: true });
    const result = reply.result as { resumed: { name: string; session_id: string }[]; fresh: string[]; failed: unknown[] };
    expect(result.failed).toEqual([]);
    expect(result.fresh).toEqual([]);
    expect(Object.fromEntries(result.resumed.map((r) => [r.name, r.session_id]))).toEqual(Object.fromEntries(AGENTS.map((n) => [n, before.get(n)!.session])));
    for (const m of MATES) {
      const st = await waitFor(async () => {
        const s = await store.statuses.read(m);
        return s?.pid && s.pid !== before.get(m)!.pid ? s : null;
      }, `${m} running again`);
      expect(st.session_id).toBe(before.get(m)!.session);
      // Its folder is its worktree. While it wraps a Bash command in the OS sandbox its cwd is briefly the
      // sandbox's neutral directory (src/core/sandbox/runtime.ts), so read it until it is home.
      await waitFor(() => fs.realpathSync(`/proc/${st.pid}/cwd`) === path.join(ws, '.worktrees', m), `${m} working in its own worktree`);
    }
    const resumedLead = await waitFor(() => (d.pid(LEAD) !== leadPid ? d.pid(LEAD) : null), 'the lead restarted on its conversation', 60_000);
    expect(fs.readFileSync(`/proc/${resumedLead}/cmdline`, 'utf8').split('\0')).toEqual(expect.arrayContaining(['--resume', before.get(LEAD)!.session]));

    // Their next turns go on in the same conversations, after what they said before the host died.
    const goesOn = (n: string) => {
      const t = sessionTexts(before.get(n)!.session);
      const i = t.findIndex((x) => x.includes('what came before'));
      return i > t.findIndex((x) => x.includes('STREAM DONE')) && t.slice(i).some((x) => x.includes('ANSWER AFTER RESUME'));
    };
    await waitFor(async () => (await d.text(LEAD)).includes('thclaws>'), 'the resumed lead prompt', 60_000);
    d.fire({ type: 'input', agent: LEAD, data: 'what came before\r' });
    for (const m of MATES) expect(await d.request({ type: 'send_message', to: m, text: 'what came before' })).toMatchObject({ ok: true });
    for (const n of AGENTS) await waitFor(() => goesOn(n), `${n}'s resumed turn saved in its session`, 60_000);

    // Now they run: a second resume, from a terminal, is refused in one line.
    const again = await execFileP(THCLAWS, ['team', 'resume', '--dir', ws], { env }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => e);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^thclaws: cannot resume the team while .* running: stop .* first\n$/);
  }, 240_000);

  it('"Stop the team and quit": the teammates are asked as the lead asks, stop by themselves, and the host exits', async () => {
    const d = views.at(-1)!;
    const probe = await connectHost(ws, { client: 'test', env });
    const hostPid = probe.pid;
    probe.close();
    expect(await d.request({ type: 'host_stop' })).toMatchObject({ ok: true });
    // The host waits up to its 15 s grace for the teammates to stop; on a loaded machine their exits come late.
    await waitFor(() => d.events.some((e) => e.type === 'host_closed'), 'host_closed', 90_000);
    for (const m of MATES) expect((await store.statuses.read(m))?.status, m).toBe('stopped');
    await waitFor(() => {
      try {
        process.kill(hostPid, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the host gone');
    const closed = d.events.find((e) => e.type === 'host_closed');
    expect(closed).toMatchObject({ reason: 'the team was stopped from a dashboard; 3 of 3 teammates stopped by themselves' });
  }, 150_000);
});
