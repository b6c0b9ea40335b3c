/**
 * `npm run bench -- remote-teammate`: a message from the lead → that teammate's next model request, for a local
 * teammate and a remote one (over the loopback sshd, another local user: test/remote/ssh-machine.ts) in one run.
 * Both run the real SDK against the fake Messages server, both spawned through the workspace's `thclaws host` as
 * in test/remote/teammates-remote.test.ts. Each round the lead sends to each idle teammate in turn (alternating
 * which goes first); the time is from `store.send` to the fake server holding a request whose body carries the
 * message's marker (taken when its body is read: loopback, well under a millisecond after it arrives).
 * Needs root (local users, sshd); otherwise the section says why and measures nothing.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LeadHandler } from '../src/core/teams/lead-handler.js';
import { TeamSession } from '../src/core/teams/session.js';
import { shutdownTeam } from '../src/core/teams/shutdown.js';
import { spawnTeammate } from '../src/core/teams/spawn.js';
import { remoteTeammatesFor } from '../src/main/remote/host-remote.js';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { BIN } from '../test/agent/helpers.js';
import { killAll, waitFor } from '../test/teams/helpers.js';
import { skipReason, startSshMachine } from '../test/remote/ssh-machine.js';
import { round, summarize } from './stats.js';
import type { BenchSection } from './types.js';

const ROUNDS = Number(process.env.BENCH_REMOTE_TEAMMATE_ROUNDS) || 30;
const USER = 'thcr12';
const SIDES = { local: 'loc', remote: 'rem' } as const;
type Side = keyof typeof SIDES;

export async function runTeammateLatencyBench(): Promise<BenchSection> {
  const title = "Remote teammate: a message → the teammate's next model request, over loopback SSH against a local teammate";
  const why = skipReason();
  if (why) return { title, file: 'remote-teammate', rows: [{ metric: 'not measured', value: why, target: '' }] };
  const load0 = os.loadavg();
  const fake = await new FakeAnthropic().start();
  fake.fallback = { text: 'ok' };
  // Arrival (performance.now()) of the first model request carrying each marker.
  const seen = new Map<string, number>();
  fake.respond = (body) => {
    const at = performance.now();
    // The conversation carries every earlier marker too: the new one is the one not seen before.
    for (const [mark] of JSON.stringify(body).matchAll(/bench-mark-[a-z]+-\d+/g)) if (!seen.has(mark)) seen.set(mark, at);
    return undefined;
  };
  const m = await startSshMachine({ users: [USER] });
  const work = `thclaws-bench-${randomUUID().slice(0, 8)}`;
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-remote-teammate-')));
  const dir = path.join(tmp, 'ws');
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: path.join(tmp, 'run'), XDG_CONFIG_HOME: path.join(tmp, 'config') };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  Object.assign(env, { ANTHROPIC_API_KEY: `sk-ant-bench-${randomUUID()}`, ANTHROPIC_BASE_URL: fake.url, THCLAWS_SSH: m.ssh });
  let host: ChildProcess | undefined;
  let session: TeamSession | undefined;
  try {
    fs.mkdirSync(env.XDG_RUNTIME_DIR!, { mode: 0o700 });
    const hosts = { m1: { ssh: m.user(USER).alias, dir: `~/${work}`, maxTeammates: 1, bin: m.bin } };
    fs.mkdirSync(path.join(env.XDG_CONFIG_HOME!, 'thclaws'), { recursive: true });
    fs.writeFileSync(path.join(env.XDG_CONFIG_HOME!, 'thclaws', 'settings.json'), JSON.stringify({ hosts }));
    const r = m.run(USER, 'git config --global user.email "$USER@example.test" && git config --global user.name "$USER" && mkdir -p ~/.config/thclaws && printf %s \'{"teamEnabled":true,"teammatePermissionMode":"auto"}\' > ~/.config/thclaws/settings.json');
    if (r.status !== 0) throw new Error(`bench remote-teammate: ${USER}'s settings: ${r.stderr.trim()}`);
    fs.mkdirSync(path.join(dir, '.thclaws'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'home'));
    const g = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
    g('init', '-q', '-b', 'main');
    g('config', 'user.email', 'bench@thclaws.local');
    g('config', 'user.name', 'bench');
    fs.writeFileSync(path.join(dir, 'README.md'), '# bench\n');
    g('add', '-A');
    g('commit', '-qm', 'init');
    fs.writeFileSync(path.join(dir, '.thclaws', 'settings.json'), JSON.stringify({ teamEnabled: true, teammatePermissionMode: 'auto' }));

    let hostOut = '';
    host = spawn(BIN, ['host', '--dir', dir, '--no-lead', '--idle-ms', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    host.stdout!.on('data', (d: Buffer) => (hostOut += d.toString()));
    host.stderr!.on('data', (d: Buffer) => (hostOut += d.toString()));
    await waitFor(() => /ready \(pid \d+\)/.test(hostOut) || (host!.exitCode !== null ? Promise.reject(new Error(hostOut)) : false), 'the host ready', 60_000);

    session = new TeamSession({
      projectRoot: dir,
      teamDir: path.join(dir, '.thclaws', 'state', 'team'),
      cwd: dir,
      role: 'solo',
      teammateMode: 'host',
      selfArgv: [process.execPath, BIN],
      childFlags: [],
      defaultModel: 'claude-sonnet-4-6',
      maxLiveTeammates: 4,
      childEnv: { HOME: path.join(tmp, 'home') },
      remote: remoteTeammatesFor(dir, env, () => ({ hosts: hosts as never, placement: 'local' })),
    });
    const store = session.store;
    store.init();
    await store.config.create({ name: 'bench', members: Object.values(SIDES).map((name) => ({ name })) });
    await session.becomeLead();
    const t0 = performance.now();
    await spawnTeammate(session, { name: SIDES.local });
    const spawnLocal = performance.now() - t0;
    await spawnTeammate(session, { name: SIDES.remote, host: 'm1' });
    const spawnRemote = performance.now() - t0 - spawnLocal;

    const idle = async (name: string) => {
      const st = await store.statuses.read(name);
      return st?.status === 'idle' && !store.inboxes.unread(name).length;
    };
    const times: Record<Side, number[]> = { local: [], remote: [] };
    const missed: Record<Side, number> = { local: 0, remote: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      const order: Side[] = i % 2 ? ['remote', 'local'] : ['local', 'remote'];
      for (const side of order) {
        const name = SIDES[side];
        await waitFor(() => idle(name), `${name} idle (host: ${hostOut.slice(-400)})`, 30_000);
        // Random phase against any polling interval.
        await new Promise((res) => setTimeout(res, 20 + Math.random() * 80));
        const mark = `bench-mark-${side}-${i}`;
        const sent = performance.now();
        await store.send('lead', name, `ping ${mark}: reply ok`);
        const at = await waitFor(() => seen.get(mark), `${name}'s request for ${mark}`, 10_000).catch(() => undefined);
        if (at === undefined) missed[side]++;
        else times[side].push(at - sent);
      }
    }
    const s = { local: summarize(times.local), remote: summarize(times.remote) };
    const load1 = os.loadavg();
    const ms = (v: number) => `${round(v)} ms`;
    const loadRow = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
    return {
      title,
      file: 'remote-teammate',
      rows: [
        { metric: `local teammate: message → its next model request, p50 / p99 (${s.local.n} of ${ROUNDS})`, value: `${ms(s.local.p50)} / ${ms(s.local.p99)}`, target: '' },
        { metric: `remote teammate over ssh: message → its next model request, p50 / p99 (${s.remote.n} of ${ROUNDS})`, value: `${ms(s.remote.p50)} / ${ms(s.remote.p99)}`, target: '<= 100 ms (p50)' },
        { metric: 'remote − local (p50)', value: ms(s.remote.p50 - s.local.p50), target: '' },
        { metric: 'spawn: local / remote (one each, incl. clone and push)', value: `${ms(spawnLocal)} / ${ms(spawnRemote)}`, target: '' },
        { metric: 'load average (1 / 5 / 15 min): start', value: loadRow(load0), target: '' },
        { metric: 'load average (1 / 5 / 15 min): end', value: loadRow(load1), target: '' },
      ],
      details: { rounds: ROUNDS, times, missed, spawnMs: { local: spawnLocal, remote: spawnRemote }, load: { start: load0, end: load1 } },
    };
  } finally {
    if (session) {
      await shutdownTeam(session, new LeadHandler(session), { graceMs: 1000, force: true }).catch(() => undefined);
      await session.close();
    }
    killAll(dir);
    if (host?.exitCode === null) {
      host.kill('SIGTERM');
      await new Promise((res) => host!.once('exit', res));
    }
    m.run(USER, `rm -rf ~/${work} ~/.gitconfig ~/.config/thclaws/settings.json`);
    await m.close();
    await fake.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
