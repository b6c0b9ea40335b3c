/**
 * The lead's MCP servers reach its teammates: a lead started with `--mcp-config` (a real stdio server,
 * test/fixtures/mcp-echo-server.mjs) spawns a real teammate process, which lists and calls that server's tool;
 * a lead driven by the Agent SDK hands its `mcpServers` down the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, REPO, runCli, scrubbedEnv } from '../agent/helpers.js';
import { teamWorkspace, writeScript, type Ws } from './helpers.js';
import { parseLines } from './stream.js';

beforeAll(ensureBuilt, 120_000);
let ws: Ws | undefined;
afterEach(() => ws?.cleanup());

const SERVER = path.join(REPO, 'test/fixtures/mcp-echo-server.mjs');

describe("the lead's MCP servers", () => {
  it('a teammate spawned by a lead with --mcp-config gets that server (owner-only file in its agent dir, not argv) and calls its tool', async () => {
    ws = teamWorkspace();
    const script = writeScript(ws, {
      rules: [
        {
          match: 'use the server',
          turns: [
            { text: 'team', tool_calls: [{ name: 'TeamCreate', input: { name: 't', agents: [{ name: 'helper' }] } }, { name: 'TeamTaskCreate', input: { subject: 'Ask', description: 'ask the server', owner: 'helper' } }, { name: 'SpawnTeammate', input: { name: 'helper' } }] },
            { text: 'waiting' },
          ],
        },
        { match: 'Task #1 —', turns: [{ text: 'asking', tool_calls: [{ name: 'mcp__lead__whoami', input: {} }, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'asked' } }] }, { text: 'done' }] },
      ],
      fallback: [{ text: 'noted' }],
    });
    const config = JSON.stringify({ mcpServers: { lead: { command: process.execPath, args: [SERVER], env: { MCP_TEST_NAME: 'from-lead' } } } });
    const r = await runCli(['-p', 'use the server', '--script', script, '--accept-all', '--timeout', '60', '--output-format', 'stream-json', '--mcp-config', config], {
      cwd: ws.dir,
      env: scrubbedEnv(ws.home),
      timeoutMs: 90_000,
    });
    // The result event says why a run failed (stderr is often empty then).
    expect(r.code, r.stderr + JSON.stringify(parseLines(r.stdout).find((e) => e.type === 'result'))).toBe(0);
    expect(parseLines(r.stdout).find((e) => e.type === 'result')?.is_error).toBe(false);
    const agentDir = path.join(ws.dir, '.thclaws/state/team/agents/helper');
    const file = path.join(agentDir, 'mcp.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers.lead.env).toEqual({ MCP_TEST_NAME: 'from-lead' });
    const log = fs.readFileSync(path.join(agentDir, 'output.log'), 'utf8');
    expect(log).toContain('name=from-lead');
    expect(log).not.toMatch(/unknown tool/i);
  }, 120_000);

  it("the SDK's mcpServers, applied in initialize, are handed to a teammate the lead spawns after it", async () => {
    ws = teamWorkspace();
    const script = writeScript(ws, {
      rules: [{ match: 'spawn one', turns: [{ text: 'team', tool_calls: [{ name: 'TeamCreate', input: { name: 't', agents: [{ name: 'helper' }] } }, { name: 'SpawnTeammate', input: { name: 'helper' } }] }, { text: 'spawned' }] }],
      fallback: [{ text: 'noted' }],
    });
    const msgs: SDKMessage[] = [];
    const q = query({
      prompt: 'spawn one',
      options: {
        pathToClaudeCodeExecutable: BIN,
        cwd: ws.dir,
        env: scrubbedEnv(ws.home) as Record<string, string>,
        extraArgs: { script, 'accept-all': null },
        mcpServers: { sdkside: { command: process.execPath, args: [SERVER] } },
      },
    });
    for await (const m of q) msgs.push(m);
    expect(msgs.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
    const file = path.join(ws.dir, '.thclaws/state/team/agents/helper/mcp.json');
    expect(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers)).toEqual(['sdkside']);
  }, 60_000);
});
