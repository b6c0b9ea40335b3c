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
import { BIN, REPO, runCli, scrubbedEnv, tempDir } from './helpers.js';

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

  it('-p: a bad --mcp-config is one error line, exit 2; .mcp.json counts only in a trusted folder; a server that cannot start is reported and the session goes on; --mcp-config adds servers; a server-wide allow rule runs its tools unasked; mcp list shows them', async () => {
    writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { proj: echoServer } }));
    fake.enqueue({ text: 'untrusted, still here' });
    const gone = JSON.stringify({ mcpServers: { gone: { command: path.join(dir, 'no-such-server') } } });
    // Runs that share nothing run side by side: the bad config (in a folder of its own) never reaches the fake.
    const other = tempDir();
    const [bad, untrusted] = await Promise.all([
      runCli(['-p', 'hi', '--mcp-config', '{"mcpServers":{"x":{"type":"http","url":"ftp://no"}}}'], { cwd: other.dir, env: env() }),
      runCli(['-p', 'hi', '--mcp-config', gone], { cwd: dir, env: env() }),
    ]).finally(other.cleanup);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^thclaws: --mcp-config: key "mcpServers.x/)]);
    expect(untrusted.stderr).toMatch(/not a trusted folder: ignoring .*\.mcp\.json: mcpServers/);
    expect(untrusted.stderr).toMatch(/^thclaws: MCP server "gone" failed to start: /m);
    expect(untrusted.stdout).toContain('untrusted, still here');
    expect((fake.requests[0]!.body.tools as { name: string }[]).map((t) => t.name).filter((n) => n.startsWith('mcp__'))).toEqual([]);

    mkdirSync(path.join(dir, '.config'), { recursive: true });
    trustFolder(dir, env());
    fake.enqueue({ toolUses: [{ name: 'mcp__proj__whoami', input: {} }, { name: 'mcp__cli__echo', input: { text: 'x' } }] }, { text: 'ok' });
    const cli = JSON.stringify({ mcpServers: { cli: echoServer } });
    const [r, listed] = await Promise.all([
      runCli(['-p', 'go', '--mcp-config', cli, '--allowedTools', 'mcp__proj'], { cwd: dir, env: env() }),
      runCli(['mcp', 'list', '--mcp-config', cli], { cwd: dir, env: env() }),
    ]);
    expect(r.code).toBe(0);
    const results = JSON.stringify(fake.requests[2]!.body.messages.at(-1));
    expect(results).toContain('name=from-config');
    // No person in -p: a tool without an allow rule is refused, not run.
    expect(results).toMatch(/permission denied/);
    expect(results).not.toContain('echo from the MCP server');

    expect(listed.stdout).toMatch(/^proj \[project\]: .* - ✓ connected, 2 tools: mcp__proj__echo, mcp__proj__whoami$/m);
    expect(listed.stdout).toMatch(/^cli \[cli\]: /m);
  });
});
