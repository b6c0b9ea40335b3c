/**
 * A teammate's new worktree is ready to work in: a real Node project (dependencies installed from the
 * registry once) whose teammate runs the project's tests without installing, `.env` only when
 * `.worktreeinclude` lists it, `worktree.setup` once per worktree and a failing one failing the spawn, and two
 * teammates' servers on their own `$PORT` at the same time.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { WorktreeSettingsSchema, type WorktreeSettings } from '../../src/contract/settings-schema.js';
import { BIN } from '../agent/helpers.js';
import { FakeAnthropic } from '../agent/fake-anthropic.js';
import { cleanupsAfterEach, leadSession, stopLeadAndTeam, teamWorkspace, waitFor, writeScript, type Ws } from './helpers.js';
import { installNodeProject } from './node-project.js';
import { marked } from './lead-team.js';
import { stopMember } from '../../src/core/teams/stop-member.js';
import { USER } from '../../src/core/store/index.js';

const cleanups = cleanupsAfterEach();
/** A teammate with nothing to do. */
const IDLE = { rules: [{ turns: [{ text: 'ok' }] }] };

async function nodeTeam(names: string[], script: unknown, worktree: Partial<WorktreeSettings> = {}, prepare?: (ws: Ws) => void) {
  const ws = teamWorkspace();
  installNodeProject(ws.dir);
  prepare?.(ws);
  const settings = WorktreeSettingsSchema.parse(worktree);
  const session = leadSession(ws, writeScript(ws, script), { worktree: () => settings });
  session.store.init();
  await session.store.config.create({ name: 't', members: names.map((name) => ({ name, isolation: 'worktree' as const })) });
  await session.becomeLead();
  const handler = new LeadHandler(session);
  cleanups.push(() => stopLeadAndTeam(session, handler, ws));
  return { ws, session };
}

const wt = (ws: Ws, name: string) => path.join(ws.dir, '.worktrees', name);
const readOr = (file: string, or = ''): string => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : or);
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** The teammate's Bash runs `command` in its worktree when its initial prompt says `marker`. */
const runs = (marker: string, command: string, background = false) => ({ match: marker, turns: [{ text: 'running', tool_calls: [{ name: 'Bash', input: { command, ...(background ? { run_in_background: true } : {}) } }] }, { text: 'done' }] });

describe('worktree bootstrap', () => {
  it("a teammate runs the project's tests in its new worktree without installing: node_modules cloned, not a symlink", async () => {
    const { ws, session } = await nodeTeam(['alice'], { rules: [runs('run the tests', 'npm test > test-out.txt 2>&1; echo "exit $?" >> test-out.txt')] });
    await spawnTeammate(session, { name: 'alice', prompt: 'run the tests' });
    const file = path.join(wt(ws, 'alice'), 'test-out.txt');
    const out = await waitFor(() => /exit \d+/.test(readOr(file)) && readOr(file), 'the test run', 60_000).catch(() => readOr(file, '(no test-out.txt)'));
    expect(out).toContain('fixture tests passed');
    expect(out).toContain('exit 0');
    const nm = path.join(wt(ws, 'alice'), 'node_modules');
    expect(fs.lstatSync(nm).isSymbolicLink()).toBe(false);
    // A file of the clone is the lead's inode only as a hard link (never the same path through a link).
    expect(fs.realpathSync(path.join(nm, 'ms', 'index.js'))).toBe(path.join(fs.realpathSync(wt(ws, 'alice')), 'node_modules', 'ms', 'index.js'));
    // Its pane (output.log) says what was reused.
    expect(session.store.outputs.tail('alice', 50)).toMatch(/\[worktree\] node_modules: cloned from the lead's checkout \((reflink|hard links)/);
  }, 90_000);

  it('a lockfile that differs: node_modules is not reused (the pane says why)', async () => {
    const { ws, session } = await nodeTeam(['bob'], IDLE, {}, (w) => fs.appendFileSync(path.join(w.dir, 'package-lock.json'), '\n'));
    await spawnTeammate(session, { name: 'bob' });
    expect(fs.existsSync(path.join(wt(ws, 'bob'), 'node_modules'))).toBe(false);
    expect(session.store.outputs.tail('bob', 50)).toContain("node_modules: not reused: package-lock.json differs from the lead's");
  }, 60_000);

  it('.worktreeinclude: a listed .env arrives, an unlisted .env.local does not', async () => {
    const { ws, session } = await nodeTeam(['carol'], IDLE, {}, (w) => {
      fs.writeFileSync(path.join(w.dir, '.env'), 'API_TOKEN=listed\n');
      fs.writeFileSync(path.join(w.dir, '.env.local'), 'SECRET=unlisted\n');
      fs.mkdirSync(path.join(w.dir, 'config'));
      fs.writeFileSync(path.join(w.dir, 'config', 'generated.json'), '{"made":"by a build"}');
      fs.writeFileSync(path.join(w.dir, '.worktreeinclude'), '.env\nconfig/generated.json\n');
      git(w.dir, 'add', '.worktreeinclude');
      git(w.dir, 'commit', '-qm', 'worktreeinclude');
    });
    await spawnTeammate(session, { name: 'carol' });
    expect(fs.readFileSync(path.join(wt(ws, 'carol'), '.env'), 'utf8')).toBe('API_TOKEN=listed\n');
    expect(fs.readFileSync(path.join(wt(ws, 'carol'), 'config', 'generated.json'), 'utf8')).toBe('{"made":"by a build"}');
    expect(fs.existsSync(path.join(wt(ws, 'carol'), '.env.local'))).toBe(false);
  }, 60_000);

  it('worktree.setup runs once per new worktree (not on respawn), with its $PORT, and its output in the pane', async () => {
    const { ws, session } = await nodeTeam(['dave'], IDLE, { setup: 'echo "setup run on port $PORT" >> .setup-count; echo setup-visible-line; touch ../../escaped || echo "lead checkout refused"' });
    await spawnTeammate(session, { name: 'dave' });
    const counter = path.join(wt(ws, 'dave'), '.setup-count');
    const port = (await session.store.config.require()).members.find((m) => m.name === 'dave')!.ports!.base;
    expect(fs.readFileSync(counter, 'utf8')).toBe(`setup run on port ${port}\n`);
    const pane = session.store.outputs.tail('dave', 50);
    expect(pane).toContain('setup-visible-line');
    // In the teammate's OS sandbox: the lead's checkout is read-only to it.
    expect(pane).toContain("(worktree.setup, in the teammate's OS sandbox)");
    expect(pane).toContain('lead checkout refused');
    expect(fs.existsSync(path.join(ws.dir, 'escaped'))).toBe(false);
    // Stopped and started again on the same worktree: the setup does not run again.
    session.children.get('dave')?.kill('SIGKILL');
    await session.children.get('dave')?.exited;
    await session.store.statuses.write('dave', { status: 'stopped', pid: null } as never);
    await spawnTeammate(session, { name: 'dave' });
    expect(fs.readFileSync(counter, 'utf8')).toBe(`setup run on port ${port}\n`);
    // Its block is its own from spawn to spawn.
    expect((await session.store.config.require()).members.find((m) => m.name === 'dave')!.ports).toEqual({ base: port, count: 10 });
  }, 90_000);

  it('while a worktree bootstraps, the teammate reads spawning and a second spawn of the name is refused', async () => {
    const { ws, session } = await nodeTeam(['ivy'], IDLE, { setup: 'sleep 3; echo once >> .setup-count' });
    const first = spawnTeammate(session, { name: 'ivy' });
    await waitFor(async () => (await session.store.statuses.read('ivy'))?.status === 'spawning', 'ivy to read spawning', 20_000);
    // Still bootstrapping: the setup has not finished.
    expect(fs.existsSync(path.join(wt(ws, 'ivy'), '.setup-count'))).toBe(false);
    const second = await spawnTeammate(session, { name: 'ivy' }).catch((e: Error) => e);
    expect((second as Error).message).toMatch(/^a spawn of 'ivy' is already in progress \(by pid \d+/);
    await first;
    expect(fs.readFileSync(path.join(wt(ws, 'ivy'), '.setup-count'), 'utf8')).toBe('once\n');
  }, 60_000);

  it('a failing worktree.setup fails the spawn with its last lines, and leaves no branch, no worktree, no process', async () => {
    const { ws, session } = await nodeTeam(['erin'], IDLE, { setup: 'echo "installing…"; echo "npm ERR! network unreachable" >&2; exit 3' });
    const err = await spawnTeammate(session, { name: 'erin' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^refusing to spawn erin: worktree\.setup `.*` exited 3; its last lines:\n/);
    expect((err as Error).message).toContain('npm ERR! network unreachable');
    expect(git(ws.dir, 'branch', '--list', 'team/erin').trim()).toBe('');
    expect(fs.existsSync(wt(ws, 'erin'))).toBe(false);
    expect(git(ws.dir, 'worktree', 'list')).not.toContain('erin');
    expect(session.children.has('erin')).toBe(false);
    const st = await session.store.statuses.read('erin');
    expect(st?.status).toBe('stopped');
    expect((st as { last_error?: string }).last_error).toContain('exited 3');
    // A second try, the setup fixed, makes the worktree afresh.
  }, 60_000);

  it("Stop while worktree.setup hangs ends the setup: the spawn fails at once, nothing of it left, the status says why", async () => {
    // A sleep of its own length: the marker of its processes (the sandbox's, the setup's shell, the sleep).
    const hung = String(900_000 + process.pid);
    const { ws, session } = await nodeTeam(['jay'], IDLE, { setup: `echo "fetching packages…"; sleep ${hung}` });
    cleanups.push(() => marked(hung).forEach((pid) => process.kill(pid, 'SIGKILL')));
    // Not started yet: nothing to stop, said at once.
    expect(await stopMember(session.store, 'jay', { from: USER, graceMs: 10_000 })).toBe('not running');
    const spawning = spawnTeammate(session, { name: 'jay' }).then(() => null, (e: Error) => e);
    let ended: Error | null | undefined;
    void spawning.then((e) => (ended = e));
    // Hanging once its line is in the pane: the marker is on the command lines of the sandbox and the shell before
    // the echo has run (under load a Stop then came first, and the error said "with no output").
    await waitFor(() => (marked(hung).length > 0 && session.store.outputs.tail('jay', 50).includes('fetching packages…')) || (ended !== undefined && Promise.reject(new Error(`the spawn ended first: ${ended?.message}`))), 'the setup to hang', 30_000);
    // The person's Stop on the card (its process is not yet started: the host's stop asks stopMember).
    expect(await stopMember(session.store, 'jay', { from: USER, graceMs: 10_000 })).toBe('killed');
    // When Stop answers, the card already reads the failure its spawner wrote, not spawning.
    expect((await session.store.statuses.read('jay'))?.status).toBe('stopped');
    const err = await Promise.race([spawning, new Promise<string>((r) => setTimeout(() => r('still spawning after 20 s'), 20_000).unref())]);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^refusing to spawn jay: worktree\.setup `.*` was killed; its last lines:\nfetching packages…$/);
    expect(marked(hung)).toEqual([]);
    expect(fs.existsSync(wt(ws, 'jay'))).toBe(false);
    expect(git(ws.dir, 'branch', '--list', 'team/jay').trim()).toBe('');
    const st = await session.store.statuses.read('jay');
    expect([st?.status, (st as { last_error?: string }).last_error]).toEqual(['stopped', (err as Error).message]);
  }, 60_000);
});

describe('a bootstrap cut short', () => {
  it("the lead's process killed during worktree.setup: the next spawn of the name bootstraps the worktree again", async () => {
    const { ws, session } = await nodeTeam(['kim'], IDLE, { setup: 'echo again > setup-again' });
    // Another process (the lead as it was) spawns kim with a setup that never ends, and is killed inside it.
    const script = path.join(ws.dir, '..', 'spawn-kim.mts');
    const src = path.resolve(__dirname, '../../src');
    fs.writeFileSync(script, [
      `import { TeamStore } from ${JSON.stringify(path.join(src, 'core/store/index.ts'))};`,
      `import { readyWorktree } from ${JSON.stringify(path.join(src, 'core/teams/bootstrap.ts'))};`,
      `import { WorktreeSettingsSchema } from ${JSON.stringify(path.join(src, 'contract/settings-schema.ts'))};`,
      `await readyWorktree({ store: new TeamStore(process.argv[3]), name: 'kim', root: process.argv[2], settings: WorktreeSettingsSchema.parse({ setup: 'touch setup-started; exec -a kim-setup-orphan sleep 127' }), env: {}, processEnv: { ...process.env, XDG_CONFIG_HOME: process.argv[4] } });`,
    ].join('\n'));
    // Without the OS sandbox (its setting off, as on a machine without one): a sandboxed setup dies with its
    // spawner (bwrap --die-with-parent), an unsandboxed one runs on in its own process group.
    const config = path.join(ws.dir, '..', 'kim-config');
    fs.mkdirSync(path.join(config, 'thclaws'), { recursive: true });
    fs.writeFileSync(path.join(config, 'thclaws', 'settings.json'), '{"sandbox":"off"}');
    const child = spawn(process.execPath, ['--import', 'tsx', script, ws.dir, session.store.dir, config], { cwd: path.resolve(__dirname, '../..'), detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    });
    await waitFor(() => fs.existsSync(path.join(wt(ws, 'kim'), 'setup-started')) || (child.exitCode !== null && Promise.reject(new Error(`the first spawn exited: ${err}`))), 'the first setup to start', 60_000);
    expect(child.exitCode, `the first spawn ended by itself: ${err}`).toBe(null);
    process.kill(-child.pid!, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // Its setup, in a process group of its own, outlived it: still installing into the worktree.
    expect(marked('kim-setup-orphan').length).toBeGreaterThan(0);
    cleanups.push(() => marked('kim-setup-orphan').forEach((pid) => process.kill(pid, 'SIGKILL')));
    await spawnTeammate(session, { name: 'kim', prompt: 'hello' });
    expect(readOr(path.join(wt(ws, 'kim'), 'setup-again'))).toBe('again\n');
    expect(marked('kim-setup-orphan')).toEqual([]);
    expect(session.store.outputs.tail('kim', 50)).toMatch(/\[worktree\] its last bootstrap did not finish \(that spawn was stopped\); stopped its setup, still running \(\d process\(es\)\): bootstrapping again/);
    // Once done, a respawn does not bootstrap again: "worktree.setup runs once per new worktree" above.
  }, 120_000);
});

/**
 * A teammate port base of this test process (`shift` apart per test), below the kernel's ephemeral range: a port
 * there may be any connection's local port at the moment (CI54 found ivy's first block taken that way, and her
 * ports moved to the next block).
 */
const PORT_BASE = (shift: number): number => 20_000 + ((process.pid + shift) % 1000) * 10;

describe('ports', () => {
  it("a teammate's instructions (its system prompt, as the Messages API receives it) name its block and $PORT", async () => {
    const fake = await new FakeAnthropic().start();
    fake.fallback = { text: 'ok' };
    cleanups.push(() => fake.close());
    const ws = teamWorkspace();
    const session = leadSession(ws, writeScript(ws, IDLE), { childFlags: [], childEnv: { HOME: ws.home, THCLAWS_TEST: '1', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url } });
    session.store.init();
    await session.store.config.create({ name: 't', members: [{ name: 'hal' }] });
    await session.becomeLead();
    cleanups.push(() => stopLeadAndTeam(session, new LeadHandler(session), ws));
    await spawnTeammate(session, { name: 'hal', prompt: 'marker-hal say hi' });
    const req = await waitFor(() => fake.requests.find((r) => r.url.startsWith('/v1/messages') && JSON.stringify(r.body.messages).includes('marker-hal')), 'the teammate to ask the API', 60_000);
    const base = (await session.store.config.require()).members[0]!.ports!.base;
    expect(JSON.stringify(req.body.system)).toContain(`Your ports: ${base}–${base + 9} ($THCLAWS_PORT_BASE=${base}, $PORT=${base})`);
  }, 90_000);

  it('two teammates start a server on $PORT at the same time and both answer; team status --json gives each its block', async () => {
    const server = `node -e "require('http').createServer((q, r) => r.end(process.env.THCLAWS_TEAM_AGENT + ' on ' + process.env.PORT)).listen(Number(process.env.PORT), '127.0.0.1')"`;
    // A base of its own per run: a busy machine's other tests never hold these ports.
    const portBase = PORT_BASE(0);
    const { ws, session } = await nodeTeam(['fox', 'gus'], { rules: [runs('start the server', server, true)] }, { portBase });
    await Promise.all([spawnTeammate(session, { name: 'fox', prompt: 'start the server' }), spawnTeammate(session, { name: 'gus', prompt: 'start the server' })]);
    const status = JSON.parse(execFileSync(process.execPath, [BIN, 'team', 'status', '--json', '--dir', ws.dir], { encoding: 'utf8', env: { ...process.env, HOME: ws.home } })) as { members: Array<{ name: string; ports: { base: number; count: number } | null }> };
    const ports = Object.fromEntries(status.members.map((m) => [m.name, m.ports]));
    expect(ports.lead).toEqual({ base: portBase, count: 10 });
    expect(ports.fox?.count).toBe(10);
    expect(new Set([ports.lead?.base, ports.fox?.base, ports.gus?.base]).size).toBe(3);
    for (const name of ['fox', 'gus']) {
      const url = `http://127.0.0.1:${ports[name]!.base}/`;
      const body = await waitFor(() => fetch(url).then((r) => r.text()).catch(() => null), `${name}'s server`, 30_000);
      expect(body).toBe(`${name} on ${ports[name]!.base}`);
    }
  }, 90_000);

  it("a block where another program already listens is skipped: the teammate's server answers on the next one", async () => {
    const server = `node -e "require('http').createServer((q, r) => r.end('ivy on ' + process.env.PORT)).listen(Number(process.env.PORT), '127.0.0.1')"`;
    const portBase = PORT_BASE(500);
    // Another program's server on a port of the first teammate block (not its first port: the whole block counts).
    const squatter = net.createServer();
    await new Promise<void>((r) => squatter.listen(portBase + 13, '0.0.0.0', r));
    cleanups.push(() => new Promise<void>((r) => squatter.close(() => r())));
    const { session } = await nodeTeam(['ivy'], { rules: [runs('start the server', server, true)] }, { portBase });
    await spawnTeammate(session, { name: 'ivy', prompt: 'start the server' });
    const ports = (await session.store.config.require()).members.find((m) => m.name === 'ivy')!.ports!;
    expect(ports).toEqual({ base: portBase + 20, count: 10 });
    const body = await waitFor(() => fetch(`http://127.0.0.1:${ports.base}/`).then((r) => r.text()).catch(() => null), "ivy's server", 30_000);
    expect(body).toBe(`ivy on ${portBase + 20}`);
  }, 90_000);
});
