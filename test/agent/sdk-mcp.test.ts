/**
 * MCP servers through the Claude Agent SDK and the CLI: a real stdio server (@modelcontextprotocol/sdk, the
 * fixture test/fixtures/mcp-echo-server.mjs) whose tools the fake model calls as `mcp__<server>__<tool>`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { query, type McpServerStatus, type Options, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { StreamJsonLine } from '../../src/core/agent/output-schema.js';
import { trustFolder } from '../../src/core/agent/trust.js';
import type { FakeAnthropic } from './fake-anthropic.js';
import { useFakeApiWorkspace } from './harness.js';
import { BIN, REPO, runCli, scrubbedEnv } from './helpers.js';

const SERVER = path.join(REPO, 'test/fixtures/mcp-echo-server.mjs');
const echoServer = { command: process.execPath, args: [SERVER], env: { MCP_TEST_NAME: 'from-config' } };

describe('MCP servers (real stdio server, real SDK, fake API)', () => {
  let dir: string;
  let fake: FakeAnthropic;
  useFakeApiWorkspace({ cli: true, each: (w) => ({ dir, fake } = w) });
  const env = () => scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url, XDG_CONFIG_HOME: path.join(dir, '.config') });

  it("the SDK's mcpServers: the model calls mcp__echo__echo through canUseTool; init, initialize and mcp_status list the server", async () => {
    fake.enqueue({ toolUses: [{ name: 'mcp__echo__echo', input: { text: 'ping' } }] }, { text: 'done' });
    const asked: string[] = [];
    let status: McpServerStatus[] = [];
    const q = query({
      prompt: 'call the tool',
      options: {
        pathToClaudeCodeExecutable: BIN,
        cwd: dir,
        env: env() as Record<string, string>,
        mcpServers: { echo: echoServer },
        canUseTool: async (tool, input) => {
          asked.push(tool);
          return { behavior: 'allow', updatedInput: input };
        },
      } satisfies Options,
    });
    const msgs: SDKMessage[] = [];
    for await (const m of q) {
      msgs.push(m);
      if (m.type === 'system' && m.subtype === 'init' && !status.length) status = await q.mcpServerStatus();
    }
    for (const m of msgs) StreamJsonLine.parse(m);
    const offered = (fake.requests[0]!.body.tools as { name: string; input_schema: { properties?: object } }[]).find((t) => t.name === 'mcp__echo__echo');
    expect(offered?.input_schema.properties).toHaveProperty('text');
    expect(asked).toEqual(['mcp__echo__echo']);
    expect(JSON.stringify(fake.requests[1]!.body.messages.at(-1))).toContain('echo from the MCP server: ping');
    expect(status).toMatchObject([{ name: 'echo', status: 'connected', serverInfo: { name: 'echo-test' } }]);
    expect(status[0]!.tools!.map((t) => t.name).sort()).toEqual(['mcp__echo__echo', 'mcp__echo__whoami']);
    const init = msgs.filter((m) => m.type === 'system' && m.subtype === 'init').at(-1) as { mcp_servers: unknown; tools: string[] };
    expect(init.mcp_servers).toEqual([{ name: 'echo', status: 'connected' }]);
    expect(init.tools).toContain('mcp__echo__whoami');
  });

  it('-p: .mcp.json counts only in a trusted folder; --mcp-config adds servers; a server-wide allow rule runs its tools unasked; mcp list shows them', async () => {
    writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { proj: echoServer } }));
    fake.enqueue({ text: 'untrusted' });
    const untrusted = await runCli(['-p', 'hi'], { cwd: dir, env: env() });
    expect(untrusted.stderr).toMatch(/not a trusted folder: ignoring .*\.mcp\.json: mcpServers/);
    expect((fake.requests[0]!.body.tools as { name: string }[]).map((t) => t.name).filter((n) => n.startsWith('mcp__'))).toEqual([]);

    mkdirSync(path.join(dir, '.config'), { recursive: true });
    trustFolder(dir, env());
    fake.enqueue({ toolUses: [{ name: 'mcp__proj__whoami', input: {} }, { name: 'mcp__cli__echo', input: { text: 'x' } }] }, { text: 'ok' });
    const cli = JSON.stringify({ mcpServers: { cli: echoServer } });
    const r = await runCli(['-p', 'go', '--mcp-config', cli, '--allowedTools', 'mcp__proj'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    const results = JSON.stringify(fake.requests[2]!.body.messages.at(-1));
    expect(results).toContain('name=from-config');
    // No person in -p: a tool without an allow rule is refused, not run.
    expect(results).toMatch(/permission denied/);
    expect(results).not.toContain('echo from the MCP server');

    const listed = await runCli(['mcp', 'list', '--mcp-config', cli], { cwd: dir, env: env() });
    expect(listed.stdout).toMatch(/^proj \[project\]: .* - ✓ connected, 2 tools: mcp__proj__echo, mcp__proj__whoami$/m);
    expect(listed.stdout).toMatch(/^cli \[cli\]: /m);
  });

  it('a bad --mcp-config is one error line naming it, exit 2; a server that cannot start is reported and the session goes on', async () => {
    const bad = await runCli(['-p', 'hi', '--mcp-config', '{"mcpServers":{"x":{"type":"http","url":"ftp://no"}}}'], { cwd: dir, env: env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^thclaws: --mcp-config: key "mcpServers.x/)]);
    fake.enqueue({ text: 'still here' });
    const broken = await runCli(['-p', 'hi', '--mcp-config', JSON.stringify({ mcpServers: { gone: { command: path.join(dir, 'no-such-server') } } })], { cwd: dir, env: env() });
    expect(broken.stdout).toContain('still here');
    expect(broken.stderr).toMatch(/^thclaws: MCP server "gone" failed to start: /m);
  });
});
