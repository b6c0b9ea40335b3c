/**
 * Git run outside the sandbox (TeamMerge, `git worktree remove`, the person's own git) reads files in the git
 * directory that say where the rest of the repository is: `commondir` in any git dir, the worktree's `.git`
 * file. A sandboxed command that rewrites one of them points that git at a config of its own (`core.fsmonitor`,
 * `core.hooksPath`) and runs code outside the sandbox. Real bubblewrap, real git.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/core/agent/loop.js';
import { SessionPermissionChecker } from '../../src/core/agent/permissions.js';
import { builtinTools } from '../../src/core/agent/tools/index.js';
import type { ToolContext } from '../../src/core/agent/types.js';
import type { Role } from '../../src/core/guard/types.js';
import { createRoleSandbox, layeredSandboxSettings, sandboxSettings } from '../../src/core/sandbox/index.js';
import { sandboxWorkspace, type SandboxWorkspace } from './team-workspace.js';

const tools = builtinTools();
let n = 0;

describe.skipIf(process.env.THCLAWS_SKIP_SANDBOX_TESTS === '1')('sandboxed git metadata cannot redirect git run outside the sandbox', () => {
  let ws: SandboxWorkspace;
  let lead: ToolContext;
  let alice: ToolContext;
  let marker: string;

  const ctxFor = (role: Role, cwd: string, agentName?: string): ToolContext => ({
    cwd,
    projectRoot: ws.ws,
    role,
    signal: new AbortController().signal,
    permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }),
    sandbox: createRoleSandbox({ role, workspaceRoot: ws.ws, cwd, ...(agentName ? { agentName } : {}), gitCommonDir: path.join(ws.ws, '.git') }, sandboxSettings({ sandbox: 'required' })),
  });
  const bash = (ctx: ToolContext, command: string) => runToolCall({ type: 'tool_use', id: `g${++n}`, name: 'Bash', input: { command } }, tools, ctx);
  /** Git as TeamMerge and the person run it: outside the sandbox. */
  const hostGit = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  /** A copy of the repository's git dir whose config runs a command (as the model would build it in its scratch dir). */
  const evilGitDir = (who: string) =>
    `E="$TMPDIR/evil-${who}"; rm -rf "$E"; cp -r ${ws.ws}/.git "$E" && rm -rf "$E/worktrees" && git config -f "$E/config" core.fsmonitor "touch ${marker}-${who}; false" && git config -f "$E/config" core.hooksPath "$E/hooks"`;

  beforeAll(() => {
    Object.assign(process.env, { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e.x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e.x' });
    ws = sandboxWorkspace();
    lead = ctxFor('lead', ws.ws, 'lead');
    alice = ctxFor('teammate', ws.alice, 'alice');
    marker = path.join(ws.ws, '..', `pwned-${process.pid}`);
  });
  afterAll(() => ws.cleanup());

  it("the lead cannot write .git/commondir: the lead's own git outside the sandbox runs nothing of the model's", async () => {
    const r = await bash(lead, `${evilGitDir('lead')} && echo "$E" > .git/commondir`);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/\[sandbox\] write refused: .*\.git\/commondir/);
    expect(existsSync(path.join(ws.ws, '.git/commondir'))).toBe(false);
    hostGit(ws.ws, 'status', '--short');
    expect(existsSync(`${marker}-lead`)).toBe(false);
  });

  it("a teammate cannot write the shared .git/commondir, its own worktree's commondir or its .git file", async () => {
    const gitFile = readFileSync(path.join(ws.alice, '.git'), 'utf8');
    const admin = path.join(ws.ws, '.git/worktrees/alice');
    const commondir = readFileSync(path.join(admin, 'commondir'), 'utf8');
    const shared = await bash(alice, `${evilGitDir('alice')} && echo "$E" > ${ws.ws}/.git/commondir`);
    expect(shared.isError).toBe(true);
    expect(existsSync(path.join(ws.ws, '.git/commondir'))).toBe(false);
    const own = await bash(alice, `${evilGitDir('alice')} && echo "$E" > "$(git rev-parse --git-dir)/commondir"`);
    expect(own.isError).toBe(true);
    expect(readFileSync(path.join(admin, 'commondir'), 'utf8')).toBe(commondir);
    const dotgit = await bash(alice, `${evilGitDir('alice')} && mkdir -p "$E/worktrees/alice" && echo "gitdir: $E/worktrees/alice" > .git`);
    expect(dotgit.isError).toBe(true);
    const moved = await bash(alice, 'mv .git .git.bak; rm -f .git; echo "gitdir: /tmp" > .git');
    expect(moved.isError).toBe(true);
    expect(readFileSync(path.join(ws.alice, '.git'), 'utf8')).toBe(gitFile);
    // What TeamMerge's clean-up runs in her worktree, outside the sandbox.
    hostGit(ws.alice, 'status', '--short');
    hostGit(ws.ws, 'status', '--short');
    expect(existsSync(`${marker}-alice`)).toBe(false);
  });

  it("a cloned project's settings declaring .git or src a build directory open neither", async () => {
    const { settings, ignored } = layeredSandboxSettings({ sandbox: 'required' }, { sandboxBuildDirs: ['.git', 'src', 'dist'] });
    expect(ignored).toEqual(['sandboxBuildDirs .git, src']);
    // Even from the user's own file, `.git` is never a build directory.
    const user = sandboxSettings({ sandbox: 'required', sandboxBuildDirs: ['.git', 'dist'] });
    for (const s of [settings, user]) {
      const cloned: ToolContext = { ...lead, sandbox: createRoleSandbox({ role: 'lead', workspaceRoot: ws.ws, cwd: ws.ws, gitCommonDir: path.join(ws.ws, '.git') }, s) };
      const r = await bash(cloned, `${evilGitDir('cloned')} && echo "$E" > .git/commondir; echo pwned > src/index.ts`);
      expect(r.content).toMatch(/\[sandbox\] write refused/);
      expect(existsSync(path.join(ws.ws, '.git/commondir'))).toBe(false);
      expect(readFileSync(path.join(ws.ws, 'src/index.ts'), 'utf8')).toBe('export const a = 1;\n');
    }
    hostGit(ws.ws, 'status', '--short');
    expect(existsSync(`${marker}-cloned`)).toBe(false);
  });

  it('a worktree whose .git file names the repository through a symlink: the teammate still commits, its commondir stays read-only', async () => {
    // git writes the path it was given (a symlinked home, macOS's /var → /private/var); the policy holds real paths.
    const link = path.join(ws.ws, '..', `link-${process.pid}`);
    symlinkSync(ws.ws, link);
    const gitFile = path.join(ws.alice, '.git');
    const original = readFileSync(gitFile, 'utf8');
    writeFileSync(gitFile, `gitdir: ${link}/.git/worktrees/alice\n`);
    try {
      const c = await bash(alice, 'echo linked >> alice.txt && git add -A && git commit -q -m "through a link" && git log --oneline -1');
      expect(c.isError, c.content).toBeFalsy();
      expect(c.content).toMatch(/through a link/);
      const own = await bash(alice, 'echo /tmp > "$(git rev-parse --git-dir)/commondir"');
      expect(own.isError).toBe(true);
      expect(readFileSync(path.join(ws.ws, '.git/worktrees/alice/commondir'), 'utf8')).not.toMatch(/^\/tmp$/m);
    } finally {
      writeFileSync(gitFile, original);
      rmSync(link);
    }
  });

  it("a teammate cannot move main or another teammate's branch by writing ref files; the lead cannot move a teammate's", async () => {
    const before = { main: hostGit(ws.ws, 'rev-parse', 'main'), bob: hostGit(ws.ws, 'rev-parse', 'team/bob') };
    const write = (ref: string) => `node -e "require('fs').writeFileSync('${ws.ws}/.git/refs/heads/${ref}', require('child_process').execSync('git rev-parse HEAD'))"`;
    const main = await bash(alice, write('main'));
    expect(main.content).toMatch(/\[sandbox\] write refused: .*refs\/heads\/main — a branch checked out elsewhere is read-only/);
    await bash(alice, `${write('team/bob')}; git rev-parse HEAD > "${ws.ws}/.git/refs/heads/main.lock" && mv "${ws.ws}/.git/refs/heads/main.lock" "${ws.ws}/.git/refs/heads/main"; rm -f "${ws.ws}/.git/refs/heads/main.lock"`);
    await bash(lead, `git rev-parse main > .git/refs/heads/team/bob`);
    expect({ main: hostGit(ws.ws, 'rev-parse', 'main'), bob: hostGit(ws.ws, 'rev-parse', 'team/bob') }).toEqual(before);
    // Her own branch still moves with her commits.
    const c = await bash(alice, 'git commit -q --allow-empty -m "own branch moves" && git log --oneline -1 team/alice');
    expect(c.content).toMatch(/own branch moves/);
  });

  it('the lead still reads history and the teammate still commits', async () => {
    const s = await bash(lead, 'git status --short && git log --oneline -1 && git diff HEAD~1 --stat && git branch lead-mark && git rev-parse --verify -q lead-mark');
    expect(s.isError, s.content).toBeFalsy();
    // Deleting a branch rewrites packed-refs in the git dir itself: refused, with the reason.
    const d = await bash(lead, 'git branch -D lead-mark');
    expect(d.content).toMatch(/packed-refs\.lock — git's control files are read-only/);
    const c = await bash(alice, 'echo more >> alice.txt && git add -A && git commit -q -m "alice still commits" && git log --oneline -1');
    expect(c.isError, c.content).toBeFalsy();
    expect(c.content).toMatch(/alice still commits/);
  });
});
