/**
 * Claude Code's own binary (the one the Agent SDK package ships), run interactively in tmux in a scratch home
 * against the local fake Messages server. The tmux server is started with the scratch environment (HOME, the
 * key, the fake server's URL), so everything it starts — the lead and any pane teammate — has it and never
 * the machine's. Scripted replies make the lead create a task and spawn an in-process teammate `alice`,
 * whose first act is a Bash call that needs permission.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FakeAnthropic, type FakeReply } from '../agent/fake-anthropic.js';
import { REPO, runCli, scrubbedEnv, tempDir, type RunResult } from '../agent/helpers.js';
import { waitFor } from '../teams/helpers.js';
import { pidAlive } from '../../src/core/store/index.js';

const PLATFORM_PKG = `@anthropic-ai/claude-agent-sdk-linux-${process.arch === 'arm64' ? 'arm64' : 'x64'}`;
export const CLAUDE_BIN = ((): string | undefined => {
  const bin = path.join(REPO, 'node_modules', PLATFORM_PKG, 'claude');
  if (!existsSync(bin)) return undefined;
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return bin;
})();

export const ALICE_MARKER = 'alice-was-here';
const KEY = 'sk-ant-fake-key-0000000000000000000000000000';

const texts = (m: { content: unknown }): string =>
  typeof m.content === 'string'
    ? m.content
    : (m.content as Array<{ type: string; text?: string }>).map((c) => (c.type === 'text' ? c.text : c.type === 'tool_result' ? '[tool_result]' : '')).join('\n');

/** The scripted model: the lead makes a task and spawns alice; alice asks to run Bash, then echoes what she is told. */
export function teamRules(work: string): (body: { messages: Array<{ role: string; content: unknown }> }) => FakeReply {
  return (body) => {
    const all = body.messages.map(texts).join('\n');
    const last = texts(body.messages.at(-1)!);
    // The lead's conversation holds the prompt that made the team (and alice's prompt, in its Agent call).
    if (!all.includes('MAKE TEAM') && all.includes('ALICE-TASK')) {
      if (!all.includes('[tool_result]')) return { toolUses: [{ name: 'Bash', input: { command: `touch ${path.join(work, ALICE_MARKER)}`, description: 'Create a marker file' } }] };
      return { text: `alice heard: ${last.slice(-200)}` };
    }
    const turns = body.messages.filter((m) => m.role === 'assistant').length;
    const steps: FakeReply[] = [
      { toolUses: [{ name: 'ToolSearch', input: { query: 'select:TaskCreate,TaskList,TaskUpdate,SendMessage' } }] },
      { toolUses: [{ name: 'TaskCreate', input: { subject: 'Write the parser', description: 'Parse the thing', activeForm: 'Writing the parser' } }] },
      { toolUses: [{ name: 'Agent', input: { name: 'alice', description: 'helper alice', prompt: 'ALICE-TASK please help', subagent_type: 'claude' } }] },
    ];
    if (all.includes('MAKE TEAM') && turns < steps.length) return steps[turns]!;
    return { text: `lead heard: ${last.slice(-200)}` };
  };
}

export interface ClaudeTeam {
  home: string;
  work: string;
  fake: FakeAnthropic;
  /** The thclaws CLI with the scratch HOME. */
  cli(args: string[]): Promise<RunResult>;
  pane(target?: string): string;
  keys(...keys: string[]): void;
  cleanup(): Promise<void>;
}

/** A scratch home where Claude Code asks nothing at start (onboarding, trust, the key) and asks before Bash. */
function scratchHome(home: string, work: string, settings: Record<string, unknown>): void {
  mkdirSync(path.join(home, '.claude'), { recursive: true });
  mkdirSync(work, { recursive: true });
  execFileSync('git', ['init', '-q', work]);
  const claudeJson = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [KEY.slice(-20)], rejected: [] },
    projects: { [work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  writeFileSync(path.join(home, '.claude.json'), JSON.stringify(claudeJson));
  writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'default' }, ...settings }, null, 2));
}

/**
 * Starts the fake server and Claude Code in its own tmux server; `beforeStart` runs with the home ready (hooks
 * install); `settings` go into the user's Claude Code settings (`teammateMode: 'tmux'` for pane teammates).
 */
export async function startClaudeTeam(beforeStart?: (t: ClaudeTeam) => Promise<void>, settings: Record<string, unknown> = {}): Promise<ClaudeTeam> {
  const tmp = tempDir('thclaws-cc-');
  const home = path.join(tmp.dir, 'home');
  const work = path.join(tmp.dir, 'work');
  scratchHome(home, work, settings);
  const fake = await new FakeAnthropic().start();
  const rules = teamRules(work);
  fake.respond = (body) => rules(body);
  const sock = `thclaws-cc-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const env = scrubbedEnv(home, {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: fake.url,
    CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: '1',
    CLAUDE_CODE_ENABLE_TODO_TOOLS: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    TERM: 'xterm-256color',
  });
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', sock, '-f', '/dev/null', ...args], { env, encoding: 'utf8' });
  const t: ClaudeTeam = {
    home,
    work,
    fake,
    cli: (args) => runCli(args, { cwd: work, env: scrubbedEnv(home) }),
    // The lead's pane is the first of the first window; pane teammates split it.
    pane: (target = 'lead:0.0') => tmux('capture-pane', '-p', '-t', target),
    keys: (...keys) => void tmux('send-keys', '-t', 'lead:0.0', ...keys),
    cleanup: async () => {
      // The panes' processes (the lead, pane teammates) by pid: they still write their files as they exit.
      let pids: number[] = [];
      try {
        pids = tmux('list-panes', '-a', '-F', '#{pane_pid}').split('\n').filter(Boolean).map(Number);
        tmux('kill-server');
      } catch {
        // already gone (the lead exited and the server with it)
      }
      await waitFor(() => pids.every((pid) => !pidAlive(pid)), "Claude Code's processes gone", 30_000).catch(() => pids.forEach((pid) => pidAlive(pid) && process.kill(pid, 'SIGKILL')));
      await fake.close();
      rmSync(tmp.dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
  await beforeStart?.(t);
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  tmux('new-session', '-d', '-s', 'lead', '-x', '200', '-y', '50', '-c', work, ...envArgs, CLAUDE_BIN!);
  return t;
}
