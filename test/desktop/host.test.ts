import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { HostSession } from '../../src/main/host/session.js';
import { RecentWorkspaces } from '../../src/main/host/recent.js';
import { TeamHost, type TeamHostOptions } from '../../src/main/host/team-host.js';
import { FLOW, parseEvent, type HostEvent, type Member } from '../../src/contract/api.js';
import { probeSandbox } from '../../src/core/sandbox/runtime.js';
import { sandboxView } from '../../src/main/host/views.js';
import { loadSettings } from '../../src/core/agent/settings.js';
import { DEFAULT_MODEL } from '../../src/contract/models.js';
import { agentSimScript, makeTeamWorkspace, THCLAWS, waitFor } from './helpers.js';

class Client {
  events: HostEvent[] = [];
  session: HostSession;
  private next = 1;
  constructor(host: TeamHost) {
    this.session = new HostSession(host, (e) => {
      this.events.push(e);
      // Render-and-ack, as xterm's write callback would.
      if (e.type === 'output' || e.type === 'replay') setTimeout(() => void this.session.handle({ id: 0, type: 'ack', agent: e.agent, chars: Math.max(1, e.data.length) }), 1);
    });
  }
  async req(body: Record<string, unknown>): Promise<Extract<HostEvent, { type: 'reply' }>> {
    const id = this.next++;
    await this.session.handle({ id, ...body });
    return this.events.find((e) => e.type === 'reply' && e.id === id) as Extract<HostEvent, { type: 'reply' }>;
  }
  member(name: string): Member | undefined {
    let m: Member | undefined;
    for (const e of this.events) {
      if (e.type === 'roster') m = e.members.find((x) => x.name === name) ?? m;
      if (e.type === 'member' && e.member.name === name) m = e.member;
    }
    return m;
  }
  output(agent: string): string {
    let s = '';
    for (const e of this.events) {
      if (e.type === 'replay' && e.agent === agent) s = e.data;
      if (e.type === 'output' && e.agent === agent) s += e.data;
    }
    return s;
  }
  task(id: string) {
    let t;
    for (const e of this.events) if (e.type === 'task' && e.task.id === id) t = e.task;
    return t;
  }
}

const children: ChildProcess[] = [];
const hosts: TeamHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

function startForeign(ws: string, name: string): ChildProcess {
  const c = spawn(process.execPath, [agentSimScript(), name, '--own-output'], {
    env: { ...process.env, THCLAWS_TEAM_DIR: path.join(ws, '.thclaws/state/team') },
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  children.push(c);
  return c;
}

function makeHost(ws: string, startLead = true, extra: Partial<TeamHostOptions> = {}): TeamHost {
  // Children get a private HOME: no user settings of this machine leak into the lead or teammates.
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'host-home-'));
  const h = new TeamHost({
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
    workspace: ws,
    leadArgv: [THCLAWS, '--provider', 'scripted', '--cwd', ws],
    teammateArgv: (name) => [process.execPath, agentSimScript(), name],
    startLead,
    recent: new RecentWorkspaces(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'recent-')), 'r.json')),
    ...extra,
  });
  hosts.push(h);
  return h;
}

/** An opened host with one subscribed client, and a store on its team dir to write as the agents do. */
async function subscribedHost(ws: string, startLead = true, extra: Partial<TeamHostOptions> = {}): Promise<{ host: TeamHost; c: Client; store: TeamStore }> {
  const host = makeHost(ws, startLead, extra);
  await host.open();
  const c = new Client(host);
  await c.req({ type: 'subscribe' });
  return { host, c, store: new TeamStore(host.store.dir) };
}

describe('TeamHost against a team made by the CLI', () => {
  it('runs the lead in a pty, tails a foreign teammate, spawns/respawns its own, pushes deltas', async () => {
    const ws = makeTeamWorkspace(['alice', 'bob'], ['write the parser']);
    startForeign(ws, 'alice');
    const host = makeHost(ws);
    await host.open();
    const c = new Client(host);
    expect((await c.req({ type: 'subscribe' })).ok).toBe(true);
    expect(c.member('lead')?.terminal.kind).toBe('pty');
    expect(c.member('bob')?.state).toBe('defined');

    // Lead REPL in a pty: typing reaches it, its answer comes back as output.
    await c.req({ type: 'attach', agent: 'lead', cols: 100, rows: 30 });
    await waitFor(() => c.output('lead').includes('>') || c.output('lead').length > 0, 'the lead prompt');
    await c.req({ type: 'input', agent: 'lead', data: 'hello\r' });
    await waitFor(() => c.output('lead').includes('scripted provider'), 'the lead answer');

    // Foreign alice: read-only, live status from her files, output from her output.log, the task completed.
    await waitFor(() => c.member('alice')?.alive, 'alice alive');
    expect(c.member('alice')?.terminal).toEqual({ kind: 'readonly', reason: expect.stringContaining('not started by this dashboard') });
    await c.req({ type: 'attach', agent: 'alice', cols: 80, rows: 24 });
    await waitFor(() => c.output('alice').includes('[alice] ready'), 'alice output');
    await waitFor(() => c.task('1')?.column === 'completed', 'task 1 completed');
    expect(c.output('alice')).toContain('write the parser: step 3/3');
    const typed = await c.req({ type: 'input', agent: 'alice', data: 'x' });
    // Refused with the reason, after alice's card changed many times since her tail began (each change re-sets it).
    expect(typed).toMatchObject({ ok: false, error: 'alice is read-only here: not started by this dashboard; output from output.log' });

    // Bob never ran: the host starts him in its own pty; typing works; his death is seen; respawn by request.
    expect(c.member('bob')?.can_respawn).toBe(true);
    expect((await c.req({ type: 'respawn', agent: 'bob' })).ok).toBe(true);
    await c.req({ type: 'attach', agent: 'bob', cols: 80, rows: 24 });
    await waitFor(() => c.output('bob').includes('[bob] ready'), 'bob ready');
    await c.req({ type: 'input', agent: 'bob', data: 'ping\r' });
    await waitFor(() => c.output('bob').includes('[bob] got: ping'), 'bob echo');
    await c.req({ type: 'input', agent: 'bob', data: 'die\r' });
    await waitFor(() => c.events.some((e) => e.type === 'exit' && e.agent === 'bob' && e.code === 3), 'bob exit');
    await waitFor(() => c.member('bob')?.state === 'dead', 'bob dead');
    expect(c.member('bob')?.can_respawn).toBe(true);
    // After the pty is gone the pane tails output.log, without repeating what the pty already showed.
    fs.appendFileSync(new TeamStore(host.store.dir).paths.output('bob'), 'written-after-exit\r\n');
    await waitFor(() => c.output('bob').includes('written-after-exit'), 'tail after exit');
    expect(c.output('bob').split('[bob] got: ping').length).toBe(2);
    expect((await c.req({ type: 'respawn', agent: 'bob' })).ok).toBe(true);
    await waitFor(() => c.member('bob')?.alive && c.member('bob')?.terminal.kind === 'pty', 'bob back');
    const store = new TeamStore(host.store.dir);
    expect(fs.readFileSync(store.paths.output('bob'), 'utf8')).toContain('[bob] got: ping');

    // Stop: status written, process ended.
    expect((await c.req({ type: 'stop', agent: 'bob' })).ok).toBe(true);
    await waitFor(() => c.member('bob')?.state === 'stopped', 'bob stopped');
  });

  it('a status write that changes only a pending request (not what the pane shows) still updates the approval inbox', async () => {
    const ws = makeTeamWorkspace(['alice']);
    // No periodic whole re-read: the approval inbox must follow the status event itself.
    const { c, store } = await subscribedHost(ws, false, { rereadEveryTicks: Number.MAX_SAFE_INTEGER });
    const waiting = (summary: string) => ({ request_id: 'r1', kind: 'permission', agent: 'alice', tool: 'Bash', summary, cwd: ws, epoch: null, since: Date.now(), deadline: Date.now() + 600_000 });
    const live = { status: 'working' as const, pid: process.pid, host: os.hostname() };
    const approvals = () => [...c.events].reverse().find((e) => e.type === 'approvals') as Extract<HostEvent, { type: 'approvals' }> | undefined;
    await store.statuses.write('alice', { ...live, waiting: waiting('run ls') } as never);
    await waitFor(() => approvals()?.items[0]?.summary === 'run ls', 'the request in the approval inbox');
    await waitFor(() => c.member('alice')?.waiting_for === 'r1', 'the pane shows the request');
    // Same request id, same state: the pane's member view is unchanged, only the request's details are.
    await store.statuses.write('alice', { ...live, waiting: waiting('run ls -la') } as never);
    await waitFor(() => approvals()?.items[0]?.summary === 'run ls -la', 'the changed request in the approval inbox');
  });

  it('tasks, messages, abort and settings act on disk; invalid input is refused without harm', async () => {
    const ws = makeTeamWorkspace(['alice']);
    // No periodic whole re-read: the queued count must follow the inbox's own change event.
    const { c, store } = await subscribedHost(ws, false, { rereadEveryTicks: Number.MAX_SAFE_INTEGER });

    const created = await c.req({ type: 'task_create', subject: 'from the UI', reserved_for: 'alice' });
    expect(created).toMatchObject({ ok: true, result: '1' });
    expect((await store.tasks.get('1')).reserved_for).toBe('alice');
    await waitFor(() => c.task('1')?.subject === 'from the UI', 'task delta');
    await c.req({ type: 'task_edit', task: '1', subject: 'renamed' });
    await c.req({ type: 'task_reassign', task: '1', reserved_for: null });
    expect(await store.tasks.get('1')).toMatchObject({ subject: 'renamed', reserved_for: null });
    await c.req({ type: 'task_cancel', task: '1' });
    await waitFor(() => c.task('1')?.column === 'cancelled', 'cancelled on the board');

    await c.req({ type: 'send_message', to: 'alice', text: 'hi alice' });
    await c.req({ type: 'abort_turn', agent: 'alice' });
    const inbox = store.inboxes.list('alice');
    expect(inbox.map((m) => [m.from, m.type ?? 'text'])).toEqual([['user', 'text'], ['user', 'abort_turn']]);
    await waitFor(() => c.member('alice')?.queued === 2, 'queued count');

    fs.writeFileSync(path.join(ws, '.thclaws/settings.json'), JSON.stringify({ provider: 'scripted', custom: 1 }));
    const set = await c.req({ type: 'settings_set', patch: { teamEnabled: true, maxLiveTeammates: 3 } });
    expect(set.ok).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(ws, '.thclaws/settings.json'), 'utf8'))).toEqual({ provider: 'scripted', custom: 1, teamEnabled: true, maxLiveTeammates: 3 });

    for (const bad of [{ type: 'input', agent: '../x', data: 'a' }, { type: 'nope' }, 'garbage', null, { type: 'task_cancel', task: '99' }]) {
      const r = await c.req(typeof bad === 'object' && bad ? bad : { type: 'subscribe', junk: bad });
      expect(r.ok).toBe(false);
      expect(r.error).toMatch(/invalid|not found/);
    }
    await c.session.handle('not even an object');
    expect(c.events.at(-1)).toMatchObject({ type: 'reply', id: -1, ok: false });
    expect((await c.req({ type: 'settings_get' })).ok).toBe(true);
  });

  it("shows the runtime's settings: its defaults when the file says nothing, and each member's model as a spawn would pick it (its own, its role's, the default)", async () => {
    const ws = makeTeamWorkspace(['rev', 'dev', 'own']);
    const store = new TeamStore(path.join(ws, '.thclaws/state/team'));
    await store.config.update((cfg) => {
      for (const m of cfg.members) m.role = m.name === 'rev' ? 'Reviewer ' : 'developer';
      cfg.members.find((m) => m.name === 'own')!.model = 'claude-opus-4-5';
    });
    const { c } = await subscribedHost(ws, false);
    const shown = () => c.events.filter((e) => e.type === 'settings').at(-1) as Extract<HostEvent, { type: 'settings' }>;
    // No settings file: the view shows what the runtime enforces (the lead's session reads the same schema).
    const runtime = loadSettings(ws, { HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'home-')) }, { trusted: true }).settings;
    expect(shown().settings).toMatchObject({ maxLiveTeammates: runtime.maxLiveTeammates, model: runtime.model, teammateMode: runtime.teammateMode, roleModels: {} });
    expect(shown().settings.maxLiveTeammates).toBe(8);
    expect(shown().settings.model).toBe(DEFAULT_MODEL);
    expect(c.member('rev')?.model).toBe(DEFAULT_MODEL);

    const set = await c.req({ type: 'settings_set', patch: { roleModels: { reviewer: 'claude-haiku-4-5' } } });
    expect(set.ok, set.error).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(ws, '.thclaws/settings.json'), 'utf8'))).toEqual({ roleModels: { reviewer: 'claude-haiku-4-5' } });
    await waitFor(() => c.member('rev')?.model === 'claude-haiku-4-5', "the reviewer's role model in its pane header");
    expect(c.member('dev')?.model).toBe(DEFAULT_MODEL);
    expect(c.member('own')?.model).toBe('claude-opus-4-5');
  });

  it('serves the runtime\'s spawn requests: a teammate the lead asks for runs in a pty of this host', async () => {
    const ws = makeTeamWorkspace(['dora']);
    const host = makeHost(ws, false);
    await host.open();
    const c = new Client(host);
    await c.req({ type: 'subscribe' });
    await c.req({ type: 'attach', agent: 'dora', cols: 80, rows: 24 });
    await host.store.spawnRequests.write({
      spawn_id: 'sp-1', agent: 'dora', argv: [process.execPath, agentSimScript(), 'dora'], cwd: ws,
      env: { THCLAWS_TEAM_DIR: host.store.dir }, inherit_env: ['PATH', 'HOME'], team_dir: host.store.dir, requested_at: Date.now(),
    });
    await waitFor(() => c.member('dora')?.terminal.kind === 'pty', 'dora in a host pty');
    await waitFor(() => c.output('dora').includes('[dora] ready'), 'dora output');
    await c.req({ type: 'input', agent: 'dora', data: 'hi\r' });
    await waitFor(() => c.output('dora').includes('[dora] got: hi'), 'dora typed');
    expect((await host.store.spawnRequests.read('dora'))?.served_at).toBeTruthy();
  });

  it('survives its own restart: reattaches to the team on disk and shows who is alive, dead or stopped', async () => {
    const ws = makeTeamWorkspace(['alice', 'bob', 'carol']);
    const alice = startForeign(ws, 'alice');
    const first = makeHost(ws, false);
    await first.open();
    await first.respawn('bob');
    await waitFor(() => first.member('bob')?.alive, 'bob alive');
    await first.stop('bob');
    // carol "crashed": a status claiming working, with a pid that is gone.
    const store = new TeamStore(first.store.dir);
    await store.statuses.write('carol', { status: 'working', pid: 2 ** 22 + 12345, host: os.hostname() });
    await first.close();
    hosts.splice(hosts.indexOf(first), 1);

    const second = makeHost(ws, false);
    await second.open();
    const c = new Client(second);
    await c.req({ type: 'subscribe' });
    await waitFor(() => c.member('alice')?.alive, 'alice still alive');
    expect(c.member('bob')?.state).toBe('stopped');
    expect(c.member('carol')?.state).toBe('dead');
    expect(c.member('carol')?.can_respawn).toBe(true);
    alice.kill('SIGKILL');
    await waitFor(() => c.member('alice')?.state === 'dead', 'alice dead after SIGKILL', 20_000);
  });

  it("the host's lead spawns teammates in host mode whatever the workspace says (teammateMode tmux, even a tool call asking for tmux); its status follows its turns", async () => {
    const ws = makeTeamWorkspace(['dora']);
    fs.writeFileSync(path.join(ws, '.thclaws/settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true, teammateMode: 'tmux' }));
    const script = path.join(ws, '.thclaws', 'lead-script.json');
    fs.writeFileSync(script, JSON.stringify({ rules: [
      { match: 'start dora', turns: [{ tool_calls: [{ name: 'SpawnTeammate', input: { name: 'dora', teammateMode: 'tmux' } }] }, { text: 'dora is up' }] },
      { match: 'think slowly', turns: [{ text: 'one two three four five six seven eight', delay_ms: 400 }] },
    ] }));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'host-home-'));
    const host = new TeamHost({
      env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
      workspace: ws,
      leadArgv: [THCLAWS, '--provider', 'scripted', '--script', script, '--cwd', ws, '--accept-all'],
      recent: new RecentWorkspaces(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'recent-')), 'r.json')),
    });
    hosts.push(host);
    await host.open();
    const c = new Client(host);
    await c.req({ type: 'subscribe' });
    const settings = c.events.find((e) => e.type === 'settings');
    expect(settings).toMatchObject({ settings: { teammateMode: 'tmux' }, effective_mode: { mode: 'host' } });
    expect(settings?.type === 'settings' && settings.effective_mode?.reason).toContain('setting: tmux');
    await c.req({ type: 'attach', agent: 'lead', cols: 120, rows: 30 });
    await waitFor(() => c.output('lead').length > 0, 'the lead prompt');
    await c.req({ type: 'input', agent: 'lead', data: 'start dora\r' });
    await waitFor(() => c.member('dora')?.terminal.kind === 'pty', 'dora in a pty of this host', 40_000);
    await waitFor(() => c.output('lead').includes('dora is up'), 'the spawn reported as done', 40_000);
    const req = await host.store.spawnRequests.read('dora');
    expect(req?.served_by).toBeTruthy();
    expect(c.output('lead')).toContain("Teammate 'dora' spawned by the team host and is live (pid ");
    expect(c.output('lead')).not.toContain('pid ?');
    // The lead's own status follows its turns: working while it answers, idle after.
    await c.req({ type: 'input', agent: 'lead', data: 'think slowly\r' });
    await waitFor(() => c.member('lead')?.state === 'working', 'the lead working during its turn');
    await waitFor(() => c.output('lead').includes('seven eight') && c.member('lead')?.state === 'idle', 'the lead idle after its turn');
  }, 90_000);

  it("pushes the agents' sandbox status: the probe's answer, or off when the user's settings say so (a project cannot switch it off)", async () => {
    const ws = makeTeamWorkspace(['erin']);
    fs.writeFileSync(path.join(ws, '.thclaws/settings.json'), JSON.stringify({ provider: 'scripted', sandbox: 'off' }));
    const expected = sandboxView(await probeSandbox());
    const sandboxOf = async (home: string) => {
      const host = new TeamHost({ env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }, workspace: ws, startLead: false, recent: new RecentWorkspaces(path.join(home, 'r.json')) });
      hosts.push(host);
      await host.open();
      const c = new Client(host);
      await c.req({ type: 'subscribe' });
      const last = () => c.events.filter((e) => e.type === 'sandbox').at(-1);
      return waitFor(() => (last()?.type === 'sandbox' && last()!.sandbox.state !== 'checking' ? last() : null), 'a sandbox event');
    };
    // The project's `sandbox: "off"` is ignored (it would loosen the sandbox): the agents get what the probe says.
    expect(await sandboxOf(fs.mkdtempSync(path.join(os.tmpdir(), 'host-home-')))).toEqual({ type: 'sandbox', sandbox: expected });
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'host-home-'));
    fs.mkdirSync(path.join(home, '.config', 'thclaws'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config', 'thclaws', 'settings.json'), JSON.stringify({ sandbox: 'off' }));
    const off = await sandboxOf(home);
    expect(off).toMatchObject({ sandbox: { state: 'off', fix: null } });
    expect(off.type === 'sandbox' && off.sandbox.text).toMatch(/^sandbox: off \(setting sandbox: "off" in .*thclaws\/settings\.json\)$/);
  }, 60_000);

  it('an oversized role, model or token total from the files never makes a view drop the roster (every event passes the contract)', async () => {
    const ws = makeTeamWorkspace(['fay', 'gus']);
    const store = TeamStore.forWorkspace(ws, {});
    await store.config.update((c) => {
      c.members.find((m) => m.name === 'fay')!.role = 'r'.repeat(5000);
    });
    fs.mkdirSync(store.paths.agentDir('gus'), { recursive: true });
    const big = 4e15; // each a safe integer; their sum is not
    fs.writeFileSync(
      store.paths.status('gus'),
      JSON.stringify({ agent: 'gus', status: 'working', pid: process.pid, host: os.hostname(), last_heartbeat: Date.now(), model: 'm'.repeat(5000), spawner: 's'.repeat(5000), waiting: { request_id: 'w'.repeat(500) }, usage: { input_tokens: big, output_tokens: big, cache_creation_input_tokens: big, cache_read_input_tokens: big }, cost_usd: 1 }),
    );
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'host-home-'));
    const host = new TeamHost({ env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }, workspace: ws, startLead: false, recent: new RecentWorkspaces(path.join(home, 'r.json')) });
    hosts.push(host);
    await host.open();
    const c = new Client(host);
    await c.req({ type: 'subscribe' });
    await waitFor(() => c.events.some((e) => e.type === 'roster'), 'a roster');
    // What the renderer does with each event: parse it, and drop it whole when it fails.
    const roster = c.events.filter((e) => e.type === 'roster' || e.type === 'member').map((e) => parseEvent(JSON.parse(JSON.stringify(e))));
    expect(roster.filter((r) => !r.ok)).toEqual([]);
    const parsed = roster.at(-1);
    expect(parsed?.ok && parsed.event.type === 'roster' && parsed.event.members.map((m) => [m.name, m.state])).toEqual([['lead', 'defined'], ['fay', 'defined'], ['gus', 'working']]);
    expect(c.member('gus')).toMatchObject({ tokens: Number.MAX_SAFE_INTEGER, waiting_for: null });
    // A model id over the model-name schema's limit is read as none (the member's configured model is shown).
    expect(c.member('gus')?.model).not.toContain('mmmm');
  }, 60_000);
});

describe('one pty shown in two views', () => {
  it('takes the size of the view used last: a view attaching never reflows the one in use', async () => {
    const ws = makeTeamWorkspace(['erin']);
    const host = makeHost(ws, false);
    await host.open();
    // The child prints its terminal size (as the kernel reports it) for every line typed.
    await host.spawn('erin', ['bash', '-c', 'echo ready; while read -r l; do echo "size=$(stty size)"; done']);
    const desk = new Client(host);
    const phone = new Client(host);
    // A view that attaches without showing the pane (another tab of the dashboard): typing there sizes nothing.
    const probe = new Client(host);
    await desk.req({ type: 'subscribe' });
    await desk.req({ type: 'attach', agent: 'erin', cols: 160, rows: 50 });
    await probe.req({ type: 'attach', agent: 'erin' });
    await waitFor(() => probe.output('erin').includes('ready'), 'erin ready');
    let n = 0;
    const sizeNow = async (c: Client) => {
      await c.req({ type: 'input', agent: 'erin', data: `q${n}\r` });
      const m = await waitFor(() => [...probe.output('erin').matchAll(/size=(\d+) (\d+)/g)][n], `size report ${n}`);
      n++;
      return `${m[2]}x${m[1]}`;
    };
    expect(await sizeNow(probe)).toBe('160x50'); // the first view to show it
    await phone.req({ type: 'attach', agent: 'erin', cols: 50, rows: 30 });
    expect(await sizeNow(probe)).toBe('160x50'); // the phone attaching does not reflow the desktop
    expect(phone.events.filter((e) => e.type === 'pty_size').at(-1)).toMatchObject({ cols: 160, rows: 50 });
    expect(await sizeNow(phone)).toBe('50x30'); // typing on the phone makes it the size
    expect(desk.events.filter((e) => e.type === 'pty_size').at(-1)).toMatchObject({ cols: 50, rows: 30 });
    // The desktop re-laying out (its fit addon on a layout change) does not take the pty back...
    await desk.req({ type: 'resize', agent: 'erin', cols: 170, rows: 55 });
    expect(await sizeNow(probe)).toBe('50x30');
    // ...the person focusing its terminal or resizing its window does.
    await desk.req({ type: 'resize', agent: 'erin', cols: 170, rows: 55, active: true });
    expect(await sizeNow(probe)).toBe('170x55');
    expect(await sizeNow(phone)).toBe('50x30');
    // The phone hides its pane, then leaves: the desktop, used before it, sizes the pty again.
    await phone.req({ type: 'unsize', agent: 'erin' });
    expect(await sizeNow(probe)).toBe('170x55');
    await phone.req({ type: 'resize', agent: 'erin', cols: 50, rows: 30 });
    expect(await sizeNow(probe)).toBe('50x30');
    await phone.req({ type: 'detach', agent: 'erin' });
    expect(await sizeNow(probe)).toBe('170x55');
  });
});

describe('flow control across views', () => {
  it('a view that stops acking pauses the pty; when that only view detaches, the pty resumes and the child finishes', async () => {
    const ws = makeTeamWorkspace(['ivy']);
    const host = makeHost(ws, false);
    await host.open();
    const done = path.join(ws, 'flood-done');
    // On a typed line, 4 MiB to the tty (node writes to a tty synchronously): the child blocks while the pty is paused.
    const flood = `process.stdin.once('data',()=>{const b=Buffer.alloc(65536,97);for(let i=0;i<64;i++)process.stdout.write(b);require('fs').writeFileSync(${JSON.stringify(done)},'');process.exit(0)})`;
    await host.spawn('ivy', [process.execPath, '-e', flood]);
    // A view that renders nothing and never acks (a frozen tab).
    let got = 0;
    const frozen = new HostSession(host, (e) => {
      if (e.type === 'output' || e.type === 'replay') got += e.data.length;
    });
    await frozen.handle({ id: 1, type: 'subscribe' });
    await frozen.handle({ id: 2, type: 'attach', agent: 'ivy' });
    await frozen.handle({ id: 3, type: 'input', agent: 'ivy', data: 'go\r' });
    // The host's own screen parser may pause it first; the frozen view holds it once the parser caught up.
    await waitFor(() => host.terminal('ivy').paused && got > FLOW.highWater && host.terminal('ivy').mirror.backlog === 0, 'the pty to pause for the frozen view');
    expect(fs.existsSync(done)).toBe(false);
    await frozen.handle({ id: 4, type: 'detach', agent: 'ivy' });
    expect(host.terminal('ivy').paused).toBe(false);
    await waitFor(() => fs.existsSync(done), 'the child to finish its output once nothing holds it back', 20_000);
  }, 60_000);
});

