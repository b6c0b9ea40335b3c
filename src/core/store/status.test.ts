import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEAM_POLICY, TeamStore, deriveState } from './index.js';
import { lockPathFor, makeLockDir } from './lock-layout.js';

/** Where the store locks `file` (`.locks/` beside it), its directory made so a test can plant a lock there. */
const lockOf = (file: string): string => (makeLockDir(lockPathFor(file)), lockPathFor(file));

let ws: string;
let store: TeamStore;
beforeEach(async () => {
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-status-'));
  store = TeamStore.forWorkspace(ws, {});
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'alice' }, { name: 'bob' }] });
});
afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

describe('liveness', () => {
  it('derives dead from a stale heartbeat or a dead pid, distinct from idle', async () => {
    const live = await store.statuses.write('alice', { status: 'idle', pid: process.pid, current_task: '3' });
    expect(deriveState(live)).toBe('idle');
    expect(deriveState(live, live.last_heartbeat + TEAM_POLICY.staleAfterMs + 1)).toBe('dead');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const dead = await store.statuses.write('bob', { status: 'working', pid: Number(gone.stdout) });
    expect(deriveState(dead)).toBe('dead');
    expect(deriveState(await store.statuses.write('bob', { status: 'stopped' }))).toBe('stopped');
    expect(deriveState(null)).toBe('defined');
    const view = await store.status();
    expect(view.members.map((m) => [m.name, m.state])).toEqual([['lead', 'defined'], ['alice', 'idle'], ['bob', 'stopped']]);
    expect(view.members[1]!.current_task).toBe('3');
  });

  it('reaping releases only the tasks of dead owners', async () => {
    const t1 = await store.tasks.create({ subject: 'a', description: '' });
    const t2 = await store.tasks.create({ subject: 'b', description: '' });
    await store.tasks.claim(t1.id, 'alice');
    await store.tasks.claim(t2.id, 'bob');
    await store.statuses.write('alice', { status: 'working', pid: process.pid });
    await store.statuses.write('bob', { status: 'stopped' });
    expect((await store.reapDeadOwners()).map((t) => t.id)).toEqual([t2.id]);
    expect((await store.tasks.get(t1.id)).status).toBe('in_progress');
  });
});

describe('sleep and clock jumps', () => {
  it('on this machine an agent whose very process lives is not dead for an old heartbeat alone (a laptop that slept)', async () => {
    const { selfProcess } = await import('./holder.js');
    const live = await store.statuses.write('alice', { status: 'working', pid: process.pid, pid_start: selfProcess().start, host: os.hostname() });
    expect(deriveState(live, live.last_heartbeat + 10 * TEAM_POLICY.staleAfterMs)).toBe('working');
    // Another process now has the pid (a different start time): dead, however fresh the heartbeat.
    const reused = await store.statuses.write('alice', { status: 'working', pid: process.pid, pid_start: '1', host: os.hostname() });
    expect(deriveState(reused)).toBe('dead');
    // Another machine's agent: only its heartbeat tells.
    const remote = await store.statuses.write('bob', { status: 'idle', pid: process.pid, pid_start: selfProcess().start, host: 'elsewhere' });
    expect(deriveState(remote, remote.last_heartbeat + TEAM_POLICY.staleAfterMs + 1)).toBe('dead');
  });

  it('a wall-clock jump is noticed against the monotonic clock; timer lateness is not a jump', async () => {
    const { ClockJump } = await import('./clock-jump.js');
    let wall = 1_000_000;
    let mono = 0;
    const c = new ClockJump(5_000, () => wall, () => mono);
    wall += 2_000;
    mono += 2_000;
    expect(c.sample()).toBe(0);
    wall += 3_000; // a late timer: both clocks moved alike
    mono += 3_000;
    expect(c.sample()).toBe(0);
    wall += 3_600_000; // an hour asleep: the monotonic clock stood still
    mono += 1_000;
    expect(c.sample()).toBe(3_600_000 - 1_000);
    wall -= 60_000; // set back by a minute
    expect(c.sample()).toBe(-60_000);
  });

  it('after a jump the heartbeat is written at once and its timer re-armed', async () => {
    const { startHeartbeat } = await import('./index.js');
    const { ClockJump } = await import('./clock-jump.js');
    const lease = await store.acquireLease('alice');
    let jumps = 0;
    const clock = new ClockJump(1);
    clock.sample = () => (jumps++ === 0 ? 3_600_000 : 0);
    const writes: Array<boolean | undefined> = [];
    const write = store.statuses.write.bind(store.statuses);
    store.statuses.write = (agent, update, opts) => {
      writes.push(opts?.durable);
      return write(agent, update, opts);
    };
    const hb = await startHeartbeat(store.statuses, lease, 30, clock);
    for (let i = 0; i < 200 && writes.length < 4; i++) await new Promise((r) => setTimeout(r, 10));
    await hb.stop();
    await lease.release();
    // The first timer beat saw the jump: a durable beat; then plain beats from the re-armed timer.
    expect(writes.slice(0, 4)).toEqual([undefined, true, false, false]);
  });
});

describe('heartbeat', () => {
  it('beats from its own timer: the heartbeat advances with no write by the caller, and stop marks stopped', async () => {
    const { startHeartbeat } = await import('./index.js');
    const lease = await store.acquireLease('alice');
    const hb = await startHeartbeat(store.statuses, lease, 50);
    const first = (await store.statuses.read('alice'))!;
    expect(first).toMatchObject({ status: 'idle', pid: process.pid, boot_id: lease.boot_id });
    // Nothing here writes the status: only the timer can move the heartbeat forward.
    const deadline = Date.now() + 10_000;
    let later = first;
    while (later.last_heartbeat <= first.last_heartbeat && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      later = (await store.statuses.read('alice'))!;
    }
    expect(later.last_heartbeat).toBeGreaterThan(first.last_heartbeat);
    await hb.set('working', '7');
    expect(await store.statuses.read('alice')).toMatchObject({ status: 'working', current_task: '7' });
    await hb.stop();
    expect(deriveState(await store.statuses.read('alice'))).toBe('stopped');
    await lease.release();
  });
  it('stops beating once the lease is lost (the new holder owns the status)', async () => {
    const { startHeartbeat } = await import('./index.js');
    const lease = await store.acquireLease('alice');
    const hb = await startHeartbeat(store.statuses, lease, 20);
    fs.unlinkSync(lockOf(store.paths.lease('alice')));
    expect(() => lease.assertHeld()).toThrow(); // the loss is noticed (the lease also checks every second)
    await new Promise((r) => setTimeout(r, 50)); // a beat already under way may still land
    const after = (await store.statuses.read('alice'))!.last_heartbeat;
    await new Promise((r) => setTimeout(r, 300)); // fifteen intervals
    expect((await store.statuses.read('alice'))!.last_heartbeat).toBe(after);
    await hb.set('working', '3'); // nor through an explicit update
    await hb.stop();
    expect(await store.statuses.read('alice')).toMatchObject({ status: 'idle', last_heartbeat: after });
    await lease.release();
  });
});

describe('usage accounting', () => {
  const call = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 50 };
  it('a status file written before usage existed stays valid; accounting starts from it and keeps its heartbeat', async () => {
    fs.mkdirSync(store.paths.agentDir('alice'), { recursive: true });
    const legacy = { agent: 'alice', status: 'idle', pid: process.pid, host: os.hostname(), last_heartbeat: Date.now() - 1000 };
    fs.writeFileSync(store.paths.status('alice'), JSON.stringify(legacy));
    expect(await store.statuses.read('alice')).toMatchObject(legacy);
    const st = await store.statuses.account('alice', call, 0.5);
    expect(st).toMatchObject({ ...legacy, usage: call, cost_usd: 0.5 });
    expect((await store.status()).members.find((m) => m.name === 'alice')).toMatchObject({ tokens: 160, cost_usd: 0.5, usage: call });
  });

  it('an unknown price makes the total unknown for good, never a too-low number; a respawn keeps the sums', async () => {
    await store.statuses.write('bob', { status: 'idle' });
    await store.statuses.account('bob', call, 0.25);
    await store.statuses.account('bob', call, null);
    await store.statuses.write('bob', { status: 'spawning', pid: null, current_task: null });
    const st = await store.statuses.account('bob', call, 0.25);
    expect(st.usage).toEqual({ input_tokens: 300, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 150 });
    expect(st.cost_usd).toBeNull();
    expect((await store.status()).members.find((m) => m.name === 'bob')).toMatchObject({ tokens: 480, cost_usd: null });
  });
});

describe('a malformed usage never costs the status its liveness', () => {
  const call = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 50 };
  // What another (future or broken) writer may leave in `usage` / `cost_usd`; `1e400` is Infinity to JSON.parse.
  const bad: Array<[string, string]> = [
    ['negative', '{"input_tokens":-5,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}'],
    ['a string', '{"input_tokens":"12","output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}'],
    ['a field missing', '{"input_tokens":12,"output_tokens":1}'],
    ['Infinity', '{"input_tokens":1e400,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}'],
    ['another shape', '"12 tokens"'],
  ];
  for (const [what, usage] of bad) {
    it(`usage ${what}: the status still reads (live, its pid and task), nothing is quarantined, the cost becomes unknown`, async () => {
      fs.mkdirSync(store.paths.agentDir('alice'), { recursive: true });
      const file = store.paths.status('alice');
      const body = `{"agent":"alice","status":"working","pid":${process.pid},"host":${JSON.stringify(os.hostname())},"current_task":"3","last_heartbeat":${Date.now()},"usage":${usage},"cost_usd":"NaN"}`;
      fs.writeFileSync(file, body);
      const st = await store.statuses.read('alice');
      expect(st).toMatchObject({ status: 'working', pid: process.pid, current_task: '3' });
      expect(st?.usage ?? null).toBeNull();
      expect(fs.readFileSync(file, 'utf8')).toBe(body);
      expect(fs.readdirSync(path.dirname(file)).filter((f) => f !== 'status.json' && f !== '.locks')).toEqual([]);
      expect((await store.status()).members.find((m) => m.name === 'alice')).toMatchObject({ state: 'working', current_task: '3', tokens: null, cost_usd: null });
      // The next beat and the next call keep everything else; the earlier totals are lost, so the cost is unknown, never too low.
      expect(await store.statuses.heartbeat('alice')).toMatchObject({ status: 'working', pid: process.pid, current_task: '3' });
      const after = await store.statuses.account('alice', call, 0.5);
      expect(after).toMatchObject({ status: 'working', pid: process.pid, current_task: '3', usage: call, cost_usd: null });
    });
  }
});

describe('a bad call never wipes the totals', () => {
  it('a call with a NaN or negative count, or a sum past 2^53, is refused and the earlier totals and cost stay', async () => {
    const call = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 50 };
    await store.statuses.write('alice', { status: 'working', pid: process.pid });
    await store.statuses.account('alice', call, 0.5);
    await expect(store.statuses.account('alice', { ...call, output_tokens: Number.NaN }, 0.1)).rejects.toThrow();
    await expect(store.statuses.account('alice', { ...call, input_tokens: -1 }, 0.1)).rejects.toThrow();
    await expect(store.statuses.account('alice', { ...call, input_tokens: Number.MAX_SAFE_INTEGER }, 0.1)).rejects.toThrow();
    await expect(store.statuses.account('alice', call, Number.POSITIVE_INFINITY)).rejects.toThrow();
    expect(await store.statuses.read('alice')).toMatchObject({ status: 'working', usage: call, cost_usd: 0.5 });
  });
});
