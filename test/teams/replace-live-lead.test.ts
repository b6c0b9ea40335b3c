/**
 * A second session cannot take a live lead's team: `TeamCreate {replace: true}` is refused before anything
 * moves, lead-only tools are refused outside the lead, and a `-p` run whose every tool call failed says so.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, scrubbedEnv } from '../agent/helpers.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { cleanupsAfterEach, leadSession, stopLeadAndTeam, teamWorkspace, waitFor, writeScript } from './helpers.js';
import { parseLines, toolResults } from './stream.js';

const cleanups = cleanupsAfterEach();

describe('a live lead and a second session', () => {
  it("session B's TeamCreate {replace: true} moves nothing, its TeamTaskCreate is refused, and its run says every call failed", async () => {
    const ws = teamWorkspace();
    const teamDir = path.join(ws.dir, '.thclaws', 'state', 'team');
    const scriptB = writeScript(ws, {
      rules: [
        {
          turns: [
            {
              text: 'taking over',
              tool_calls: [
                { name: 'TeamCreate', input: { name: 'b-team', agents: [{ name: 'bob' }], replace: true } },
                { name: 'TeamTaskCreate', input: { subject: 'from B', description: 'B is not the lead' } },
              ],
            },
            { text: 'done' },
          ],
        },
      ],
    }, 'b.json');

    // B starts first, as a person's session with no team yet (so it is not the lead), and waits for a prompt.
    const b: ChildProcess = spawn(process.execPath, [BIN, '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--script', scriptB, '--accept-all'], { cwd: ws.dir, env: scrubbedEnv(ws.home), stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => void b.kill('SIGKILL'));
    let out = '';
    let err = '';
    b.stdout!.on('data', (d) => (out += d));
    b.stderr!.on('data', (d) => (err += d));
    const bExit = new Promise<number | null>((r) => b.once('close', (code) => r(code)));
    await waitFor(() => out.includes('"subtype":"init"'), "B's init line");

    // A (this process) creates the team, becomes its live lead, and posts a task.
    const a = leadSession(ws, writeScript(ws, { rules: [{ turns: [{ text: 'ok' }] }] }));
    a.store.init();
    await a.store.config.create({ name: 'a-team', members: [{ name: 'alice', role: '', prompt: '' }] });
    await a.becomeLead();
    const handler = new LeadHandler(a);
    cleanups.push(() => stopLeadAndTeam(a, handler, ws));
    await a.store.tasks.create({ subject: 'A task', description: 'from A', reservedFor: 'alice' });
    const configBefore = fs.readFileSync(a.store.paths.config, 'utf8');

    b.stdin!.end(`${JSON.stringify({ type: 'user', message: { role: 'user', content: 'take the team' } })}\n`);
    const code = await bExit;
    const events = parseLines(out);
    const results = toolResults(events);
    expect(results.map((r) => r.name)).toEqual(['TeamCreate', 'TeamTaskCreate']);
    expect(results[0]!.is_error).toBe(true);
    expect(results[0]!.content).toMatch(/already running/);
    expect(results[1]!.is_error).toBe(true);
    expect(results[1]!.content).toMatch(/only the team's lead/);

    // Nothing of A's moved or changed.
    expect(fs.readdirSync(teamDir).filter((n) => n.startsWith('replaced-'))).toEqual([]);
    expect(fs.readFileSync(a.store.paths.config, 'utf8')).toBe(configBefore);
    expect((await a.store.tasks.list()).map((t) => t.subject)).toEqual(['A task']);
    expect(a.lease?.lost).toBe(false);

    // B's result says that every tool call failed; a stream-json session reports a failed turn in its result
    // line and goes on (the Agent SDK reads a non-zero exit as a crash), so it exits 0 when stdin closes.
    const result = events.find((e) => e.type === 'result');
    expect(result.is_error).toBe(true);
    expect(result.errors.join('\n')).toMatch(/every tool call failed \(2 of 2\)/);
    expect(code, err).toBe(0);
  }, 60_000);
});
