/**
 * One role budget covers several teammates, each with a limit of their own: when each crosses 80 % of it, the
 * person is told about each of them — the second is not swallowed by the first's notice. Real `thclaws host`,
 * two teammate processes (the agent simulator) accounting their model calls in their status as an agent does,
 * the budget set with the `thclaws team budget` CLI, and the notices as a dashboard client receives them. The
 * team's budget is weighed on the teammates' sum.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { pidAlive } from '../../src/core/store/holder.js';
import { connectOrStartHost } from '../../src/main/daemon/host-client.js';
import type { HostEvent } from '../../src/contract/api.js';
import { agentSimScript, makeTeamWorkspace, shownMember, THCLAWS, waitFor } from './helpers.js';

const tmp = (p: string) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), p)));
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups) await Promise.resolve().then(c).catch(() => {});
});

/**
 * A workspace of `members` (their role `role` when given) with its project settings, a budget set by the CLI
 * (`budgetArgs`), a real `thclaws host` and its events as a dashboard gets them, and one agent simulator per member.
 */
async function budgetTeam(members: string[], o: { role?: string; settings?: Record<string, unknown>; budgetArgs: string[] }) {
  const ws = fs.realpathSync(makeTeamWorkspace(members));
  cleanups.push(() => fs.rmSync(ws, { recursive: true, force: true }));
  const store = TeamStore.forWorkspace(ws);
  if (o.role)
    await store.config.update((c) => {
      for (const m of c.members) m.role = o.role!;
    });
  fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify({ provider: 'scripted', teamEnabled: true, ...o.settings }));
  const home = tmp('budget-notice-home-');
  cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: tmp('budget-notice-rt-'), HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  execFileSync(THCLAWS, ['team', 'budget', ...o.budgetArgs, '--dir', ws], { env, stdio: 'pipe' });
  const c = await connectOrStartHost(ws, [THCLAWS, 'host', '--dir', ws, '--no-lead', '--idle-ms', '0'], { client: 'test', env, timeoutMs: 60_000 });
  cleanups.push(() => pidAlive(c.pid) && process.kill(c.pid, 'SIGKILL'));
  const events: HostEvent[] = [];
  c.onEvent((e) => events.push(e));
  const sims = new Map<string, ChildProcess>();
  const startSims = async () => {
    for (const name of members) {
      const sim = spawn(process.execPath, [agentSimScript(), name, '--own-output'], { env: { ...env, THCLAWS_TEAM_DIR: store.dir }, stdio: ['pipe', 'ignore', 'inherit'] });
      sims.set(name, sim);
      cleanups.push(() => sim.kill('SIGKILL'));
    }
    for (const name of members) await waitFor(() => shownMember(events, name)?.alive, `${name} shown alive`);
  };
  const notices = () => events.flatMap((e) => (e.type === 'notice' && e.text.startsWith('budget at 80 %') ? [e.text] : []));
  const spend = (name: string, tokens: number) => sims.get(name)!.stdin!.write(`spend ${tokens} ?\n`);
  return { c, events, startSims, notices, spend };
}

describe('budget notices under one role budget', () => {
  it('each teammate of the role that crosses 80 % is named in a notice of its own, once', async () => {
    const { c, events, startSims, notices, spend } = await budgetTeam(['alice', 'bob'], { role: 'reviewer', budgetArgs: ['--role', 'reviewer', '--tokens', '1000'] });
    await startSims();

    // alice first, then bob: 850 and 900 of the role's 1,000 tokens each.
    spend('alice', 850);
    await waitFor(() => notices().some((t) => t.includes("alice's role budget")), 'the notice naming alice');
    spend('bob', 900);
    await waitFor(() => notices().some((t) => t.includes("bob's role budget")), 'the notice naming bob', 15_000);
    // A later call of alice's, still under 100 %: she was told already.
    spend('alice', 50);
    await waitFor(() => (shownMember(events, 'alice')?.tokens ?? 0) >= 900, "alice's third call shown");
    expect(notices()).toEqual([
      "budget at 80 %: alice's role budget: 850 tokens of 1,000 tokens (85 %)",
      "budget at 80 %: bob's role budget: 900 tokens of 1,000 tokens (90 %)",
    ]);
    c.close();
  }, 120_000);

  it("the team's budget is weighed on what all teammates spent together: told once, when their sum passes 80 %", async () => {
    const { c, events, startSims, notices, spend } = await budgetTeam(['alice', 'bob'], { budgetArgs: ['--team', '--tokens', '1000'] });
    await startSims();

    // 500 and then 350: neither alone is near 80 % of 1,000, together they are at 85 %.
    spend('alice', 500);
    await waitFor(() => (shownMember(events, 'alice')?.tokens ?? 0) >= 500, "alice's call shown");
    spend('bob', 350);
    await waitFor(() => notices().length > 0, "the notice of the team's budget", 15_000);
    // A later call of alice's, still under 100 %: the team was told already.
    spend('alice', 50);
    await waitFor(() => (shownMember(events, 'alice')?.tokens ?? 0) >= 550, "alice's second call shown");
    expect(notices()).toEqual(["budget at 80 %: the team's budget: 850 tokens of 1,000 tokens (85 %)"]);
    c.close();
  }, 120_000);

  it("a limit written in the project's settings shows on the dashboard beside the one the CLI stored, and its 80 % is told", async () => {
    const { c, events, startSims, notices, spend } = await budgetTeam(['alice'], { settings: { budgets: { teammates: { alice: { tokens: 1000 } } } }, budgetArgs: ['--team', '--tokens', '100000'] });
    c.send({ id: 1, type: 'subscribe' });
    const budgets = () => events.filter((e) => e.type === 'budgets').at(-1);
    await waitFor(() => budgets(), 'the budgets a dashboard shows');
    expect(budgets()).toMatchObject({ stored: { team: { tokens: 100000 } }, settings: { teammates: { alice: { tokens: 1000 } } } });

    await startSims();
    spend('alice', 850);
    await waitFor(() => notices().length > 0, 'the notice of the settings limit');
    expect(notices()).toEqual(["budget at 80 %: alice's budget: 850 tokens of 1,000 tokens (85 %)"]);
    c.close();
  }, 120_000);
});
