/**
 * Attack: the official Claude Agent SDK (`query()`) driving `thclaws` against the fake Messages API, at the
 * edges of canUseTool, hooks, plan mode and interrupt. Run: npx tsx attacks/sdk-attacks.ts [case...]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { query, type Options, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { FakeAnthropic } from '../test/agent/fake-anthropic.js';
import { BIN, scrubbedEnv } from '../test/agent/helpers.js';

let dir = '';
let fake!: FakeAnthropic;
let stderr = '';
const options = (extra: Options = {}): Options => ({
  pathToClaudeCodeExecutable: BIN,
  cwd: dir,
  env: scrubbedEnv(dir, { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.url }) as Record<string, string>,
  stderr: (s) => (stderr += s),
  ...extra,
});
async function collect(q: AsyncIterable<SDKMessage>): Promise<{ msgs: SDKMessage[]; threw?: string }> {
  const msgs: SDKMessage[] = [];
  try {
    for await (const m of q) msgs.push(m);
  } catch (e) {
    return { msgs, threw: (e as Error).message.split('\n')[0] };
  }
  return { msgs };
}
const results = (msgs: SDKMessage[]) => msgs.filter((m) => m.type === 'result').map((m) => `${m.subtype}:${JSON.stringify((m as { result?: string }).result ?? '')}`);
const toolResults = (n: number) => fake.requests.slice(1, n + 1).map((r) => JSON.stringify(r.body.messages.at(-1).content).slice(0, 300));

const cases: Record<string, () => Promise<string>> = {
  async 'canUseTool allow + updatedPermissions (destination session) is written to disk as a permanent allow rule'() {
    fake.enqueue({ toolUses: [{ name: 'Bash', input: { command: 'echo hi > a.txt' } }] }, { text: 'done' });
    const r = await collect(query({ prompt: 'x', options: options({
      canUseTool: async (_t, input, { suggestions }) => ({ behavior: 'allow', updatedInput: input, updatedPermissions: suggestions ?? [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'echo hi > a.txt' }], behavior: 'allow', destination: 'session' }] }),
    }) }));
    const local = path.join(dir, '.thclaws/settings.local.json');
    return `expect: a session rule kept in memory only; nothing written to settings files\n  threw=${r.threw} results=${results(r.msgs)}\n  settings.local.json=${fs.existsSync(local) ? fs.readFileSync(local, 'utf8').replace(/\s+/g, ' ') : '(absent)'}`;
  },
  async 'canUseTool allow + updatedPermissions that is a DENY rule / a setMode'() {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'w.txt', content: 'x' } }] }, { toolUses: [{ name: 'Write', input: { file_path: 'w2.txt', content: 'y' } }] }, { text: 'done' });
    let asked = 0;
    const r = await collect(query({ prompt: 'x', options: options({
      canUseTool: async (_t, input) => {
        asked++;
        return asked === 1
          ? { behavior: 'allow', updatedInput: input, updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Write' }], behavior: 'deny', destination: 'session' }, { type: 'setMode', mode: 'plan', destination: 'session' }] }
          : { behavior: 'allow', updatedInput: input };
      },
    }) }));
    const local = path.join(dir, '.thclaws/settings.local.json');
    return `expect: the second Write denied by the session deny rule (or plan mode), never an allow rule persisted\n  threw=${r.threw} results=${results(r.msgs)} canUseTool asked ${asked}x; w2.txt exists=${fs.existsSync(path.join(dir, 'w2.txt'))}\n  settings.local.json=${fs.existsSync(local) ? fs.readFileSync(local, 'utf8').replace(/\s+/g, ' ') : '(absent)'}`;
  },
  async 'canUseTool updatedInput retargets Write outside the project'() {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
    const target = path.join(outside, 'pwned.txt');
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: target, content: 'model' } }] }, { toolUses: [{ name: 'Write', input: { file_path: 'in.txt', content: 'x' } }] }, { text: 'done' });
    const r = await collect(query({ prompt: 'x', options: options({
      canUseTool: async (_t, input) => (input.file_path !== 'in.txt' ? { behavior: 'allow', updatedInput: input } : { behavior: 'allow', updatedInput: { ...input, file_path: path.join(outside, 'via-updated.txt') } }),
    }) }));
    const out = `expect: both refused alike (same guard for the model's input and the approver's)\n  threw=${r.threw} results=${results(r.msgs)}\n  model's own outside write exists=${fs.existsSync(target)}; updatedInput outside write exists=${fs.existsSync(path.join(outside, 'via-updated.txt'))}\n  tool results: ${toolResults(2).join('\n    ')}`;
    fs.rmSync(outside, { recursive: true, force: true });
    return out;
  },
  async 'PreToolUse hook returning updatedInput (modify)'() {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'h.txt', content: 'original' } }] }, { text: 'done' });
    const r = await collect(query({ prompt: 'x', options: options({
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      hooks: { PreToolUse: [{ matcher: 'Write', hooks: [async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { file_path: 'h.txt', content: 'rewritten by hook' } } })] }] },
    }) }));
    const p = path.join(dir, 'h.txt');
    return `expect: h.txt = "rewritten by hook" (Claude Code applies updatedInput), or the hook refused by name — never silently ignored\n  threw=${r.threw} results=${results(r.msgs)} h.txt=${fs.existsSync(p) ? JSON.stringify(fs.readFileSync(p, 'utf8')) : '(absent)'}\n  stderr=${JSON.stringify(stderr.slice(0, 300))}`;
  },
  async 'PreToolUse hook permissionDecision ask'() {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'ask.txt', content: 'x' } }] }, { text: 'done' });
    let asked = 0;
    const r = await collect(query({ prompt: 'x', options: options({
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
      canUseTool: async (_t, input) => (asked++, { behavior: 'deny', message: 'no' }),
      hooks: { PreToolUse: [{ hooks: [async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'please ask' } })] }] },
    }) }));
    return `expect (Claude Code): the person is asked (canUseTool) even in bypass mode; ask.txt not written when denied\n  threw=${r.threw} results=${results(r.msgs)} canUseTool asked ${asked}x; ask.txt exists=${fs.existsSync(path.join(dir, 'ask.txt'))}`;
  },
  async 'plan mode: canUseTool allows everything; Write and Bash before ExitPlanMode'() {
    fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'p.txt', content: 'x' } }, { name: 'Bash', input: { command: 'touch b.txt' } }] }, { text: 'done' });
    const r = await collect(query({ prompt: 'x', options: options({ permissionMode: 'plan', canUseTool: async (_t, input) => ({ behavior: 'allow', updatedInput: input }) }) }));
    const res = r.msgs.find((m) => m.type === 'result') as { errors?: string[] } | undefined;
    return `expect: both refused (plan), result success as in Claude Code\n  threw=${r.threw} results=${results(r.msgs)} errors=${JSON.stringify(res?.errors)} p.txt=${fs.existsSync(path.join(dir, 'p.txt'))} b.txt=${fs.existsSync(path.join(dir, 'b.txt'))}`;
  },
  async 'interrupt while Bash runs, then the next message'() {
    fake.enqueue({ toolUses: [{ name: 'Bash', input: { command: 'echo started > started.txt; sleep 8; echo finished > slept.txt' } }] }, { text: 'after the interrupt' }, { text: 'third' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* input(): AsyncGenerator<SDKUserMessage> {
      yield { type: 'user', message: { role: 'user', content: 'run it' }, parent_tool_use_id: null, session_id: '' };
      await gate;
      yield { type: 'user', message: { role: 'user', content: 'again' }, parent_tool_use_id: null, session_id: '' };
    }
    const q = query({ prompt: input(), options: options({ permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true }) });
    const msgs: SDKMessage[] = [];
    let threw: string | undefined;
    const t0 = Date.now();
    const timer = setInterval(() => {
      if (fs.existsSync(path.join(dir, 'started.txt'))) {
        clearInterval(timer);
        void q.interrupt().then(release);
      }
    }, 100);
    try {
      for await (const m of q) msgs.push(m);
    } catch (e) {
      threw = (e as Error).message.split('\n')[0];
    }
    clearInterval(timer);
    await new Promise((r) => setTimeout(r, 9000));
    return `expect: turn 1 ends with its result, turn 2 answered "after the interrupt", the sleep killed (no slept.txt)\n  threw=${threw} results=${results(msgs)} ms=${Date.now() - t0} slept.txt=${fs.existsSync(path.join(dir, 'slept.txt'))}\n  requests=${fake.requests.length} 2nd request messages=${JSON.stringify(fake.requests[1]?.body.messages.map((m: any) => [m.role, (Array.isArray(m.content) ? m.content : [{ type: "text", text: m.content }]).map((b: any) => b.type + (b.text ? ":" + b.text.slice(0, 40) : b.content ? ":" + JSON.stringify(b.content).slice(0, 60) : ""))]))}`;
  },
};

cases['SDK agents option (sent inside initialize, not as a flag)'] = async () => {
  fake.enqueue({ text: 'ok' });
  const r = await collect(query({ prompt: 'x', options: options({ agents: { reviewer: { description: 'reviews code', prompt: 'You review.' } } }) }));
  const init = r.msgs.find((m) => m.type === 'system' && m.subtype === 'init') as { agents?: string[] } | undefined;
  return `expect (docs/agent.md: agents "refused, each by name"): the query fails naming agents, or the subagent exists\n  threw=${r.threw} results=${results(r.msgs)} init.agents=${JSON.stringify(init?.agents)} stderr=${JSON.stringify(stderr.slice(0, 200))}`;
};

cases['canUseTool deny with interrupt: true'] = async () => {
  fake.enqueue({ toolUses: [{ name: 'Write', input: { file_path: 'i.txt', content: 'x' } }] }, { toolUses: [{ name: 'Bash', input: { command: 'echo went on > on.txt' } }] }, { text: 'kept going' });
  const r = await collect(query({ prompt: 'x', options: options({ canUseTool: async (t, input) => (t === 'Write' ? { behavior: 'deny', message: 'stop everything', interrupt: true } : { behavior: 'allow', updatedInput: input }) }) }));
  return `expect (Claude Code): the turn stops at the denial (interrupt), no further model request\n  threw=${r.threw} results=${results(r.msgs)} model requests=${fake.requests.length} on.txt=${fs.existsSync(path.join(dir, 'on.txt'))}`;
};

cases['acceptEdits: unasked writes to .git/config and .mcp.json (run outside the sandbox later)'] = async () => {
  const { execFileSync } = await import('node:child_process');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const pwn = path.join(dir, 'PWNED');
  const gitConfig = fs.readFileSync(path.join(dir, '.git/config'), 'utf8') + `[core]\n\tfsmonitor = "touch ${pwn}; false"\n`;
  fake.enqueue(
    { toolUses: [{ name: 'Write', input: { file_path: '.git/config', content: gitConfig } }] },
    { toolUses: [{ name: 'Write', input: { file_path: '.mcp.json', content: JSON.stringify({ mcpServers: { x: { command: 'sh', args: ['-c', `touch ${pwn}-mcp`] } } }) } }] },
    { text: 'done' },
  );
  let asked = 0;
  const r = await collect(query({ prompt: 'x', options: options({ permissionMode: 'acceptEdits', canUseTool: async () => (asked++, { behavior: 'deny', message: 'no' }) }) }));
  const cfg = fs.readFileSync(path.join(dir, '.git/config'), 'utf8');
  let gitRan = '';
  try { execFileSync('git', ['status', '--short'], { cwd: dir, stdio: 'pipe' }); gitRan = 'git status ran'; } catch (e) { gitRan = 'git status failed'; }
  // The person trusts their own folder and starts the next session: the model-written .mcp.json server runs.
  fs.mkdirSync(path.join(dir, '.config/thclaws'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.config/thclaws/trusted-folders.json'), JSON.stringify({ folders: [dir] }));
  fake.enqueue({ text: 'second session' });
  const r2 = await collect(query({ prompt: 'y', options: options({ permissionMode: 'acceptEdits' }) }));
  const mcpRan = fs.existsSync(`${pwn}-mcp`);
  void r2;
  return `next session in the (trusted) folder started the model-written MCP command, unsandboxed and unasked: ${mcpRan}\n  expect (Claude Code asks before editing .git/ and its own config in acceptEdits): both Writes asked (canUseTool), not written\n  threw=${r.threw} results=${results(r.msgs)} canUseTool asked ${asked}x\n  .git/config has fsmonitor=${cfg.includes('fsmonitor')} .mcp.json written=${fs.existsSync(path.join(dir, '.mcp.json'))}; after a plain \`${gitRan}\`: PWNED exists=${fs.existsSync(pwn)}`;
};

cases['permission_suggestions shape sent to canUseTool'] = async () => {
  fake.enqueue({ toolUses: [{ name: 'Bash', input: { command: 'npm test' } }] }, { toolUses: [{ name: 'Write', input: { file_path: 'src/a.ts', content: 'x' } }] }, { text: 'done' });
  const seen: unknown[] = [];
  const r = await collect(query({ prompt: 'x', options: options({ canUseTool: async (_t, _i, o) => (seen.push(o.suggestions), { behavior: 'deny', message: 'no' }) }) }));
  return `expect (SDK PermissionRuleValue): ruleContent is the part inside the parentheses ("npm test"), not a whole rule\n  threw=${r.threw} suggestions=${JSON.stringify(seen)}`;
};

cases['PreToolUse hook input shape (SDK PreToolUseHookInput requires tool_use_id)'] = async () => {
  fake.enqueue({ toolUses: [{ name: 'Read', input: { file_path: 'nothing.txt' } }] }, { text: 'done' });
  const seen: unknown[] = [];
  const r = await collect(query({ prompt: 'x', options: options({ hooks: { PreToolUse: [{ hooks: [async (input, toolUseId) => (seen.push({ input, toolUseId }), {})] }] } }) }));
  return `expect: input.tool_use_id (required by the SDK type) and the callback's toolUseId set\n  threw=${r.threw} seen=${JSON.stringify(seen)}`;
};

const only = process.argv.slice(2);
for (const [name, fn] of Object.entries(cases)) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-attack-')));
  fake = await new FakeAnthropic().start();
  stderr = '';
  try {
    console.log(`\n## ${name}\n  ${await fn()}`);
  } catch (e) {
    console.log(`\n## ${name}\n  HARNESS ERROR ${(e as Error).stack}`);
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
