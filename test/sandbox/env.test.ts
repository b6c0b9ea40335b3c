/**
 * What a sandboxed command sees of the agent: not its model credentials (a command has no use for them and the
 * network is open), and nothing of the command before it (the wrapped line is cached; env and cwd are not).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../../src/core/agent/permissions.js';
import { builtinTools } from '../../src/core/agent/tools/index.js';
import type { ToolContext } from '../../src/core/agent/types.js';
import { createRoleSandbox, sandboxSettings } from '../../src/core/sandbox/index.js';
import { sandboxWorkspace, type SandboxWorkspace } from './team-workspace.js';

const tools = builtinTools();
let n = 0;
const SECRETS = { ANTHROPIC_API_KEY: 'sk-ant-test-secret-1', ANTHROPIC_AUTH_TOKEN: 'tok-test-secret-2' };

describe.skipIf(process.env.THCLAWS_SKIP_SANDBOX_TESTS === '1')('the environment of a sandboxed command', () => {
  let ws: SandboxWorkspace;
  let alice: ToolContext;
  const saved: Record<string, string | undefined> = {};
  const bash = (command: string) => runToolCall({ type: 'tool_use', id: `e${++n}`, name: 'Bash', input: { command } }, tools, alice);

  beforeAll(() => {
    for (const k of Object.keys(SECRETS)) saved[k] = process.env[k];
    Object.assign(process.env, SECRETS);
    ws = sandboxWorkspace();
    alice = {
      cwd: ws.alice,
      projectRoot: ws.ws,
      role: 'teammate',
      signal: new AbortController().signal,
      permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }),
      sandbox: createRoleSandbox({ role: 'teammate', workspaceRoot: ws.ws, cwd: ws.alice, agentName: 'alice', gitCommonDir: path.join(ws.ws, '.git') }, sandboxSettings({ sandbox: 'required' })),
    };
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    ws.cleanup();
  });

  it("does not hold the agent's model credentials, in its environment or any process's it can see", async () => {
    const r = await bash('env; cat /proc/*/environ 2>/dev/null | tr "\\0" "\\n"; echo done');
    expect(r.content).toMatch(/done/);
    expect(r.content).not.toMatch(/sk-ant-test-secret-1|tok-test-secret-2/);
    // The rest of the environment is kept (tools need PATH, HOME, the git identity).
    expect(r.content).toMatch(/^PATH=/m);
  });

  it("one command's exports, cwd and the command variable do not reach the next", async () => {
    const a = await bash('export LEAK=1; cd /; echo "$THCLAWS_SANDBOXED_COMMAND|$(pwd)"');
    expect(a.content).toBe('|/\n[exit code 0]');
    const b = await bash('echo "${LEAK:-none}|$(pwd)"');
    expect(b.content).toBe(`none|${ws.alice}\n[exit code 0]`);
  });
});
