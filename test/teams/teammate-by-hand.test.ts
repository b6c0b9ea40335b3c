/**
 * A teammate a person starts by hand in its worktree (`thclaws --team-agent alice`, no team environment) finds
 * the project root (the main checkout) and reads its `.thclaws/settings.json`: the project's budget for alice
 * stops her, and its deny rule refuses her command. The worktree has no settings of its own.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { BIN, ensureBuilt, scrubbedEnv } from '../agent/helpers.js';
import { teamWorkspace, waitFor, writeScript } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

describe('a teammate started by hand in its worktree', () => {
  it.each([
    ['no team environment at all', false],
    ['THCLAWS_TEAM_DIR naming the project\'s team', true],
  ])("reads the project's settings (%s): its budget stops her, its deny rule refuses her command", async (_what, withTeamDir) => {
    const ws = teamWorkspace({ budgets: { teammates: { alice: { tokens: 1 } } }, permissions: { deny: ['Bash(rm:*)'] } });
    cleanups.push(ws.cleanup);
    const store = TeamStore.forWorkspace(ws.dir);
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice', isolation: 'worktree' }] });
    const wt = ensureWorktree(ws.dir, 'alice');
    fs.writeFileSync(path.join(wt, 'keep.txt'), 'keep\n');
    expect(fs.existsSync(path.join(wt, '.thclaws', 'settings.json'))).toBe(false);
    await store.tasks.create({ subject: 'tidy', description: 'remove keep.txt', reservedFor: 'alice' });
    const script = writeScript(ws, {
      rules: [{ match: 'remove keep.txt', turns: [{ text: 'removing', tool_calls: [{ name: 'Bash', input: { command: 'rm -f keep.txt' } }] }, { text: 'again', tool_calls: [{ name: 'Bash', input: { command: 'ls' } }] }, { text: 'done' }] }],
      fallback: [{ text: 'ok' }],
    });
    let out = '';
    const alice = spawn(process.execPath, [BIN, '--team-agent', 'alice', '--script', script], { cwd: wt, env: scrubbedEnv(ws.home, withTeamDir ? { THCLAWS_TEAM_DIR: path.join(ws.dir, '.thclaws', 'state', 'team') } : {}), stdio: ['ignore', 'pipe', 'pipe'] });
    alice.stdout.on('data', (d: Buffer) => (out += d.toString()));
    alice.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((r) => alice.once('exit', r));
    cleanups.push(() => void alice.kill('SIGKILL'));

    // The project's budget for alice (1 token) holds her after her first model call, in the project's team.
    const st = await waitFor(async () => (await store.statuses.read('alice'))?.budget_reached ?? null, `alice held at her budget (output: ${out})`);
    expect(st).toMatch(/^budget reached — alice's budget: [\d,]+ tokens of 1 tokens/);
    // The deny rule refused her rm: the file is still there, and she was told which rule.
    expect(fs.existsSync(path.join(wt, 'keep.txt'))).toBe(true);
    expect(out).toContain('Bash(rm:*) in settings permissions.deny');
    alice.kill('SIGTERM');
    await exited;
  }, 60_000);
});
