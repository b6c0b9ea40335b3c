/**
 * A lead killed between writing a teammate's `spawning` status and starting its child leaves no ghost: the
 * status names its spawner, a dead spawner voids the spawn, and a new lead spawns the teammate at once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, scrubbedEnv } from '../agent/helpers.js';
import { deriveState, TeamStore } from '../../src/core/store/index.js';
import { withLock } from '../../src/core/store/lock.js';
import { cleanupsAfterEach, teamWorkspace, waitFor, writeScript } from './helpers.js';
import { parseLines, toolResults } from './stream.js';

const cleanups = cleanupsAfterEach();

describe('ghost spawning', () => {
  it('SIGKILL of the lead after `spawning` and before the child: the spawn is void, a new lead spawns alice', async () => {
    const ws = teamWorkspace();
    cleanups.push(() => ws.cleanup());
    const store = new TeamStore(path.join(ws.dir, '.thclaws', 'state', 'team'));
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice', role: '', prompt: 'standing orders' }] });
    const script = writeScript(ws, { rules: [{ turns: [{ text: 'spawning', tool_calls: [{ name: 'SpawnTeammate', input: { name: 'alice' } }] }, { text: 'done' }] }] });

    // The seam: this test holds alice's inbox lock, so the lead stops right after writing `spawning`, at the
    // initial prompt it must deliver before it starts the child.
    let release!: () => void;
    let locked = false;
    const held = withLock(store.paths.inbox('alice'), () => {
      locked = true;
      return new Promise<void>((r) => (release = r));
    });
    await waitFor(() => locked, 'the inbox lock');
    const lead: ChildProcess = spawn(process.execPath, [BIN, '-p', 'start alice', '--script', script, '--accept-all', '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home), stdio: 'ignore' });
    const closed = new Promise((r) => lead.once('close', r));
    cleanups.push(() => void lead.kill('SIGKILL'));
    const ghost = await waitFor(async () => {
      const st = await store.statuses.read('alice');
      return st?.status === 'spawning' ? st : null;
    }, "alice's spawning status", 30_000);
    lead.kill('SIGKILL');
    await closed;
    release();
    await held;

    // The status says who was spawning; that process is dead, so nothing is spawning alice.
    expect((ghost as Record<string, unknown>).spawner).toMatchObject({ pid: lead.pid });
    expect(ghost.pid ?? null).toBeNull();
    expect(deriveState(await store.statuses.read('alice'))).toBe('dead');

    // A new lead spawns alice at once (within the old boot window, when the ghost would still refuse it).
    const r = await runCli(['-p', 'start alice', '--script', script, '--accept-all', '--timeout', '1', '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home), timeoutMs: 60_000 });
    const results = toolResults(parseLines(r.stdout));
    expect(results.map((x) => x.content).join('\n')).toMatch(/Teammate 'alice' spawned/);
    expect(results[0]!.is_error).toBe(false);
  }, 90_000);
});
